/**
 * A sign-in terminal's screen: the command's output run through xterm's headless emulator, read
 * back as lines of styled runs and a cursor for the UI to draw as text.
 *
 * The emulator runs here, not in the window: xterm.js's DOM renderer injects `<style>` elements,
 * which the window's Content Security Policy (`style-src 'self'`) refuses. The UI gets the
 * screen, never the raw bytes, so nothing the command prints reaches it as markup or escapes.
 */
import type * as Xterm from '@xterm/headless';
import {
  MAX_TERMINAL_COLS,
  MAX_TERMINAL_ROWS,
  type TerminalRun,
} from '../../../preload/shared/contract.js';
import { onFirstUse } from '../on-first-use.js';

// xterm's headless build is CommonJS whose exports an ES import cannot name in Node; it loads
// with the first sign-in terminal.
const xterm = onFirstUse<typeof Xterm>('@xterm/headless');

/** The screen as the UI draws it (the contract's TerminalScreen without the tab's fields). */
export type ScreenView = {
  cols: number;
  rows: number;
  lines: TerminalRun[][];
  cursor: { row: number; col: number; visible: boolean };
  appCursorKeys: boolean;
};

/** The longest text one run carries: a line's cells, each at most two UTF-16 units as a rule. */
const MAX_RUN_CHARS = MAX_TERMINAL_COLS * 2;

/** The part of xterm's core the public API leaves out: whether the cursor is hidden (DECTCEM). */
type CoreWithCursor = { _core?: { coreService?: { isCursorHidden?: boolean } } };

/** A headless terminal and what it shows. */
export class TerminalScreenModel {
  private readonly terminal: Xterm.Terminal;

  constructor(cols: number, rows: number) {
    this.terminal = new (xterm().Terminal)({
      cols: clamp(cols, 1, MAX_TERMINAL_COLS),
      rows: clamp(rows, 1, MAX_TERMINAL_ROWS),
      allowProposedApi: true,
      scrollback: 0,
    });
  }

  /** Feeds the command's output; `parsed` runs once the emulator has taken it in. */
  write(data: string, parsed?: () => void): void {
    this.terminal.write(data, parsed);
  }

  /** Resizes the screen (the command is told through its pseudo-terminal, not here). */
  resize(cols: number, rows: number): void {
    this.terminal.resize(clamp(cols, 1, MAX_TERMINAL_COLS), clamp(rows, 1, MAX_TERMINAL_ROWS));
  }

  /** The screen now: each row's runs (trailing blanks left out), and the cursor. */
  view(): ScreenView {
    const { cols, rows } = this.terminal;
    const buffer = this.terminal.buffer.active;
    const lines: TerminalRun[][] = [];
    let cell: Xterm.IBufferCell | undefined;
    for (let row = 0; row < rows; row++) {
      const line = buffer.getLine(buffer.baseY + row);
      const runs: TerminalRun[] = [];
      for (let col = 0; line && col < cols; col++) {
        cell = line.getCell(col, cell);
        // The second half of a wide character: its first half drew it.
        if (!cell || cell.getWidth() === 0) {
          continue;
        }
        addCell(runs, cell.getChars() || ' ', styleOf(cell));
      }
      lines.push(trimEnd(runs));
    }
    const hidden = (this.terminal as unknown as CoreWithCursor)._core?.coreService?.isCursorHidden;
    return {
      cols,
      rows,
      lines,
      cursor: {
        row: clamp(buffer.cursorY, 0, rows - 1),
        col: clamp(buffer.cursorX, 0, cols),
        visible: hidden !== true,
      },
      appCursorKeys: this.terminal.modes.applicationCursorKeysMode,
    };
  }

  /** The screen's text, one string per row, trailing blanks left out (for tests and logs). */
  text(): string[] {
    return this.view().lines.map((runs) => runs.map((run) => run.text).join(''));
  }

  dispose(): void {
    this.terminal.dispose();
  }
}

type Style = Omit<TerminalRun, 'text'>;

/** A cell's style: one of the 16 ANSI colours (others are drawn in the default), bold, inverse. */
function styleOf(cell: Xterm.IBufferCell): Style {
  const style: Style = {};
  const fg = cell.getFgColor();
  if (cell.isFgPalette() && fg >= 0 && fg < 16) {
    // Bold turns the eight dark colours bright, as terminals draw them.
    style.fg = cell.isBold() && fg < 8 ? fg + 8 : fg;
  }
  if (cell.isBold()) {
    style.bold = true;
  }
  if (cell.isInverse()) {
    style.inverse = true;
  }
  return style;
}

function sameStyle(a: Style, b: Style): boolean {
  return a.fg === b.fg && a.bold === b.bold && a.inverse === b.inverse;
}

/** Adds a cell's text to the last run when its style is the same, else starts a run. */
function addCell(runs: TerminalRun[], chars: string, style: Style): void {
  const last = runs.at(-1);
  if (last && sameStyle(last, style)) {
    if (last.text.length + chars.length <= MAX_RUN_CHARS) {
      last.text += chars;
    }
    return;
  }
  runs.push({ text: chars.slice(0, MAX_RUN_CHARS), ...style });
}

/** Leaves out the blanks that end a line, unless they show (inverse). */
function trimEnd(runs: TerminalRun[]): TerminalRun[] {
  while (runs.length > 0) {
    const last = runs.at(-1)!;
    if (last.inverse) {
      break;
    }
    const trimmed = last.text.replace(/ +$/, '');
    if (trimmed.length > 0) {
      last.text = trimmed;
      break;
    }
    runs.pop();
  }
  return runs;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, Math.floor(value)));
}
