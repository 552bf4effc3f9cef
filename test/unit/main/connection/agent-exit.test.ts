/**
 * How an agent's end is told and how its process is stopped, on a stand-in process whose exit,
 * output and 'close' the test orders (test/fixtures/conn-stand-in.ts): the states here are the
 * ones a real process reaches only when a race goes one way. The same paths with real agents:
 * crash.test.ts, stop.test.ts, connection-robustness.test.ts.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { getEventListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentExit } from '../../../../preload/shared/contract.js';
import {
  AgentConnection,
  agentLogPath,
  STOP_GRACE_MS,
  withTimeout,
} from '../../../../main/core/agent-connection.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import { StandInProcess, standInDelegate, standInSpec } from '../../../fixtures/conn-stand-in.js';
import { deadline } from '../../../helpers/core-harness.js';

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Starts a connection to `agent`; `logsDir` is a fresh folder unless given. `ended` resolves with
 * the end the connection reports.
 */
async function start(agent: StandInProcess, logsDir?: string) {
  let reported: (exit: AgentExit) => void = () => undefined;
  const ended = new Promise<AgentExit>((resolve) => {
    reported = resolve;
  });
  const start = AgentConnection.start(standInSpec(agent), {
    logsDir: logsDir ?? (await mkdtemp(join(tmpdir(), 'airlock-conn-logs-'))),
    delegate: standInDelegate((exit) => reported(exit)),
    // A short grace period: the tests wait for the connection to look, not for the time.
    timeouts: { requestMs: 10_000, cancelGraceMs: 10 },
  });
  const connection = await deadline(start, 'the connection to start', 5_000);
  return { connection, ended };
}

describe('an agent whose connection closes', () => {
  it('is left alone when it exited by itself while its output was still held open', async () => {
    const agent = new StandInProcess();
    const { ended } = await start(agent);
    const looked = agent.checked();
    agent.exit(3);
    agent.closeOutput();
    // The grace period has run out: the connection looked, and found the process gone.
    await deadline(looked, 'the connection to look whether the process has ended');
    expect(agent.signals).toEqual([]);

    agent.close();
    expect(await deadline(ended, 'the connection to report the end', 5_000)).toEqual({
      code: 3,
      signal: null,
      reason: 'exited with code 3',
      stderrTail: [],
    });
  });

  it('is left alone when a signal from outside ended it, which its end names', async () => {
    const agent = new StandInProcess();
    const { ended } = await start(agent);
    const looked = agent.checked();
    agent.exit(null, 'SIGKILL');
    agent.closeOutput();
    await deadline(looked, 'the connection to look whether the process has ended');
    expect(agent.signals).toEqual([]);

    agent.close();
    expect(await deadline(ended, 'the connection to report the end', 5_000)).toEqual({
      code: null,
      signal: 'SIGKILL',
      reason: 'was stopped by SIGKILL',
      stderrTail: [],
    });
  });
});

describe('the end of an agent', () => {
  it('says the code is unknown when the process gives neither a code nor a signal', async () => {
    // A launcher other than Node's may not know how its process ended (AgentProcess allows it).
    const agent = new StandInProcess('silent');
    const starting = AgentConnection.start(standInSpec(agent), {
      logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
      delegate: standInDelegate(),
    });
    agent.close(null, null);
    await expect(deadline(starting, 'the start to fail', 5_000)).rejects.toThrow(
      /^stand-in exited with code unknown$/,
    );
  });

  it('is told once, and its log kept whole, when the process reports it twice at once', async () => {
    // Node reports a process it could not start with 'error' and then 'close'. A second end line,
    // written after the log was ended, would make the stream drop what it had not yet written.
    const dir = await mkdtemp(join(tmpdir(), 'airlock-conn-logs-'));
    const agent = new StandInProcess('silent');
    const starting = AgentConnection.start(standInSpec(agent), {
      logsDir: dir,
      delegate: standInDelegate(),
    });
    agent.emit('error', Object.assign(new Error('spawn stand-in ENOENT'), { code: 'ENOENT' }));
    agent.close(-2, null);
    await expect(deadline(starting, 'the start to fail', 5_000)).rejects.toThrow(
      /^stand-in could not be started: no program named "stand-in" was found on the PATH/,
    );
    const log = () => readFile(agentLogPath(dir, 'stand-in'), 'utf8');
    await expect.poll(log).toMatch(/add its folder to PATH\n$/);
    expect((await log()).split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^--- \S+ started: stand-in$/),
      expect.stringMatching(/^--- \S+ could not be started: no program named "stand-in"/),
    ]);
  });

  it('is reported when the logs folder cannot be made (a file is in its place)', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')), 'logs');
    await writeFile(file, 'not a folder');
    const agent = new StandInProcess();
    const { connection, ended } = await start(agent, file);
    agent.exit(0);
    agent.close();
    expect(await deadline(ended, 'the connection to report the end', 5_000)).toEqual({
      code: 0,
      signal: null,
      reason: 'exited with code 0',
      stderrTail: [],
    });
    expect(connection.exit?.reason).toBe('exited with code 0');
  });
});

describe('the log of an agent', () => {
  it('is given up, not fatal, when its file cannot be opened (a folder in its place)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-conn-logs-'));
    await mkdir(agentLogPath(dir, 'stand-in'));
    const agent = new StandInProcess();
    const { ended } = await start(agent, dir);
    agent.exit(0);
    agent.close();
    // Opening it fails (EISDIR) as the agent runs: an 'error' no one listens to would be an
    // uncaught exception, which fails the run (vitest reports it against this file).
    expect((await deadline(ended, 'the connection to report the end', 5_000)).reason).toBe(
      'exited with code 0',
    );
  });
});

describe('stopping an agent', () => {
  it('sends SIGTERM, and no SIGKILL once the process has ended', async () => {
    const agent = new StandInProcess();
    const { connection } = await start(agent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopping = connection.stop();
    expect(agent.signals).toEqual(['SIGTERM']);
    agent.exit(null, 'SIGTERM');
    agent.close();
    await deadline(stopping, 'the stop to end', 5_000);
    // The pid is free once the process has ended: a late SIGKILL could hit another program.
    vi.advanceTimersByTime(STOP_GRACE_MS * 2);
    expect(agent.signals).toEqual(['SIGTERM']);
  });

  it('leaves no timer once the process has ended', async () => {
    const agent = new StandInProcess();
    const { connection } = await start(agent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopping = connection.stop();
    agent.exit(null, 'SIGTERM');
    agent.close();
    await deadline(stopping, 'the stop to end', 5_000);
    // A timer left running would keep Airlock from quitting until it fired.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives up waiting for a process that never closes after twice the grace period', async () => {
    const agent = new StandInProcess();
    const { connection } = await start(agent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let stopped = false;
    const stopping = connection.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS * 2 - 1);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect.poll(() => stopped).toBe(true);
    await deadline(stopping, 'the stop to end', 5_000);
  });

  it('sends SIGKILL when the process has not ended after the grace period', async () => {
    const agent = new StandInProcess();
    const { connection } = await start(agent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopping = connection.stop();
    vi.advanceTimersByTime(STOP_GRACE_MS - 1);
    expect(agent.signals).toEqual(['SIGTERM']);
    vi.advanceTimersByTime(1);
    expect(agent.signals).toEqual(['SIGTERM', 'SIGKILL']);
    agent.exit(null, 'SIGKILL');
    agent.close();
    await deadline(stopping, 'the stop to end', 5_000);
  });

  it('sends SIGKILL after the grace period to what still holds the output of an agent that has exited', async () => {
    // A wrapper (`npx`) that exited alone, while the agent it started lives on in its group and
    // holds the output open: the group is still there, so its number is safe to signal.
    const agent = new StandInProcess();
    const { connection } = await start(agent);
    agent.exit(0);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopping = connection.stop();
    expect(agent.signals).toEqual(['SIGTERM']);
    vi.advanceTimersByTime(STOP_GRACE_MS - 1);
    expect(agent.signals).toEqual(['SIGTERM']);
    vi.advanceTimersByTime(1);
    expect(agent.signals).toEqual(['SIGTERM', 'SIGKILL']);
    agent.close();
    await deadline(stopping, 'the stop to end', 5_000);
  });

  it('sends an agent that has ended one SIGTERM, for what it left in its group, and nothing later', async () => {
    const agent = new StandInProcess();
    const { connection, ended } = await start(agent);
    agent.exit(7);
    agent.close();
    expect((await deadline(ended, 'the connection to report the end', 5_000)).reason).toBe(
      'exited with code 7',
    );

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await deadline(connection.stop(), 'the stop to end', 5_000);
    expect(agent.signals).toEqual(['SIGTERM']);
    vi.advanceTimersByTime(STOP_GRACE_MS * 2);
    expect(agent.signals).toEqual(['SIGTERM']);
  });
});

describe('a start that fails', () => {
  it('fails as soon as the agent refuses, without waiting for the process to end', async () => {
    const agent = new StandInProcess({ error: { code: -32603, message: 'Internal error' } });
    const start = AgentConnection.start(standInSpec(agent), {
      logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
      delegate: standInDelegate(),
    });
    let failed = false;
    start.catch(() => {
      failed = true;
    });
    // Only a start stopped on purpose waits for the process (see below); the stand-in never ends.
    await expect.poll(() => failed).toBe(true);
    expect(agent.signals).toEqual(['SIGTERM']);
    await expect(deadline(start, 'the start to fail', 5_000)).rejects.toThrow(
      /^stand-in: Internal error$/,
    );
  });
});

describe('a start stopped on purpose', () => {
  /** Starts `agent` (it never answers `initialize`) with `signal`, noting when the start fails. */
  async function starting(agent: StandInProcess, signal: AbortSignal) {
    const state = { failed: false };
    const start = AgentConnection.start(standInSpec(agent), {
      logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
      delegate: standInDelegate(),
      signal,
    });
    start.catch(() => {
      state.failed = true;
    });
    return { start, state };
  }

  /** A stand-in that never answers, its start begun under fake timers and then stopped. */
  async function stoppedStart() {
    const agent = new StandInProcess('silent');
    const controller = new AbortController();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { start, state } = await starting(agent, controller.signal);
    controller.abort();
    return { agent, start, state };
  }

  it('fails once the process is gone, and leaves no timer', async () => {
    const { agent, start, state } = await stoppedStart();
    await expect.poll(() => agent.signals).toEqual(['SIGTERM']);
    // Airlock quitting waits on this: the process must be gone when it resolves.
    expect(state.failed).toBe(false);
    agent.exit(null, 'SIGTERM');
    agent.close();
    await expect(deadline(start, 'the start to fail', 5_000)).rejects.toThrow(
      /^stand-in was stopped while it was starting$/,
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends SIGKILL after the grace period, and gives up waiting after twice it', async () => {
    const { agent, start, state } = await stoppedStart();
    await expect.poll(() => agent.signals).toEqual(['SIGTERM']);
    // It ignores SIGTERM: SIGKILL comes after the grace period.
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS - 1);
    expect(agent.signals).toEqual(['SIGTERM']);
    await vi.advanceTimersByTimeAsync(1);
    expect(agent.signals).toEqual(['SIGTERM', 'SIGKILL']);
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS - 1);
    expect(state.failed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(deadline(start, 'the start to fail', 5_000)).rejects.toThrow(
      /^stand-in was stopped while it was starting$/,
    );
  });

  it('leaves no listener on the signal once the agent has started', async () => {
    const agent = new StandInProcess();
    const controller = new AbortController();
    const start = AgentConnection.start(standInSpec(agent), {
      logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
      delegate: standInDelegate(),
      signal: controller.signal,
    });
    await deadline(start, 'the connection to start', 5_000);
    // The signal can outlive the start (a tab's): its listener would keep the connection.
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });
});

describe('withTimeout', () => {
  it('settles as the promise does, and leaves no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await expect(withTimeout(Promise.resolve('answer'), 1000, 'late')).resolves.toBe('answer');
    await expect(withTimeout(Promise.reject(new Error('refused')), 1000, 'late')).rejects.toThrow(
      /^refused$/,
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with the message, as a user-facing error, when the time is up and not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let failure: unknown;
    const bounded = withTimeout(new Promise(() => undefined), 1000, 'did not answer').catch(
      (error: unknown) => {
        failure = error;
      },
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await deadline(bounded, 'withTimeout to reject', 5_000);
    expect(failure).toBeInstanceOf(UserFacingError);
    expect((failure as Error).message).toBe('did not answer');
  });
});
