/**
 * Where a URL leads, as main analysed and ranked it: what every consent to open a URL shows (a
 * URL elicitation's card, a link clicked in an agent's reply).
 *
 * The renderer never parses the URL nor judges it: it shows main's analysis, slices `href` where
 * main says, and shows each finding at the level main gave it. The URL is never a link: plain
 * selectable text, in full. Nothing here vouches for a site: https says nothing about who runs it.
 */
import { ExternalLink, Info, OctagonAlert, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type {
  UrlAnalysis,
  UrlFindingLevel,
  UrlWarning,
} from '../../../preload/shared/url-analysis-view';
import './url-analysis-view.css';

/** Whether main found a danger: the consent then leads with its sentence and opening takes two steps. */
export function isDangerous(url: UrlAnalysis): boolean {
  return url.level === 'danger';
}

/** The host the user is sent to, as the consent names it. */
export function shownHost(url: UrlAnalysis): string {
  return url.hostUnicode ?? url.host;
}

/** The site (registrable domain) as the consent names it, else the host. */
export function shownSite(url: UrlAnalysis): string {
  return url.registrableDomainUnicode ?? url.registrableDomain ?? url.host;
}

/**
 * The URL in full, as plain selectable text (never a link), the registrable domain (or the whole
 * host) highlighted where main says it lies in `href`.
 */
export function UrlText({ url }: { url: UrlAnalysis }) {
  const { href, highlight } = url;
  return (
    <code className="url-full">
      {href.slice(0, highlight.start)}
      <mark className="url-domain">{href.slice(highlight.start, highlight.end)}</mark>
      {href.slice(highlight.end)}
    </code>
  );
}

/**
 * With a danger, the one plain sentence a consent leads with ("This is not apple.com."), as main
 * words it; nothing otherwise. `id` lets the card or dialog be described by it.
 */
export function UrlHeadline({ url, id }: { url: UrlAnalysis; id?: string }) {
  if (url.headline === null) {
    return null;
  }
  return (
    <p className="url-headline" id={id}>
      <OctagonAlert className="url-headline-icon" aria-hidden="true" size={20} />
      <span>{url.headline}</span>
    </p>
  );
}

const LEVEL_WORDS: Record<UrlFindingLevel, string> = {
  danger: 'Danger',
  caution: 'Caution',
  note: 'Note',
};

const LEVEL_ICONS = { danger: OctagonAlert, caution: TriangleAlert, note: Info } as const;

function Finding({ finding }: { finding: UrlWarning }) {
  const Icon = LEVEL_ICONS[finding.level];
  return (
    <li
      className={`url-finding level-${finding.level}`}
      data-code={finding.code}
      data-level={finding.level}
    >
      <Icon className="url-finding-icon" aria-hidden="true" size={16} />
      <span>
        <span className="visually-hidden">{LEVEL_WORDS[finding.level]}: </span>
        {finding.message}
      </span>
    </li>
  );
}

/**
 * Main's findings, most serious first: the first of each level in view (at most three lines),
 * the rest under Details.
 */
export function UrlFindings({ url }: { url: UrlAnalysis }) {
  if (url.warnings.length === 0) {
    return null;
  }
  const first = new Set<UrlFindingLevel>();
  const shown: UrlWarning[] = [];
  const more: UrlWarning[] = [];
  for (const finding of url.warnings) {
    (first.has(finding.level) ? more : shown).push(finding);
    first.add(finding.level);
  }
  return (
    <div className="url-findings">
      <ul aria-label="About this address">
        {shown.map((finding) => (
          <Finding key={finding.code} finding={finding} />
        ))}
      </ul>
      {more.length > 0 ? (
        <details className="url-more">
          <summary>Details ({more.length} more)</summary>
          <ul aria-label="More about this address">
            {more.map((finding) => (
              <Finding key={finding.code} finding={finding} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/**
 * The box that says where a URL leads: the site (registrable domain), the full URL with that
 * domain highlighted, the host in Unicode when main judged it safe to show, and the findings.
 */
export function UrlAnalysisBox({ url }: { url: UrlAnalysis }) {
  return (
    <section
      className={`url-box${url.level === null ? '' : ` level-${url.level}`}`}
      aria-label="Where this leads"
    >
      <p className="url-site">
        Site <strong>{shownSite(url)}</strong>
      </p>
      {/* MUST show the full URL before consent; see spec/acp-elicitation.md. */}
      <p className="url-line">
        <UrlText url={url} />
      </p>
      {/* Never the agent's own text: for a look-alike it is the very disguise (аррӏе.com);
          the Unicode host shows only when main judged it safe. */}
      {url.hostUnicode && url.hostUnicode !== url.host ? (
        <p className="url-note">
          The host in Unicode: <code>{url.hostUnicode}</code>
        </p>
      ) : null}
      <UrlFindings url={url} />
    </section>
  );
}

/** One way to open a dangerous address, offered at the second step. */
export type OpenChoice = { label: string; run(): void; disabled?: boolean };

/**
 * Opening a dangerous address takes a deliberate second step: "Open anyway…", then a question
 * that names the danger and the site, with the ways to open it and Back. The second step takes
 * the focus as it appears and gives it back to "Open anyway…" when the user steps back. Give it
 * a new `key` to start again at the first step.
 */
export function OpenAnyway({ url, choices }: { url: UrlAnalysis; choices: OpenChoice[] }) {
  const [confirming, setConfirming] = useState(false);
  const confirm = useRef<HTMLDivElement>(null);
  const openAnyway = useRef<HTMLButtonElement>(null);
  const stepped = useRef(false);
  useEffect(() => {
    if (confirming) {
      stepped.current = true;
      confirm.current?.focus();
    } else if (stepped.current) {
      openAnyway.current?.focus();
    }
  }, [confirming]);

  if (!confirming) {
    return (
      <button
        ref={openAnyway}
        type="button"
        className="danger url-open-anyway"
        onClick={() => setConfirming(true)}
      >
        Open anyway…
      </button>
    );
  }
  return (
    <div ref={confirm} className="url-confirm" role="group" aria-label="Open anyway?" tabIndex={-1}>
      <p className="url-confirm-question">
        {url.headline} Open <span className="url-confirm-site">{shownSite(url)}</span> anyway?
      </p>
      {choices.map((choice, index) => (
        <button
          key={choice.label}
          type="button"
          className={index === 0 ? 'danger confirm' : 'danger'}
          disabled={choice.disabled}
          onClick={choice.run}
        >
          <ExternalLink aria-hidden="true" size={16} />
          {choice.label}
        </button>
      ))}
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Back
      </button>
    </div>
  );
}
