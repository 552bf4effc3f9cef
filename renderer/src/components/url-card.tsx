/**
 * An open URL elicitation: who asks and why, exactly where the URL leads (in full, its
 * registrable domain highlighted, with main's findings by level), and, once the user consents,
 * the wait for the page to finish.
 *
 * With a danger (a look-alike, a borrowed name, a user name before `@`...), the card leads with
 * main's one plain sentence ("This is not apple.com."), Decline is the primary button and has
 * the focus, and opening takes a second step: "Open anyway…", then a confirmation.
 *
 * The renderer never parses the URL: it shows main's analysis and slices `href` where main says.
 * The URL is never a link here. On the desktop host main opens it (the isolated window or the
 * system browser); on the web host the page opens a new tab with `noopener,noreferrer`, inside
 * the click, so neither this app nor the agent can reach the page.
 */
import './url-card.css';
import { Copy, ExternalLink } from 'lucide-react';
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type {
  AirlockApi,
  ElicitationAction,
  UrlElicitationView,
} from '../../../preload/shared/contract';
import type { UrlElicitationRow } from '../state/transcript';
import { AgentWords } from './agent-words';
import { askerName, CardHead } from './card-head';
import {
  isDangerous,
  shownHost,
  OpenAnyway,
  UrlAnalysisBox,
  UrlHeadline,
} from './url-analysis-view';

// Its pieces are shared with the consent for links in replies; older imports find them here.
export { shownHost, UrlText } from './url-analysis-view';

type Props = {
  api: AirlockApi;
  sessionKey: string;
  /** The tab the card belongs to, as its header names it. */
  sessionLabel: string;
  row: UrlElicitationRow;
  /** The title of the tool call the card is about, if it is about one. */
  toolTitle?: string;
  /** How URLs open on this host. */
  opening: UrlElicitationView;
};

/** The open URL card: consent first, then the wait for the page. */
export function UrlCard({ api, sessionKey, sessionLabel, row, toolTitle, opening }: Props) {
  const { cardKey, url } = row;
  const waiting = row.resolved?.action === 'accept';
  const container = useRef<HTMLDivElement>(null);
  const decline = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const [copied, setCopied] = useState(false);
  const hostOpens = opening.opener === 'host';
  const browserFirst = hostOpens && opening.default === 'system_browser';

  // The buttons change once the user consents: focus stays on the card, not on the body.
  useEffect(() => {
    const active = document.activeElement;
    if (waiting && (active === document.body || container.current?.contains(active))) {
      container.current?.focus();
    }
  }, [waiting]);

  useEffect(() => {
    if (!copied) {
      return undefined;
    }
    const timer = setTimeout(() => setCopied(false), 2_500);
    return () => clearTimeout(timer);
  }, [copied]);

  const run = (call: () => Promise<unknown>) => {
    if (busy) {
      return;
    }
    setBusy(true);
    setFailure(undefined);
    call()
      // On success the card changes or ends as the session's events say; a refusal shows here.
      .catch((error: unknown) => setFailure((error as Error).message))
      .finally(() => setBusy(false));
  };

  const respond = (action: ElicitationAction) =>
    run(() => api.invoke('elicitation:respond', { key: sessionKey, cardKey, action }));

  const open = (where: 'window' | 'browser') => {
    if (hostOpens) {
      run(() => api.invoke('elicitation:openUrl', { key: sessionKey, cardKey, where }));
      return;
    }
    // The browser opens a tab only inside the click. `noopener,noreferrer`: the page gets no
    // handle on this app, and this app none on it.
    window.open(url.href, '_blank', 'noopener,noreferrer');
    if (!waiting) {
      // `accept` means consent, not completion: the card goes on waiting for the page.
      respond('accept');
    }
  };

  const finish = (how: 'done' | 'dismissed') =>
    run(() => api.invoke('elicitation:finishUrl', { key: sessionKey, cardKey, how }));

  const copy = () => {
    setFailure(undefined);
    navigator.clipboard.writeText(url.href).then(
      () => setCopied(true),
      () => setFailure('Airlock could not copy the URL: the browser refused the clipboard.'),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.key !== 'Escape') {
      return;
    }
    // Esc ends this card only; the session view's Esc (cancel the turn) skips a handled event.
    event.preventDefault();
    event.stopPropagation();
    if (waiting) {
      finish('dismissed');
    } else {
      respond('cancel');
    }
  };

  const headingId = `${cardKey}-heading`;
  const headlineId = `${cardKey}-headline`;
  const host = shownHost(url);
  // A site that may not be who it seems: the way back is the way forward, and opening takes two steps.
  const dangerous = isDangerous(url);

  // With a danger, focus given to the card (as the dock gives it to a new card) goes to Decline:
  // a stray Enter declines, and nothing opens.
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const from = event.relatedTarget;
    if (
      dangerous &&
      !waiting &&
      event.target === container.current &&
      !(from instanceof Node && container.current.contains(from))
    ) {
      // Decline sits in the card's footer, in view; scrolling to it would hide the sentence.
      decline.current?.focus({ preventScroll: true });
    }
  };

  const openButton = (
    <button
      key="open"
      type="button"
      className={browserFirst || waiting ? 'secondary' : 'primary'}
      onClick={() => open('window')}
    >
      <ExternalLink aria-hidden="true" size={16} />
      {waiting ? 'Open again' : 'Open'}
    </button>
  );
  const browserButton = hostOpens ? (
    <button
      key="browser"
      type="button"
      className={browserFirst && !waiting ? 'primary' : 'secondary'}
      onClick={() => open('browser')}
    >
      <ExternalLink aria-hidden="true" size={16} />
      Open in browser
    </button>
  ) : null;
  const copyButton = (
    <button type="button" className="secondary" onClick={copy}>
      <Copy aria-hidden="true" size={16} />
      {copied ? 'Copied' : 'Copy URL'}
    </button>
  );
  const cancelButton = (
    <button
      type="button"
      className="secondary"
      onClick={() => respond('cancel')}
      aria-keyshortcuts="Escape"
    >
      Cancel
    </button>
  );
  return (
    <div
      ref={container}
      className={`elicitation-card url-card${waiting ? ' waiting' : ''}`}
      role="group"
      aria-labelledby={headingId}
      aria-describedby={url.headline === null ? undefined : headlineId}
      aria-busy={busy}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      <CardHead
        headingId={headingId}
        heading={`${askerName(row.agent)} asks you to open a web page`}
        agent={row.agent}
        scope={row.scope}
        sessionLabel={sessionLabel}
        toolTitle={toolTitle}
      />
      <UrlHeadline url={url} id={headlineId} />
      <AgentWords asker={askerName(row.agent)} message={row.message} />

      <UrlAnalysisBox url={url} />

      {waiting ? (
        <p className="url-waiting" role="status">
          <span className="url-spinner" aria-hidden="true" />
          Waiting for you to finish on {host}…
        </p>
      ) : (
        <p className="url-privacy">
          {hostOpens
            ? 'Airlock opens it in a window of its own; neither Airlock nor the agent can read the page.'
            : 'It opens in a new browser tab; neither Airlock nor the agent can read the page.'}
        </p>
      )}
      {failure ? (
        <p className="card-refusal" role="alert">
          {failure}
        </p>
      ) : null}

      <div className="card-actions url-consent-actions">
        {waiting ? (
          <>
            <button type="button" className="primary" onClick={() => finish('done')}>
              Done
            </button>
            {openButton}
            {browserButton}
            <button
              type="button"
              className="secondary"
              onClick={() => finish('dismissed')}
              aria-keyshortcuts="Escape"
            >
              Cancel
            </button>
          </>
        ) : dangerous ? (
          <>
            <button
              ref={decline}
              type="button"
              className="primary"
              onClick={() => respond('decline')}
            >
              Decline
            </button>
            {cancelButton}
            {copyButton}
            <OpenAnyway
              url={url}
              choices={[
                { label: 'Open anyway', run: () => open('window') },
                ...(hostOpens
                  ? [{ label: 'Open in browser anyway', run: () => open('browser') }]
                  : []),
              ]}
            />
          </>
        ) : (
          <>
            {browserFirst ? [browserButton, openButton] : [openButton, browserButton]}
            {copyButton}
            <button type="button" className="secondary" onClick={() => respond('decline')}>
              Decline
            </button>
            {cancelButton}
          </>
        )}
        <span className="card-keys" aria-hidden="true">
          Esc {waiting ? 'stops waiting' : 'cancels'}
        </span>
        <span className="visually-hidden" role="status">
          {copied ? 'URL copied' : ''}
        </span>
      </div>
    </div>
  );
}
