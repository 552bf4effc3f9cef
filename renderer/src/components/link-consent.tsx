/**
 * Consent before a link in an agent's reply opens.
 *
 * A link in a reply is text until the user clicks it (markdown.tsx). The click asks the core to
 * analyse the address, exactly as URL-mode elicitation does (`link:analyse`), and shows that
 * analysis (the full URL, its registrable domain highlighted, the warnings) in a dialog. Only
 * the dialog's Open button opens it, in the system browser: the desktop app's core opens it
 * (`link:open`, which analyses it again); in the web host the page opens a new tab from the
 * click, `noopener,noreferrer`, so neither the app nor the agent can reach the page. An address
 * the core refuses (`javascript:`, `file:`, no https...) shows why, and nothing opens.
 *
 * With a danger (a look-alike, a borrowed name...), the dialog leads with main's one plain
 * sentence ("This is not apple.com."), Cancel is the primary button, and opening takes a second
 * step: "Open anyway…", then a confirmation.
 */
import './link-consent.css';
import { ExternalLink } from 'lucide-react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { AirlockApi, LinkVerdict, UrlElicitationView } from '../../../preload/shared/contract';
import { LINK_TEXT_CEILING } from '../../../preload/shared/contract-plain';
import { CopyButton } from './copy-button';
import { isDangerous, OpenAnyway, UrlAnalysisBox, UrlHeadline } from './url-analysis-view';

/** Asks for consent to open a link: its address, its text, and the element to refocus after. */
export type AskToOpenLink = (href: string, label: string, from: HTMLElement | null) => void;

/** How links ask for consent; absent where no provider is (links then stay plain text). */
export const LinkConsent = createContext<AskToOpenLink | undefined>(undefined);

/** The consent the links below it ask for. */
export function useLinkConsent(): AskToOpenLink | undefined {
  return useContext(LinkConsent);
}

/** The longest part of a link's text the dialog repeats, in characters. */
const LABEL_CHARS = 200;
/** The longest part of a refused address the dialog shows, in characters. */
const REFUSED_CHARS = 2_000;

type Asked = {
  /** Which click this is: an answer for an earlier one is dropped. */
  id: number;
  href: string;
  label: string;
  from: HTMLElement | null;
  verdict?: LinkVerdict;
  /** A failure to analyse or to open, in the user's words. */
  failure?: string;
};

type Props = {
  api: AirlockApi;
  /** Who opens URLs on this host: the core (desktop) or the page (web). */
  opener: UrlElicitationView['opener'];
  children: ReactNode;
};

/** Provides the consent to the links below it, and shows its dialog. */
export function LinkConsentProvider({ api, opener, children }: Props) {
  const [asked, setAsked] = useState<Asked | undefined>();
  const [busy, setBusy] = useState(false);
  const lastId = useRef(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const headlineId = useId();
  const open = asked !== undefined;

  const ask = useCallback<AskToOpenLink>(
    (href, label, from) => {
      const id = ++lastId.current;
      setAsked({ id, href, label, from });
      setBusy(false);
      // An address longer than the ceiling is refused as too long all the same.
      api.invoke('link:analyse', { url: href.slice(0, LINK_TEXT_CEILING) }).then(
        (verdict) =>
          setAsked((current) => (current?.id === id ? { ...current, verdict } : current)),
        (error: unknown) =>
          setAsked((current) =>
            current?.id === id ? { ...current, failure: (error as Error).message } : current,
          ),
      );
    },
    [api],
  );

  // The dialog is modal while it asks: the rest of the app waits, and Esc closes it.
  useEffect(() => {
    const element = dialog.current;
    if (!element) {
      return;
    }
    if (open && !element.open) {
      element.showModal();
      // The way back, not the way forward: a held Enter key cannot open the link.
      cancel.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const close = () => {
    const from = asked?.from;
    setAsked(undefined);
    setBusy(false);
    // Focus goes back to the link that asked, if it is still there.
    if (from?.isConnected) {
      from.focus();
    }
  };

  const verdict = asked?.verdict;
  const analysis = verdict?.ok ? verdict.analysis : undefined;

  const openLink = () => {
    if (!asked || !analysis || busy) {
      return;
    }
    if (opener === 'page') {
      // A browser opens a tab only inside the click. `noopener,noreferrer`: the page gets no
      // handle on this app, and this app none on it.
      window.open(analysis.href, '_blank', 'noopener,noreferrer');
      close();
      return;
    }
    const id = asked.id;
    setBusy(true);
    api.invoke('link:open', { url: analysis.href }).then(
      () => {
        if (lastId.current === id) {
          close();
        }
      },
      (error: unknown) => {
        setBusy(false);
        setAsked((current) =>
          current?.id === id ? { ...current, failure: (error as Error).message } : current,
        );
      },
    );
  };

  const label = asked?.label.trim() ?? '';
  const shownLabel =
    label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS)}…` : label || undefined;
  const heading = !asked
    ? ''
    : analysis
      ? 'Open this link?'
      : verdict || asked.failure
        ? 'This link cannot be opened'
        : 'Checking this link…';
  const dangerous = analysis ? isDangerous(analysis) : false;

  return (
    <LinkConsent.Provider value={ask}>
      {children}
      <dialog
        ref={dialog}
        className="link-consent"
        aria-labelledby={headingId}
        aria-describedby={analysis?.headline ? headlineId : undefined}
        aria-busy={!verdict && !asked?.failure}
        onCancel={(event) => {
          // Esc: React state closes the dialog, so focus returns where it should.
          event.preventDefault();
          close();
        }}
        onClose={() => {
          if (asked) {
            close();
          }
        }}
      >
        {asked ? (
          <>
            <h2 id={headingId} className="link-consent-heading">
              {heading}
            </h2>
            {analysis ? <UrlHeadline url={analysis} id={headlineId} /> : null}
            <p className="link-consent-label">
              {shownLabel && shownLabel !== asked.href
                ? `The agent’s reply labels it “${shownLabel}”.`
                : 'A link in the agent’s reply.'}
              {analysis ? ' Check where it really leads.' : null}
            </p>
            {analysis ? (
              <>
                <UrlAnalysisBox url={analysis} />
                <p className="url-privacy">
                  {opener === 'host'
                    ? 'It opens in your system browser. Nothing is fetched before you choose.'
                    : 'It opens in a new browser tab that neither Airlock nor the agent can read. Nothing is fetched before you choose.'}
                </p>
              </>
            ) : verdict && !verdict.ok ? (
              <>
                <p className="link-consent-address">
                  <code className="url-full">
                    {asked.href.length > REFUSED_CHARS
                      ? `${asked.href.slice(0, REFUSED_CHARS)}…`
                      : asked.href || '(no address)'}
                  </code>
                </p>
                <p className="card-refusal" role="alert">
                  {verdict.reason} Nothing was opened.
                </p>
              </>
            ) : !asked.failure ? (
              <p role="status">Checking where it leads…</p>
            ) : null}
            {asked.failure ? (
              <p className="card-refusal" role="alert">
                {asked.failure}
              </p>
            ) : null}
            <div className="card-actions link-consent-actions url-consent-actions">
              {analysis && !dangerous ? (
                <>
                  <button type="button" className="primary" disabled={busy} onClick={openLink}>
                    <ExternalLink aria-hidden="true" size={16} />
                    Open in browser
                  </button>
                  <CopyButton text={() => analysis.href} what="URL" className="secondary" />
                </>
              ) : null}
              <button
                ref={cancel}
                type="button"
                className={dangerous ? 'primary' : 'secondary'}
                onClick={close}
                aria-keyshortcuts="Escape"
              >
                {analysis || !verdict ? 'Cancel' : 'Close'}
              </button>
              {analysis && dangerous ? (
                <>
                  <CopyButton text={() => analysis.href} what="URL" className="secondary" />
                  <OpenAnyway
                    key={asked?.id}
                    url={analysis}
                    choices={[{ label: 'Open in browser anyway', run: openLink, disabled: busy }]}
                  />
                </>
              ) : null}
            </div>
          </>
        ) : null}
      </dialog>
    </LinkConsent.Provider>
  );
}
