/**
 * Checks an agent's `initialize` result, which the SDK passes through unvalidated.
 *
 * A wrong shape or an unsupported protocol version becomes a clear error; auth methods are
 * turned into what the UI needs to explain them (including `env_var` methods, which name the
 * variables to set).
 */
import * as acp from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { AgentIdentity, AuthMethodView } from '../../preload/shared/contract.js';
import { commandLine, type AgentSpec } from './agents/spec.js';
import { UserFacingError } from './errors.js';
import { revealInvisible } from './reveal.js';

const text = z.string().max(10_000);

const authMethod = z
  .object({
    id: text.min(1),
    name: text,
    description: text.nullish(),
    type: text.optional(),
    varName: text.optional(),
    vars: z
      .array(
        z
          .object({
            name: text.min(1),
            label: text.nullish(),
            secret: z.boolean().nullish(),
            optional: z.boolean().nullish(),
          })
          .loose(),
      )
      .max(100)
      .optional(),
    args: z.array(text).max(100).optional(),
    // A `terminal` method's variables; names the environment accepts, as the settings' are.
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/), text)
      .refine((env) => Object.keys(env).length <= 100, 'too many variables')
      .optional(),
  })
  .loose();

const initializeResponse = z
  .object({
    protocolVersion: z.number().int().nonnegative(),
    agentCapabilities: z.record(z.string(), z.unknown()).optional(),
    authMethods: z.array(authMethod).max(100).optional(),
    agentInfo: z.object({ name: text, title: text.nullish(), version: text }).loose().nullish(),
  })
  .loose();

/**
 * `_meta["api-key"]` on a sign-in method (codex-acp's `api-key`): the provider whose API key the
 * method signs in with, which the agent reads from its environment. Anything else there is
 * ignored, and so is a `_meta` of another shape.
 */
const apiKeyMeta = z.object({
  'api-key': z.object({ provider: text.min(1) }).loose(),
});

/** What Airlock keeps of a valid `initialize` result. */
export type InitializeResult = {
  identity: AgentIdentity;
  authMethods: AuthMethodView[];
  /** The provider each method Airlock runs (`agent`) names in `_meta["api-key"]`, by method id. */
  apiKeyProviders: ReadonlyMap<string, string>;
  capabilities: acp.AgentCapabilities;
  /** How each `terminal` method runs the agent's command, by method id (see sign-in-terminal/). */
  terminalLaunches: ReadonlyMap<string, TerminalLaunch>;
};

/**
 * How a `terminal` sign-in method runs: the agent's command with the args
 * {@link terminalLaunchSpec} gives it, in the agent's environment as it was started with the
 * method's own variables over it.
 */
export type TerminalLaunch = { command: string; args: string[]; env: Record<string, string> };

/**
 * The agent's command as a `terminal` method runs it. An agent from the registry (its spec's
 * `launcherArgs` set) keeps its launcher's part (`npx --yes <pkg>`) and runs the method's args
 * in place of its own, as the registry's AUTHENTICATION.md says; any other agent's command line
 * gets them appended, as the ACP schema's AuthMethodTerminal says. The method's env goes over
 * the agent's.
 */
export function terminalLaunchSpec<
  S extends Pick<AgentSpec, 'command' | 'args' | 'env' | 'launcherArgs'>,
>(spec: S, method: { args: string[]; env: Record<string, string> }): S {
  const kept = spec.launcherArgs === undefined ? spec.args : spec.args.slice(0, spec.launcherArgs);
  return { ...spec, args: [...kept, ...method.args], env: { ...spec.env, ...method.env } };
}

/** Validates a raw `initialize` result; throws a {@link UserFacingError} naming the problem. */
export function parseInitializeResponse(raw: unknown, spec: AgentSpec): InitializeResult {
  const parsed = initializeResponse.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the result';
    throw new UserFacingError(
      `${spec.name} answered in a way Airlock cannot read when it started`,
      `The answer to initialize is invalid at ${where}: ${issue?.message ?? 'wrong shape'}`,
    );
  }
  const result = parsed.data;
  if (result.protocolVersion !== acp.PROTOCOL_VERSION) {
    throw new UserFacingError(
      `${spec.name} speaks ACP protocol version ${result.protocolVersion}; Airlock supports version ${acp.PROTOCOL_VERSION}`,
    );
  }
  const info = result.agentInfo ?? undefined;
  return {
    identity: {
      configName: spec.name,
      // The agent's own name heads every card it sends: hidden characters show, as in any name.
      name: shown(info?.name),
      title: shown(info?.title ?? undefined),
      version: shown(info?.version),
      protocolVersion: result.protocolVersion,
      commandLine: commandLine(spec),
    },
    authMethods: (result.authMethods ?? []).map((method) => toAuthView(method, spec)),
    apiKeyProviders: apiKeyProviders(result.authMethods ?? []),
    capabilities: (result.agentCapabilities ?? {}) as acp.AgentCapabilities,
    terminalLaunches: terminalLaunches(result.authMethods ?? [], spec),
  };
}

/** How each `terminal` method runs the agent started as `spec`; the first of a repeated id wins. */
function terminalLaunches(
  methods: z.infer<typeof authMethod>[],
  spec: AgentSpec,
): Map<string, TerminalLaunch> {
  const launches = new Map<string, TerminalLaunch>();
  for (const method of methods) {
    if (method.type === 'terminal' && !launches.has(method.id)) {
      const { command, args, env } = terminalLaunchSpec(spec, {
        args: method.args ?? [],
        env: { ...method.env },
      });
      launches.set(method.id, { command, args, env });
    }
  }
  return launches;
}

/** An agent's name or version as the UI shows it: its hidden characters written out. */
function shown(value: string | undefined): string | undefined {
  return value === undefined ? undefined : revealInvisible(value);
}

/** The API-key provider of each `agent` method that names one; the first of a repeated id wins. */
function apiKeyProviders(methods: z.infer<typeof authMethod>[]): Map<string, string> {
  const providers = new Map<string, string>();
  for (const method of methods) {
    if (method.type !== undefined && method.type !== 'agent') {
      continue;
    }
    const meta = apiKeyMeta.safeParse(method._meta);
    if (meta.success && !providers.has(method.id)) {
      providers.set(method.id, meta.data['api-key'].provider);
    }
  }
  return providers;
}

function toAuthView(method: z.infer<typeof authMethod>, spec: AgentSpec): AuthMethodView {
  const base = {
    id: method.id,
    name: revealInvisible(method.name),
    description: method.description ?? undefined,
  };
  if (method.type === 'env_var') {
    // The auth-methods RFD names the variables in `vars`; early agents sent one `varName`.
    const vars = method.vars ?? (method.varName ? [{ name: method.varName }] : []);
    return {
      ...base,
      kind: 'env_var',
      vars: vars.map((variable) => ({
        name: variable.name,
        label: variable.label ?? undefined,
        // A variable is secret unless the agent says otherwise, so values are masked by default.
        secret: variable.secret ?? true,
        optional: variable.optional ?? false,
        set: false,
      })),
    };
  }
  if (method.type === 'terminal') {
    return {
      ...base,
      kind: 'terminal',
      terminalCommand: commandLine(
        terminalLaunchSpec({ ...spec, env: {} }, { args: method.args ?? [], env: {} }),
      ),
    };
  }
  return { ...base, kind: 'agent' };
}
