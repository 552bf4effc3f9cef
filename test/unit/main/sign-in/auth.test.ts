import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import type { CoreOptions } from '../../../../main/core/options.js';
import { EncryptedSecretFile } from '../../../../main/core/secrets.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import type { Recorder } from '../../../helpers/core-harness.js';
import { settledSession, TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS });

async function settle(agent: AgentSpec, overrides: Partial<CoreOptions> = {}) {
  const started = await start({ agents: [agent], options: overrides });
  return { ...started, ...(await started.settled(agent.name)) };
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
        vars: [{ name: 'FOO_KEY', label: undefined, secret: true, optional: false, set: false }],
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

  it('says a restart ended at the sign-in step', async () => {
    const { core, recorder, key, summary } = await settle(fixtureSpec('auth-required'));
    expect(summary.status).toBe('auth_required');
    const before = recorder.transcript(key).length;
    await core.invoke('session:restart', { key });
    await recorder.until(
      () => recorder.transcript(key).length >= before + 2,
      'the restart line to be resolved',
    );
    expect(
      recorder
        .transcript(key)
        .slice(before)
        .map((event) => event.type === 'system' && event.text),
    ).toEqual([
      'Restarting fixture-auth-required…',
      'Restarted fixture-auth-required; it asks you to sign in.',
    ]);
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
    expect(summary.error).toBe('fixture-auth-fails: Internal error: The login server is down');
    expect(summary.errorDetail).toBe(
      'JSON-RPC error -32603 answering authenticate; data: {"details":"The login server is down"}',
    );
    expect(summary.authMethods.map((method) => method.id)).toEqual(['login']);
  });
});

/** The tab's own lines, as it shows them. */
const systemLines = (recorder: Recorder, key: string) =>
  recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));

/** A cipher for tests: reversible, and never the value itself on disk. */
const testCipher = {
  encrypt: (plain: string) => Buffer.from([...plain].reverse().join(''), 'utf8'),
  decrypt: (encrypted: Buffer) => [...encrypted.toString('utf8')].reverse().join(''),
};

/**
 * The env agent's log once it holds `pattern`: what the agent writes to its stderr reaches the
 * file after the session it signed in is ready, so it is waited for, not read at once.
 */
async function logWith(dir: string, pattern: RegExp): Promise<string> {
  let log = '';
  await vi.waitFor(
    async () => {
      log = await readFile(join(dir, 'logs', 'env-agent.log'), 'utf8');
      expect(log).toMatch(pattern);
    },
    { timeout: 10_000 },
  );
  return log;
}

describe('an agent that reads its sign-in from environment variables', () => {
  it('authenticates with the env_var method once its variable is set, then opens the session', async () => {
    const agent = { ...fixtureSpec('auth-env', 'env-agent'), env: { FOO_KEY: 'k-123456' } };
    const { core, recorder, key, summary, dir } = await settle(agent);
    expect(summary.status).toBe('ready');
    expect(systemLines(recorder, key)).toEqual([
      'Signed in with “Use FOO_KEY”, from FOO_KEY in env-agent’s environment.',
    ]);
    await core.invoke('session:prompt', { key, text: 'hi' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toBe('FOO_KEY has 8 characters.');
    const log = await logWith(dir, /authenticate foo-key/);
    expect(log.match(/authenticate foo-key/g)).toHaveLength(1);
  });

  it('signs in once for sessions that start together', async () => {
    const agent = { ...fixtureSpec('auth-env', 'env-agent'), env: { FOO_KEY: 'k' } };
    const started = await start({ agents: [agent] });
    const { core, recorder, dir } = started;
    // Both ask for their session before either is signed in.
    const [first, second] = await Promise.all([
      settledSession(core, recorder, 'env-agent', dir),
      settledSession(core, recorder, 'env-agent', dir),
    ]);
    expect(recorder.summaries.get(first.key)?.status).toBe('ready');
    expect(second.summary.status).toBe('ready');
    const log = await logWith(dir, /authenticate/);
    expect(log.match(/authenticate/g)).toHaveLength(1);
  });

  it('waits for the user, naming each variable and whether it is set, when it is not set', async () => {
    const { summary, dir } = await settle(fixtureSpec('auth-env', 'env-agent'));
    expect(summary.status).toBe('auth_required');
    expect(summary.error).toBeUndefined();
    expect(summary.authMethods[1]).toEqual({
      id: 'foo-key',
      name: 'Use FOO_KEY',
      description: undefined,
      kind: 'env_var',
      vars: [
        { name: 'FOO_KEY', label: 'Foo API key', secret: true, optional: false, set: false },
        { name: 'FOO_ORG', label: undefined, secret: false, optional: true, set: false },
      ],
    });
    // Nothing was tried with a variable that is not there.
    const log = await readFile(join(dir, 'logs', 'env-agent.log'), 'utf8');
    expect(log).not.toContain('authenticate');
  });

  it('waits for the user with the reason when the agent refuses the variable it has', async () => {
    const agent = {
      ...fixtureSpec('auth-env', 'env-agent'),
      env: { FOO_KEY: 'k', SCRIPTED_AUTH_REFUSE: 'The key was revoked' },
    };
    const { summary } = await settle(agent);
    expect(summary.status).toBe('auth_required');
    // (What follows the reason is the agent's stderr, which may or may not have come yet.)
    expect(summary.error).toMatch(/^env-agent: The key was revoked($|\. Its log ends with)/);
    expect(summary.errorDetail).toBe('JSON-RPC error -32000 answering authenticate');
  });

  it("shows the agent's refusal when signing in with the variable fails", async () => {
    const agent = { ...fixtureSpec('auth-env-useless', 'useless'), env: { FOO_KEY: 'k' } };
    const { summary, dir } = await settle(agent);
    expect(summary.status).toBe('auth_required');
    expect(summary.error).toBe('useless still asks to sign in after signing in');
    expect(summary.authMethods[0]?.vars?.[0]?.set).toBe(true);
    // One sign-in, one retry: no loop. (The agent's stderr reaches its log file a moment after
    // the answers that follow it.)
    const signIns = async () =>
      (await readFile(join(dir, 'logs', 'useless.log'), 'utf8')).match(/authenticate/g)?.length;
    await expect.poll(signIns, { timeout: 10_000 }).toBeDefined();
    expect(await signIns()).toBe(1);
  });

  it('keeps a value the user enters in the keychain store, restarts the agent with it and signs in', async () => {
    const secretsPath = join(await mkdtemp(join(tmpdir(), 'airlock-secrets-')), 'secrets.json');
    const secrets = new EncryptedSecretFile(secretsPath, testCipher);
    const { core, recorder, key, settingsPath, dir, call } = await settle(
      fixtureSpec('auth-env', 'env-agent'),
      { secrets },
    );
    const state = await call('app:getState', {});
    expect(state.secretStorage).toEqual({ available: true, description: 'the system keychain' });

    const other = await settledSession(core, recorder, 'env-agent', dir);
    expect(other.summary.status).toBe('auth_required');
    await core.invoke('agent:saveSecrets', {
      key,
      methodId: 'foo-key',
      values: { FOO_KEY: 'typed-secret' },
    });
    await recorder.status(key, 'ready');
    // The other tab waiting to sign in starts on the new process too.
    await recorder.status(other.key, 'ready');
    await core.invoke('session:prompt', { key, text: 'hi' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toBe('FOO_KEY has 12 characters.');
    // Kept encrypted, and nowhere near the settings file.
    const stored = await readFile(secretsPath, 'utf8');
    expect(stored).not.toContain('typed-secret');
    expect(await secrets.get('env-agent')).toEqual({ FOO_KEY: 'typed-secret' });
    expect(await readFile(settingsPath, 'utf8')).not.toContain('typed-secret');

    // Only an agent in the settings: a name that is not one forgets nothing.
    await expect(core.invoke('agent:forgetSecrets', { agentName: 'nobody' })).rejects.toThrow(
      'No agent named "nobody"',
    );
    expect(await secrets.get('env-agent')).toEqual({ FOO_KEY: 'typed-secret' });
    await core.invoke('agent:forgetSecrets', { agentName: 'env-agent' });
    expect(await secrets.get('env-agent')).toEqual({});
  });

  it("restarts only that agent's tabs waiting to sign in, not another agent's", async () => {
    const secretsPath = join(await mkdtemp(join(tmpdir(), 'airlock-secrets-')), 'secrets.json');
    const secrets = new EncryptedSecretFile(secretsPath, testCipher);
    const started = await start({
      agents: [fixtureSpec('auth-env', 'env-agent'), fixtureSpec('auth-env', 'other-agent')],
      options: { secrets },
    });
    const { core, recorder, dir } = started;
    const mine = await settledSession(core, recorder, 'env-agent', dir);
    const theirs = await settledSession(core, recorder, 'other-agent', dir);
    expect(theirs.summary.status).toBe('auth_required');
    const statuses: string[] = [];
    core.onEvent((channel, payload) => {
      const summary = payload as { key?: string; status?: string };
      if (channel === 'session:onDidChange' && summary.key === theirs.key) {
        statuses.push(String(summary.status));
      }
    });
    await core.invoke('agent:saveSecrets', {
      key: mine.key,
      methodId: 'foo-key',
      values: { FOO_KEY: 'typed-secret' },
    });
    await recorder.status(mine.key, 'ready');
    expect(statuses).toEqual([]);
    expect(recorder.summaries.get(theirs.key)?.status).toBe('auth_required');
  });

  it('takes no value for a variable the settings file sets already, and starts again', async () => {
    const secretsPath = join(await mkdtemp(join(tmpdir(), 'airlock-secrets-')), 'secrets.json');
    const secrets = new EncryptedSecretFile(secretsPath, testCipher);
    const agent = { ...fixtureSpec('auth-env-useless', 'useless'), env: { FOO_KEY: 'k' } };
    const { core, key, summary } = await settle(agent, { secrets });
    expect(summary.authMethods[0]?.vars?.[0]?.set).toBe(true);
    const statuses: string[] = [];
    core.onEvent((channel, payload) => {
      const changed = payload as { key?: string; status?: string };
      if (channel === 'session:onDidChange' && changed.key === key) {
        statuses.push(String(changed.status));
      }
    });
    await core.invoke('agent:saveSecrets', { key, methodId: 'foo-key', values: {} });
    await expect.poll(() => statuses.at(-1), { timeout: 10_000 }).toBe('auth_required');
    expect(statuses[0]).toBe('starting');
  });

  it('refuses values a method does not take, or a missing required one, and saves nothing', async () => {
    const secretsPath = join(await mkdtemp(join(tmpdir(), 'airlock-secrets-')), 'secrets.json');
    const secrets = new EncryptedSecretFile(secretsPath, testCipher);
    const { core, key } = await settle(fixtureSpec('auth-env', 'env-agent'), { secrets });
    await expect(
      core.invoke('agent:saveSecrets', { key, methodId: 'foo-key', values: { PATH: '/tmp' } }),
    ).rejects.toThrow('Use FOO_KEY does not use PATH');
    await expect(
      core.invoke('agent:saveSecrets', { key, methodId: 'foo-key', values: { FOO_ORG: 'acme' } }),
    ).rejects.toThrow('Enter a value for Foo API key');
    await expect(
      core.invoke('agent:saveSecrets', { key, methodId: 'login', values: { FOO_KEY: 'x' } }),
    ).rejects.toThrow('That sign-in method takes no values');
    await expect(
      core.invoke('agent:saveSecrets', { key, methodId: 'foo-key', values: { 'BAD NAME': 'x' } }),
    ).rejects.toThrow('Invalid agent:saveSecrets request');
    expect(await secrets.get('env-agent')).toEqual({});
  });

  it('on a host without a keychain, says so and keeps nothing', async () => {
    const { core, key, summary, call } = await settle(fixtureSpec('auth-env', 'env-agent'));
    expect(summary.status).toBe('auth_required');
    const state = await call('app:getState', {});
    expect(state.secretStorage.available).toBe(false);
    expect(state.secretStorage.description).toContain('settings file');
    await expect(
      core.invoke('agent:saveSecrets', { key, methodId: 'foo-key', values: { FOO_KEY: 'x' } }),
    ).rejects.toThrow('This host has no keychain');
    // Said first, whatever else is wrong with the request.
    await expect(
      core.invoke('agent:saveSecrets', { key, methodId: 'login', values: { FOO_KEY: 'x' } }),
    ).rejects.toThrow('This host has no keychain');
  });
});

describe("an agent whose sign-in method names an API-key provider (codex-acp's api-key)", () => {
  const codexLike = (env: Record<string, string> = {}) => ({
    ...fixtureSpec('auth-api-key', 'codex-like'),
    env,
  });
  /** The sign-ins the agent was asked for, as its log tells them. */
  const signIns = async (dir: string) =>
    (await readFile(join(dir, 'logs', 'codex-like.log'), 'utf8')).match(/authenticate \S+/g) ?? [];
  const SIGNED_IN = 'Signed in with “API Key”, from OPENAI_API_KEY in codex-like’s environment.';

  it('signs in with the key set in its settings, once for the tabs that start together, and says so in each', async () => {
    const { core, recorder, dir } = await start({ agents: [codexLike({ OPENAI_API_KEY: 'sk' })] });
    const [first, second] = await Promise.all([
      settledSession(core, recorder, 'codex-like', dir),
      settledSession(core, recorder, 'codex-like', dir),
    ]);
    expect([first.summary.status, second.summary.status]).toEqual(['ready', 'ready']);
    expect(systemLines(recorder, first.key)).toEqual([SIGNED_IN]);
    expect(systemLines(recorder, second.key)).toEqual([SIGNED_IN]);
    // The agent's log reaches its file after the sessions are ready: waited for, not read at once.
    await expect.poll(() => signIns(dir), { timeout: 10_000 }).toEqual(['authenticate api-key']);
  });

  it("reads the key from Airlock's own environment unless the agent's settings override it", async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-the-app');
    try {
      const inherited = await settle(codexLike());
      expect(inherited.summary.status).toBe('ready');
      expect(systemLines(inherited.recorder, inherited.key)).toEqual([SIGNED_IN]);
      // An empty value in the settings is what the agent gets: no key, so the user chooses.
      const emptied = await settle(codexLike({ OPENAI_API_KEY: '' }));
      expect(emptied.summary.status).toBe('auth_required');
      expect(emptied.summary.error).toBeUndefined();
      expect(await signIns(emptied.dir)).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('waits for the user when the key is not set, or the method names its provider in another shape', async () => {
    for (const meta of [undefined, '{"api-key":"openai"}', '{"api-key":{"provider":["openai"]}}']) {
      const env: Record<string, string> = meta === undefined ? {} : { OPENAI_API_KEY: 'sk' };
      const { summary, dir, recorder, key } = await settle(
        codexLike(meta === undefined ? env : { ...env, SCRIPTED_API_KEY_META: meta }),
      );
      expect(summary.status).toBe('auth_required');
      expect(summary.error).toBeUndefined();
      expect(summary.authMethods.map((method) => `${method.id}:${method.kind}`)).toEqual([
        'api-key:agent',
        'chat-gpt:agent',
        'chat-gpt-device-code:agent',
      ]);
      expect(systemLines(recorder, key)).toEqual([]);
      expect(await signIns(dir)).toEqual([]);
    }
  });

  it('shows the page a device-code sign-in asks to open on the tab that asked to sign in, for as long as the user takes', async () => {
    // Requests are bounded at 3 s; the user takes longer than that over the page.
    const slow = fixtureSpec('never-answer-new', 'slow');
    const { core, recorder, dir } = await start({
      agents: [codexLike(), slow],
      timeouts: { ...TEST_TIMEOUTS, requestMs: 3_000 },
    });
    const { key } = await settledSession(core, recorder, 'codex-like', dir);
    const other = await settledSession(core, recorder, 'codex-like', dir);
    // The sign-in waits on the page: its answer comes once the user has opened it.
    const signIn = core.invoke('agent:authenticate', { key, methodId: 'chat-gpt-device-code' });
    const card = await recorder.event(key, 'url_elicitation');
    expect(card).toMatchObject({
      scope: 'request',
      message: 'Sign in to ChatGPT and enter this code: WXYZ-1234',
      url: { href: 'https://auth.example.com/codex/device' },
    });
    // A request sent after the card showed has run out of time: so would a bounded sign-in.
    expect((await settledSession(core, recorder, 'slow', dir)).summary.status).toBe('failed');
    expect(recorder.summaries.get(key)?.status).toBe('starting');
    expect(recorder.transcript(other.key).map((event) => event.type)).not.toContain(
      'url_elicitation',
    );
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'accept' });
    await signIn;
    await recorder.status(key, 'ready');
    const done = await recorder.event(key, 'url_elicitation_done');
    expect(done).toEqual({ type: 'url_elicitation_done', cardKey: card.cardKey, how: 'completed' });
    await expect
      .poll(() => signIns(dir), { timeout: 10_000 })
      .toEqual(['authenticate chat-gpt-device-code']);
  });
});
