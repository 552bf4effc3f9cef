/**
 * What the sign-in methods need (main/core/sign-in.ts) on its own: which `env_var` variables the
 * agent was started with, and which method Airlock may sign in with unasked. auth.test.ts goes
 * through a real agent; this names each rule.
 */
import { describe, expect, it } from 'vitest';
import type { AuthMethodView, EnvVarView } from '../../../../preload/shared/contract.js';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import {
  apiKeyVariable,
  authMethodsWithEnv,
  readyEnvMethod,
  readySignIn,
} from '../../../../main/core/sign-in.js';

const variable = (name: string, extra: Partial<EnvVarView> = {}): EnvVarView => ({
  name,
  secret: true,
  optional: false,
  set: false,
  ...extra,
});

const envMethod = (id: string, vars: EnvVarView[] | undefined): AuthMethodView => ({
  id,
  name: id,
  kind: 'env_var',
  vars,
});

/**
 * A connection with these methods, started with values for the variables named in `env`; its
 * methods name API-key providers as `providers` says, by method id.
 */
function connection(
  authMethods: AuthMethodView[],
  env: string[],
  providers: Record<string, string> = {},
): AgentConnection {
  return {
    authMethods,
    apiKeyProviders: new Map(Object.entries(providers)),
    hasEnv: (name: string) => env.includes(name),
  } as Partial<AgentConnection> as AgentConnection;
}

describe('authMethodsWithEnv', () => {
  it('marks each variable with whether the agent was started with it, and keeps the rest', () => {
    const agent: AuthMethodView = { id: 'login', name: 'Log in', kind: 'agent' };
    const key = envMethod('key', [
      variable('KEY', { label: 'Key' }),
      variable('REGION', { optional: true, secret: false, set: true }),
    ]);
    const methods = authMethodsWithEnv(connection([agent, key], ['KEY']));
    expect(methods).toEqual([
      agent,
      envMethod('key', [
        variable('KEY', { label: 'Key', set: true }),
        variable('REGION', { optional: true, secret: false, set: false }),
      ]),
    ]);
    // The connection's own list is left as it was.
    expect(key.vars?.map((each) => each.set)).toEqual([false, true]);
  });
});

describe('readyEnvMethod', () => {
  it('is the first env_var method whose required variables are all set', () => {
    const unset = envMethod('unset', [variable('A')]);
    const ready = envMethod('ready', [
      variable('A', { set: true }),
      variable('B', { optional: true }),
    ]);
    const later = envMethod('later', [variable('C', { set: true })]);
    expect(readyEnvMethod([unset, ready, later])).toBe(ready);
    expect(readyEnvMethod([unset])).toBeUndefined();
    expect(readyEnvMethod([envMethod('half', [variable('A', { set: true }), variable('B')])])).toBe(
      undefined,
    );
  });

  it('is never a method with no variables, nor one of another kind', () => {
    expect(readyEnvMethod([envMethod('none', []), envMethod('absent', undefined)])).toBeUndefined();
    const agent: AuthMethodView = {
      id: 'agent',
      name: 'Agent',
      kind: 'agent',
      vars: [variable('A', { set: true })],
    };
    const terminal: AuthMethodView = { ...agent, id: 'terminal', kind: 'terminal' };
    expect(readyEnvMethod([agent, terminal])).toBeUndefined();
  });
});

describe('apiKeyVariable', () => {
  it("is the key variable of a provider Airlock knows, whatever the name's case", () => {
    expect(apiKeyVariable('openai')).toBe('OPENAI_API_KEY');
    expect(apiKeyVariable('OpenAI')).toBe('OPENAI_API_KEY');
    for (const unknown of [undefined, '', 'acme', 'toString', '__proto__', 'constructor']) {
      expect(apiKeyVariable(unknown)).toBeUndefined();
    }
  });
});

describe('readySignIn', () => {
  const agent = (id: string): AuthMethodView => ({ id, name: id, kind: 'agent' });
  const ready = (methods: AuthMethodView[], env: string[], providers: Record<string, string>) => {
    const on = connection(methods, env, providers);
    const found = readySignIn(on, authMethodsWithEnv(on));
    return found && { id: found.method.id, variables: found.variables };
  };

  it("is a method Airlock runs whose provider's key is set, with the variable it read", () => {
    const methods = [agent('chat-gpt'), agent('api-key'), agent('device')];
    expect(ready(methods, ['OPENAI_API_KEY'], { 'api-key': 'openai' })).toEqual({
      id: 'api-key',
      variables: ['OPENAI_API_KEY'],
    });
    // Not set, another provider's, or no provider at all: the user chooses.
    expect(ready(methods, [], { 'api-key': 'openai' })).toBeUndefined();
    expect(ready(methods, ['OPENAI_API_KEY'], { 'api-key': 'acme' })).toBeUndefined();
    expect(ready(methods, ['OPENAI_API_KEY'], {})).toBeUndefined();
  });

  it('is never a method of another kind, whatever its provider', () => {
    const terminal: AuthMethodView = { id: 'term', name: 'Term', kind: 'terminal' };
    const unset = envMethod('env', [variable('FOO')]);
    expect(
      ready([terminal, unset], ['OPENAI_API_KEY'], { term: 'openai', env: 'openai' }),
    ).toBeUndefined();
  });

  it('prefers an env_var method that is ready, naming only the variables that are set', () => {
    const env = envMethod('env', [variable('FOO'), variable('ORG', { optional: true })]);
    const both = ready([agent('api-key'), env], ['OPENAI_API_KEY', 'FOO'], { 'api-key': 'openai' });
    expect(both).toEqual({ id: 'env', variables: ['FOO'] });
    expect(ready([env], ['FOO', 'ORG'], {})).toEqual({ id: 'env', variables: ['FOO', 'ORG'] });
  });
});
