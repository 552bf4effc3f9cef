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
 * An HTML block that ends at a blank line is passed over whole: a fence inside it is not one.
 * Where the text leaves any doubt (a fence or HTML block indented by one to three spaces, which
 * may open inside a list item or at the top, or a lone tag that may go on a paragraph), no later
 * cut is made.
 */
import { htmlBlockNames } from 'micromark-util-html-tag-name';

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
/** A tag at the start of a line: its indentation, its name and what follows the name. */
const TAG = /^( *)<\/?([A-Za-z][A-Za-z0-9-]*)(.*)$/;
/** A whole opening or closing tag alone on its line, which opens an HTML block of any name. */
const LONE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/;
const BLOCK_NAMES = new Set(htmlBlockNames);

/** The text's top-level blocks, in order; joined, they are the text. */
export function markdownBlocks(text: string): string[] {
  if (text.includes(']:')) {
    return [text];
  }
  const blocks: string[] = [];
  let start = 0;
  let fence: { marker: string; length: number } | undefined;
  let htmlEnd: RegExp | undefined;
  let htmlToBlank = false;
  let blankBefore = false;
  /** Whether a list item began in the block being read: its content may be indented any amount. */
  let inItem = false;
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
    } else if (htmlToBlank) {
      htmlToBlank = line.trim() !== '';
    } else {
      if (blankBefore && at > start && /^\S/.test(line) && !ITEM.test(line)) {
        blocks.push(text.slice(start, at));
        start = at;
        inItem = false;
      }
      inItem ||= ITEM.test(line);
      const match = FENCE.exec(line);
      const html = HTML_BLOCKS.find(([open]) => open.test(line));
      const tag = html ? undefined : TAG.exec(line);
      const indent = match?.[1]!.length ?? (html || tag ? /^ */.exec(line)![0].length : -1);
      if (indent >= 1 && (indent <= 3 || inItem)) {
        // Inside a list item or at the top (in an item, even four spaces in may open a fence
        // there): no telling without parsing, so no more cuts.
        blocks.push(text.slice(start));
        return blocks;
      }
      if (match && indent === 0 && !(match[2]![0] === '`' && match[3]!.includes('`'))) {
        fence = { marker: match[2]![0]!, length: match[2]!.length };
      } else if (html && indent === 0 && !html[1].test(line.slice(1))) {
        htmlEnd = html[1];
      } else if (tag && indent === 0) {
        if (BLOCK_NAMES.has(tag[2]!.toLowerCase()) && /^(?:\s|\/?>|$)/.test(tag[3]!)) {
          htmlToBlank = true;
        } else if (LONE_TAG.test(line)) {
          if (!blankBefore && at > 0) {
            // It opens a block, or goes on a paragraph: no telling without parsing.
            blocks.push(text.slice(start));
            return blocks;
          }
          htmlToBlank = true;
        }
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
