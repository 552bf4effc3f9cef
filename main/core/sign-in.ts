/**
 * What the agent's sign-in methods need, as far as Airlock can tell without asking the user.
 *
 * An `env_var` method (the ACP auth-methods RFD) names variables the agent reads at start; once
 * they are set, the agent still wants `authenticate` with that method before `session/new`.
 */
import type { AuthMethodView } from '../../preload/shared/contract.js';
import type { AgentConnection } from './agent-connection.js';

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
