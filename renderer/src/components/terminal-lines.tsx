/**
 * The sign-in terminal's screen as text: each row's runs in their colours, and the cursor drawn
 * over the cell it is on while the command runs (styles in sign-in-terminal.css).
 */
import type { TerminalRun, TerminalScreen } from '../../../preload/shared/contract';

/** The screen's rows, the cursor drawn over the cell it is on while the command runs. */
export function TerminalLines({ screen }: { screen: TerminalScreen }) {
  const { cursor } = screen;
  const showCursor = cursor.visible && !screen.exited;
  return (
    <div className="sign-in-terminal-lines">
      {screen.lines.map((runs, row) => (
        // The rows are positions on the screen: their index is what they are.
        <div className="sign-in-terminal-row" key={row}>
          {showCursor && row === cursor.row ? withCursor(runs, cursor.col) : runs.map(drawRun)}
          {'\n'}
        </div>
      ))}
    </div>
  );
}

function runClass(run: Omit<TerminalRun, 'text'>): string | undefined {
  const names = [
    run.fg !== undefined ? `term-fg-${run.fg}` : '',
    run.bold ? 'term-bold' : '',
    run.inverse ? 'term-inverse' : '',
  ].filter(Boolean);
  return names.length ? names.join(' ') : undefined;
}

function drawRun(run: TerminalRun, index: number) {
  return (
    <span key={index} className={runClass(run)}>
      {run.text}
    </span>
  );
}

/** The row's runs with the character at `col` (a space past the end) drawn as the cursor. */
function withCursor(runs: TerminalRun[], col: number) {
  const out = [];
  let at = 0;
  let drawn = false;
  runs.forEach((run, index) => {
    const chars = [...run.text];
    if (!drawn && col >= at && col < at + chars.length) {
      const before = chars.slice(0, col - at).join('');
      const under = chars[col - at];
      const after = chars.slice(col - at + 1).join('');
      out.push(
        <span key={index} className={runClass(run)}>
          {before}
          <span className="term-cursor">{under}</span>
          {after}
        </span>,
      );
      drawn = true;
    } else {
      out.push(drawRun(run, index));
    }
    at += chars.length;
  });
  if (!drawn) {
    out.push(
      <span key="pad">{' '.repeat(Math.max(0, col - at))}</span>,
      <span key="cursor" className="term-cursor">
        {' '}
      </span>,
    );
  }
  return out;
}
