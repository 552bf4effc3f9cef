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
import { REFUSAL_REASONS } from './web-wire-plain.js';

export {
  callsNeedingProof,
  proofMessage,
  REFUSED_CLOSE_CODE,
  refusalText,
} from './web-wire-plain.js';

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
export const RefusalReason = z.enum(REFUSAL_REASONS);
export type RefusalReason = z.infer<typeof RefusalReason>;

/** The host did not let the page in; it closes the socket with {@link REFUSED_CLOSE_CODE}. */
export const RefusedMessage = z.object({ t: z.literal('refused'), reason: RefusalReason }).strict();
export type RefusedMessage = z.infer<typeof RefusedMessage>;
