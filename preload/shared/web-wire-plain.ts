/**
 * The web host's socket words that need no schema (see web-wire.ts): why a page is refused and
 * what it tells its user, the calls that carry a proof, and what a proof signs. The page's
 * first screen reads these without building any schema.
 */
import type { CallChannel } from './contract.js';

/** Why the host refused a page: see `refusalText`. */
export const REFUSAL_REASONS = ['used', 'unknown', 'missing'] as const;
/** One of {@link REFUSAL_REASONS}. */
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** The close code of a refused socket: 4000 + HTTP's 403. */
export const REFUSED_CLOSE_CODE = 4403;

/**
 * The calls the web host runs only with the page's proof beside the socket's admission: those
 * that reveal a secret, or set or run a command.
 */
export const callsNeedingProof: ReadonlySet<CallChannel> = new Set<CallChannel>([
  'settings:revealEnv',
  'settings:saveAgent',
  'settings:duplicateAgent',
  'settings:testAgent',
  'agent:saveSecrets',
  'agent:readLog',
]);

/** The text a call's proof signs (HMAC-SHA256 under the page's key, base64url). */
export function proofMessage(nonce: string, id: number, channel: string): string {
  return `airlock-call\n${nonce}\n${id}\n${channel}`;
}

/** What a refused page tells its user: why, and how to open Airlock again. */
export function refusalText(reason: RefusalReason): string {
  switch (reason) {
    case 'used':
      return 'This link has already been used. Each link opens Airlock once.';
    case 'unknown':
      return 'This page’s link is not from the Airlock running now (it may have been restarted).';
    case 'missing':
      return 'This page was opened without a link from Airlock.';
  }
}
