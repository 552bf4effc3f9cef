import { mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_TERMINALS_PER_SESSION,
  SessionTerminals,
} from '../../../../main/core/terminals/manager.js';
import { alive } from '../../../helpers/processes.js';

const node = process.execPath;
let folder: string;
let lines: { id: string; text: string }[];
let terminals: SessionTerminals;

beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'airlock-terminals-')));
  lines = [];
  terminals = new SessionTerminals(folder, {
    line: (id, text) => lines.push({ id, text }),
    output: () => undefined,
  });
});

afterEach(async () => {
  await terminals.close();
  await rm(folder, { recursive: true, force: true });
});

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
    expect(lines.at(-1)?.text).toMatch(/: stopped by SIGTERM$/);
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
