import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../main/core/settings.js';
import type { AirlockCore } from '../../../main/core/core.js';
import { fixtureSpec } from '../../helpers/agents.js';
import { settledSession, startCore } from '../../helpers/core-harness.js';

const timeouts = { requestMs: 10_000, cancelGraceMs: 500 };

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

async function settle(agent: AgentSpec) {
  const started = await startCore([agent], timeouts);
  core = started.core;
  return { ...started, ...(await settledSession(core, started.recorder, agent.name, started.dir)) };
}

describe('an agent that needs authentication', () => {
  it('asks the user to sign in, listing each method and the variable an env_var method needs', async () => {
    const { summary } = await settle(fixtureSpec('auth-required'));
    expect(summary.status).toBe('auth_required');
    expect(summary.error).toBeUndefined();
    expect(summary.agent?.title).toBe('Scripted Agent');
    expect(summary.authMethods).toEqual([
      { id: 'login', name: 'Log in', description: 'Sign in with your account', kind: 'agent' },
      {
        id: 'foo-key',
        name: 'FOO API key',
        description: undefined,
        kind: 'env_var',
        varName: 'FOO_KEY',
      },
    ]);
  });

  it('runs authenticate for an agent method, then opens the session', async () => {
    const { core, recorder, key } = await settle(fixtureSpec('auth-required'));
    await core.invoke('agent:authenticate', { key, methodId: 'login' });
    const summary = await recorder.status(key, 'ready');
    expect(summary.authMethods).toEqual([]);
    await core.invoke('session:prompt', { key, text: 'hi' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.text(key)).toBe('Hello from the scripted agent.');
  });

  it('refuses to run methods the user has to carry out, such as setting a variable', async () => {
    const { core, recorder, key } = await settle(fixtureSpec('auth-required'));
    await expect(core.invoke('agent:authenticate', { key, methodId: 'foo-key' })).rejects.toThrow(
      'That sign-in method is not one Airlock can run',
    );
    await expect(core.invoke('agent:authenticate', { key, methodId: 'nope' })).rejects.toThrow(
      'That sign-in method is not one Airlock can run',
    );
    expect(recorder.summaries.get(key)?.status).toBe('auth_required');
  });

  it('opens the session at once when the variable is set in the agent settings', async () => {
    const agent = { ...fixtureSpec('auth-required', 'keyed'), env: { FOO_KEY: 'secret' } };
    const { summary } = await settle(agent);
    expect(summary.status).toBe('ready');
  });

  it('stays on the sign-in step with the agent error when authenticate fails', async () => {
    const { core, recorder, key } = await settle(fixtureSpec('auth-fails'));
    await core.invoke('agent:authenticate', { key, methodId: 'login' });
    await recorder.until(() => recorder.summaries.get(key)?.error !== undefined);
    const summary = recorder.summaries.get(key)!;
    expect(summary.status).toBe('auth_required');
    expect(summary.error).toBe(
      'fixture-auth-fails: Internal error: The login server is down (-32603)',
    );
    expect(summary.authMethods.map((method) => method.id)).toEqual(['login']);
  });
});
