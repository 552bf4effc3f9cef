/**
 * The analysis of a URL an agent asks the user to open: what it really is, before consent.
 *
 * URL-mode elicitation (and a link clicked in an agent's reply) shows the user exactly where a
 * URL leads and warns about anything suspicious before asking to open it (spec/acp-elicitation.md,
 * "URL security"). This turns the agent's URL text into that view, or refuses it:
 *
 * - Parsed with the WHATWG URL parser; what is shown and opened is the serialised URL (`href`),
 *   flagged as normalised when it differs from the agent's text.
 * - Only `https:` opens; `http:` only to this computer (`localhost`, 127.0.0.0/8, `[::1]`).
 *   Every other scheme, text past {@link MAX_URL_CHARS}, control, bidirectional or invisible
 *   characters anywhere, an unparsable URL and an empty host or host label are refused: the
 *   caller answers JSON-RPC -32602 at once.
 * - The host in ASCII, and in Unicode only when Chromium's IDN policy would show it so
 *   (idn-display.ts); the registrable domain (public suffix list with private domains, so
 *   `evil.github.io` is one domain) and where it sits in `href`, for the renderer to highlight.
 * - Findings for punycode, mixed scripts, whole-script and well-known look-alikes, a well-known
 *   name borrowed outside the registrable domain (`paypal.com.evil.example`, lookalike.ts), IP
 *   literals, user info, ports, plain http, long hosts and a domain other than the ones the user
 *   listed for the agent (its `url_domains` setting), each ranked (see {@link findingLevel}):
 *   a danger makes the card lead with one plain sentence ("This is not apple.com.").
 *
 * Pure: no I/O, no DNS, nothing is fetched.
 */
import { domainToUnicode } from 'node:url';
import { parse as parseDomain } from 'tldts';
import type {
  UrlAnalysis,
  UrlFindingLevel,
  UrlWarning,
  UrlWarningCode,
} from '../../../preload/shared/url-analysis-view.js';
import { URL_WARNING_CODES } from '../../../preload/shared/url-analysis-view.js';
import { labelProblem, type LabelProblem } from './idn-display.js';
import { MAX_URL_CHARS } from './limits.js';
import { findBorrowedName, findLookalike } from './lookalike.js';

export type { UrlAnalysis, UrlFindingLevel, UrlWarning, UrlWarningCode };

/**
 * How serious each kind of finding is. Dangers say the site may not be who it seems: a look-alike
 * or a borrowed name, letters of another script, a user name before `@`, a domain other than
 * the agent's stated ones. Cautions are worth a second look: international characters that
 * imitate nothing, an IP address, plain http. The rest are notes.
 */
export const FINDING_LEVELS: Readonly<Record<UrlWarningCode, UrlFindingLevel>> = {
  lookalike: 'danger',
  'borrowed-name': 'danger',
  'whole-script-confusable': 'danger',
  'mixed-script': 'danger',
  userinfo: 'danger',
  'domain-mismatch': 'danger',
  punycode: 'caution',
  'ip-literal': 'caution',
  http: 'caution',
  port: 'note',
  'long-host': 'note',
};

/**
 * The level of a finding about a URL to `host`. An IP address or plain http on this computer
 * (loopback) is a note: sign-in callbacks and local tools live there, and nothing about it asks
 * anything of the user.
 */
export function findingLevel(code: UrlWarningCode, host: string): UrlFindingLevel {
  if ((code === 'ip-literal' || code === 'http') && isLoopback(host)) {
    return 'note';
  }
  return FINDING_LEVELS[code];
}

/** A host longer than this many characters (in ASCII) gets a `long-host` warning. */
export const LONG_HOST_CHARS = 100;
/** A host with more labels than this gets a `long-host` warning. */
export const LONG_HOST_LABELS = 5;

/** Why a URL is refused: the kind, for callers and tests; the reason says it in words. */
export type UrlRefusalCode =
  'too-long' | 'control-character' | 'unparsable' | 'scheme' | 'insecure-http' | 'host';

/** The analysis of a URL that may be opened, or why it may not. */
export type UrlVerdict =
  { ok: true; analysis: UrlAnalysis } | { ok: false; code: UrlRefusalCode; reason: string };

/** What the caller knows besides the URL. */
export interface AnalyseUrlOptions {
  /**
   * The domains the user expects the agent's URLs on (its `url_domains` setting), each a host or
   * a URL: a URL whose registrable domain is none of theirs gets `domain-mismatch`. Left out or
   * empty, nothing is expected and no URL gets it.
   */
  expectedDomains?: readonly string[];
}

/** How many expected domains a `domain-mismatch` sentence names before it counts the rest. */
export const MISMATCH_NAMED_DOMAINS = 4;

// C0 and C1 controls and DEL; default-ignorable characters, which include every bidirectional
// control (U+061C, U+200E-200F, U+202A-202E, U+2066-2069), the zero-width ones and the soft
// hyphen; line and paragraph separators; lone surrogates. None belongs in a URL, and each can
// make the text read differently from what opens.
const FORBIDDEN_CHARACTER = /[\p{Cc}\p{Default_Ignorable_Code_Point}\u2028\u2029\p{Cs}]/u;

/** Analyse the agent's URL text for the consent card, or refuse it. */
export function analyseUrl(text: string, options: AnalyseUrlOptions = {}): UrlVerdict {
  // The text comes from an agent's JSON; the type is a promise the sender may not keep.
  if (typeof text !== 'string') {
    return refuse('unparsable', 'The URL is not a string.');
  }
  if (text.length > MAX_URL_CHARS) {
    return refuse('too-long', `The URL is longer than ${MAX_URL_CHARS} characters.`);
  }
  const forbidden = FORBIDDEN_CHARACTER.exec(text);
  if (forbidden !== null) {
    const codePoint = forbidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return refuse(
      'control-character',
      `The URL contains a control or invisible character (U+${codePoint}) at position ${forbidden.index}.`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('unparsable', 'The URL is not a valid absolute URL.');
  }
  // Percent-encoding can make the serialised URL longer than the text.
  if (url.href.length > MAX_URL_CHARS) {
    return refuse('too-long', `The URL is longer than ${MAX_URL_CHARS} characters once encoded.`);
  }
  const hostname = url.hostname;
  if (url.protocol === 'http:' && !isLoopback(hostname)) {
    return refuse(
      'insecure-http',
      'Plain http is allowed only to this computer (localhost, 127.0.0.0/8, [::1]); use https.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(
      'scheme',
      `The URL scheme "${clip(url.protocol.slice(0, -1), 32)}" cannot be opened; only https can (and http to this computer).`,
    );
  }
  const labels = hostname.replace(/\.$/, '').split('.');
  if (labels.some((label) => label === '')) {
    return refuse('host', 'The URL has an empty host or an empty label in its host.');
  }
  return { ok: true, analysis: describe(text, url, labels, options) };
}

function refuse(code: UrlRefusalCode, reason: string): UrlVerdict {
  return { ok: false, code, reason };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/\.$/, '');
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function describe(
  text: string,
  url: URL,
  labels: string[],
  { expectedDomains }: AnalyseUrlOptions,
): UrlAnalysis {
  const { hostname, href } = url;
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  const host = hostname.replace(/\.$/, '');
  const parsed = parseDomain(host, { allowPrivateDomains: true, extractHostname: false });
  const domain = parsed.domain;
  const lookalike = domain === null ? null : findLookalike(domain, parsed.domainWithoutSuffix!);
  const borrowed =
    domain === null ? null : findBorrowedName(host, domain, parsed.domainWithoutSuffix!);
  const idn = labels.some((label) => label.startsWith('xn--'));
  const problems = idn ? labelProblems(labels) : [];
  // An ASCII host reads as it is; an international one is shown only when nothing about it
  // could mislead (Chromium also shows punycode for a look-alike of a well-known domain), nor
  // an international label made to look like a well-known name (`göögle.evil.example`).
  const showUnicode =
    !idn ||
    (problems.length === 0 &&
      lookalike === null &&
      (borrowed === null || borrowed.written !== null));
  const hostUnicode = showUnicode ? domainToUnicode(hostname) : null;

  const loopback = isLoopback(hostname);
  const warnings = new Map<UrlWarningCode, string>();
  const warn = (code: UrlWarningCode, message: string) => warnings.set(code, message);
  if (lookalike !== null) {
    warn(
      'lookalike',
      `${clip(domain!, 128)} is made to look like ${lookalike} but is another site.`,
    );
  }
  if (borrowed !== null) {
    const name = borrowed.domain.slice(0, borrowed.domain.indexOf('.'));
    const site = `the site is ${clip(domain!, 128)}, not ${borrowed.domain}`;
    warn(
      'borrowed-name',
      borrowed.written === name
        ? `The address uses the name “${name}” but ${site}.`
        : borrowed.written !== null
          ? `The address uses “${clip(borrowed.written, 64)}”, which looks like the name “${name}”, but ${site}.`
          : `The address uses letters made to look like the name “${name}”, but ${site}.`,
    );
  }
  for (const problem of problems) {
    if (problem.kind === 'whole-script-confusable') {
      const reads = /^[a-z0-9-]+$/.test(problem.looksLike)
        ? ` ("${clip(problem.looksLike, 64)}")`
        : '';
      warn(
        'whole-script-confusable',
        `Part of the domain is written in ${scriptName(problem.script)} letters that look like Latin ones${reads}.`,
      );
    } else if (problem.kind === 'mixed-script') {
      warn(
        'mixed-script',
        `Part of the domain mixes ${listed(problem.scripts.map(scriptName))} letters, a common way to imitate another name.`,
      );
    }
  }
  if (idn) {
    warn(
      'punycode',
      showUnicode
        ? `The domain uses international characters: ${clip(hostUnicode!, 128)} is registered as ${clip(hostname, 128)}.`
        : `The domain uses international characters that could be mistaken for others, so it is shown in its registered form ${clip(hostname, 128)}.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    warn(
      'userinfo',
      `The URL puts "${clip(url.username, 64)}"${url.password === '' ? '' : ' and a password'} before "@", which is not where it goes: the site is ${clip(host, 128)}.`,
    );
  }
  if (parsed.isIp === true) {
    warn(
      'ip-literal',
      `The URL points to ${loopback ? 'this computer by its' : 'an'} IP address (${hostname}), not a domain name${writtenAsIs(text, hostname) ? '' : ', written in another form in the agent’s text'}.`,
    );
  }
  if (expectedDomains !== undefined && expectedDomains.length > 0) {
    const expected = [...new Set(expectedDomains.map(registrableDomainOf))];
    if (!expected.includes(domain ?? host)) {
      warn(
        'domain-mismatch',
        `The URL leads to ${clip(domain ?? host, 128)}, not to ${namedDomains(expected)}, the ${expected.length === 1 ? 'domain' : 'domains'} set for this agent.`,
      );
    }
  }
  if (scheme === 'http') {
    // Plain http opens only to this computer (see analyseUrl), where sign-in callbacks and local
    // tools serve it; nothing here vouches for who runs any site.
    warn('http', 'The page is on this computer and uses plain http, as local tools do.');
  }
  if (url.port !== '') {
    warn('port', `The URL uses port ${url.port}, not the usual port for ${scheme}.`);
  }
  if (hostname.length > LONG_HOST_CHARS || labels.length > LONG_HOST_LABELS) {
    warn(
      'long-host',
      `The host is unusually long or deeply nested (${labels.length} parts, ${hostname.length} characters); the site is ${clip(domain ?? host, 128)}.`,
    );
  }

  // The host starts after `scheme://` and any `user:password@`, serialised as in `href`.
  const userinfo =
    url.username === '' && url.password === ''
      ? ''
      : `${url.username}${url.password === '' ? '' : `:${url.password}`}@`;
  const hostStart = url.protocol.length + 2 + userinfo.length;
  // URL_WARNING_CODES lists the dangers first, then the cautions, then the notes, so findings
  // come most serious first; a loopback address and http, cautions elsewhere, are notes after
  // every caution.
  const findings = URL_WARNING_CODES.filter((code) => warnings.has(code)).map((code) => ({
    code,
    level: findingLevel(code, hostname),
    message: warnings.get(code)!,
  }));
  const level = findings[0]?.level ?? null;
  const hostEnd = hostStart + host.length;
  return {
    href,
    original: text,
    normalised: href !== text,
    scheme,
    host: hostname,
    hostUnicode,
    registrableDomain: domain,
    registrableDomainUnicode: domain !== null && showUnicode ? domainToUnicode(domain) : null,
    port: url.port === '' ? null : Number(url.port),
    path: `${url.pathname}${url.search}${url.hash}`,
    highlight: { start: domain === null ? hostStart : hostEnd - domain.length, end: hostEnd },
    warnings: findings,
    level,
    headline:
      level !== 'danger'
        ? null
        : lookalike !== null
          ? `This is not ${lookalike}.`
          : borrowed !== null
            ? `This is not ${borrowed.domain}.`
            : findings[0]!.code === 'domain-mismatch'
              ? 'This address is not on a domain set for this agent.'
              : 'This address is not the one it looks like.',
  };
}

// Each punycode label decoded and checked; a label that decodes to plain ASCII
// (`xn--google-` is `google`) or not at all would show one name and open another.
function labelProblems(labels: string[]): LabelProblem[] {
  const tld = labels.at(-1)!;
  return labels
    .filter((label) => label.startsWith('xn--'))
    .map((label) => {
      const unicode = domainToUnicode(label);
      return /^[\0-\x7f]*$/.test(unicode)
        ? { kind: 'unsafe-character' }
        : labelProblem(unicode, tld);
    })
    .filter((problem): problem is LabelProblem => problem !== null);
}

/**
 * The host a stated domain names, in ASCII without a trailing dot, or null when the text is
 * neither a host (`openai.com`, `MÜNCHEN.de.`, `127.0.0.1`) nor an http or https URL
 * (`https://chatgpt.com/`). The settings take an agent's `url_domains` only in these forms.
 */
export function statedHost(stated: string): string | null {
  // A host alone has nothing that would make it a URL's path, query, user or port.
  if (typeof stated !== 'string' || (!stated.includes('://') && !/^[^\s/\\?#@:]+$/.test(stated))) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(stated.includes('://') ? stated : `https://${stated}`);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/\.$/, '');
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || host.split('.').includes('')) {
    return null;
  }
  return host;
}

// The registrable domain of a stated domain (a host or a URL), else its host; a statement that
// is neither is kept as it is, and matches no URL.
function registrableDomainOf(stated: string): string {
  const host = statedHost(stated);
  if (host === null) {
    return stated;
  }
  return parseDomain(host, { allowPrivateDomains: true, extractHostname: false }).domain ?? host;
}

// `a`, `a or b`, `a, b or c`, each cut short; past MISMATCH_NAMED_DOMAINS, the rest counted.
function namedDomains(domains: string[]): string {
  const named = domains.slice(0, MISMATCH_NAMED_DOMAINS).map((domain) => clip(domain, 100));
  const rest = domains.length - named.length;
  if (rest > 0) {
    return `${named.join(', ')} or ${rest} ${rest === 1 ? 'other' : 'others'}`;
  }
  return named.length < 2 ? named.join('') : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
}

// Whether the text names the host as the parser serialises it, rather than as `0x7f.1`,
// `2130706433` or `[0:0::1]`: the host must stand between the authority's delimiters.
function writtenAsIs(text: string, hostname: string): boolean {
  const escaped = hostname.replace(/[.[\]]/g, '\\$&');
  return new RegExp(`(?:^|[/\\\\@])${escaped}(?:$|[/\\\\:?#])`, 'i').test(text);
}

function listed(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function scriptName(script: string): string {
  return script.replace(/_/g, ' ');
}

// Agent text quoted in a sentence is cut short, so a sentence stays a sentence.
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
