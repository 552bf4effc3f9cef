/**
 * Whether a list goes on across the cut between two segments of a message.
 *
 * A message is cut into rows at paragraph breaks; a cut between two items of one list leaves a
 * blank line between them, which makes that list loose (CommonMark: a list whose items are
 * separated by blank lines is loose, every item a paragraph). Rendered apart, each part would
 * decide for itself (a part with one item reads as tight), so the gaps between items would
 * differ; the rows say where a list goes on, and both parts render it loose.
 */

/** A list item's first line: up to 3 spaces, a bullet or a number and its delimiter. */
const ITEM = /^ {0,3}([-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A thematic break (`* * *`, `- - -`), which looks like an item but ends any list. */
const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** The kind of list a marker belongs to: its bullet, or an ordered list's delimiter. */
function kind(marker: string): string {
  return /\d/.test(marker) ? `1${marker.at(-1)}` : marker;
}

/** The list kind an item line starts, if it starts one. */
function itemKind(line: string): string | undefined {
  if (BREAK.test(line)) {
    return undefined;
  }
  const match = ITEM.exec(line);
  return match ? kind(match[1]!) : undefined;
}

/**
 * Whether `head` (ending in a blank line) ends inside a list that the first line of `rest`
 * continues with an item of the same kind. Undefined while `rest` is too short to tell, unless
 * it is `complete`.
 */
export function listJoins(head: string, rest: string, complete = false): boolean | undefined {
  // Only a cut at a blank line joins: a long paragraph is cut hard, at a line's end.
  if (!/\n[ \t]*\n$/.test(head)) {
    return false;
  }
  const firstLine = rest.split('\n', 1)[0]!;
  if (!complete && !rest.includes('\n') && firstLine.length < 12) {
    return undefined;
  }
  const next = itemKind(firstLine);
  if (next === undefined) {
    return false;
  }
  // The blocks before the cut, last first: the list is open at the end of `head` when its last
  // block starts with an item, or is indented under one (an item's further paragraphs).
  const blocks = head.split(/\n[ \t]*\n/).filter((block) => block.trim() !== '');
  for (let i = blocks.length - 1; i >= 0; i--) {
    const first = blocks[i]!.replace(/^\n+/, '').split('\n', 1)[0]!;
    const item = itemKind(first);
    if (item !== undefined) {
      return item === next;
    }
    if (!/^ {2}/.test(first) || /^ {0,3}(```|~~~)/.test(first)) {
      return false;
    }
  }
  return false;
}
