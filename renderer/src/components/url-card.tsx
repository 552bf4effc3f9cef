/**
 * An open URL elicitation: who asks and why, exactly where the URL leads (in full, its
 * registrable domain highlighted, with main's warnings), and, once the user consents, the wait
 * for the page to finish.
 *
 * The renderer never parses the URL: it shows main's analysis and slices `href` where main says.
 * The URL is never a link here. On the desktop host main opens it (the isolated window or the
 * system browser); on the web host the page opens a new tab with `noopener,noreferrer`, inside
 * the click, so neither this app nor the agent can reach the page.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AirlockApi, ElicitationAction, UrlElicitationView } from '../../../preload/contract';
import type { UrlElicitationRow } from '../state/transcript';
import { AgentWords } from './agent-words';
import { askerName, CardHead } from './card-head';
import { isSuspicious, shownHost, UrlAnalysisBox } from './url-analysis-view';

// Its pieces are shared with the consent for links in replies; older imports find them here.
export { shownHost, UrlText, UrlWarnings } from './url-analysis-view';

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
  const host = shownHost(url);
  // A site that may not be who it says gets no button that looks like the way forward.
  const suspicious = isSuspicious(url);
  const openButton = (
    <button
      key="open"
      type="button"
      className={browserFirst || waiting || suspicious ? undefined : 'primary'}
      onClick={() => open('window')}
    >
      {waiting ? 'Open again' : 'Open'}
    </button>
  );
  const browserButton = hostOpens ? (
    <button
      key="browser"
      type="button"
      className={browserFirst && !waiting && !suspicious ? 'primary' : undefined}
      onClick={() => open('browser')}
    >
      Open in browser
    </button>
  ) : null;
  return (
    <div
      ref={container}
      className={`elicitation-card url-card${waiting ? ' waiting' : ''}`}
      role="group"
      aria-labelledby={headingId}
      aria-busy={busy}
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <CardHead
        headingId={headingId}
        heading={`${askerName(row.agent)} asks you to open a web page`}
        agent={row.agent}
        scope={row.scope}
        sessionLabel={sessionLabel}
        toolTitle={toolTitle}
      />
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

      <div className="card-actions">
        {waiting ? (
          <>
            <button type="button" className="primary" onClick={() => finish('done')}>
              Done
            </button>
            {openButton}
            {browserButton}
            <button type="button" onClick={() => finish('dismissed')} aria-keyshortcuts="Escape">
              Cancel
            </button>
          </>
        ) : (
          <>
            {browserFirst ? [browserButton, openButton] : [openButton, browserButton]}
            <button type="button" onClick={copy}>
              {copied ? 'Copied' : 'Copy URL'}
            </button>
            <button type="button" onClick={() => respond('decline')}>
              Decline
            </button>
            <button type="button" onClick={() => respond('cancel')} aria-keyshortcuts="Escape">
              Cancel
            </button>
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
