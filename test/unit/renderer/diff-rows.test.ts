import { describe, expect, it } from 'vitest';
import { otherLocations } from '../../../renderer/src/components/tool-details.js';
import { diffRows, MAX_DIFF_CHARS, MAX_DIFF_ROWS } from '../../../renderer/src/state/diff-rows.js';
import { applyEvents, emptyTranscript } from '../../../renderer/src/state/transcript.js';

const numbered = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `line ${i + from}`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

describe('diffRows', () => {
  it('numbers each line in the old and the new file', () => {
    expect(diffRows('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual({
      added: 2,
      removed: 1,
      rows: [
        { kind: 'same', oldLine: 1, newLine: 1, text: 'a' },
        { kind: 'removed', oldLine: 2, text: 'b' },
        { kind: 'added', newLine: 2, text: 'B' },
        { kind: 'same', oldLine: 3, newLine: 3, text: 'c' },
        { kind: 'added', newLine: 4, text: 'd' },
      ],
    });
  });

  it('folds unchanged lines beyond three of context around each change', () => {
    const before = numbered(30);
    const after = [...before];
    after[9] = 'changed 10';
    after[24] = 'changed 25';
    const { rows } = diffRows(text(before), text(after))!;
    expect(rows[0]).toEqual({ kind: 'fold', count: 6 });
    expect(rows.slice(1, 4).map((row) => row.kind === 'same' && row.oldLine)).toEqual([7, 8, 9]);
    expect(rows.filter((row) => row.kind === 'fold')).toEqual([
      { kind: 'fold', count: 6 },
      { kind: 'fold', count: 8 },
      { kind: 'fold', count: 2 },
    ]);
    // A run no longer than the context on both sides plus one is shown whole.
    const close = [...before];
    close[9] = 'x';
    close[16] = 'y';
    expect(
      diffRows(text(before), text(close))!.rows.some((row) => row.kind === 'fold' && row.count < 3),
    ).toBe(false);
  });

  it('keeps three lines of context on each side of a fold, and folds only a run longer than both plus one', () => {
    const short = (row: { kind: string; count?: number; oldLine?: number; newLine?: number }) =>
      row.kind === 'fold' ? `fold ${row.count}` : `${row.kind} ${row.oldLine ?? row.newLine}`;
    const before = numbered(30);
    const after = [...before];
    after[9] = 'changed 10';
    after[24] = 'changed 25';
    expect(diffRows(text(before), text(after))!.rows.map(short)).toEqual([
      'fold 6',
      ...[7, 8, 9].map((line) => `same ${line}`),
      'removed 10',
      'added 10',
      ...[11, 12, 13].map((line) => `same ${line}`),
      'fold 8',
      ...[22, 23, 24].map((line) => `same ${line}`),
      'removed 25',
      'added 25',
      ...[26, 27, 28].map((line) => `same ${line}`),
      'fold 2',
    ]);
    // Seven unchanged lines between two changes: three and three, and the one between is shown.
    const seven = [...before];
    seven[9] = 'x';
    seven[17] = 'y';
    expect(
      diffRows(text(before), text(seven))!.rows.some(
        (row) => row.kind === 'fold' && row.count === 1,
      ),
    ).toBe(false);
  });

  it('shows an unchanged file of many lines whole, and an empty old file as all added', () => {
    expect(diffRows(text(numbered(10)), text(numbered(10)))!.rows).toHaveLength(10);
    expect(diffRows('', 'new\n')).toEqual({
      added: 1,
      removed: 0,
      rows: [{ kind: 'added', newLine: 1, text: 'new' }],
    });
  });

  it('shows a new file as added lines, and an unchanged file whole', () => {
    expect(diffRows(null, 'one\ntwo')).toEqual({
      added: 2,
      removed: 0,
      rows: [
        { kind: 'added', newLine: 1, text: 'one' },
        { kind: 'added', newLine: 2, text: 'two' },
      ],
    });
    expect(diffRows('same\n', 'same\n')?.rows).toEqual([
      { kind: 'same', oldLine: 1, newLine: 1, text: 'same' },
    ]);
  });

  it('does not work out a diff too long to compare, and cuts one too long to show', () => {
    expect(diffRows('x'.repeat(MAX_DIFF_CHARS), 'y')).toBeUndefined();
    const shown = diffRows(null, text(numbered(MAX_DIFF_ROWS + 50)))!;
    expect(shown.rows).toHaveLength(MAX_DIFF_ROWS + 1);
    expect(shown.rows.at(-1)).toEqual({ kind: 'fold', count: 50, cut: true });
    expect(shown.added).toBe(MAX_DIFF_ROWS + 50);
    // Exactly as long as the most it compares or shows: all of it.
    expect(diffRows(null, 'z'.repeat(MAX_DIFF_CHARS))?.rows).toHaveLength(1);
    const full = diffRows(null, text(numbered(MAX_DIFF_ROWS)))!;
    expect(full.rows).toHaveLength(MAX_DIFF_ROWS);
    expect(full.rows.at(-1)).toMatchObject({ kind: 'added', newLine: MAX_DIFF_ROWS });
    // Past the cut, a fold counts the lines it stands for: 999 lines changed (1,998 rows), then
    // 1,040 unchanged and one more changed. Of the diff's 3,040 lines, 2,000 are shown.
    const old = numbered(MAX_DIFF_ROWS + 40);
    const changed = old.map((line, i) => (i < 999 || i === old.length - 1 ? `${line}!` : line));
    const cut = diffRows(text(old), text(changed))!;
    expect(cut.rows.at(-1)).toEqual({ kind: 'fold', count: 1_040, cut: true });
  });
});

describe('otherLocations', () => {
  it('leaves out the paths a diff or a command already names', () => {
    expect(
      otherLocations({
        locations: [
          { path: '/w/a.ts', line: 3 },
          { path: '/w', line: null },
          { path: '/w/b.ts', line: null },
        ],
        content: [{ type: 'diff', path: '/w/a.ts', oldText: '', newText: 'x' }],
        command: { line: 'ls', cwd: '/w' },
      }),
    ).toEqual([{ path: '/w/b.ts', line: null }]);
    expect(otherLocations({})).toEqual([]);
  });
});

describe('a permission row', () => {
  it('keeps what the card asks to allow', () => {
    const tool = { kind: 'execute' as const, command: { line: 'make' } };
    const { rows } = applyEvents(emptyTranscript(), [
      {
        type: 'permission',
        promptKey: 'p1',
        agent: { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' },
        toolCallId: 'c1',
        options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }],
        tool,
      },
    ]);
    expect(rows[0]).toMatchObject({ kind: 'permission', tool });
  });
});
