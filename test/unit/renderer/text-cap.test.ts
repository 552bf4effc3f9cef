import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/shared/contract.js';
import {
  capText,
  FRESH_CAP,
  LINE_CAP,
  MESSAGE_CAP,
  type CapPart,
  type CapState,
} from '../../../renderer/src/state/text-cap.js';
import { applyEvents, emptyTranscript, type Row } from '../../../renderer/src/state/transcript.js';
import { messageText } from '../../../renderer/src/components/message-copy.js';

/** Feeds `pieces` to `capText` one after the other, and gathers the parts. */
function capAll(pieces: string[], from: CapState = FRESH_CAP) {
  let state = from;
  const parts: CapPart[] = [];
  for (const piece of pieces) {
    const result = capText(state, piece);
    parts.push(...result.parts);
    state = result.state;
  }
  return { parts, state };
}

/** The parts as `shown:N` / `line:N` / `message:N`, for readable expectations. */
const shape = (parts: CapPart[]) =>
  parts.map((part) => `${part.cause ?? 'shown'}:${part.text.length}`);

describe('capText', () => {
  it('shows a short message whole, as one part', () => {
    const { parts, state } = capAll(['Hello\nworld']);
    expect(parts).toEqual([{ text: 'Hello\nworld' }]);
    expect(state).toEqual({ shown: 11, line: 5, hidingLine: false });
  });

  it('shows the first 64 KB of a line and holds back the rest of it', () => {
    const line = 'x'.repeat(LINE_CAP + 10);
    const { parts, state } = capAll([line]);
    expect(shape(parts)).toEqual([`shown:${LINE_CAP}`, 'line:10']);
    expect(state.hidingLine).toBe(true);
  });

  it('shows a line of exactly 64 KB whole', () => {
    expect(shape(capAll(['y'.repeat(LINE_CAP), '\nnext']).parts)).toEqual([
      `shown:${LINE_CAP}`,
      'shown:5',
    ]);
  });

  it('shows the lines after a long one again, from its newline on', () => {
    const text = `${'a'.repeat(LINE_CAP + 3)}\nshort\n`;
    const { parts } = capAll([text]);
    expect(shape(parts)).toEqual([`shown:${LINE_CAP}`, 'line:3', 'shown:7']);
    expect(parts[2]!.text).toBe('\nshort\n');
  });

  it('counts a line across pieces, and a newline resets it', () => {
    const half = 'b'.repeat(LINE_CAP / 2);
    expect(shape(capAll([half, half, 'c']).parts)).toEqual([
      `shown:${LINE_CAP / 2}`,
      `shown:${LINE_CAP / 2}`,
      'line:1',
    ]);
    expect(shape(capAll([half, `\n${half}`, half]).parts)).toEqual([
      `shown:${LINE_CAP / 2}`,
      `shown:${LINE_CAP / 2 + 1}`,
      `shown:${LINE_CAP / 2}`,
    ]);
  });

  it('shows the line after one that just fits, newline and all', () => {
    const text = `${'n'.repeat(LINE_CAP - 1)}\nnext`;
    expect(capText(FRESH_CAP, text).parts).toEqual([{ text }]);
  });

  it('goes on holding back a long line in later pieces until its newline', () => {
    const first = capText(FRESH_CAP, 'd'.repeat(LINE_CAP + 1));
    const next = capText(first.state, 'eee\nfff');
    expect(shape(next.parts)).toEqual(['line:3', 'shown:4']);
    expect(next.state).toEqual({ shown: LINE_CAP + 4, line: 3, hidingLine: false });
  });

  it('shows 1 MB of a message and holds back all that follows, lines and all', () => {
    const line = `${'f'.repeat(999)}\n`;
    const text = line.repeat(MESSAGE_CAP / 1000 + 5);
    const { parts, state } = capAll([text, 'more\n']);
    expect(shape(parts)).toEqual([
      `shown:${MESSAGE_CAP}`,
      `message:${text.length - MESSAGE_CAP}`,
      'message:5',
    ]);
    expect(state.shown).toBe(MESSAGE_CAP);
  });

  it('keeps every character, in order, in its parts', () => {
    const text = `${'g'.repeat(LINE_CAP * 2)}\n${'h\n'.repeat(1000)}${'i'.repeat(MESSAGE_CAP)}`;
    const pieces = text.match(/[\s\S]{1,65536}/g)!;
    const { parts } = capAll(pieces);
    expect(parts.map((part) => part.text).join('')).toBe(text);
    expect(parts.every((part) => part.text.length > 0)).toBe(true);
  });

  // How long it takes is a figure of `npm run bench -- long-lines`, not of a test.
  it('takes a 10 MB line in one piece: its first 64 KB shown, the rest held back', () => {
    const line = 'j'.repeat(10_000_000);
    const { parts } = capText(FRESH_CAP, line);
    expect(shape(parts)).toEqual([`shown:${LINE_CAP}`, `line:${10_000_000 - LINE_CAP}`]);
  });
});

const chunk = (text: string): TranscriptEvent => ({ type: 'chunk', role: 'agent', text });
/** The text rows' texts, and the held-back text, of a transcript. */
const kinds = (rows: Row[]) =>
  rows.map((row) =>
    row.kind === 'text' || row.kind === 'overflow' ? `${row.kind}:${row.text.length}` : row.kind,
  );

describe('a message past its caps in the transcript', () => {
  it('holds the rest of a 10 MB line in one row after the 64 KB it shows, whole', () => {
    const line = 'k'.repeat(10_000_000);
    const pieces = line.match(/[\s\S]{1,65536}/g)!.map(chunk);
    const t = applyEvents(emptyTranscript(), [{ type: 'prompt', text: 'go' }, ...pieces]);
    const overflow = t.rows.filter((row) => row.kind === 'overflow');
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatchObject({ cause: 'line', text: line.slice(LINE_CAP) });
    const shown = t.rows.flatMap((row) => (row.kind === 'text' ? [row.text] : [])).join('');
    expect(shown).toBe(line.slice(0, LINE_CAP));
    expect(messageText(t.rows, t.rows[1]!.id)).toBe(line);
    expect(messageText(t.rows, overflow[0]!.id)).toBe(line);
  });

  it('shows the lines after a long one in rows of the same message, after its held-back rest', () => {
    const text = `${'l'.repeat(LINE_CAP + 5)}\nafter`;
    const t = applyEvents(emptyTranscript(), [chunk(text), { type: 'turn_end', stopReason: 'x' }]);
    expect(kinds(t.rows)).toEqual([
      'text:16000',
      'text:16000',
      'text:16000',
      'text:16000',
      `text:${LINE_CAP - 64_000}`,
      'overflow:5',
      'text:6',
      'turn_end',
    ]);
    expect(t.rows[4]).toMatchObject({ more: true });
    expect(t.rows[6]).toMatchObject({ first: false, text: '\nafter' });
    expect(messageText(t.rows, t.rows[0]!.id)).toBe(text);
  });

  it('holds back the rest of a line that reaches the message cap as the rest of the message', () => {
    const lines = `${'o'.repeat(63)}\n`.repeat((MESSAGE_CAP - LINE_CAP) / 64);
    const text = `${lines}${'p'.repeat(LINE_CAP + 10)}\nmore`;
    const t = applyEvents(emptyTranscript(), [chunk(text)]);
    expect(t.rows.at(-2)).toMatchObject({ kind: 'text', more: true });
    expect(t.rows.at(-1)).toEqual({
      kind: 'overflow',
      id: expect.any(Number),
      role: 'agent',
      text: `${'p'.repeat(10)}\nmore`,
      cause: 'message',
    });
    expect(messageText(t.rows, t.rows[0]!.id)).toBe(text);
  });

  it('caps a new message afresh', () => {
    const long = 'm'.repeat(LINE_CAP + 1);
    const t = applyEvents(emptyTranscript(), [
      chunk(long),
      { type: 'turn_end', stopReason: 'end_turn' },
      chunk('n'.repeat(100)),
    ]);
    expect(kinds(t.rows).slice(-2)).toEqual(['turn_end', 'text:100']);
    expect(t.cap).toEqual({ shown: 100, line: 100, hidingLine: false });
  });
});
