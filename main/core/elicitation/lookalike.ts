/**
 * Whether a host looks like a well-known domain it is not, or borrows a well-known name.
 *
 * Every comparison is on lower-cased UTS #39 skeletons (see skeleton.ts), each with and without
 * combining marks, against the well-known domains (well-known-domains.ts).
 *
 * {@link findLookalike} compares the registrable domain: whole (`раураӏ.com` against
 * paypal.com), and its label before the public suffix against the labels of the well-known
 * domains, so a look-alike under another suffix counts too (`g00gle.net` against google.com).
 * The second applies only to labels of at least {@link MIN_LABEL_LOOKALIKE_CHARS} skeleton
 * characters, where a match is no accident; the same label under another suffix (`google.net`)
 * is not a look-alike.
 *
 * {@link findBorrowedName} looks for a well-known name elsewhere in the host: in the labels
 * before the registrable domain (`paypal.com.evil.example`, `accounts-google.evil.example`) or
 * as one hyphenated part of the registrable domain's label (`paypal-secure.example`,
 * `secure-paypa1.example`), where a registrable-domain check cannot see it. Pure: no I/O.
 */
import { domainToUnicode } from 'node:url';
import { hostSkeleton, hostSkeletonWithoutMarks } from './skeleton.js';
import { WELL_KNOWN_DOMAINS } from './well-known-domains.js';

/** Shortest label skeleton compared with the well-known labels under any suffix. */
export const MIN_LABEL_LOOKALIKE_CHARS = 4;

function skeletons(text: string): string[] {
  return [hostSkeleton(text), hostSkeletonWithoutMarks(text)];
}

/** The well-known domains by their skeleton, and by their label's. */
type SkeletonTables = { byDomain: Map<string, string>; byLabel: Map<string, string> };
let tablesMade: SkeletonTables | undefined;

/** The well-known domains' skeletons, made with the first URL checked, not at start. */
function skeletonTables(): SkeletonTables {
  if (!tablesMade) {
    const byDomain = new Map<string, string>();
    const byLabel = new Map<string, string>();
    for (const domain of WELL_KNOWN_DOMAINS) {
      byDomain.set(hostSkeleton(domain), domain);
      const label = domain.slice(0, domain.indexOf('.'));
      if (!byLabel.has(hostSkeleton(label))) {
        byLabel.set(hostSkeleton(label), domain);
      }
    }
    tablesMade = { byDomain, byLabel };
  }
  return tablesMade;
}

/**
 * The well-known domain that `domain` looks like without being it, or null.
 *
 * `domain` is a registrable domain in ASCII (punycode allowed) and `label` its part before the
 * public suffix (`paypal` of `paypal.co.uk`), also in ASCII.
 */
export function findLookalike(domain: string, label: string): string | null {
  const { byDomain, byLabel } = skeletonTables();
  for (const key of skeletons(domainToUnicode(domain))) {
    const match = byDomain.get(key);
    if (match !== undefined && match !== domain) {
      return match;
    }
  }
  for (const key of skeletons(domainToUnicode(label))) {
    const match = byLabel.get(key);
    if (
      match !== undefined &&
      key.length >= MIN_LABEL_LOOKALIKE_CHARS &&
      !match.startsWith(`${label}.`)
    ) {
      return match;
    }
  }
  return null;
}

/**
 * Labels of well-known domains that are everyday words in host names: what a host is for
 * (`login`, `mail`, `checkout`) or a plain word or name (`target`, `mercury`).
 *
 * A site's own `login.example.com` borrows nobody's name, though login.gov is well known, so
 * such a word counts as a borrowed name only where the host spells the whole well-known domain
 * (`login.gov.evil.example`, `mail.ru.evil.example`). A test keeps each one a label of a
 * well-known domain.
 */
export const EVERYDAY_LABELS: ReadonlySet<string> = new Set([
  ...['ally', 'authorize', 'battle', 'bill', 'booking', 'cash', 'checkout', 'chime', 'crypto'],
  ...['discover', 'expo', 'ledger', 'line', 'live', 'login', 'mail', 'medium', 'mercury'],
  ...['meta', 'neon', 'ramp', 'render', 'signal', 'target', 'visa', 'wise'],
]);

/** A well-known name a host carries outside its registrable domain; see {@link findBorrowedName}. */
export interface BorrowedName {
  /** The well-known domain whose name the host carries (`paypal.com`). */
  domain: string;
  /**
   * The part of the host that carries it, as written (`paypal`, `paypa1`), or null when that
   * part is an international label, whose letters are not quoted.
   */
  written: string | null;
}

const wellKnown = new Set(WELL_KNOWN_DOMAINS);
const labelOf = (domain: string) => domain.slice(0, domain.indexOf('.'));
// The most hyphenated parts of one well-known label (`credit-agricole` has two).
const MAX_LABEL_PARTS = Math.max(
  ...WELL_KNOWN_DOMAINS.map((domain) => labelOf(domain).split('-').length),
);

/**
 * The well-known name that `host` borrows while its registrable domain is another site's, or
 * null.
 *
 * The host's tokens are its labels before the registrable domain, split on `.` and `-`
 * (`paypal.com.evil.example`, `accounts-google.evil.example`), and the registrable domain's
 * label split on `-` when it has several parts (`paypal-secure.example`); runs of adjacent
 * parts count too, for a hyphenated name (`deutsche-bank-login.example`). A token borrows a
 * name when its skeleton (with or without marks) has at least
 * {@link MIN_LABEL_LOOKALIKE_CHARS} characters and is the skeleton of a well-known domain's
 * first label, so look-alike tokens count (`secure-paypa1.example`) and short names never do
 * (`x`, `me`, `qq`). An {@link EVERYDAY_LABELS} word counts only where the host spells the
 * whole domain after it. Nothing is borrowed when the registrable domain is itself well known
 * (outlook.office.com is Microsoft's own, accounts.google.com Google's) or its own label is the
 * name (`paypal.paypal.co.uk` names itself, as `google.net` does).
 *
 * `host` is the host in ASCII without a trailing dot, `domain` its registrable domain and
 * `label` that domain's part before the public suffix (`evil` of `evil.example`).
 */
export function findBorrowedName(host: string, domain: string, label: string): BorrowedName | null {
  if (wellKnown.has(domain) || (host !== domain && !host.endsWith(`.${domain}`))) {
    return null;
  }
  const own = new Set<string | undefined>(
    skeletons(domainToUnicode(label)).map((key) => skeletonTables().byLabel.get(key)),
  );
  const labels = host.split('.');
  const before = host === domain ? 0 : labels.length - domain.split('.').length;
  for (let index = 0; index < before; index++) {
    for (const found of namesIn(labels[index]!)) {
      if (own.has(found.domain)) {
        continue;
      }
      // `spells` compares whole labels, so `login-gov.evil.example` spells nothing.
      if (!EVERYDAY_LABELS.has(labelOf(found.domain)) || spells(labels, index, found.domain)) {
        return found;
      }
    }
  }
  // The whole label is the site's own name (in `own`), so only a part of it can be borrowed.
  for (const found of namesIn(label)) {
    if (!own.has(found.domain) && !EVERYDAY_LABELS.has(labelOf(found.domain))) {
      return found;
    }
  }
  return null;
}

// The well-known names in one label, left to right: each run of up to MAX_LABEL_PARTS
// hyphenated parts whose skeleton is a well-known label. The skeleton is split rather than the
// text, so a look-alike of `-` (Coptic `ⲻ`) splits too; no ASCII letter or digit maps to `-`,
// so an ASCII label's parts are its skeleton's.
function* namesIn(label: string): Generator<BorrowedName> {
  // Hosts come serialised: a label is ASCII, and international only as punycode. An ASCII
  // label has no marks, so its two skeletons are one (this runs for every label of a host).
  const international = label.startsWith('xn--');
  const unicode = international ? domainToUnicode(label) : label;
  const written = unicode === label ? label.split('-') : null;
  const variants = (international ? skeletons(unicode) : [hostSkeleton(unicode)]).map((key) =>
    key.split('-'),
  );
  const parts = variants[0]!.length;
  for (let start = 0; start < parts; start++) {
    for (let count = 1; count <= MAX_LABEL_PARTS && start + count <= parts; count++) {
      for (const variant of variants) {
        const key = variant.slice(start, start + count).join('-');
        const domain =
          key.length >= MIN_LABEL_LOOKALIKE_CHARS ? skeletonTables().byLabel.get(key) : undefined;
        if (domain !== undefined) {
          yield {
            domain,
            written: written?.slice(start, start + count).join('-') ?? null,
          };
          break;
        }
      }
    }
  }
}

// Whether `labels` from `index` on start with the well-known `domain`, by skeleton:
// `login.gov.evil.example`.
function spells(labels: string[], index: number, domain: string): boolean {
  const spelled = labels.slice(index, index + domain.split('.').length).join('.');
  const key = hostSkeleton(domain);
  return spelled.includes('xn--')
    ? skeletons(domainToUnicode(spelled)).includes(key)
    : hostSkeleton(spelled) === key;
}
