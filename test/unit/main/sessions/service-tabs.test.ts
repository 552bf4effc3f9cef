/**
 * `LastingSessions` on its own, with stand-ins for the core's tabs and connections: how a tab's
 * summaries reach the kept tabs' file (a closed tab leaves it, only the start of a turn moves its
 * last activity), and `session/close` when a tab closes (to whom it goes, and when a failure is
 * worth a warning). lasting-core.test.ts drives the same code through a real core.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import type { Session } from '../../../../main/core/session.js';
import { LastingSessions } from '../../../../main/core/sessions/service.js';
import type { SessionSummary } from '../../../../preload/shared/contract.js';
import { sessionSummary } from '../../../helpers/session-summary.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A service over a file of its own; the core's other services are never reached here. */
async function service() {
  const file = join(await mkdtemp(join(tmpdir(), 'airlock-lasting-')), 'sessions.json');
  const unused = () => {
    throw new Error('not reached by these tests');
  };
  const lasting = new LastingSessions({
    file,
    connectionFor: unused,
    stopWhenIdle: unused,
    newTab: unused,
    startNew: unused,
    mcpServers: unused,
    tabs: () => [],
  });
  /** What the file keeps once the app quits. */
  const keptAtQuit = async () => {
    await lasting.quit();
    const text = await readFile(file, 'utf8').catch(() => '{"tabs":[]}');
    return (JSON.parse(text) as { tabs: { title?: string; lastActivity: number }[] }).tabs;
  };
  return { lasting, keptAtQuit };
}

const summary = (status: SessionSummary['status'], extra: Partial<SessionSummary> = {}) =>
  sessionSummary({ cwd: '/work/project', status, ...extra });

describe('a tab’s summaries', () => {
  it('keep the tab until one says it closed', async () => {
    const { lasting, keptAtQuit } = await service();
    lasting.tabChanged(summary('ready', { title: 'Open' }), 'demo_1');
    // As the core reports a closed tab: its last summary, after `closing` (not called here).
    lasting.tabChanged(summary('closed', { title: 'Open' }), 'demo_1');
    expect(await keptAtQuit()).toEqual([]);
  });

  it('move its last activity when a turn starts, and at no other change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1000);
    const { lasting, keptAtQuit } = await service();
    lasting.tabChanged(summary('starting'), undefined);
    vi.setSystemTime(2000);
    lasting.tabChanged(summary('prompting', { firstPrompt: 'hello' }), 'demo_1');
    // The agent names the session mid-turn, the turn ends, the user renames the tab.
    vi.setSystemTime(3000);
    lasting.tabChanged(summary('prompting', { title: 'Named' }), 'demo_1');
    vi.setSystemTime(4000);
    lasting.tabChanged(summary('ready', { title: 'Named' }), 'demo_1');
    vi.setSystemTime(5000);
    lasting.tabChanged(summary('ready', { title: 'Named', userTitle: 'Mine' }), 'demo_1');
    expect(await keptAtQuit()).toEqual([
      expect.objectContaining({ title: 'Named', userTitle: 'Mine', lastActivity: 2000 }),
    ]);
  });

  it('keep the first prompt as the title while the agent gives none', async () => {
    const { lasting, keptAtQuit } = await service();
    lasting.tabChanged(summary('ready', { firstPrompt: 'plan the trip' }), 'demo_1');
    expect(await keptAtQuit()).toEqual([expect.objectContaining({ title: 'plan the trip' })]);
  });
});

/** A connection stand-in: what `closing` reads of one, and its `request`. */
function connection(
  advertisesClose: boolean,
  request: (method: string, params: unknown) => Promise<unknown> = async () => ({}),
) {
  const stand = {
    exit: undefined as AgentConnection['exit'],
    capabilities: { sessionCapabilities: advertisesClose ? { close: {} } : {} },
    request: vi.fn(request),
  };
  return stand;
}

const tab = (on: ReturnType<typeof connection> | undefined, acpSessionId?: string) =>
  ({ key: 's1', connection: on, acpSessionId }) as unknown as Session;

describe('session/close when a tab closes', () => {
  it('goes to a running agent that advertises it, with the tab’s session', async () => {
    const { lasting } = await service();
    const on = connection(true);
    lasting.closing(tab(on, 'demo_1'));
    expect(on.request).toHaveBeenCalledTimes(1);
    expect(on.request).toHaveBeenCalledWith('session/close', { sessionId: 'demo_1' });
  });

  it('goes nowhere for a tab without an agent, a session, a running agent or the capability', async () => {
    const { lasting } = await service();
    // A tab whose start failed has no connection: closing it must not throw either.
    expect(() => lasting.closing(tab(undefined, 'demo_1'))).not.toThrow();
    const sessionless = connection(true);
    lasting.closing(tab(sessionless));
    const exited = connection(true);
    exited.exit = { code: 1, signal: null, reason: 'exited with code 1', stderrTail: [] };
    lasting.closing(tab(exited, 'demo_1'));
    const plain = connection(false);
    lasting.closing(tab(plain, 'demo_1'));
    for (const one of [sessionless, exited, plain]) {
      expect(one.request).not.toHaveBeenCalled();
    }
  });

  it('that a running agent refuses is a warning; the tab closes either way', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { lasting, keptAtQuit } = await service();
    lasting.tabChanged(summary('ready', { title: 'Closing' }), 'demo_1');
    lasting.closing(
      tab(
        connection(true, () => Promise.reject(new Error('no such session'))),
        'demo_1',
      ),
    );
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith('airlock: session/close failed: no such session'),
    );
    expect(await keptAtQuit()).toEqual([]);
  });

  it('that fails because the agent stopped meanwhile is no warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { lasting } = await service();
    let refuse: (error: Error) => void = () => undefined;
    const on = connection(
      true,
      () =>
        new Promise((_resolve, reject) => {
          refuse = reject;
        }),
    );
    lasting.closing(tab(on, 'demo_1'));
    // The tab was the agent's last: it is stopped, and the request fails with the exit.
    on.exit = { code: null, signal: 'SIGTERM', reason: 'was stopped by SIGTERM', stderrTail: [] };
    const failed = on.request.mock.results[0]!.value as Promise<unknown>;
    refuse(new Error('Demo Agent was stopped by SIGTERM'));
    // Handlers run in the order they were added: the service's has run once this one has.
    await failed.catch(() => undefined);
    expect(warn).not.toHaveBeenCalled();
  });
});
