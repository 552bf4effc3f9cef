/**
 * Cuts a message's markdown into top-level blocks, so a message that grows as it streams in is
 * parsed a block at a time: blocks that are finished keep their text, and so their rendering,
 * and only the last one is parsed again as text arrives.
 *
 * A cut must never change how the text renders compared with parsing it whole, so the cuts are
 * few and certain: only before a line that starts at the margin after a blank line (every list,
 * quote and indented block has ended there), never inside a fenced code block or an HTML block
 * that runs across blank lines, never before a list item (the list may go on, loose), and not at
 * all in a text with a link reference definition (`[label]: url`, which links before it use).
 * Where the text leaves any doubt (a fence or HTML block indented by one to three spaces, which
 * may open inside a list item or at the top), no later cut is made.
 */

/** A list item's first line. */
const ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A code fence line: its indentation, its run of backticks or tildes, and the rest. */
const FENCE = /^( *)(`{3,}|~{3,})(.*)$/;
/** The start of an HTML block that a blank line does not end, and what ends each kind. */
const HTML_BLOCKS: [RegExp, RegExp][] = [
  [/^( *)<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^( *)<!--/, /-->/],
  [/^( *)<\?/, /\?>/],
  [/^( *)<![A-Za-z]/, />/],
  [/^( *)<!\[CDATA\[/, /\]\]>/],
];

/** The text's top-level blocks, in order; joined, they are the text. */
export function markdownBlocks(text: string): string[] {
  if (text.includes(']:')) {
    return [text];
  }
  const blocks: string[] = [];
  let start = 0;
  let fence: { marker: string; length: number } | undefined;
  let htmlEnd: RegExp | undefined;
  let blankBefore = false;
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const lineEnd = end === -1 ? text.length : end;
    const line = text.slice(at, lineEnd);
    if (fence) {
      const match = FENCE.exec(line);
      if (
        match &&
        match[1]!.length <= 3 &&
        match[2]![0] === fence.marker &&
        match[2]!.length >= fence.length &&
        match[3]!.trim() === ''
      ) {
        fence = undefined;
      }
    } else if (htmlEnd) {
      if (htmlEnd.test(line)) {
        htmlEnd = undefined;
      }
    } else {
      if (blankBefore && at > start && /^\S/.test(line) && !ITEM.test(line)) {
        blocks.push(text.slice(start, at));
        start = at;
      }
      const match = FENCE.exec(line);
      const html = HTML_BLOCKS.find(([open]) => open.test(line));
      const indent = match?.[1]!.length ?? (html ? /^ */.exec(line)![0].length : -1);
      if (indent >= 1 && indent <= 3) {
        // Inside a list item or at the top: no telling without parsing, so no more cuts.
        blocks.push(text.slice(start));
        return blocks;
      }
      if (match && indent === 0 && !(match[2]![0] === '`' && match[3]!.includes('`'))) {
        fence = { marker: match[2]![0]!, length: match[2]!.length };
      } else if (html && indent === 0 && !html[1].test(line.slice(1))) {
        htmlEnd = html[1];
      }
    }
    blankBefore = line.trim() === '';
    at = lineEnd + 1;
  }
  if (start < text.length || blocks.length === 0) {
    blocks.push(text.slice(start));
  }
  return blocks;
}
