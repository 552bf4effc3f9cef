/**
 * How much of a message the transcript shows as it arrives: the first {@link LINE_CAP}
 * characters of each line and the first {@link MESSAGE_CAP} of the message. What is past
 * either is held back whole (the store keeps every character), for the user to show or copy.
 *
 * A line of megabytes laid out as one paragraph of Markdown would hold the page for seconds;
 * held back, it costs the page nothing until the user asks for it.
 */

/** The most of one line shown before the rest of that line is held back: 64 KB. */
export const LINE_CAP = 64 * 1024;
/** The most of one message shown before the rest of it is held back: 1 MB. */
export const MESSAGE_CAP = 1024 * 1024;

/** Why text is held back: its line is past {@link LINE_CAP}, or its message past the other. */
export type CapCause = 'line' | 'message';

/** How far a message has been shown, carried from one piece of it to the next. */
export type CapState = {
  /** Characters of the message shown. */
  shown: number;
  /** Characters of its current line shown. */
  line: number;
  /** Whether the rest of the current line is held back (it went past the line cap). */
  hidingLine: boolean;
};

/** A part of a piece of text: shown, or held back and why; the parts in order are the piece. */
export type CapPart = { text: string; cause?: CapCause };

/** Where a message starts: nothing shown yet. */
export const FRESH_CAP: CapState = { shown: 0, line: 0, hidingLine: false };

/**
 * Splits the next piece of a message into the parts to show and the parts to hold back, given
 * how far the message has been shown; returns them (adjacent parts of one kind merged, none
 * empty) and how far the message is shown after them. Linear in the piece's length.
 */
export function capText(state: CapState, text: string): { parts: CapPart[]; state: CapState } {
  let { shown, line, hidingLine } = state;
  const parts: CapPart[] = [];
  /** Where the current part starts, and why it is held back (undefined: shown). */
  let from = 0;
  let cause: CapCause | undefined;
  let at = 0;
  const flush = () => {
    if (at > from) {
      parts.push(cause ? { text: text.slice(from, at), cause } : { text: text.slice(from, at) });
    }
    from = at;
  };
  const switchTo = (next: CapCause | undefined) => {
    if (next !== cause) {
      flush();
      cause = next;
    }
  };
  while (at < text.length) {
    if (shown >= MESSAGE_CAP) {
      switchTo('message');
      at = text.length;
      break;
    }
    const newline = text.indexOf('\n', at);
    if (hidingLine) {
      switchTo('line');
      if (newline === -1) {
        at = text.length;
        break;
      }
      // The line ends here: the newline starts what is shown next.
      at = newline;
      hidingLine = false;
      line = 0;
      continue;
    }
    switchTo(undefined);
    const room = Math.min(LINE_CAP - line, MESSAGE_CAP - shown);
    const end = newline === -1 ? text.length : newline + 1;
    if (end - at <= room) {
      shown += end - at;
      line = newline === -1 ? line + end - at : 0;
      at = end;
      continue;
    }
    at += room;
    shown += room;
    line += room;
    hidingLine = line >= LINE_CAP;
  }
  flush();
  return { parts, state: { shown, line, hidingLine } };
}
