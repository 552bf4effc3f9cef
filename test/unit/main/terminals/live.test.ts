import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_TERMINAL_VIEW_CHARS,
  type TranscriptEvent,
} from '../../../../preload/shared/contract.js';
import {
  SHOW_EVERY_MS,
  shownTail,
  showLive,
  type TerminalShown,
} from '../../../../main/core/terminals/live.js';
import type { Terminal, TerminalExit } from '../../../../main/core/terminals/terminal.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const agent = fixtureSpec('terminal');
const node = process.execPath;

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });
// Registered after the core's disposal, so it runs first: the core stops on real timers.
afterEach(() => {
  vi.useRealTimers();
});

/** A terminal whose writes and end the test makes. */
function fakeTerminal() {
  let text = '';
  let exit: TerminalExit | undefined;
  let end!: (exit: TerminalExit) => void;
  const listeners = new Set<() => void>();
  const exited = new Promise<TerminalExit>((resolve) => (end = resolve));
  const terminal = {
    // A `~` at the end stands for a character half written: held back while the command runs.
    output: { text: (ended: boolean) => (ended ? text : text.replace(/~$/, '')), truncated: false },
    get exit() {
      return exit;
    },
    exited,
    onOutput(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as Terminal;
  return {
    terminal,
    write(chunk: string) {
      text += chunk;
      for (const listener of listeners) {
        listener();
      }
    },
    end(status: TerminalExit) {
      exit = status;
      end(status);
    },
  };
}

describe('showLive', () => {
  it('sends at most one view per interval however often the command writes, and its end at once', async () => {
    vi.useFakeTimers();
    const fake = fakeTerminal();
    const shown: TerminalShown[] = [];
    showLive(fake.terminal, 'term_1', (event) => shown.push(event));
    // A second of a chatty command: a write every millisecond.
    for (let ms = 0; ms < 1000; ms++) {
      fake.write(`${ms}\n`);
      vi.advanceTimersByTime(1);
    }
    expect(shown.length).toBeGreaterThanOrEqual(1000 / SHOW_EVERY_MS - 1);
    expect(shown.length).toBeLessThanOrEqual(1000 / SHOW_EVERY_MS + 1);
    expect(shown.every((event) => event.exitStatus === undefined)).toBe(true);
    const before = shown.length;
    fake.end({ exitCode: 3, signal: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown.slice(before)).toEqual([
      {
        type: 'terminal_output',
        terminalId: 'term_1',
        output: Array.from({ length: 1000 }, (_, ms) => `${ms}\n`).join(''),
        truncated: false,
        exitStatus: { exitCode: 3, signal: null },
      },
    ]);
    // Nothing after the end.
    fake.write('late\n');
    await vi.advanceTimersByTimeAsync(SHOW_EVERY_MS * 2);
    expect(shown.length).toBe(before + 1);
  });
});

describe('showLive, before the command writes', () => {
  it('shows a terminal as running soon after it starts, and once more when it ends', async () => {
    vi.useFakeTimers();
    const fake = fakeTerminal();
    const shown: TerminalShown[] = [];
    showLive(fake.terminal, 'term_2', (event) => shown.push(event), 50);
    vi.advanceTimersByTime(49);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([
      { type: 'terminal_output', terminalId: 'term_2', output: '', truncated: false },
    ]);
    // A character half written is held back while it runs, and shown once it has ended.
    fake.write('ab~');
    vi.advanceTimersByTime(50);
    expect(shown.at(-1)?.output).toBe('ab');
    fake.end({ exitCode: null, signal: 'SIGTERM' });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown.at(-1)).toEqual({
      type: 'terminal_output',
      terminalId: 'term_2',
      output: 'ab~',
      truncated: false,
      exitStatus: { exitCode: null, signal: 'SIGTERM' },
    });
    expect(shown).toHaveLength(3);
  });
});

describe('shownTail', () => {
  it('keeps the end within the bound, from a line start, and says it cut', () => {
    const text = `${'a'.repeat(50)}\n\u001b[31m${'b'.repeat(40)}\n${'c'.repeat(30)}\n`;
    // Cut inside the coloured line: it goes whole, escape and all.
    const { output, truncated } = shownTail(text, false, 60);
    expect(output).toBe(`${'c'.repeat(30)}\n`);
    expect(truncated).toBe(true);
    // Cut just before a line break: the kept part starts at the line after it.
    expect(shownTail(text, false, 80).output).toBe(
      `\u001b[31m${'b'.repeat(40)}\n${'c'.repeat(30)}\n`,
    );
    expect(shownTail('short\n', false, 80)).toEqual({ output: 'short\n', truncated: false });
    expect(shownTail('short\n', true, 80)).toEqual({ output: 'short\n', truncated: true });
  });

  it('keeps text of exactly the bound whole, and a kept part whose only break ends it', () => {
    expect(shownTail('abc', false, 3)).toEqual({ output: 'abc', truncated: false });
    // The only line break is the last character: the cut line is kept from where it was cut.
    expect(shownTail('abcdefg\n', false, 4)).toEqual({ output: 'efg\n', truncated: true });
    expect(shownTail('abcdefg', false, 4)).toEqual({ output: 'defg', truncated: true });
  });

  it('never starts with half a surrogate pair when a long line is cut', () => {
    const { output } = shownTail('😀'.repeat(10), false, 5);
    expect(output).toBe('😀😀');
    // Only a cut at the start of the kept part is moved; a pair further on is kept.
    expect(shownTail('xxa😀', false, 3).output).toBe('a😀');
  });
});

/** A core with the terminal fixture agent and one ready session of it. */
const started = () => startWith(agent);

function outputs(events: TranscriptEvent[]): TerminalShown[] {
  return events.filter((event): event is TerminalShown => event.type === 'terminal_output');
}

describe('terminal output through the core', () => {
  it('arrives as the command writes, bounded, and far fewer times than it writes', async () => {
    const run = await started();
    // 600 lines of 1000 characters, one per millisecond or so: 600 KB in 600 writes.
    const script =
      "let i = 0; const t = setInterval(() => { process.stdout.write('\\u001b[32m' + String(i).padStart(999, '.') + '\\n'); if (++i === 600) clearInterval(t); }, 1);";
    const began = Date.now();
    await run.core.invoke('session:prompt', {
      key: run.key,
      text: JSON.stringify({
        calls: [
          { method: 'terminal/create', params: { command: node, args: ['-e', script] } },
          { method: 'terminal/wait_for_exit', params: { terminalId: '$last' } },
        ],
      }),
    });
    await run.recorder.until(() =>
      outputs(run.recorder.transcript(run.key)).some((e) => e.exitStatus),
    );
    const took = Date.now() - began;
    const shown = outputs(run.recorder.transcript(run.key));
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.length).toBeLessThanOrEqual(took / SHOW_EVERY_MS + 2);
    expect(shown.length).toBeLessThan(600);
    const last = shown.at(-1)!;
    expect(last.exitStatus).toEqual({ exitCode: 0, signal: null });
    expect(last.truncated).toBe(true);
    expect(last.output.length).toBeLessThanOrEqual(MAX_TERMINAL_VIEW_CHARS);
    expect(last.output.length).toBeGreaterThan(MAX_TERMINAL_VIEW_CHARS - 1001);
    expect(last.output.startsWith('\u001b[32m')).toBe(true);
    expect(last.output.endsWith(`${String(599).padStart(999, '.')}\n`)).toBe(true);
    // The stored transcript keeps the terminal's latest view only.
    const stored = outputs((await run.call('session:getTranscript', { key: run.key })).events);
    expect(stored).toEqual([last]);
    expect(run.recorder.dropped).toEqual([]);
  });

  it('stops a running command through terminal:kill, and refuses a terminal it does not hold', async () => {
    const run = await started();
    await run.core.invoke('session:prompt', {
      key: run.key,
      text: JSON.stringify({
        calls: [{ method: 'terminal/create', params: { command: 'sleep', args: ['30'] } }],
      }),
    });
    await run.recorder.until(() => outputs(run.recorder.transcript(run.key)).length > 0);
    const { terminalId } = outputs(run.recorder.transcript(run.key))[0]!;
    await run.core.invoke('terminal:kill', { key: run.key, terminalId });
    await run.recorder.until(() =>
      outputs(run.recorder.transcript(run.key)).some(
        (event) => event.exitStatus?.signal === 'SIGTERM',
      ),
    );
    // The UI is told the user stopped it, so it reads "Stopped", not a failure.
    const ended = outputs(run.recorder.transcript(run.key)).find((event) => event.exitStatus);
    expect(ended?.exitStatus).toEqual({ exitCode: null, signal: 'SIGTERM', stoppedBy: 'user' });
    await run.recorder.until(() =>
      run.recorder
        .transcript(run.key)
        .some((event) => event.type === 'system' && / sleep 30 in .*: stopped$/.test(event.text)),
    );
    await expect(
      run.core.invoke('terminal:kill', { key: run.key, terminalId: 'term_nope' }),
    ).rejects.toThrow(/no longer running here/);
  });
});
