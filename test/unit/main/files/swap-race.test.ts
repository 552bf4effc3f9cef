/**
 * The attack that found issue 23: a folder inside the session folder swapped, in a tight loop,
 * with a symlink to a folder outside (`renameat2(RENAME_EXCHANGE)`, so the name always exists),
 * while the agent reads and writes through it. No read may return the outside file, no write may
 * create or change anything outside.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileService } from '../../../../main/core/files/service.js';
import type { Session } from '../../../../main/core/session.js';
import { deadline } from '../../../helpers/core-harness.js';

/** How many reads and how many writes race the swapper: a fixed count, so the test is bounded. */
const CALLS = 1000;
const INSIDE = 'inside\n';
const OUTSIDE = 'outside secret\n';

/**
 * Exchanges its two paths atomically, forever: once twice to prove it can, then says `ready`.
 * It stops by itself if its parent goes (a crashed test run) or after two minutes, whichever
 * comes first, so a stray swapper cannot outlive the run.
 */
const SWAPPER = String.raw`
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
AT_FDCWD, RENAME_EXCHANGE = -100, 2
def exchange():
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        raise OSError(ctypes.get_errno(), 'renameat2')
exchange(); exchange()
sys.stdout.write('ready\n'); sys.stdout.flush()
parent, stop, n = os.getppid(), time.monotonic() + 120, 0
while True:
    exchange()
    n += 1
    if n % 4096 == 0 and (os.getppid() != parent or time.monotonic() > stop):
        break
`;

/** Whether python3 with a libc that has `renameat2` is here to run {@link SWAPPER}. */
const canSwap =
  process.platform === 'linux' &&
  spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { stdio: 'ignore' })
    .status === 0;

let root: string;
let outside: string;
let swapper: ChildProcess | undefined;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-swap-')));
  outside = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-swap-outside-')));
});
afterEach(async () => {
  if (swapper && swapper.exitCode === null && swapper.signalCode === null) {
    const exited = once(swapper, 'exit');
    swapper.kill('SIGKILL');
    await exited;
  }
  swapper = undefined;
  await rm(root, { recursive: true, force: true });
  await rm(`${root}-undo`, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** A session in `root` that keeps nothing it is told and allows every write. */
function files(): FileService {
  const session = {
    summary: { cwd: root },
    append: () => undefined,
    requestPermission: async () => ({ outcome: 'selected', optionId: 'write' }),
  } as unknown as Session;
  return new FileService({
    find: () => session,
    askBeforeWrites: () => false,
    nextPromptKey: () => 'p',
    tab: () => session,
    undoDir: `${root}-undo`,
  });
}

/** Starts swapping `a` and `b`; resolves once the swaps run. */
async function swap(a: string, b: string): Promise<void> {
  const child = spawn('python3', ['-c', SWAPPER, a, b], { stdio: ['ignore', 'pipe', 'pipe'] });
  swapper = child;
  let said = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (said += chunk));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => chunk.includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`the swapper exited (${code}): ${said}`)));
  });
  await deadline(ready, 'the swapper to start');
}

/** Counts each answer by its kind: the text read, or the JSON-RPC error code. */
function tally(counts: Map<string, number>, kind: string): void {
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
}

async function answer(call: Promise<unknown>, counts: Map<string, number>): Promise<void> {
  try {
    const result = await call;
    const content = (result as { content?: string }).content;
    tally(counts, content === INSIDE ? 'inside' : content === OUTSIDE ? 'OUTSIDE' : 'ok');
  } catch (error) {
    if (!(error instanceof acp.RequestError)) {
      throw error;
    }
    tally(counts, `error ${error.code}`);
  }
}

describe.runIf(canSwap)('a folder swapped with a symlink out while it is used', () => {
  it(`reads nothing outside in ${CALLS} reads and writes nothing outside in ${CALLS} writes`, async () => {
    const folder = path.join(root, 'sub');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'f.txt'), INSIDE);
    writeFileSync(path.join(outside, 'f.txt'), OUTSIDE);
    symlinkSync(outside, path.join(root, 'link'));
    await swap(folder, path.join(root, 'link'));
    const service = files();
    const reads = new Map<string, number>();
    for (let i = 0; i < CALLS; i++) {
      const read = service.read(undefined, { sessionId: 's', path: path.join(folder, 'f.txt') });
      await answer(read, reads);
    }
    const writes = new Map<string, number>();
    for (let i = 0; i < CALLS; i++) {
      // Half replace a file that is there, half create a file in a folder that is not.
      const file = i % 2 === 0 ? path.join(folder, 'w.txt') : path.join(folder, `d${i}`, 'w.txt');
      const write = service.write(undefined, { sessionId: 's', path: file, content: `${i}\n` });
      await answer(write, writes);
    }
    const report = `reads ${JSON.stringify([...reads])}, writes ${JSON.stringify([...writes])}`;
    const leaked = {
      readsOfTheOutsideFile: reads.get('OUTSIDE') ?? 0,
      entriesOutside: readdirSync(outside),
      outsideText: readFileSync(path.join(outside, 'f.txt'), 'utf8'),
    };
    expect(leaked, report).toEqual({
      readsOfTheOutsideFile: 0,
      entriesOutside: ['f.txt'],
      outsideText: OUTSIDE,
    });
    // The race ran: some calls met the symlink (and were refused), some the folder.
    expect(reads.get('error -32602') ?? 0, report).toBeGreaterThan(0);
    expect(reads.get('inside') ?? 0, report).toBeGreaterThan(0);
    expect(writes.get('ok') ?? 0, report).toBeGreaterThan(0);
    // No other answer: no internal error, no file reported missing.
    for (const kind of [...reads.keys(), ...writes.keys()]) {
      expect(['inside', 'ok', 'error -32602'], report).toContain(kind);
    }
  });
});
