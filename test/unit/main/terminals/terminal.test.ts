/**
 * `Terminal` on its own: what manager.test.ts cannot see through `SessionTerminals` (the output
 * listeners, how soon an end is noticed, the timers a stop leaves) and the Windows branch of
 * `stop`, run here with a stand-in `taskkill` and `process.platform` set to `win32`.
 */
import type * as ChildProcesses from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Terminal, type TerminalCommand } from '../../../../main/core/terminals/terminal.js';

/** `taskkill`'s stand-in: each call's arguments, then an 'error' as if it were not there. */
const taskkills = vi.hoisted(() => [] as { args: string[]; options: unknown }[]);

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof ChildProcesses>();
  const spawn = vi.fn((command: string, args: string[], options: ChildProcesses.SpawnOptions) => {
    if (command !== 'taskkill') {
      return real.spawn(command, args, options);
    }
    taskkills.push({ args, options });
    const child = Object.assign(new EventEmitter(), { unref: () => child });
    setImmediate(() => child.emit('error', new Error('spawn taskkill ENOENT')));
    return child;
  });
  return { ...real, spawn };
});

const { spawn } = await import('node:child_process');
const node = process.execPath;
const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
/** Real timers, kept before a test fakes them: a bound on a wait that must not need them. */
const realSetTimeout = globalThis.setTimeout;
let folder: string;
let started: Terminal[];

beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'airlock-terminal-')));
  started = [];
  taskkills.length = 0;
  vi.mocked(spawn).mockClear();
});

afterEach(async () => {
  Object.defineProperty(process, 'platform', platform);
  vi.useRealTimers();
  await Promise.all(started.map((terminal) => terminal.stop('airlock', 0)));
  await rm(folder, { recursive: true, force: true });
});

async function start(command: string, args: string[]): Promise<Terminal> {
  const spec: TerminalCommand = { command, args, cwd: folder, env: {} };
  const terminal = await within(Terminal.start(spec), 5_000, `${command} did not start`);
  started.push(terminal);
  return terminal;
}

/**
 * Settles with `promise`, or rejects after `ms` of real time saying what never came: a change
 * that leaves a start or an end unannounced fails in seconds, not at the test's timeout.
 */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => realSetTimeout(() => reject(new Error(what)), ms)),
  ]);
}

describe('output listeners', () => {
  it('are called after each piece of output, from stdout and stderr alike, until removed', async () => {
    const terminal = await start(node, [
      '-e',
      "process.on('SIGUSR1', () => { process.stderr.write('b\\n'); process.exit(0); });" +
        "process.stdout.write('a\\n'); setInterval(() => {}, 1000)",
    ]);
    const once = vi.fn();
    const remove = terminal.onOutput(() => {
      once();
      remove();
    });
    const every = vi.fn();
    terminal.onOutput(every);
    await vi.waitFor(() => expect(terminal.output.text(false)).toBe('a\n'));
    // Appended and announced in one step: the listeners have run by the time the text is there.
    expect(once).toHaveBeenCalledTimes(1);
    expect(every).toHaveBeenCalledTimes(1);

    // The pid names the command itself: its signal handler writes the last line, to stderr.
    process.kill(terminal.pid!, 'SIGUSR1');
    expect(await within(terminal.exited, 5_000, 'no end after SIGUSR1')).toEqual({
      exitCode: 0,
      signal: null,
    });
    expect(terminal.output.text(true)).toBe('a\nb\n');
    expect(once).toHaveBeenCalledTimes(1);
    expect(every).toHaveBeenCalledTimes(2);
  });
});

describe('timers', () => {
  it('ends as soon as its output has closed, without waiting for the fallback after the exit', async () => {
    // The fallback's timer never fires while timers are fake: only 'close' can end it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const terminal = await start(node, ['-e', "process.stdout.write('done')"]);
    const exit = await within(terminal.exited, 5_000, 'no end without the fallback timer');
    expect(exit).toEqual({ exitCode: 0, signal: null });
    expect(terminal.output.text(true)).toBe('done');
    // Cleared once the output closed.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind once stopped: a grace timer left running holds the process open', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const terminal = await start('sleep', ['100']);
    await within(terminal.stop('user'), 5_000, 'the stop did not end with the command');
    expect(terminal.exit).toEqual({ exitCode: null, signal: 'SIGTERM' });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('on Windows', () => {
  it('starts the command hidden, in no group of its own (there that would open a console)', async () => {
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    const terminal = await start('sleep', ['100']);
    expect(vi.mocked(spawn)).toHaveBeenCalledWith(
      'sleep',
      ['100'],
      expect.objectContaining({ detached: false, windowsHide: true, shell: false }),
    );
    // Not a group leader, so the stop after the test (on Linux) could not reach it.
    process.kill(terminal.pid!);
    await within(terminal.exited, 5_000, 'no end after SIGTERM');
  });

  it('stops it with taskkill over its whole tree, and kills it itself if taskkill cannot start', async () => {
    const terminal = await start('sleep', ['100']);
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    await within(terminal.stop('user'), 5_000, 'the command was not killed when taskkill failed');
    expect(taskkills).toEqual([
      {
        args: ['/T', '/F', '/PID', String(terminal.pid)],
        options: { windowsHide: true, stdio: 'ignore' },
      },
    ]);
    // Node's own `kill`: SIGTERM to the command alone.
    expect(terminal.exit).toEqual({ exitCode: null, signal: 'SIGTERM' });
  });
});

describe('who stopped a command', () => {
  it('is whoever asked first while it ran, and nobody once it had ended on its own', async () => {
    const running = await Terminal.start({
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
      cwd: process.cwd(),
      env: {},
    });
    await running.stop('user', 0);
    await running.stop('agent', 0);
    expect(running.stoppedBy).toBe('user');

    const done = await Terminal.start({
      command: process.execPath,
      args: ['-e', ''],
      cwd: process.cwd(),
      env: {},
    });
    await done.exited;
    await done.stop('user', 0);
    expect(done.stoppedBy).toBeUndefined();
  });
});
