/**
 * A terminal's output as the transcript shows it while the command runs: the end of what it
 * wrote, sent again as it grows, and once more when it ends.
 *
 * A command can write thousands of times a second (a build, `yes`); each write must not become
 * a message to the UI. Writes only mark the terminal as changed, and what it shows is sent at
 * most once per {@link SHOW_EVERY_MS}, bounded to the contract's {@link MAX_TERMINAL_VIEW_CHARS}.
 * Its end is sent at once, so the exit status never waits.
 */
import { MAX_TERMINAL_VIEW_CHARS, type TranscriptEvent } from '../../../preload/shared/contract.js';
import type { Terminal } from './terminal.js';

/** How often, at most, a terminal's output is sent to the UI while its command writes. */
export const SHOW_EVERY_MS = 100;

/** What the transcript is told of a terminal. */
export type TerminalShown = Extract<TranscriptEvent, { type: 'terminal_output' }>;

/**
 * The end of `text` that fits in `max` characters. A cut starts at the next line (an escape
 * sequence cut in half would show as text; a colour never spans lines), unless the kept part
 * has no line break at all; and never in the middle of a surrogate pair.
 */
export function shownTail(
  text: string,
  truncated: boolean,
  max = MAX_TERMINAL_VIEW_CHARS,
): { output: string; truncated: boolean } {
  if (text.length <= max) {
    return { output: text, truncated };
  }
  let tail = text.slice(text.length - max);
  const line = tail.indexOf('\n');
  if (line !== -1 && line < tail.length - 1) {
    tail = tail.slice(line + 1);
  } else if (/^[\udc00-\udfff]/.test(tail)) {
    tail = tail.slice(1);
  }
  return { output: tail, truncated: true };
}

/**
 * Sends what `terminal` shows through `show`: soon after it starts, at most every `everyMs`
 * while it writes, and at once when it ends. Stops after the end.
 */
export function showLive(
  terminal: Terminal,
  terminalId: string,
  show: (event: TerminalShown) => void,
  everyMs = SHOW_EVERY_MS,
): void {
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const send = () => {
    timer = undefined;
    const exit = terminal.exit;
    show({
      type: 'terminal_output',
      terminalId,
      ...shownTail(terminal.output.text(exit !== undefined), terminal.output.truncated),
      ...(exit
        ? {
            exitStatus: {
              exitCode: exit.exitCode,
              signal: exit.signal,
              ...(terminal.stoppedBy ? { stoppedBy: terminal.stoppedBy } : {}),
            },
          }
        : {}),
    });
  };
  const changed = () => {
    if (!ended && timer === undefined) {
      timer = setTimeout(send, everyMs);
      timer.unref();
    }
  };
  const stopWatching = terminal.onOutput(changed);
  // Shown as running at once, even before it writes anything.
  changed();
  void terminal.exited.then(() => {
    ended = true;
    stopWatching();
    clearTimeout(timer);
    send();
  });
}
