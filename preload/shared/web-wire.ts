/**
 * The web host's socket messages around the contract: how a page is let in, and the proof the
 * calls an attacker would want must carry. Both ends read this one definition (the host in
 * `main/web/`, the page's bridge in `renderer/src/bridge/`).
 *
 * A page's first message is `hello`, with the one-time link token from its URL's fragment or
 * the key an earlier socket of the same page was given; nothing else is read before the host
 * answers `welcome` (with the page's key and this socket's nonce) or `refused` (and closes).
 */
import { z } from 'zod';
import type { CallChannel } from './contract';

/** A token or key as it travels: 32 random bytes in base64url, with room to spare. */
const secretText = z.string().min(1).max(128);

/** The page's first message on a socket. */
export const HelloMessage = z
  .object({ t: z.literal('hello'), link: secretText.optional(), key: secretText.optional() })
  .strict();
export type HelloMessage = z.infer<typeof HelloMessage>;

/** The host let the page in: the key to present next time, and this socket's proof nonce. */
export const WelcomeMessage = z
  .object({ t: z.literal('welcome'), key: secretText, nonce: secretText })
  .strict();
export type WelcomeMessage = z.infer<typeof WelcomeMessage>;

/** Why the host refused a page: see `refusalText`. */
export const RefusalReason = z.enum(['used', 'unknown', 'missing']);
export type RefusalReason = z.infer<typeof RefusalReason>;

/** The host did not let the page in; it closes the socket with {@link REFUSED_CLOSE_CODE}. */
export const RefusedMessage = z.object({ t: z.literal('refused'), reason: RefusalReason }).strict();
export type RefusedMessage = z.infer<typeof RefusedMessage>;

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
