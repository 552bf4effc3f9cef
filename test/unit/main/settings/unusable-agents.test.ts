import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { AgentPool } from '../../../../main/core/agents/pool.js';
import { DEFAULT_TIMEOUTS } from '../../../../main/core/agent-connection.js';
import { NO_SECRET_STORE } from '../../../../main/core/secrets.js';
import { events, type EventPayload } from '../../../../preload/shared/contract.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { deadline, TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS });

const broken = {
  agent_servers: {
    'claude-acp': { type: 'registry' },
    Broken: { type: 'custom' },
    Codex: { command: 'codex-acp' },
  },
};

describe('the entries the settings file lists that Airlock cannot use', () => {
  it('reach the settings view and the app’s agent events, checked by the contract', async () => {
    const run = await start({ settings: broken });
    const listing = await run.call('settings:getAgents', {});
    expect(listing.agents.map((agent) => [agent.name, agent.source])).toEqual([
      ['Demo Agent', undefined],
      ['claude-acp', 'registry'],
      ['Codex', undefined],
    ]);
    expect(listing.unusable).toEqual([
      {
        name: 'Broken',
        reason: `${run.settingsPath}, line 1: agent_servers.Broken.command: is missing`,
      },
    ]);
    expect(listing.error).toBeUndefined();

    const changed = new Promise<EventPayload<'app:onDidChangeAgents'>>((resolve) => {
      run.core.onEvent((channel, payload) => {
        if (channel === 'app:onDidChangeAgents') {
          const change = events['app:onDidChangeAgents'].parse(payload);
          if (change.unusable?.length === 2) {
            resolve(change);
          }
        }
      });
    });
    await writeFile(
      run.settingsPath,
      JSON.stringify({ agent_servers: { ...broken.agent_servers, Other: { type: 'zed' } } }),
    );
    const last = await deadline(changed, 'the agents to change');
    expect(last.unusable?.map((entry) => entry.name)).toEqual(['Broken', 'Other']);
    expect(last.agents.map((agent) => agent.commandLine)).toEqual([
      expect.stringContaining('demo-agent'),
      'From the ACP registry',
      'codex-acp',
    ]);
    expect(last.settingsError?.split('\n')).toEqual(last.unusable?.map((entry) => entry.reason));
  });
});

describe('an agent from the registry with nothing to prepare it', () => {
  it('does not start, and says so in words', async () => {
    const registry = {
      name: 'claude-acp',
      command: '',
      args: [],
      env: {},
      builtIn: false,
      registry: { id: 'claude-acp' },
    };
    const pool = new AgentPool({
      catalog: () => ({ agents: [demoAgentSpec(), registry], urlElicitation: 'isolated_window' }),
      tabs: () => [],
      secrets: NO_SECRET_STORE,
      settingsPath: '/nowhere/settings.json',
      logsDir: '/nowhere/logs',
      timeouts: DEFAULT_TIMEOUTS,
      delegate: () => {
        throw new Error('no process is to start');
      },
      exited: () => undefined,
    });
    await expect(pool.connectionFor('claude-acp', '/')).rejects.toThrow(
      'Airlock could not start claude-acp: this copy of Airlock cannot run agents from the ACP registry.',
    );
    await pool.dispose();
  });
});
