/**
 * The core's checks before a call reaches a tab's agent: a call for a tab that is closed, or
 * for a tab with no agent session yet, is refused with a reason the UI shows, and nothing is
 * sent to the agent. And what `agent:saveSecrets` starts again once the values are kept: the
 * agent's other tabs waiting to sign in, shown starting, and no other agent's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../../../../main/core/secrets.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { pidOf, withPid } from '../../../helpers/agent-pid.js';
import { settledSession, useCore } from '../../../helpers/core-harness.js';

// Far longer than any wait below: nothing here ends by a timeout.
const timeouts = { requestMs: 60_000, cancelGraceMs: 300 };

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start, startWith } = useCore({ timeouts, options: { restartCrashed: false } });

describe('a call for a tab that cannot take it', () => {
  it('refuses a mode or an option for a tab still starting, and lets a running tab past', async () => {
    const agent = fixtureSpec('never-answer-new');
    const basic = fixtureSpec('basic');
    const started = await start({ agents: [agent, basic] });
    const { core } = started;
    const { key } = await started.call('session:create', {
      agentName: agent.name,
      cwd: started.dir,
    });
    await started.recorder.status(key, 'starting');
    // (`toHaveProperty`, not `toThrow`: a rejection with no error at all passes `toThrow`.)
    await expect(core.invoke('session:setMode', { key, modeId: 'ask' })).rejects.toHaveProperty(
      'message',
      'The session is not running',
    );
    await expect(
      core.invoke('session:setConfigOption', { key, configId: 'model', value: 'fast' }),
    ).rejects.toHaveProperty('message', 'The session is not running');
    expect(started.recorder.summaries.get(key)?.status).toBe('starting');

    // A running tab gets past that check, to the option's own.
    const ready = await started.ready(basic.name);
    await expect(
      core.invoke('session:setConfigOption', { key: ready, configId: 'model', value: 'fast' }),
    ).rejects.toHaveProperty('message', 'The agent offers no option "model"');
  });

  it('refuses any call for a tab closed, naming it closed', async () => {
    const { core, key } = await startWith(fixtureSpec('basic'));
    await core.invoke('session:close', { key });
    for (const [channel, request] of [
      ['session:rename', { key, title: 'later' }],
      ['session:setMode', { key, modeId: 'ask' }],
      ['terminal:kill', { key, terminalId: 'term_1' }],
      ['permission:respond', { key, promptKey: 'p1', outcome: { outcome: 'cancelled' } }],
    ] as const) {
      await expect(core.invoke(channel, request), channel).rejects.toHaveProperty(
        'message',
        'That session is closed',
      );
    }
  });
});

describe('onEvent', () => {
  it('stops telling a listener that unsubscribed', async () => {
    const { core } = await start();
    const heard: string[] = [];
    const unsubscribe = core.onEvent((channel) => heard.push(channel));
    // A host command is emitted at once, as the call returns.
    core.hostCommand({ command: 'showWaiting', key: 's7' });
    expect(heard).toEqual(['app:onCommand']);
    unsubscribe();
    core.hostCommand({ command: 'showWaiting', key: 's8' });
    expect(heard).toEqual(['app:onCommand']);
  });
});

/** A keychain in memory: what the core keeps, per agent. */
function memorySecrets(): SecretStore & { kept: Map<string, Record<string, string>> } {
  const kept = new Map<string, Record<string, string>>();
  return {
    available: true,
    description: 'the test keychain',
    kept,
    get: async (agentName) => kept.get(agentName) ?? {},
    set: async (agentName, values) => {
      kept.set(agentName, { ...kept.get(agentName), ...values });
    },
    forget: async (agentName) => {
      kept.delete(agentName);
    },
  };
}

describe('agent:saveSecrets', () => {
  it('starts a new process with the values, though a tab stays on an older one', async () => {
    const secrets = memorySecrets();
    secrets.kept.set('env-agent', { FOO_KEY: 'kept-secret' });
    const started = await start({
      agents: [fixtureSpec('auth-env', 'env-agent')],
      options: { secrets },
    });
    const { core, recorder, dir, settingsPath, ready } = started;
    const older = await ready('env-agent');
    // The values forgotten and the agent's settings changed: the next tab starts a process of
    // its own, which waits to sign in, while the first tab stays on the older one.
    await core.invoke('agent:forgetSecrets', { agentName: 'env-agent' });
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
      agent_servers: Record<string, { env?: Record<string, string> }>;
    };
    settings.agent_servers['env-agent']!.env = { AIRLOCK_TEST_EDITED: '1' };
    await writeFile(settingsPath, JSON.stringify(settings));
    await core.init();
    const waiting = await settledSession(core, recorder, 'env-agent', dir);
    expect(waiting.summary.status).toBe('auth_required');

    await core.invoke('agent:saveSecrets', {
      key: waiting.key,
      methodId: 'foo-key',
      values: { FOO_KEY: 'typed-secret' },
    });
    // Its process started again, with the values (on the same one, it would ask again).
    await recorder.status(waiting.key, 'ready');
    expect(recorder.summaries.get(older)?.status).toBe('ready');
  });

  it("starts the agent's other tabs waiting to sign in again, shown starting, and no other agent's", async () => {
    const secrets = memorySecrets();
    const envAgent = await withPid('auth-env', 'env-agent');
    const started = await start({
      agents: [envAgent, fixtureSpec('auth-env', 'other-agent')],
      options: {
        secrets,
      },
    });
    const { core, recorder, dir } = started;
    const mine = await settledSession(core, recorder, 'env-agent', dir);
    const sibling = await settledSession(core, recorder, 'env-agent', dir);
    const theirs = await settledSession(core, recorder, 'other-agent', dir);
    expect([sibling.summary.status, theirs.summary.status]).toEqual([
      'auth_required',
      'auth_required',
    ]);
    const statuses = new Map<string, string[]>();
    core.onEvent((channel, payload) => {
      const summary = payload as { key?: string; status?: string };
      if (channel === 'session:onDidChange' && summary.key !== undefined) {
        statuses.set(summary.key, [...(statuses.get(summary.key) ?? []), String(summary.status)]);
      }
    });

    await core.invoke('agent:saveSecrets', {
      key: mine.key,
      methodId: 'foo-key',
      values: { FOO_KEY: 'typed-secret' },
    });
    await recorder.status(mine.key, 'ready');
    await recorder.status(sibling.key, 'ready');
    // A turn on the tab: whatever the save changed has been sent by its end.
    await core.invoke('session:prompt', { key: mine.key, text: 'hi' });
    await recorder.event(mine.key, 'turn_end');
    expect(statuses.get(sibling.key)).toEqual(['starting', 'ready']);
    expect(statuses.get(theirs.key)).toBeUndefined();
    expect(recorder.summaries.get(theirs.key)?.status).toBe('auth_required');

    // Its process ended (the tabs on it exit) and the values forgotten: a new tab waits to sign
    // in. Saved again from it, the exited tabs are left as they are.
    process.kill(await pidOf(envAgent.pidFile), 'SIGKILL');
    await recorder.status(mine.key, 'exited');
    await recorder.status(sibling.key, 'exited');
    await core.invoke('agent:forgetSecrets', { agentName: 'env-agent' });
    const later = await settledSession(core, recorder, 'env-agent', dir);
    expect(later.summary.status).toBe('auth_required');
    statuses.clear();
    await core.invoke('agent:saveSecrets', {
      key: later.key,
      methodId: 'foo-key',
      values: { FOO_KEY: 'another-secret' },
    });
    await recorder.status(later.key, 'ready');
    await core.invoke('session:prompt', { key: later.key, text: 'hi' });
    await recorder.event(later.key, 'turn_end');
    expect(recorder.text(later.key)).toBe('FOO_KEY has 14 characters.');
    expect([...statuses.keys()]).toEqual([later.key]);
    expect(recorder.dropped).toEqual([]);
  });

  it('refuses a method the agent does not offer, keeping nothing', async () => {
    const secrets = memorySecrets();
    const started = await start({
      agents: [fixtureSpec('auth-env', 'env-agent')],
      options: { secrets },
    });
    const { core } = started;
    const { key } = await started.settled('env-agent');
    await expect(
      core.invoke('agent:saveSecrets', { key, methodId: 'nope', values: { FOO_KEY: 'x' } }),
    ).rejects.toHaveProperty('message', 'That sign-in method takes no values');
    expect(secrets.kept.size).toBe(0);
  });
});
