/**
 * Whether a registrable domain looks like a well-known domain that it is not.
 *
 * Two comparisons, both on lower-cased UTS #39 skeletons (see skeleton.ts), each with and
 * without combining marks: the whole registrable domain (`раураӏ.com` against paypal.com),
 * and its label before the public suffix against the labels of the well-known domains, so a
 * look-alike under another suffix counts too (`g00gle.net` against google.com). The second
 * applies only to labels of at least {@link MIN_LABEL_LOOKALIKE_CHARS} skeleton characters,
 * where a match is no accident; the same label under another suffix (`google.net`) is not a
 * look-alike. Pure: no I/O.
 */
import { domainToUnicode } from 'node:url';
import { hostSkeleton, hostSkeletonWithoutMarks } from './skeleton.js';
import { WELL_KNOWN_DOMAINS } from './well-known-domains.js';

/** Shortest label skeleton compared with the well-known labels under any suffix. */
export const MIN_LABEL_LOOKALIKE_CHARS = 4;

function skeletons(text: string): string[] {
  return [hostSkeleton(text), hostSkeletonWithoutMarks(text)];
}

const byDomain = new Map<string, string>();
const byLabel = new Map<string, string>();
for (const domain of WELL_KNOWN_DOMAINS) {
  byDomain.set(hostSkeleton(domain), domain);
  const label = domain.slice(0, domain.indexOf('.'));
  if (!byLabel.has(hostSkeleton(label))) {
    byLabel.set(hostSkeleton(label), domain);
  }
}

/**
 * The well-known domain that `domain` looks like without being it, or null.
 *
 * `domain` is a registrable domain in ASCII (punycode allowed) and `label` its part before the
 * public suffix (`paypal` of `paypal.co.uk`), also in ASCII.
 */
export function findLookalike(domain: string, label: string): string | null {
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
