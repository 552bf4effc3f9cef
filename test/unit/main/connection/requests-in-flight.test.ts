/**
 * Airlock's requests to a started agent: the bound on a short request, the requests in flight the
 * elicitation broker looks up (with the tab each was sent for), a turn's answer, a cancel, and the
 * environment an agent was started with. The agent is the stand-in of
 * test/fixtures/conn-stand-in.ts, answering each request when the test tells it to; a request's
 * failure in words: connection-errors.test.ts.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentConnection } from '../../../../main/core/agent-connection.js';
import { AgentRequestError, UserFacingError } from '../../../../main/core/errors.js';
import { StandInProcess, standInDelegate, standInSpec } from '../../../fixtures/conn-stand-in.js';
import { deadline } from '../../../helpers/core-harness.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A started connection to a stand-in run with `env`. */
async function started(env: Record<string, string> = {}) {
  const agent = new StandInProcess();
  const connection = await AgentConnection.start(
    { ...standInSpec(agent), env },
    {
      logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
      delegate: standInDelegate(),
      timeouts: { requestMs: 2_000, cancelGraceMs: 10 },
    },
  );
  return { agent, connection };
}

/** Resolves with the request's answer or error, failing the wait (not hanging) if neither comes. */
function settled(request: Promise<unknown>): Promise<unknown> {
  return deadline(
    request.catch((error: unknown) => error),
    'the request to settle',
  );
}

/** The id of Airlock's request for `method`, once the stand-in has it. */
function sent(agent: StandInProcess, method: string): Promise<number> {
  return deadline(agent.request(method), `Airlock to send ${method}`);
}

const NEW_SESSION = { cwd: '/', mcpServers: [] };
const PROMPT = { sessionId: 'sess-1', prompt: [{ type: 'text' as const, text: 'Hello' }] };

describe('a request', () => {
  it('gives the answer', async () => {
    const { agent, connection } = await started();
    const asked = settled(connection.request('session/new', NEW_SESSION));
    agent.reply(await sent(agent, 'session/new'), { result: { sessionId: 'sess-1' } });
    expect(await asked).toEqual({ sessionId: 'sess-1' });
  });

  it('fails after the request time, which it names in seconds', async () => {
    const { agent, connection } = await started();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const asked = connection.request('session/new', NEW_SESSION).catch((error: unknown) => error);
    // (`expect.poll` waits on real timers, as `deadline` does.)
    await expect
      .poll(() => agent.requests.map((request) => request.method))
      .toEqual(['session/new']);
    await vi.advanceTimersByTimeAsync(2_000);
    const failure = await asked;
    expect(failure).toBeInstanceOf(UserFacingError);
    expect((failure as Error).message).toBe('stand-in did not start a session within 2 s');
    expect((failure as UserFacingError).detail).toBe('No answer to session/new within 2 s');
  });
});

describe('a request in flight', () => {
  it('is known by its id, with the tab it was sent for, until it is answered', async () => {
    const { agent, connection } = await started();
    const asked = settled(connection.request('session/new', NEW_SESSION, 'tab-1'));
    const id = await sent(agent, 'session/new');
    expect(connection.outstandingRequest(id)).toEqual({ method: 'session/new', tab: 'tab-1' });
    agent.reply(id, { result: { sessionId: 'sess-1' } });
    await asked;
    expect(connection.outstandingRequest(id)).toBeUndefined();
  });

  it('has no tab when it was sent for none, and others stay known when one is answered', async () => {
    const { agent, connection } = await started();
    const first = settled(connection.request('session/new', NEW_SESSION));
    const second = settled(
      connection.request('session/set_mode', { sessionId: 'sess-1', modeId: 'ask' }, 'tab-2'),
    );
    const firstId = await sent(agent, 'session/new');
    const secondId = await sent(agent, 'session/set_mode');
    expect(connection.outstandingRequest(firstId)).toEqual({ method: 'session/new' });
    agent.reply(firstId, { result: { sessionId: 'sess-1' } });
    await first;
    expect(connection.outstandingRequest(firstId)).toBeUndefined();
    expect(connection.outstandingRequest(secondId)).toEqual({
      method: 'session/set_mode',
      tab: 'tab-2',
    });
    agent.reply(secondId, { result: {} });
    await second;
    expect(connection.outstandingRequest(secondId)).toBeUndefined();
  });

  it('is forgotten when it fails too', async () => {
    const { agent, connection } = await started();
    const asked = settled(connection.request('session/new', NEW_SESSION, 'tab-1'));
    const id = await sent(agent, 'session/new');
    agent.reply(id, { error: { code: -32603, message: 'Internal error' } });
    expect(await asked).toBeInstanceOf(AgentRequestError);
    expect(connection.outstandingRequest(id)).toBeUndefined();
  });

  it('is unknown by an id Airlock never sent', async () => {
    const { connection } = await started();
    expect(connection.outstandingRequest(999)).toBeUndefined();
    expect(connection.outstandingRequest('stand-in-1')).toBeUndefined();
  });
});

describe('a turn', () => {
  /** Sends a prompt, answers it with `answer`, and gives what the turn ends with. */
  async function turn(answer: { result: unknown } | { error: object }) {
    const { agent, connection } = await started();
    const prompted = settled(connection.prompt(PROMPT));
    const id = await sent(agent, 'session/prompt');
    expect(connection.outstandingRequest(id)).toEqual({ method: 'session/prompt' });
    agent.reply(id, answer);
    const ended = await prompted;
    // Answered or failed, it is no longer in flight.
    expect(connection.outstandingRequest(id)).toBeUndefined();
    return ended;
  }

  it('ends with the stop reason the agent gives, and nothing else of its answer', async () => {
    expect(await turn({ result: { stopReason: 'end_turn', _meta: { usage: 1 } } })).toEqual({
      stopReason: 'end_turn',
    });
  });

  it('fails when the answer has no stop reason, or is not an object at all', async () => {
    for (const result of [{}, { stopReason: 3 }, null]) {
      const failure = await turn({ result });
      expect(failure).toBeInstanceOf(UserFacingError);
      expect((failure as Error).message).toBe(
        'stand-in ended the turn without saying why it stopped',
      );
      expect((failure as UserFacingError).detail).toBe(
        'The answer to session/prompt has no stopReason',
      );
    }
  });

  it('fails with the error the agent answers', async () => {
    const failure = await turn({ error: { code: -32603, message: 'Internal error' } });
    expect(failure).toBeInstanceOf(AgentRequestError);
    expect((failure as Error).message).toBe('stand-in: Internal error');
    expect((failure as AgentRequestError).detail).toBe(
      'JSON-RPC error -32603 answering session/prompt',
    );
  });
});

describe('cancel', () => {
  it('sends session/cancel for the session', async () => {
    const { agent, connection } = await started();
    await connection.cancel('sess-1');
    await expect
      .poll(() => agent.notifications)
      .toEqual([{ method: 'session/cancel', params: { sessionId: 'sess-1' } }]);
  });

  it('sends nothing, and does not fail, once the connection has closed', async () => {
    const { agent, connection } = await started();
    agent.closeOutput();
    agent.exit(0);
    agent.close();
    await expect.poll(() => connection.exit?.reason).toBe('exited with code 0');
    await connection.cancel('sess-1');
    expect(agent.notifications).toEqual([]);
  });
});

describe('hasEnv', () => {
  it("answers from the agent's own environment first, then Airlock's, a blank value as none", async () => {
    const inherited = 'AIRLOCK_TEST_INHERITED_VALUE';
    vi.stubEnv(inherited, 'from Airlock');
    try {
      const { connection } = await started({ API_KEY: 'k-1', EMPTY: '', [inherited]: '' });
      expect(connection.hasEnv('API_KEY')).toBe(true);
      expect(connection.hasEnv('EMPTY')).toBe(false);
      // Its own blank value wins over Airlock's.
      expect(connection.hasEnv(inherited)).toBe(false);
      const { connection: other } = await started();
      expect(other.hasEnv(inherited)).toBe(true);
      expect(other.hasEnv('AIRLOCK_TEST_NEVER_SET')).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
