/**
 * What the agent's sign-in methods need, as far as Airlock can tell without asking the user.
 *
 * An `env_var` method (the ACP auth-methods RFD) names variables the agent reads at start; once
 * they are set, the agent still wants `authenticate` with that method before `session/new`.
 * A method that names an API-key provider in `_meta["api-key"]` (codex-acp's `api-key`) reads
 * that provider's key variable the same way, though it does not name the variable: Airlock knows
 * the variable of a few providers ({@link API_KEY_VARIABLES}).
 */
import type { AuthMethodView } from '../../preload/shared/contract.js';
import type { AgentConnection } from './agent-connection.js';

/**
 * The variable that holds each provider's API key, by the name an agent gives the provider in
 * `_meta["api-key"]`. Only providers whose name an agent is known to send are here.
 */
export const API_KEY_VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  openai: 'OPENAI_API_KEY',
});

/** The variable of a provider named in `_meta["api-key"]`, if Airlock knows it. */
export function apiKeyVariable(provider: string | undefined): string | undefined {
  const name = provider?.toLowerCase();
  return name !== undefined && Object.hasOwn(API_KEY_VARIABLES, name)
    ? API_KEY_VARIABLES[name]
    : undefined;
}

/**
 * The agent's sign-in methods, each `env_var` variable marked with whether the agent was
 * started with a value for it (never the value itself).
 */
export function authMethodsWithEnv(connection: AgentConnection): AuthMethodView[] {
  return connection.authMethods.map((method) =>
    method.vars
      ? {
          ...method,
          vars: method.vars.map((variable) => ({
            ...variable,
            set: connection.hasEnv(variable.name),
          })),
        }
      : method,
  );
}

/** The first `env_var` method whose required variables are all set, if any. */
export function readyEnvMethod(methods: AuthMethodView[]): AuthMethodView | undefined {
  return methods.find(
    (method) =>
      method.kind === 'env_var' &&
      method.vars !== undefined &&
      method.vars.length > 0 &&
      method.vars.every((variable) => variable.optional || variable.set),
  );
}

/** A method Airlock may sign in with unasked, and the variables it reads that are set. */
export type ReadySignIn = { method: AuthMethodView; variables: string[] };

/**
 * The method Airlock may sign in with unasked: the first `env_var` method whose required
 * variables are set (it names them itself), else the first method Airlock runs whose
 * `_meta["api-key"]` provider's key variable is set in the agent's environment.
 */
export function readySignIn(
  connection: AgentConnection,
  methods: AuthMethodView[],
): ReadySignIn | undefined {
  const env = readyEnvMethod(methods);
  if (env) {
    const variables = (env.vars ?? []).filter((variable) => variable.set);
    return { method: env, variables: variables.map((variable) => variable.name) };
  }
  for (const method of methods) {
    const variable =
      method.kind === 'agent'
        ? apiKeyVariable(connection.apiKeyProviders.get(method.id))
        : undefined;
    if (variable !== undefined && connection.hasEnv(variable)) {
      return { method, variables: [variable] };
    }
  }
  return undefined;
}
