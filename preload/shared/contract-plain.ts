/**
 * The contract's limits and names that the UI reads without validating anything: plain
 * constants and functions, with no zod schema to build. The renderer's first screen imports
 * these (and only types of the rest), so its script need not build the contract's schemas;
 * the contract re-exports each of them and checks with the same values.
 */

/** The longest message a user can send in one prompt, in characters. */
export const MAX_PROMPT_CHARS = 1_000_000;
/** The longest name a user can give a session tab, in characters. */
export const MAX_SESSION_NAME_CHARS = 200;
/**
 * The longest link address the UI sends for analysis: past the analysis's own limit, so an
 * address too long to open is refused with that reason (the UI cuts longer ones to this length,
 * which keeps them too long).
 */
export const LINK_TEXT_CEILING = 16_384;

/** What Airlock's own id for a session tab looks like (see the contract's `SessionKey`). */
export const SESSION_KEY_PATTERN = /^s[0-9a-z]{1,32}$/;

/** The session a page's URL fragment (`location.hash`) asks to show, if it names one. */
export function waitingInFragment(hash: string): string | undefined {
  const named = /^#?waiting=(.*)$/.exec(hash)?.[1];
  return named !== undefined && SESSION_KEY_PATTERN.test(named) ? named : undefined;
}

/** The most files of the session's folder one prompt may attach. */
export const MAX_ATTACHED_FILES = 20;
/** The most images one prompt may attach. */
export const MAX_ATTACHED_IMAGES = 4;
/**
 * How many bytes the images of one prompt may take together. The web host carries a call in one
 * WebSocket message of at most 4 MB, and base64 makes 3 bytes into 4 characters: 2.5 MB of
 * images leaves room for the text.
 */
export const MAX_PROMPT_IMAGE_BYTES = 2_500_000;
/** The image types a prompt may carry (those ACP agents commonly take). */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
