/**
 * What a screen reader hears of the sign-in terminal: the rows whose text is new since it last
 * heard the screen. A row moved by scrolling is not new; a row the command rewrote, or one the
 * user typed on, is.
 */

/** The rows of `after` (their text) that `before` does not hold, blanks left out, in order. */
export function newRows(before: readonly string[], after: readonly string[]): string[] {
  const seen = new Map<string, number>();
  for (const row of before) {
    seen.set(row, (seen.get(row) ?? 0) + 1);
  }
  const fresh: string[] = [];
  for (const row of after) {
    const count = seen.get(row) ?? 0;
    if (count > 0) {
      seen.set(row, count - 1);
    } else if (row.trim() !== '') {
      fresh.push(row.trimEnd());
    }
  }
  return fresh;
}
