import { describe, expect, it } from 'vitest';
import type { AgentSpec, PrepareAgent } from '../../../../main/core/agents/spec.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS, options: { restartCrashed: false } });

/** The scripted agent, as a registry entry resolves to it. */
const scripted = fixtureSpec('basic');

/** A settings file with the registry agent `scripted-acp` (its own `env` on top). */
const registrySettings = {
  agent_servers: {
    'scripted-acp': { type: 'registry', env: { FROM_SETTINGS: 'settings', BOTH: 'settings' } },
  },
};

/** A `prepare` that resolves to the scripted agent, reporting a line, and records what it got. */
function preparing(seen: AgentSpec[] = []): PrepareAgent {
  return async (spec, report) => {
    seen.push(spec);
    report('Downloading Scripted Agent 1.0…');
    report('Installed Scripted Agent 1.0.');
    return {
      ...spec,
      command: scripted.command,
      args: scripted.args,
      env: { FROM_REGISTRY: 'registry', BOTH: 'registry' },
    };
  };
}

describe('an agent from the ACP registry', () => {
  it('starts with the command prepare works out, and a whole turn runs', async () => {
    const seen: AgentSpec[] = [];
    const run = await start({
      settings: registrySettings,
      options: { prepareAgent: preparing(seen) },
    });
    const { agents } = await run.call('app:getState', {});
    expect(agents[1]).toEqual({
      name: 'scripted-acp',
      commandLine: 'From the ACP registry',
      builtIn: false,
      source: 'registry',
    });
    const key = await run.ready('scripted-acp');
    await run.turn(key, 'hi');
    expect(run.recorder.text(key)).toContain('Hello from the scripted agent.');
    expect(seen).toEqual([expect.objectContaining({ name: 'scripted-acp', command: '' })]);
    expect(seen[0]?.registry).toEqual({ id: 'scripted-acp' });
  });

  it('shows the lines prepare reports in the tab waiting on it, each replacing the last', async () => {
    const run = await start({
      settings: registrySettings,
      options: { prepareAgent: preparing() },
    });
    const key = await run.ready('scripted-acp');
    const lines = run.recorder
      .transcript(key)
      .flatMap((event) => (event.type === 'system' ? [event] : []));
    expect(lines.map((line) => line.text)).toEqual([
      'Downloading Scripted Agent 1.0…',
      'Installed Scripted Agent 1.0.',
    ]);
    // One line that the next report replaces.
    expect(lines[0]?.id).toBeDefined();
    expect(lines[1]?.id).toBe(lines[0]?.id);
  });

  it('gets the registry’s environment, the settings file’s on top', async () => {
    const asRegistry =
      (foo: string): PrepareAgent =>
      async (spec) => ({
        ...spec,
        command: fixtureSpec('auth-env').command,
        args: fixtureSpec('auth-env').args,
        env: { FOO_KEY: foo },
      });
    const settingsWith = (env: Record<string, string>) => ({
      agent_servers: { 'scripted-acp': { type: 'registry', env } },
    });
    const fooLength = async (registry: string, settings: Record<string, string>) => {
      const run = await start({
        settings: settingsWith(settings),
        options: { prepareAgent: asRegistry(registry) },
      });
      const key = await run.ready('scripted-acp');
      await run.turn(key, 'hi');
      return run.recorder.text(key);
    };
    expect(await fooLength('r', {})).toContain('FOO_KEY has 1 characters.');
    expect(await fooLength('r', { FOO_KEY: 'settings' })).toContain('FOO_KEY has 8 characters.');
  });

  it('fails its tab in words when prepare throws, and other agents still start', async () => {
    const run = await start({
      settings: registrySettings,
      options: {
        prepareAgent: () =>
          Promise.reject(new UserFacingError('Its download failed', 'HTTP 503 from cdn.example')),
      },
    });
    const { summary } = await run.settled('scripted-acp');
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe('Airlock could not start scripted-acp: Its download failed.');
    expect(summary.errorDetail).toBe('HTTP 503 from cdn.example');
    await run.ready();
  });

  it('is tested in the settings view with the command prepare works out', async () => {
    const run = await start({
      settings: registrySettings,
      options: { prepareAgent: preparing() },
    });
    const report = await run.call('settings:testAgent', { agentName: 'scripted-acp' });
    expect(report.ok).toBe(true);
    expect(report.commandLine).toContain('scripted-agent.ts');
    const failing = await start({
      settings: registrySettings,
      options: { prepareAgent: () => Promise.reject(new Error('npx is missing')) },
    });
    const failed = await failing.call('settings:testAgent', { agentName: 'scripted-acp' });
    expect(failed.ok).toBe(false);
    expect(failed.error).toBe('Airlock could not start scripted-acp: npx is missing.');
    expect(failed.commandLine).toBe('From the ACP registry');
  });
});
