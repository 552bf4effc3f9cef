/**
 * The words of an agent's failure as the user reads them: a JSON-RPC error with what its `data`
 * says, a message over the size limit, a byte count; and the file an agent's log is kept in. The
 * agent is the stand-in of test/fixtures/conn-stand-in.ts, answering `initialize` as told.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentConnection,
  agentLogPath,
  formatBytes,
  type ConnectionOptions,
} from '../../../../main/core/agent-connection.js';
import { AgentRequestError, UserFacingError } from '../../../../main/core/errors.js';
import { StandInProcess, standInDelegate, standInSpec } from '../../../fixtures/conn-stand-in.js';
import { deadline } from '../../../helpers/core-harness.js';

afterEach(() => {
  vi.useRealTimers();
});

/** The id of the request for `method` once the stand-in has it. */
function sent(agent: StandInProcess, method: string): Promise<number> {
  return deadline(agent.request(method), `Airlock to send ${method}`, 5_000);
}

/** The error a start fails with when the stand-in answers `initialize` with `answer`. */
async function startFailure(
  answer: { result: unknown } | { error: object },
  options: Partial<ConnectionOptions> = {},
): Promise<unknown> {
  const agent = new StandInProcess(answer);
  const start = AgentConnection.start(standInSpec(agent), {
    logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
    delegate: standInDelegate(),
    ...options,
  });
  return deadline(start, 'the start to settle', 5_000).then(
    () => new Error('the start did not fail'),
    (error: unknown) => error,
  );
}

/** The message of the error `initialize` fails with when answered with this error. */
async function answered(error: { code: number; message: string; data?: unknown }) {
  return (await answeredWhole(error)).message;
}

/** The error `initialize` fails with when answered with this error: its sentence and detail. */
async function answeredWhole(error: { code: number; message: string; data?: unknown }) {
  const failure = await startFailure({ error });
  expect(failure).toBeInstanceOf(AgentRequestError);
  expect((failure as AgentRequestError).code).toBe(error.code);
  return { message: (failure as Error).message, detail: (failure as AgentRequestError).detail };
}

describe('an error the agent answers', () => {
  it('names the agent, the message and what `data.details` says; the code goes to the detail', async () => {
    expect(
      await answeredWhole({
        code: -32603,
        message: 'Internal error',
        data: { details: 'Query closed before response received' },
      }),
    ).toEqual({
      message: 'stand-in: Internal error: Query closed before response received',
      detail:
        'JSON-RPC error -32603 answering initialize; data: {"details":"Query closed before response received"}',
    });
  });

  it('takes `data.message` when there are no details, and `data` itself when it is words', async () => {
    const message = { code: -32000, message: 'Refused', data: { message: 'the key expired' } };
    expect(await answered(message)).toBe('stand-in: Refused: the key expired');
    const details = { code: -32000, message: 'Refused', data: { details: 7, message: 'no quota' } };
    expect(await answered(details)).toBe('stand-in: Refused: no quota');
    const words = { code: -32000, message: 'Refused', data: '  the key expired \n' };
    expect(await answered(words)).toBe('stand-in: Refused: the key expired');
  });

  it('adds nothing for data with no words: blank, a number, a list, an object without them', async () => {
    for (const data of ['  ', 42, ['the key expired'], { reason: 'the key expired' }, null]) {
      expect(await answeredWhole({ code: -32603, message: 'Internal error', data })).toEqual({
        message: 'stand-in: Internal error',
        detail: `JSON-RPC error -32603 answering initialize; data: ${JSON.stringify(data)}`,
      });
    }
  });

  it('gives the code alone under Details when the agent sent no data', async () => {
    expect(await answeredWhole({ code: -32601, message: 'Method not found' })).toEqual({
      message: 'stand-in: Method not found',
      detail: 'JSON-RPC error -32601 answering initialize',
    });
  });

  it('clips what the data says to 500 characters, and the raw data under Details to 1,000', async () => {
    const data = { details: `${'a'.repeat(499)}bc`, more: 'x'.repeat(1000) };
    const { message, detail } = await answeredWhole({
      code: -32603,
      message: 'Internal error',
      data,
    });
    expect(message).toBe(`stand-in: Internal error: ${'a'.repeat(499)}b`);
    expect(detail).toBe(
      `JSON-RPC error -32603 answering initialize; data: ${JSON.stringify(data).slice(0, 1000)}`,
    );
  });
});

describe('any other failure', () => {
  it('names the agent and gives the words it came with', async () => {
    const agent = new StandInProcess('silent');
    const start = AgentConnection.start(standInSpec(agent), {
      logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
      delegate: standInDelegate(),
    });
    // Its output ends while `initialize` waits: the SDK fails the request with a plain Error.
    agent.closeOutput();
    const failure = await deadline(start, 'the start to fail', 5_000).then(
      () => new Error('the start did not fail'),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UserFacingError);
    expect((failure as Error).message).toBe('stand-in: ACP connection closed');
  });
});

/** A started connection to a stand-in; `cancelGraceMs` is how long a failure waits for an exit. */
async function started(cancelGraceMs = 10_000) {
  const agent = new StandInProcess();
  const start = AgentConnection.start(standInSpec(agent), {
    logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
    delegate: standInDelegate(),
    timeouts: { requestMs: 10_000, cancelGraceMs },
  });
  const connection = await deadline(start, 'the connection to start', 5_000);
  return { agent, connection };
}

const NEW_SESSION = { cwd: '/', mcpServers: [] };

describe('a request that fails', () => {
  it('carries the last line the agent wrote to stderr while it ran, and only that', async () => {
    const { agent, connection } = await started();
    agent.stderr.write('stand-in: warming up\n');
    await expect.poll(() => connection.stderrTail).toEqual(['stand-in: warming up']);
    const asked = connection.request('session/new', NEW_SESSION).catch((error: unknown) => error);
    const id = await sent(agent, 'session/new');
    // Written before the answer, read just after it: two pipes, read in either order.
    agent.reply(id, { error: { code: -32603, message: 'Internal error' } });
    agent.stderr.write(
      'stand-in: loading\nstand-in: checking\nError: cannot be used with root privileges\n',
    );
    const failure = await deadline(asked, 'the request to fail', 5_000);
    expect(failure).toBeInstanceOf(AgentRequestError);
    expect((failure as AgentRequestError).code).toBe(-32603);
    expect((failure as Error).message).toBe(
      'stand-in: Internal error. Its log ends with: Error: cannot be used with root privileges',
    );
    expect((failure as AgentRequestError).detail).toBe(
      'JSON-RPC error -32603 answering session/new',
    );
  });

  it('says nothing more when the agent wrote nothing to stderr while it ran', async () => {
    const { agent, connection } = await started();
    agent.stderr.write('stand-in: warming up\n');
    await expect.poll(() => connection.stderrTail).toEqual(['stand-in: warming up']);
    let answered = false;
    const asked = connection.request('session/new', NEW_SESSION).catch((error: unknown) => {
      answered = true;
      return error;
    });
    agent.reply(await sent(agent, 'session/new'), { error: { code: -32000, message: 'No' } });
    // At once: with the connection open and the process running, there is no exit to wait for.
    await expect.poll(() => answered).toBe(true);
    const failure = (await deadline(asked, 'the request to fail', 5_000)) as AgentRequestError;
    expect(failure.message).toBe('stand-in: No');
    expect(failure.detail).toBe('JSON-RPC error -32000 answering session/new');
  });

  it('blames the exit when the process ends while the request waits', async () => {
    const { agent, connection } = await started();
    const asked = connection.request('session/new', NEW_SESSION).catch((error: unknown) => error);
    await sent(agent, 'session/new');
    agent.stderr.write('stand-in: fatal: out of cheese\n');
    agent.closeOutput();
    // Its output ends first, as a process's does; the exit then fails the request.
    await expect.poll(() => connection.stderrTail).toEqual(['stand-in: fatal: out of cheese']);
    agent.exit(3);
    agent.close();
    const failure = await deadline(asked, 'the request to fail', 5_000);
    expect(failure).toBeInstanceOf(UserFacingError);
    // The exit is reported with its stderr tail already: no "Its log ends with" here.
    expect((failure as Error).message).toBe('stand-in exited with code 3');
  });

  it('waits for the exit, and blames it, when the output ends before the exit is known', async () => {
    // A real process's output ends a moment before its exit is known: the SDK fails the request
    // as the output ends, and the failure waits (the grace period) for the exit to name it.
    const { agent, connection } = await started();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const asked = connection.request('session/new', NEW_SESSION).catch((error: unknown) => error);
    await sent(agent, 'session/new');
    expect(vi.getTimerCount()).toBe(1);
    agent.closeOutput();
    // The request's own bound is cleared as it fails; what is left is the connection's grace
    // timer for a process that keeps running, and the failure's wait for the exit.
    await expect.poll(() => vi.getTimerCount()).toBe(2);
    let failure: unknown;
    void asked.then((error) => {
      failure = error;
    });
    agent.exit(3);
    agent.close();
    // (`expect.poll` waits on real timers, as `deadline` does.)
    await expect.poll(() => failure).toBeDefined();
    expect(failure).toBeInstanceOf(UserFacingError);
    expect((failure as Error).message).toBe('stand-in exited with code 3');
    // Neither wait outlives the exit: a timer left would keep Airlock from quitting until it fired.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives the failure itself when the connection closes and the process does not exit', async () => {
    const { agent, connection } = await started(10);
    const asked = connection.request('session/new', NEW_SESSION).catch((error: unknown) => error);
    await sent(agent, 'session/new');
    agent.closeOutput();
    // It waits the grace period (10 ms) for an exit, and no longer.
    const failure = await deadline(asked, 'the request to fail', 5_000);
    expect((failure as Error).message).toBe('stand-in: ACP connection closed');
  });

  it('is refused at once, naming the exit, once the process has ended', async () => {
    const { agent, connection } = await started();
    agent.exit(3);
    agent.close();
    await expect.poll(() => connection.exit?.reason).toBe('exited with code 3');
    await expect(
      deadline(connection.request('session/new', NEW_SESSION), 'the request to be refused', 5_000),
    ).rejects.toThrow(/^stand-in is not running \(exited with code 3\)$/);
    expect(agent.requests).toEqual([]);
  });
});

describe('an answer over the size limit', () => {
  it('fails the request naming the limit', async () => {
    const failure = await startFailure(
      { result: { padding: 'x'.repeat(4096) } },
      { maxMessageBytes: 2048 },
    );
    expect(failure).toBeInstanceOf(UserFacingError);
    expect(failure).not.toBeInstanceOf(AgentRequestError);
    expect((failure as Error).message).toBe('stand-in sent a message larger than 2 KB');
  });
});

describe('formatBytes', () => {
  it('counts in MB, then KB, when the count is whole in them, else in bytes', () => {
    expect(formatBytes(64 * 1024 * 1024)).toBe('64 MB');
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(1024 * 1024 + 1024)).toBe('1025 KB');
    expect(formatBytes(1024 * 1024 - 1024)).toBe('1023 KB');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1024 * 1024 + 1)).toBe('1048577 bytes');
    expect(formatBytes(1536)).toBe('1536 bytes');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(0)).toBe('0 bytes');
  });
});

describe('agentLogPath', () => {
  it('names the file after the agent, each run of other characters one underscore', () => {
    expect(agentLogPath('/logs', 'Claude Code (beta)/x')).toBe(
      join('/logs', 'Claude_Code_beta_x.log'),
    );
    expect(agentLogPath('/logs', 'codex-acp_0.1.A')).toBe(join('/logs', 'codex-acp_0.1.A.log'));
    expect(agentLogPath('/logs', '../../etc/passwd')).toBe(join('/logs', '.._.._etc_passwd.log'));
  });
});
