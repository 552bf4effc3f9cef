/**
 * What the sign-in methods need (main/core/sign-in.ts) on its own: which `env_var` variables the
 * agent was started with, and which method Airlock may sign in with unasked. auth.test.ts goes
 * through a real agent; this names each rule.
 */
import { describe, expect, it } from 'vitest';
import type { AuthMethodView, EnvVarView } from '../../../../preload/shared/contract.js';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import { authMethodsWithEnv, readyEnvMethod } from '../../../../main/core/sign-in.js';

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

/** A connection with these methods, started with values for the variables named in `env`. */
function connection(authMethods: AuthMethodView[], env: string[]): AgentConnection {
  return {
    authMethods,
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
