/**
 * The text of an overflow row (text-cap.ts) as it grows, kept close to one flat string.
 *
 * Held-back text comes a piece per update, often 100 characters at a time, and a string grown
 * by `+` a piece at a time is a rope in V8: a node and a string of its own per piece, which for
 * such pieces costs a third more than the text itself (a 9 MB reply held back weighed 11.3 MB).
 * So the pieces of one batch are joined once, and the row's text is copied into one string again
 * once the joins since the last copy cost more than a small share of it. Each copy also waits for
 * the text to grow by a part of itself, so all the copying is a few times the text, however
 * small its pieces.
 */

/** An overflow row's text, and how it is built. */
export type HeldText = {
  text: string;
  /** The length of the text when it was last one flat string. */
  flat: number;
  /** Batches joined onto it since. */
  joins: number;
};

/** No text held back yet. */
export const NO_HELD_TEXT: HeldText = { text: '', flat: 0, joins: 0 };

/**
 * The joins a text may take before it is copied flat again: one per this many characters of
 * it (a join costs about 40 bytes, so this keeps them under 4% of the text), and never fewer
 * than {@link MIN_JOINS}.
 */
export const CHARS_PER_JOIN = 1024;
/** The joins a short text may take before it is copied flat again. */
export const MIN_JOINS = 8;
/**
 * The part of itself a text grows by, at least, between two copies: 1/16, so that all the
 * copies of a text come to at most 17 times its length.
 */
export const GROWTH_PER_COPY = 1 / 16;

/** The text with `parts` (one batch's held-back pieces, in order) added at its end. */
export function growHeld(held: HeldText, parts: readonly string[]): HeldText {
  if (parts.length === 0) {
    return held;
  }
  // `join` writes its result as one flat string, whatever its parts are made of.
  const added = parts.length === 1 ? parts[0]! : parts.join('');
  if (held.text === '') {
    return { text: added, flat: added.length, joins: 0 };
  }
  const joins = held.joins + 1;
  const grown = held.text.length + added.length - held.flat;
  if (
    joins >= Math.max(MIN_JOINS, held.flat / CHARS_PER_JOIN) &&
    grown >= held.flat * GROWTH_PER_COPY
  ) {
    const text = [held.text, added].join('');
    return { text, flat: text.length, joins: 0 };
  }
  return { text: held.text + added, flat: held.flat, joins };
}
