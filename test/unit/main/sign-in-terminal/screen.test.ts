import { describe, expect, it } from 'vitest';
import { TerminalScreenModel } from '../../../../main/core/sign-in-terminal/screen.js';

/** A screen of `cols` × `rows` after `output`, parsed. */
async function screenAfter(output: string, cols = 20, rows = 4) {
  const screen = new TerminalScreenModel(cols, rows);
  await new Promise<void>((resolve) => screen.write(output, resolve));
  return screen;
}

describe('TerminalScreenModel', () => {
  it('shows what the escapes draw, not the escapes: a line rewritten, cleared and moved over', async () => {
    const screen = await screenAfter('loading…\r\x1b[2Kdone\r\nsecond\x1b[1;10Hx');
    expect(screen.text()).toEqual(['done     x', 'second', '', '']);
    expect(screen.view().cursor).toEqual({ row: 0, col: 10, visible: true });
  });

  it('groups cells into runs by colour, bold and inverse; bold makes a dark colour bright', async () => {
    const screen = await screenAfter('a\x1b[1;31mbc\x1b[0m\x1b[34md\x1b[0m\x1b[7m  \x1b[0m   ');
    expect(screen.view().lines[0]).toEqual([
      { text: 'a' },
      { text: 'bc', fg: 9, bold: true },
      { text: 'd', fg: 4 },
      { text: '  ', inverse: true },
    ]);
  });

  it('keeps the last rows as the output scrolls, and a wide character in one cell of text', async () => {
    const screen = await screenAfter('1\r\n2\r\n3\r\n4\r\n5 日本', 10, 3);
    expect(screen.text()).toEqual(['3', '4', '5 日本']);
    expect(screen.view().cursor).toEqual({ row: 2, col: 6, visible: true });
  });

  it('says when the cursor is hidden and when arrows are application keys', async () => {
    const screen = await screenAfter('\x1b[?25l\x1b[?1h');
    expect(screen.view()).toMatchObject({
      cursor: { visible: false },
      appCursorKeys: true,
    });
  });

  it('resizes within the bounds', async () => {
    const screen = await screenAfter('hi');
    screen.resize(100_000, 0);
    expect(screen.view()).toMatchObject({ cols: 400, rows: 1 });
  });
});
