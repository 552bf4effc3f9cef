/**
 * `airlock probe`: connects to an agent without any UI and reports what setting it up needs.
 *
 * It runs the same {@link AgentConnection} the app uses (initialize, then one `session/new`),
 * so what it reports is what the app would see: identity, protocol version, the capabilities of
 * both sides (each one Airlock knows, as yes or no, then any others the agent adds), sign-in
 * methods (with the variable an `env_var` method reads), the MCP servers the session is given,
 * and whether a session opens.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AuthMethodView } from '../../preload/contract.js';
import {
  AgentConnection,
  agentLogPath,
  clientCapabilities,
  type ConnectionTimeouts,
} from '../core/agent-connection.js';
import { AgentRequestError, AUTH_REQUIRED } from '../core/errors.js';
import { mcpServersFor } from '../core/mcp-servers.js';
import { commandLine, type AgentCatalog, type AgentSpec } from '../core/settings/catalog.js';
import { authMethodsWithEnv, readyEnvMethod } from '../core/sign-in.js';
import type { TerminalRequests } from '../core/terminals/service.js';
import { agentCapabilityRows, clientCapabilityRows } from './capability-rows.js';

export {
  agentCapabilityRows,
  clientCapabilityRows,
  flattenCapabilities,
} from './capability-rows.js';

/**
 * One sign-in method as the probe reports it; an `env_var` method lists each variable and
 * whether the agent's environment sets it (never its value).
 */
export type ProbeAuthMethod = AuthMethodView;

/** What `session/new` did, and the `env_var` method the probe signed in with first, if any. */
export type ProbeSession =
  | { ok: true; sessionId: string; modes: string[]; configOptions: string[]; signedInWith?: string }
  | { ok: false; authRequired: boolean; error: string; signedInWith?: string };

/** Everything the probe found out; `ok` is whether the handshake (`initialize`) worked. */
export type ProbeReport = {
  ok: boolean;
  agent: string;
  command: string;
  error?: string;
  name?: string;
  title?: string;
  version?: string;
  protocolVersion?: number;
  capabilities?: acp.AgentCapabilities;
  /** What Airlock advertised to the agent (`clientCapabilities`), the other side of the handshake. */
  offered?: acp.ClientCapabilities;
  authMethods?: ProbeAuthMethod[];
  /** The MCP servers `session/new` was given (`passed`), and those left out with why. */
  mcpServers?: ProbeMcpServer[];
  session?: ProbeSession;
  /** The agent's stderr log. */
  log: string;
};

/** One MCP server from the settings: given to the session, or left out (`detail` says why). */
export type ProbeMcpServer = { name: string; passed: boolean; detail: string };

/** How to probe. */
export type ProbeOptions = {
  /** The settings' global MCP servers; the agent's own come with `spec`. */
  catalog?: Pick<AgentCatalog, 'mcpServers'>;
  logsDir: string;
  timeouts: ConnectionTimeouts;
  /** The folder `session/new` is asked to work in. */
  cwd: string;
  /** Aborting it stops an agent that is still starting. */
  signal?: AbortSignal;
};

/** Starts the agent, runs the handshake and one `session/new`, stops it, and reports. Never rejects. */
export async function probeAgent(spec: AgentSpec, options: ProbeOptions): Promise<ProbeReport> {
  const base = {
    agent: spec.name,
    command: commandLine(spec),
    log: agentLogPath(options.logsDir, spec.name),
  };
  let connection: AgentConnection;
  try {
    connection = await AgentConnection.start(spec, {
      logsDir: options.logsDir,
      timeouts: options.timeouts,
      signal: options.signal,
      delegate: {
        onUpdate: () => undefined,
        // The probe never runs a turn; an agent that asks anyway gets a refusal, not a hang.
        onPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
        // Nobody is there to answer a form: the probe dismisses it, as a user would.
        onElicitation: async () => ({ action: 'cancel' }),
        onElicitationComplete: () => undefined,
        // No session of the probe's is one to serve files for.
        onReadTextFile: async ({ sessionId }) => {
          throw acp.RequestError.sessionNotFound(sessionId.slice(0, 100));
        },
        onWriteTextFile: async ({ sessionId }) => {
          throw acp.RequestError.sessionNotFound(sessionId.slice(0, 100));
        },
        // Nor one to run commands for.
        terminals: refuseTerminals,
        onExit: () => undefined,
      },
    });
  } catch (error) {
    return { ...base, ok: false, error: (error as Error).message };
  }
  try {
    const { identity } = connection;
    // The servers the app would give a session of this agent, so the check is the app's.
    const mcp = mcpServersFor(options.catalog ?? {}, spec, connection.capabilities);
    return {
      ...base,
      ok: true,
      name: identity.name,
      title: identity.title,
      version: identity.version,
      protocolVersion: identity.protocolVersion,
      capabilities: connection.capabilities,
      offered: clientCapabilities(connection.elicitationModes),
      authMethods: authMethodsWithEnv(connection),
      mcpServers: [
        ...mcp.mcpServers.map((server) => ({
          name: server.name,
          passed: true,
          detail: 'url' in server ? `${server.type} ${server.url}` : `stdio ${server.command}`,
        })),
        ...mcp.leftOut.map(({ name, reason }) => ({ name, passed: false, detail: reason })),
      ],
      session: await openSession(connection, options.cwd, mcp.mcpServers),
    };
  } finally {
    await connection.stop();
  }
}

/** The probe's answer to every `terminal/*` request: it has no session to run commands in. */
async function noSession({ sessionId }: { sessionId: string }): Promise<never> {
  throw acp.RequestError.sessionNotFound(sessionId.slice(0, 100));
}
const refuseTerminals: TerminalRequests = {
  create: noSession,
  output: noSession,
  waitForExit: noSession,
  kill: noSession,
  release: noSession,
};

/**
 * Runs `session/new`. When the agent needs sign-in and an `env_var` method's variables are set,
 * it signs in with that method and tries once more, as the app does.
 */
async function openSession(
  connection: AgentConnection,
  cwd: string,
  mcpServers: acp.McpServer[],
): Promise<ProbeSession> {
  const first = await newSession(connection, cwd, mcpServers);
  const ready = readyEnvMethod(authMethodsWithEnv(connection));
  if (first.ok || !first.authRequired || !ready) {
    return first;
  }
  try {
    await connection.request('authenticate', { methodId: ready.id });
  } catch (error) {
    return {
      ok: false,
      authRequired: true,
      error: (error as Error).message,
      signedInWith: ready.id,
    };
  }
  return { ...(await newSession(connection, cwd, mcpServers)), signedInWith: ready.id };
}

async function newSession(
  connection: AgentConnection,
  cwd: string,
  mcpServers: acp.McpServer[],
): Promise<ProbeSession> {
  try {
    const response = await connection.request('session/new', { cwd, mcpServers });
    if (typeof response?.sessionId !== 'string' || response.sessionId.length === 0) {
      return {
        ok: false,
        authRequired: false,
        error: 'the answer to session/new has no session id',
      };
    }
    return {
      ok: true,
      sessionId: response.sessionId,
      modes: (response.modes?.availableModes ?? []).map((mode) => mode.id),
      configOptions: (response.configOptions ?? []).map((option) => option.id),
    };
  } catch (error) {
    const authRequired = error instanceof AgentRequestError && error.code === AUTH_REQUIRED;
    return { ok: false, authRequired, error: (error as Error).message };
  }
}

/** The report as a person reads it. */
export function formatReport(report: ProbeReport): string {
  const lines: string[] = [];
  const row = (label: string, value: string) => lines.push(`${label.padEnd(14)}${value}`);
  row('Agent', report.agent);
  row('Command', report.command);
  if (!report.ok) {
    row('Handshake', `FAILED: ${report.error ?? 'unknown error'}`);
    row('Log', report.log);
    return `${lines.join('\n')}\n`;
  }
  row('Name', report.name ?? '(not given)');
  row('Title', report.title ?? '(not given)');
  row('Version', report.version ?? '(not given)');
  row('Protocol', `ACP version ${report.protocolVersion}`);
  row('Handshake', 'ok');
  lines.push('Capabilities');
  for (const [path, value] of agentCapabilityRows(report.capabilities ?? {})) {
    lines.push(`  ${path}: ${value}`);
  }
  if (report.offered) {
    lines.push('Airlock offers');
    for (const [path, value] of clientCapabilityRows(report.offered)) {
      lines.push(`  ${path}: ${value}`);
    }
  }
  const methods = report.authMethods ?? [];
  lines.push('Sign-in' + (methods.length ? '' : '       none needed'));
  for (const method of methods) {
    lines.push(
      `  ${method.id}: ${method.name}${method.description ? ` (${method.description})` : ''}`,
    );
    lines.push(`    ${describeMethod(method)}`);
  }
  const servers = report.mcpServers ?? [];
  lines.push('MCP servers' + (servers.length ? '' : '   none in the settings'));
  for (const server of servers) {
    lines.push(`  ${server.name}: ${server.passed ? 'given' : 'left out'}, ${server.detail}`);
  }
  const session = report.session;
  if (session?.signedInWith) {
    row('Signed in', `with ${session.signedInWith}, from the agent's environment`);
  }
  if (session?.ok) {
    row('New session', `ok (${session.sessionId})`);
    if (session.modes.length) {
      row('  Modes', session.modes.join(', '));
    }
    if (session.configOptions.length) {
      row('  Options', session.configOptions.join(', '));
    }
  } else if (session) {
    row('New session', `FAILED: ${session.error}`);
    if (session.authRequired) {
      lines.push(
        `${''.padEnd(14)}The agent needs you to sign in first; see the sign-in methods above.`,
      );
    }
  }
  row('Log', report.log);
  return `${lines.join('\n')}\n`;
}

function describeMethod(method: ProbeAuthMethod): string {
  switch (method.kind) {
    case 'env_var':
      return method.vars?.length
        ? `set ${method.vars.map((v) => `${v.name} (${v.set ? 'set now' : 'not set'})`).join(', ')} in the agent's environment`
        : 'set an environment variable the agent did not name';
    case 'terminal':
      return `run in a terminal: ${method.terminalCommand ?? '(no command given)'}`;
    case 'agent':
      return 'the agent signs you in itself (Airlock runs authenticate)';
  }
}
