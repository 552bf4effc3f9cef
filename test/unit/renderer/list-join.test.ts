import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/shared/contract.js';
import { listJoins } from '../../../renderer/src/state/list-join.js';
import { applyEvents, emptyTranscript, type Row } from '../../../renderer/src/state/transcript.js';

describe('listJoins', () => {
  it('joins items of one list across a blank line', () => {
    expect(listJoins('1. a\n2. b\n\n', '3. the next item')).toBe(true);
    expect(listJoins('- a\n\n  more of a\n\n', '- the next item')).toBe(true);
  });

  it('does not join lists of another kind, or what is not an item', () => {
    expect(listJoins('1. a\n\n', '2) another kind of list')).toBe(false);
    expect(listJoins('- a\n\n', '* another kind of list')).toBe(false);
    expect(listJoins('- a\n\n', '* * * a thematic break')).toBe(false);
    expect(listJoins('- a\n\n', 'a paragraph after the list')).toBe(false);
    expect(listJoins('A paragraph\n\n', '- a list after it')).toBe(false);
    expect(listJoins('- a\n\nA paragraph\n\n', '- a new list')).toBe(false);
  });

  it('joins only at a blank line (a long line is cut at its end)', () => {
    expect(listJoins('- a\n', '- the next item')).toBe(false);
  });

  it('waits until the next row shows its first line, unless it is all there is', () => {
    expect(listJoins('1. a\n\n', '2')).toBeUndefined();
    expect(listJoins('1. a\n\n', '2. b', true)).toBe(true);
  });
});

describe('listJoins at its edges', () => {
  const next = '- the next item';

  it('takes no thematic break for an item, however it is spaced', () => {
    for (const line of ['* * *', '*  *  *', '* * *  ', '   * * *', '___']) {
      expect(listJoins('* a\n\n', line, true)).toBe(false);
    }
    // Only a line of nothing but the marker is a break.
    expect(listJoins('* a\n\n', '* b - - -', true)).toBe(true);
    expect(listJoins('* a\n\n', '* * * not a break', true)).toBe(true);
  });

  it('takes an item only at the line’s start, an empty one too', () => {
    expect(listJoins('- a\n\n', 'text - with a dash', true)).toBe(false);
    expect(listJoins('- a\n\n', '-\n  the item’s text')).toBe(true);
    expect(listJoins('1.\nfoo\n\n', '2. the next item', true)).toBe(true);
  });

  it('joins only at a blank line at the end, spaces in it or not', () => {
    expect(listJoins('- a\n  \n', next)).toBe(true);
    expect(listJoins('- a\n\n- b\nmore text', next, true)).toBe(false);
  });

  it('finds the last block across blank lines of spaces and odd line breaks', () => {
    expect(listJoins('- a\n  \nA paragraph\n\n', next, true)).toBe(false);
    expect(listJoins('- a\n\n \n\n', next, true)).toBe(true);
    expect(listJoins('- a\n\n\n- b\n\n', next, true)).toBe(true);
  });

  it('goes back past a block indented two spaces, but not past a fence or less indent', () => {
    expect(listJoins('- a\n\n  more of a, with ``` inside\n\n', next, true)).toBe(true);
    expect(listJoins('- a\n\nA  paragraph\n\n', next, true)).toBe(false);
    expect(listJoins('- a\n\n one-space paragraph\n\n', next, true)).toBe(false);
    expect(listJoins('- a\n\n  ```\n  code\n\n', next, true)).toBe(false);
    expect(listJoins('  indented text\n\n', next, true)).toBe(false);
  });
});

describe('a list cut across rows', () => {
  const chunk = (text: string): TranscriptEvent => ({ type: 'chunk', role: 'agent', text });
  const item = (n: number) => `${n}. ${'word '.repeat(100).trim()}\n\n`;
  /** An item longer than a segment: its break, at its end, is the first one to cut at. */
  const longItem = (n: number) => `${n}. ${'word '.repeat(420).trim()}\n\n`;
  const texts = (rows: Row[]) => rows.filter((row) => row.kind === 'text');

  it('marks both rows at every cut inside it, and only there', () => {
    const list = Array.from({ length: 12 }, (_, n) => item(n + 1)).join('');
    const events = [
      { type: 'prompt', text: 'hi' } as const,
      ...list.match(/[^]{1,100}/g)!.map(chunk),
    ];
    const rows = texts(applyEvents(emptyTranscript(), [...events, chunk('After the list.')]).rows);
    expect(rows.length).toBeGreaterThan(2);
    const last = rows.at(-1)!;
    for (const [index, row] of rows.entries()) {
      const before = rows[index - 1];
      expect(row.listBefore ?? false).toBe(index > 0 && /^\d+\. /.test(row.text));
      expect(row.more ?? false).toBe(row !== last);
      if (before) {
        expect(before.listAfter ?? false).toBe(row.listBefore ?? false);
      }
    }
  });

  it('settles a cut whose next row is still short when the turn ends', () => {
    const text = `${longItem(1)}6. x`;
    const rows = texts(
      applyEvents(emptyTranscript(), [chunk(text), { type: 'turn_end', stopReason: 'end_turn' }])
        .rows,
    );
    expect(rows.at(-1)).toMatchObject({ text: '6. x', listBefore: true });
    expect(rows.at(-2)).toMatchObject({ listAfter: true, more: true });
  });
});
