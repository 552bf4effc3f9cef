/**
 * Where a URL leads, as main analysed it: what every consent to open a URL shows (a URL
 * elicitation's card, a link clicked in an agent's reply).
 *
 * The renderer never parses the URL: it shows main's analysis and slices `href` where main says.
 * The URL is never a link: plain selectable text, in full.
 */
import type { UrlAnalysis } from '../../../preload/url-analysis-view';

// Warnings about who the site really is: shown as dangers, not only as cautions.
const DANGEROUS = new Set([
  'lookalike',
  'borrowed-name',
  'whole-script-confusable',
  'mixed-script',
  'userinfo',
]);

/** Whether a warning says the site may not be who it claims: no button then looks like the way forward. */
export function isSuspicious(url: UrlAnalysis): boolean {
  return url.warnings.some((warning) => DANGEROUS.has(warning.code));
}

/** The host the user is sent to, as the consent names it. */
export function shownHost(url: UrlAnalysis): string {
  return url.hostUnicode ?? url.host;
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

/** Main's warnings, most serious first: each its sentence, marked by an icon and a word. */
export function UrlWarnings({ url }: { url: UrlAnalysis }) {
  if (url.warnings.length === 0) {
    return null;
  }
  return (
    <ul className="url-warnings" aria-label="Warnings about this URL">
      {url.warnings.map((warning) => (
        <li
          key={warning.code}
          className={`url-warning${DANGEROUS.has(warning.code) ? ' danger' : ''}`}
          data-code={warning.code}
        >
          <span className="url-warning-icon" aria-hidden="true">
            ⚠
          </span>
          <span>{warning.message}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The box that says where a URL leads: https or not, the site (registrable domain), the full
 * URL with that domain highlighted, the host in Unicode when main judged it safe to show, and
 * the warnings.
 */
export function UrlAnalysisBox({ url }: { url: UrlAnalysis }) {
  return (
    <section className="url-box" aria-label="Where this leads">
      <p className="url-site">
        <span className={`url-scheme scheme-${url.scheme}`}>
          {url.scheme === 'https' ? (
            'https: encrypted'
          ) : (
            <>
              <span aria-hidden="true">⚠</span> http: not encrypted
            </>
          )}
        </span>
        <span className="url-site-name">
          Site <strong>{url.registrableDomainUnicode ?? url.registrableDomain ?? url.host}</strong>
        </span>
      </p>
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
      <UrlWarnings url={url} />
    </section>
  );
}
