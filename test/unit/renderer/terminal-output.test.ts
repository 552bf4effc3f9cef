import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/shared/contract.js';
import { ansiSegments } from '../../../renderer/src/state/ansi.js';
import { applyEvents, emptyTranscript, type Row } from '../../../renderer/src/state/transcript.js';

describe('ansiSegments', () => {
  it('turns SGR escapes into styles and keeps the text', () => {
    expect(ansiSegments('\u001b[31mred\u001b[0m plain \u001b[1;92;44mbold\u001b[0m\n')).toEqual([
      { text: 'red', fg: 'red' },
      { text: ' plain ' },
      { text: 'bold', fg: 'bright-green', bg: 'blue', bold: true },
      { text: '\n' },
    ]);
  });

  it('gives 256 and 24-bit colours as rgb() from numbers', () => {
    expect(ansiSegments('\u001b[38;5;208ma\u001b[38;5;240mb\u001b[48;2;1;2;3mc')).toEqual([
      { text: 'a', fgRgb: 'rgb(255, 135, 0)' },
      { text: 'b', fgRgb: 'rgb(88, 88, 88)' },
      { text: 'c', fgRgb: 'rgb(88, 88, 88)', bgRgb: 'rgb(1, 2, 3)' },
    ]);
  });

  it('drops every other escape and control character, and leaves text without escapes as it is', () => {
    const shown = ansiSegments('\u001b]0;title\u0007a\u001b[2Kb\r\nc\u0008\td <b>&amp;</b>');
    expect(shown.map((segment) => segment.text).join('')).toBe('ab\nc\td <b>&amp;</b>');
    expect(ansiSegments('no escapes\r\n')).toEqual([{ text: 'no escapes\n' }]);
    expect(ansiSegments('')).toEqual([]);
  });

  it('keeps dim, italic and underline', () => {
    expect(ansiSegments('\u001b[2;3;4mx')).toEqual([
      { text: 'x', dim: true, italic: true, underline: true },
    ]);
  });

  it('takes the palette’s first, grey and last colours, and a 24-bit colour of any digits', () => {
    expect(
      ansiSegments('\u001b[38;5;16ma\u001b[38;5;231mb\u001b[38;5;232mc\u001b[38;5;255md'),
    ).toEqual([
      { text: 'a', fgRgb: 'rgb(0, 0, 0)' },
      { text: 'b', fgRgb: 'rgb(255, 255, 255)' },
      { text: 'c', fgRgb: 'rgb(8, 8, 8)' },
      { text: 'd', fgRgb: 'rgb(238, 238, 238)' },
    ]);
    expect(ansiSegments('\u001b[38;2;10;200;30mx')).toEqual([
      { text: 'x', fgRgb: 'rgb(10, 200, 30)' },
    ]);
  });

  it('drops what anser leaves of an escape: an unended title, a lone or two-character escape', () => {
    // anser passes these through as text; they must not show.
    expect(ansiSegments('\u001b[31ma\u001b]0;title')).toEqual([{ text: 'a', fg: 'red' }]);
    expect(ansiSegments('\u001b[31ma\u001bXb\u001b')).toEqual([{ text: 'ab', fg: 'red' }]);
    // A piece that was nothing but such an escape leaves no empty segment behind.
    expect(ansiSegments('\u001b[31m\u001b]0;t\u0007\u001b[0mok')).toEqual([{ text: 'ok' }]);
    // Output with no escape at all loses its control characters too.
    expect(ansiSegments('a\u0007b\u0000c')).toEqual([{ text: 'abc' }]);
  });

  it('redraws a line in place after a carriage return, as a terminal does', () => {
    // A progress bar: each state overwrites the last; only the line it is on.
    expect(ansiSegments('get\n 10%\r 55%\r100%\ndone')).toEqual([{ text: 'get\n100%\ndone' }]);
    // A shorter state leaves the end of a longer one, each cell keeping its own style.
    expect(ansiSegments('\u001b[32mabcdef\u001b[0m\rXY')).toEqual([
      { text: 'XY' },
      { text: 'cdef', fg: 'green' },
    ]);
    // The line break after a redrawn line takes that line's style; `\r\n` keeps the line.
    expect(ansiSegments('\u001b[31mok\u001b[0m\r\n')).toEqual([{ text: 'ok\n', fg: 'red' }]);
    expect(ansiSegments('a\r\rb\r')).toEqual([{ text: 'b' }]);
    // The line break takes the style of the line's last cell, not of any other.
    expect(ansiSegments('\u001b[31ma\u001b[32mb\u001b[34mc\u001b[0m\r\n')).toEqual([
      { text: 'a', fg: 'red' },
      { text: 'b', fg: 'green' },
      { text: 'c\n', fg: 'blue' },
    ]);
    expect(ansiSegments('\r\n\r\nx')).toEqual([{ text: '\n\nx' }]);
  });
});

describe('terminal output in the transcript', () => {
  const call = (terminalId: string): TranscriptEvent => ({
    type: 'tool_call',
    toolCallId: 'run_1',
    fields: { title: 'Run ls', content: [{ type: 'terminal', terminalId }] },
  });
  const output = (text: string, exit?: number): TranscriptEvent => ({
    type: 'terminal_output',
    terminalId: 'term_1',
    output: text,
    truncated: false,
    ...(exit === undefined ? {} : { exitStatus: { exitCode: exit, signal: null } }),
  });
  const tool = (rows: Row[]) => rows.find((row) => row.kind === 'tool');

  it('shows on the tool call that embeds it, whether it comes before the call or after', () => {
    const early = applyEvents(emptyTranscript(), [output('one\n'), call('term_1')]);
    expect(tool(early.rows)?.terminals?.term_1?.output).toBe('one\n');
    const later = applyEvents(early, [output('one\ntwo\n', 0)]);
    expect(tool(later.rows)?.terminals?.term_1).toEqual({
      terminalId: 'term_1',
      output: 'one\ntwo\n',
      truncated: false,
      exitStatus: { exitCode: 0, signal: null },
    });
    // No row of its own, and the row that changed is a new object (the list redraws it).
    expect(later.rows).toHaveLength(1);
    expect(tool(later.rows)).not.toBe(tool(early.rows));
  });
});
