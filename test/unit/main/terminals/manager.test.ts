import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  exitText,
  MAX_TERMINALS_PER_SESSION,
  SessionTerminals,
} from '../../../../main/core/terminals/manager.js';
import type { TerminalShown } from '../../../../main/core/terminals/live.js';
import { Terminal } from '../../../../main/core/terminals/terminal.js';
import { deadline } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

const node = process.execPath;
let folder: string;
let lines: { id: string; text: string }[];
let terminals: SessionTerminals;

beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'airlock-terminals-')));
  lines = [];
  terminals = bounded(
    new SessionTerminals(folder, {
      line: (id, text) => lines.push({ id, text }),
      output: () => undefined,
    }),
  );
});

afterEach(async () => {
  vi.restoreAllMocks();
  await terminals.close();
  await rm(folder, { recursive: true, force: true });
});

/**
 * `terminals` with a deadline on each answer (the longest, a stop, takes the 2 s grace period):
 * a change that leaves a command unstarted, unended or unstopped fails the test in seconds,
 * naming the call it waited for, not at the test's timeout.
 */
function bounded(session: SessionTerminals): SessionTerminals {
  return new Proxy(session, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') {
        return value;
      }
      return (...args: unknown[]): unknown => {
        const result: unknown = value.apply(target, args);
        const call = `terminals.${String(key)}(${JSON.stringify(args[0]) ?? ''})`;
        return result instanceof Promise ? deadline(result, `${call} to settle`, 5_000) : result;
      };
    },
  });
}

/** Runs a command to its end; resolves with its exit status and final output. */
async function run(command: string, args: string[], extra: Record<string, unknown> = {}) {
  const { terminalId } = await terminals.create({ sessionId: 's', command, args, ...extra });
  const exit = await terminals.waitForExit({ sessionId: 's', terminalId });
  const output = await terminals.output({ sessionId: 's', terminalId });
  return { terminalId, exit, output };
}

/** The pids a command wrote to `file`, once it has written `count` of them. */
async function pidsIn(file: string, count: number): Promise<number[]> {
  let pids: number[] = [];
  await vi.waitFor(
    async () => {
      const text = await readFile(file, 'utf8').catch(() => '');
      pids = text.split('\n').filter(Boolean).map(Number);
      expect(pids.length).toBe(count);
    },
    { timeout: 10_000 },
  );
  return pids;
}

/** A command that starts a child in the background and writes both pids to `file`. */
function parentAndChild(file: string): { command: string; args: string[] } {
  return {
    command: 'sh',
    args: ['-c', 'sleep 100 & echo $! > "$0"; echo $$ >> "$0"; wait', file],
  };
}

describe('terminal/create, output and wait_for_exit', () => {
  it('runs a real command: its output, its exit code, and a line for its start and end', async () => {
    const { exit, output } = await run(node, [
      '-e',
      "process.stdout.write('héllo'); process.exit(3)",
    ]);
    expect(exit).toEqual({ exitCode: 3, signal: null });
    expect(output).toEqual({
      output: 'héllo',
      truncated: false,
      exitStatus: { exitCode: 3, signal: null },
    });
    // One line, replaced when it ended (same id).
    expect(lines).toHaveLength(2);
    expect(lines[0]!.text).toBe(
      `Running: ${node} -e 'process.stdout.write('\\''héllo'\\''); process.exit(3)' in ${folder}`,
    );
    expect(lines[1]).toEqual({
      id: lines[0]!.id,
      text: `Ran: ${lines[0]!.text.slice('Running: '.length)}: exited with code 3`,
    });
  });

  it('reports no exit status while the command runs', async () => {
    const { terminalId } = await terminals.create({
      sessionId: 's',
      command: node,
      args: ['-e', "console.log('up'); setInterval(() => {}, 1000)"],
    });
    await vi.waitFor(async () =>
      expect((await terminals.output({ sessionId: 's', terminalId })).output).toBe('up\n'),
    );
    const running = await terminals.output({ sessionId: 's', terminalId });
    expect(running.exitStatus).toBeUndefined();
  });

  it('runs in the session folder by default, or in a folder inside it', async () => {
    const printCwd = ['-e', 'process.stdout.write(process.cwd())'];
    expect((await run(node, printCwd)).output.output).toBe(folder);
    await mkdir(join(folder, 'sub'));
    expect((await run(node, printCwd, { cwd: join(folder, 'sub') })).output.output).toBe(
      join(folder, 'sub'),
    );
  });

  it("adds the agent's env to Airlock's own environment", async () => {
    const { output } = await run(
      node,
      [
        '-e',
        'process.stdout.write(`${process.env.AIRLOCK_TERM_TEST} ${Boolean(process.env.PATH)}`)',
      ],
      { env: [{ name: 'AIRLOCK_TERM_TEST', value: 'from the agent' }] },
    );
    expect(output.output).toBe('from the agent true');
  });

  it('passes arguments as they are, without a shell', async () => {
    const { output } = await run('echo', ['$(echo hi)', '*', 'a;b', '`id`']);
    expect(output.output).toBe('$(echo hi) * a;b `id`\n');
  });

  it('keeps the last outputByteLimit bytes, cut at a character boundary, and says so', async () => {
    // 100 euro signs, 3 bytes each: a limit of 10 keeps 3 of them (9 bytes), never a broken one.
    const { output } = await run(node, ['-e', "process.stdout.write('€'.repeat(100))"], {
      outputByteLimit: 10,
    });
    expect(output.output).toBe('€€€');
    expect(output.truncated).toBe(true);
  });

  it('refuses a program that is not there, saying so', async () => {
    await expect(
      terminals.create({ sessionId: 's', command: 'airlock-no-such-program' }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('was not found') });
  });

  it('refuses an env entry it cannot set as asked', async () => {
    await expect(
      terminals.create({ sessionId: 's', command: 'true', env: [{ name: 'A=B', value: 'x' }] }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

describe('a cwd outside the session folder', () => {
  it.each([
    ['a folder elsewhere', () => dirname(folder)],
    ['a path that leaves with ..', () => join(folder, '..')],
    ['a relative path', () => 'sub'],
    ['a folder that does not exist', () => join(folder, 'missing')],
  ])('is refused: %s', async (_name, cwd) => {
    await expect(
      terminals.create({ sessionId: 's', command: 'true', cwd: cwd() }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('cwd') });
    expect(lines.at(-1)?.text).toMatch(/^Refused to run true in /);
    expect(terminals.size).toBe(0);
  });

  it('is refused through a symlink inside the folder that leads out', async () => {
    await symlink(dirname(folder), join(folder, 'out'));
    await expect(
      terminals.create({ sessionId: 's', command: 'true', cwd: join(folder, 'out') }),
    ).rejects.toMatchObject({ message: expect.stringContaining("outside the session's folder") });
  });
});

describe('terminal/kill and terminal/release', () => {
  it('kill stops the command and keeps its output and exit status', async () => {
    const { terminalId } = await terminals.create({
      sessionId: 's',
      command: node,
      args: ['-e', "console.log('started'); setInterval(() => {}, 1000)"],
    });
    await vi.waitFor(async () =>
      expect((await terminals.output({ sessionId: 's', terminalId })).output).toBe('started\n'),
    );
    await terminals.kill({ sessionId: 's', terminalId });
    const exit = await terminals.waitForExit({ sessionId: 's', terminalId });
    expect(exit).toEqual({ exitCode: null, signal: 'SIGTERM' });
    expect(await terminals.output({ sessionId: 's', terminalId })).toEqual({
      output: 'started\n',
      truncated: false,
      exitStatus: { exitCode: null, signal: 'SIGTERM' },
    });
    // Told to a person as a stop, not a failure; the agent's exit status is ACP's, unchanged.
    expect(lines.at(-1)?.text).toMatch(/: stopped by the agent$/);
  });

  it('release forgets the terminal: later calls on it are refused', async () => {
    const { terminalId } = await run('true', []);
    await terminals.release({ sessionId: 's', terminalId });
    await expect(terminals.output({ sessionId: 's', terminalId })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('no terminal'),
    });
    await expect(terminals.release({ sessionId: 's', terminalId })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('refuses an id it never gave', async () => {
    await expect(
      terminals.waitForExit({ sessionId: 's', terminalId: 'term_nope' }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('term_nope') });
  });

  it('answers a withdrawn wait_for_exit with a cancelled error', async () => {
    const { terminalId } = await terminals.create({
      sessionId: 's',
      command: 'sleep',
      args: ['100'],
    });
    const abort = new AbortController();
    const waiting = terminals.waitForExit({ sessionId: 's', terminalId }, abort.signal);
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ code: -32800 });
  });
});

describe('clean-up', () => {
  it('release stops the command and the child it started in the background', async () => {
    const file = join(folder, 'pids');
    const { command, args } = parentAndChild(file);
    const { terminalId } = await terminals.create({ sessionId: 's', command, args });
    const pids = await pidsIn(file, 2);
    expect(pids.every(alive)).toBe(true);
    await terminals.release({ sessionId: 's', terminalId });
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]));
  });

  it('close stops every terminal, and takes no new one', async () => {
    const files = [join(folder, 'a'), join(folder, 'b')];
    for (const file of files) {
      await terminals.create({ sessionId: 's', ...parentAndChild(file) });
    }
    const pids = (await Promise.all(files.map((file) => pidsIn(file, 2)))).flat();
    await terminals.close();
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]));
    await expect(terminals.create({ sessionId: 's', command: 'true' })).rejects.toMatchObject({
      message: expect.stringContaining('ended'),
    });
  });
});

describe('the limit', () => {
  it(`holds at most ${MAX_TERMINALS_PER_SESSION} terminals per session until one is released`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < MAX_TERMINALS_PER_SESSION; i++) {
      ids.push(
        (await terminals.create({ sessionId: 's', command: 'sleep', args: ['100'] })).terminalId,
      );
    }
    await expect(
      terminals.create({ sessionId: 's', command: 'sleep', args: ['100'] }),
    ).rejects.toMatchObject({ message: expect.stringContaining('release one first') });
    await terminals.release({ sessionId: 's', terminalId: ids[0]! });
    await expect(terminals.create({ sessionId: 's', command: 'true' })).resolves.toHaveProperty(
      'terminalId',
    );
  });
});

describe('what it refuses, and how it says so', () => {
  it('refuses each env entry it cannot set as asked, naming at most 100 characters of it', async () => {
    for (const entry of [
      { name: '', value: 'x' },
      { name: 'A\0B', value: 'x' },
      { name: 'A', value: 'x\0y' },
    ]) {
      await expect(
        terminals.create({ sessionId: 's', command: 'true', env: [entry] }),
      ).rejects.toMatchObject({
        code: -32602,
        message: `Invalid params: env: ${JSON.stringify(entry.name)} cannot be set as an environment variable.`,
      });
    }
    await expect(
      terminals.create({
        sessionId: 's',
        command: 'true',
        env: [{ name: `${'N'.repeat(150)}=`, value: '' }],
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining(`"${'N'.repeat(100)}" cannot`) });
    expect(terminals.size).toBe(0);
  });

  it('says why a program cannot be run, or could not be started', async () => {
    const script = join(folder, 'script.sh');
    await writeFile(script, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    await expect(terminals.create({ sessionId: 's', command: script })).rejects.toMatchObject({
      code: -32602,
      message: `Invalid params: ${script} cannot be run (permission denied).`,
    });
    await expect(
      terminals.create({ sessionId: 's', command: 'airlock-no-such-program' }),
    ).rejects.toMatchObject({
      message:
        'Invalid params: airlock-no-such-program was not found (no such file, or no program of that name on the PATH; commands run without a shell).',
    });
    // Any other failure is named with Node's words.
    const under = join(script, 'x');
    await expect(terminals.create({ sessionId: 's', command: under })).rejects.toMatchObject({
      message: `Invalid params: ${under} could not be started (spawn ENOTDIR).`,
    });
  });

  it('refuses a cwd that is a file, saying so to the agent and in the transcript', async () => {
    const file = join(folder, 'plain.txt');
    await writeFile(file, '');
    await expect(
      terminals.create({ sessionId: 's', command: 'true', cwd: file }),
    ).rejects.toMatchObject({
      code: -32602,
      message: `Invalid params: cwd ${file} is not a folder.`,
      data: { cwd: file },
    });
    expect(lines.at(-1)?.text).toBe(`Refused to run true in ${file}: is not a folder.`);
    await expect(
      terminals.create({ sessionId: 's', command: 'true', cwd: join(folder, 'missing') }),
    ).rejects.toMatchObject({
      message: `Invalid params: cwd ${join(folder, 'missing')} does not exist.`,
    });
    await expect(
      terminals.create({ sessionId: 's', command: 'true', cwd: 'sub' }),
    ).rejects.toMatchObject({ message: 'Invalid params: cwd sub is not an absolute path.' });
    await expect(
      terminals.create({ sessionId: 's', command: 'true', cwd: dirname(folder) }),
    ).rejects.toMatchObject({
      message: `Invalid params: cwd ${dirname(folder)} is outside the session's folder (${folder}).`,
    });
  });

  it('quotes a command line as a user would type it, shortened and without control characters', async () => {
    await run('true', ['plain-word_1', 'a b', "it's", 'x=1,y:2/@%+.-', '']);
    expect(lines.at(-1)?.text).toBe(
      `Ran: true plain-word_1 'a b' 'it'\\''s' x=1,y:2/@%+.- '' in ${folder}: exited with code 0`,
    );
    await run('true', ['a\u0001\u001f\u007fb', 'x'.repeat(400)]);
    const quoted = `true 'a???b' ${'x'.repeat(400)}`;
    expect(lines.at(-1)?.text).toBe(
      `Ran: ${quoted.slice(0, 299)}… in ${folder}: exited with code 0`,
    );
    await run('true', ['y'.repeat(295)]);
    // 300 characters exactly are kept whole.
    expect(lines.at(-1)?.text).toBe(
      `Ran: true ${'y'.repeat(295)} in ${folder}: exited with code 0`,
    );
  });

  it('names at most 100 characters of a terminal id it does not hold', async () => {
    const id = `term_${'z'.repeat(200)}`;
    await expect(terminals.output({ sessionId: 's', terminalId: id })).rejects.toMatchObject({
      code: -32602,
      message: `Invalid params: no terminal "${id.slice(0, 100)}" in this session (it was never created, or was released).`,
      data: { terminalId: id.slice(0, 100) },
    });
  });
});

describe('a command as a terminal runs it', () => {
  it('gives it no input: its stdin is /dev/null, so a command that reads it ends at once', async () => {
    const { output } = await run(node, [
      '-e',
      "const s = require('fs').fstatSync(0); process.stdout.write(`${s.isCharacterDevice()} ${s.isFIFO()}`)",
    ]);
    expect(output.output).toBe('true false');
  });

  it('ends when the command exits, though a child it left running holds its output open', async () => {
    const file = join(folder, 'pid');
    const { exit } = await run('sh', ['-c', 'sleep 100 & echo $! > "$0"', file]);
    expect(exit).toEqual({ exitCode: 0, signal: null });
    const [child] = await pidsIn(file, 1);
    // Still running in the background until the session's terminals close.
    expect(alive(child!)).toBe(true);
  });

  it('kills a command that ignores SIGTERM once the grace period is over', async () => {
    const { terminalId } = await terminals.create({
      sessionId: 's',
      command: node,
      args: [
        '-e',
        "process.on('SIGTERM', () => {}); console.log(process.pid); setInterval(() => {}, 1000)",
      ],
    });
    let pid = 0;
    await vi.waitFor(async () => {
      const { output } = await terminals.output({ sessionId: 's', terminalId });
      expect(output).toMatch(/^\d+\n$/);
      pid = Number(output);
    });
    try {
      await terminals.kill({ sessionId: 's', terminalId });
      expect(await terminals.waitForExit({ sessionId: 's', terminalId })).toEqual({
        exitCode: null,
        signal: 'SIGKILL',
      });
      expect(lines.at(-1)?.text).toMatch(/: stopped by the agent$/);
    } finally {
      // A change that never sends SIGKILL would leave it running after the test fails.
      if (alive(pid)) {
        process.kill(pid, 'SIGKILL');
      }
    }
  });

  it('reports the output of a running command without an exit status, a half-written character held back', async () => {
    const { terminalId } = await terminals.create({
      sessionId: 's',
      command: node,
      args: [
        '-e',
        "process.stdout.write(Buffer.from('x€').subarray(0, 3)); setInterval(() => {}, 1000)",
      ],
    });
    await vi.waitFor(async () =>
      expect((await terminals.output({ sessionId: 's', terminalId })).output).toBe('x'),
    );
    expect(await terminals.output({ sessionId: 's', terminalId })).toEqual({
      output: 'x',
      truncated: false,
    });
  });
});

describe('ending while it starts', () => {
  it('counts creates under way against the limit', async () => {
    const creating = Array.from({ length: MAX_TERMINALS_PER_SESSION + 1 }, () =>
      terminals.create({ sessionId: 's', command: 'sleep', args: ['100'] }),
    );
    const settled = await Promise.allSettled(creating);
    expect(settled.filter((result) => result.status === 'rejected')).toHaveLength(1);
    expect(terminals.size).toBe(MAX_TERMINALS_PER_SESSION);
  });

  it('stops a command whose session ended while it started, and answers that it ended', async () => {
    const file = join(folder, 'pid');
    const creating = terminals.create({
      sessionId: 's',
      command: 'sh',
      args: ['-c', 'echo $$ > "$0"; sleep 100', file],
    });
    await terminals.close();
    await expect(creating).rejects.toMatchObject({
      message: expect.stringContaining('the session has ended'),
    });
    expect(terminals.size).toBe(0);
    // No line for a terminal that never was, and none for its end.
    expect(lines).toEqual([]);
  });

  it('adds no line for the end of a command stopped because its session ended', async () => {
    await terminals.create({ sessionId: 's', command: 'sleep', args: ['100'] });
    await terminals.close();
    expect(lines.map((line) => line.text)).toEqual([`Running: sleep 100 in ${folder}`]);
  });

  it('answers a wait withdrawn before it began with a cancelled error, at once', async () => {
    const { terminalId } = await terminals.create({
      sessionId: 's',
      command: 'sleep',
      args: ['100'],
    });
    const abort = new AbortController();
    abort.abort();
    const waiting = terminals.waitForExit({ sessionId: 's', terminalId }, abort.signal);
    const turn = new Promise((resolve) => setImmediate(() => resolve('still waiting')));
    await expect(Promise.race([waiting, turn])).rejects.toMatchObject({
      code: -32800,
      message: expect.stringContaining('the wait was withdrawn'),
    });
  });
});

describe('what the transcript and the agent are told', () => {
  it('gives each terminal and each refusal a line of its own, replaced only by its own end', async () => {
    const first = await run('true', []);
    const second = await run('true', []);
    expect(terminals.has(first.terminalId)).toBe(true);
    await expect(terminals.create({ sessionId: 's', command: 'true', cwd: 'a' })).rejects.toThrow();
    await expect(terminals.create({ sessionId: 's', command: 'true', cwd: 'b' })).rejects.toThrow();
    // Two lines per command (its start, then its end in its place), one per refusal.
    const ids = lines.map((line) => line.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.slice(0, 4)).toEqual([
      `terminal-${first.terminalId}`,
      `terminal-${first.terminalId}`,
      `terminal-${second.terminalId}`,
      `terminal-${second.terminalId}`,
    ]);
    expect(ids[4]).toMatch(/^terminal-refused-/);
    expect(ids[5]).toMatch(/^terminal-refused-/);
    expect(ids[4]).not.toBe(ids[5]);
  });

  it('shows what a terminal writes as it runs, and how it ended', async () => {
    const shown: TerminalShown[] = [];
    const watched = bounded(
      new SessionTerminals(folder, {
        line: () => undefined,
        output: (event) => shown.push(event),
      }),
    );
    try {
      const { terminalId } = await watched.create({
        sessionId: 's',
        command: node,
        args: ['-e', "process.stdout.write('hi')"],
      });
      await vi.waitFor(() =>
        expect(shown.at(-1)).toEqual({
          type: 'terminal_output',
          terminalId,
          output: 'hi',
          truncated: false,
          exitStatus: { exitCode: 0, signal: null },
        }),
      );
    } finally {
      await watched.close();
    }
  });

  it('runs a command given no args with none', async () => {
    const { terminalId } = await terminals.create({ sessionId: 's', command: 'echo' });
    await terminals.waitForExit({ sessionId: 's', terminalId });
    expect((await terminals.output({ sessionId: 's', terminalId })).output).toBe('\n');
  });

  it('shows a half-written character at the end of the output once the command has ended', async () => {
    const { output } = await run(node, [
      '-e',
      "process.stdout.write(Buffer.from('x€').subarray(0, 3))",
    ]);
    expect(output.output).toBe('x\ufffd');
  });

  it('refuses a create once the session has ended, before it checks or starts anything', async () => {
    await terminals.close();
    await expect(
      terminals.create({ sessionId: 's', command: 'airlock-no-such-program', cwd: 'relative' }),
    ).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('the session has ended'),
    });
    expect(lines).toEqual([]);
  });

  it("quotes at most 300 characters of a start failure's own words", async () => {
    // Out of file descriptors, Node names the whole program in its words (up to PATH_MAX).
    const words = `spawn ${'/deep'.repeat(200)} EMFILE`;
    vi.spyOn(Terminal, 'start').mockRejectedValueOnce(
      Object.assign(new Error(words), { code: 'EMFILE' }),
    );
    await expect(terminals.create({ sessionId: 's', command: 'true' })).rejects.toMatchObject({
      message: `Invalid params: true could not be started (${words.slice(0, 300)}).`,
    });
  });

  it('says "exited with code ?" for an end with neither code nor signal', () => {
    expect(exitText({ exitCode: null, signal: null })).toBe('exited with code ?');
    expect(exitText({ exitCode: 0, signal: null })).toBe('exited with code 0');
  });

  it('says who stopped a command, and names a signal only when nobody here sent it', () => {
    const killed = { exitCode: null, signal: 'SIGTERM' };
    expect(exitText(killed, 'user')).toBe('stopped');
    expect(exitText(killed, 'agent')).toBe('stopped by the agent');
    expect(exitText(killed, 'airlock')).toBe('stopped when the session ended');
    expect(exitText({ exitCode: null, signal: 'SIGKILL' })).toBe('ended by the system (SIGKILL)');
    expect(exitText({ exitCode: 3, signal: null })).toBe('exited with code 3');
  });
});
