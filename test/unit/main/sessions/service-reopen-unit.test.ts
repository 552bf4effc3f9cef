/**
 * Reopening in a tab (`reopenIn`), with a stand-in connection whose answer to `session/load` the
 * test holds and decides: a stop that comes while the load runs, and an answer of `null`, which
 * no fixture agent gives. service-reopen-in.test.ts drives the rest through a real core.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import { AgentRequestError } from '../../../../main/core/errors.js';
import { Session } from '../../../../main/core/session.js';
import { LastingSessions } from '../../../../main/core/sessions/service.js';

/**
 * A service whose every tab is `session`, on a running agent that can load sessions and answers
 * `session/load` with `answer`.
 */
async function reopening(answer: () => Promise<unknown>) {
  const session = new Session('s1', 'Old Agent', '/work/project', {
    append: () => undefined,
    changed: () => undefined,
  });
  const connection = {
    exit: undefined,
    capabilities: { loadSession: true },
    identity: { configName: 'Old Agent' },
    request: vi.fn((_method: string, _params: unknown) => answer()),
  };
  const unused = () => {
    throw new Error('not reached by these tests');
  };
  const lasting = new LastingSessions({
    file: join(await mkdtemp(join(tmpdir(), 'airlock-lasting-')), 'sessions.json'),
    connectionFor: async () => connection as unknown as AgentConnection,
    stopWhenIdle: unused,
    newTab: async () => session,
    startNew: unused,
    mcpServers: () => ({ mcpServers: [], notes: [] }),
    tabs: () => [],
  });
  await lasting.handlers['session:reopen']({
    agentName: 'Old Agent',
    cwd: '/work/project',
    sessionId: 'old_1',
  });
  await vi.waitFor(() => expect(connection.request).toHaveBeenCalledTimes(1));
  expect(connection.request.mock.calls[0]![0]).toBe('session/load');
  return { session, connection };
}

describe('a reopen with session/load', () => {
  it('opens the tab when the agent answers null, as agents from before modes did', async () => {
    const { session } = await reopening(async () => null);
    await vi.waitFor(() => expect(session.summary.status).toBe('ready'));
    expect(session.summary).toMatchObject({ modes: [], configOptions: [] });
    expect(session.acpSessionId).toBe('old_1');
  });

  it('stopped while the load runs, leaves the tab stopped when the answer comes', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const loaded = new Promise((resolve) => {
      answer = resolve;
    });
    const { session } = await reopening(() => loaded);
    // What the core's stop does to a starting tab (SessionStarts.abandon, then
    // session:stopStart).
    session.dropStart();
    session.update({ status: 'failed', error: 'You stopped Old Agent while it was starting.' });
    answer({ modes: { currentModeId: 'code', availableModes: [] } });
    // The service awaited the answer first: its part has run once this await resumes.
    await loaded;
    expect(session.summary).toMatchObject({
      status: 'failed',
      error: 'You stopped Old Agent while it was starting.',
    });
    expect(session.connection).toBeUndefined();
  });

  it('fails in words when the agent refuses, with its code under Details', async () => {
    const refused = new AgentRequestError(
      -32002,
      'Old Agent: Resource not found',
      'JSON-RPC error -32002 answering session/load',
    );
    const { session } = await reopening(() => Promise.reject(refused));
    await vi.waitFor(() => expect(session.summary.status).toBe('failed'));
    expect(session.summary).toMatchObject({
      error: 'Could not reopen this session: Old Agent: Resource not found',
      errorDetail: 'JSON-RPC error -32002 answering session/load',
    });
  });
});
