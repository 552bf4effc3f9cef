/**
 * The probe behind `airlock probe` and the settings view's Test: connects to an agent without
 * any UI and reports what setting it up needs.
 *
 * It runs the same {@link AgentConnection} the app uses (initialize, then one `session/new`),
 * so what it reports is what the app would see: identity, protocol version, the capabilities of
 * both sides (each one Airlock knows, as yes or no, then any others the agent adds), sign-in
 * methods (with the variable an `env_var` method reads), the MCP servers the session is given,
 * and whether a session opens.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AuthMethodView } from '../../../preload/shared/contract.js';
import {
  AgentConnection,
  agentLogPath,
  clientCapabilities,
  sessionElicitationModes,
  type ConnectionTimeouts,
  type TerminalRequests,
} from '../agent-connection.js';
import { AgentRequestError, AUTH_REQUIRED } from '../errors.js';
import { mcpServersFor } from '../mcp-servers.js';
import type { AgentCatalog } from '../settings/catalog.js';
import { commandLine, type AgentSpec } from './spec.js';
import { authMethodsWithEnv, readySignIn } from '../sign-in.js';
import { sessionOffers, type OfferRow } from './capability-rows.js';

/**
 * One sign-in method as the probe reports it; an `env_var` method lists each variable and
 * whether the agent's environment sets it (never its value).
 */
export type ProbeAuthMethod = AuthMethodView;

/** What `session/new` did, and the method the probe signed in with first, if any. */
export type ProbeSession =
  | {
      ok: true;
      sessionId: string;
      /** The modes' and options' ids, as the protocol names them. */
      modes: string[];
      configOptions: string[];
      /** The same, by the names the agent shows a person, in the same order. */
      modeNames: string[];
      configOptionNames: string[];
      signedInWith?: string;
    }
  | {
      ok: false;
      authRequired: boolean;
      /** Why, in words; the JSON-RPC code, when the agent sent one, is `code`, not in here. */
      error: string;
      code?: number;
      signedInWith?: string;
    };

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
  /**
   * The settings' global MCP servers (the agent's own come with `spec`) and how URL mode opens:
   * the probe advertises what a session would.
   */
  catalog?: Partial<Pick<AgentCatalog, 'mcpServers' | 'urlElicitation'>>;
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
      // What a session of this agent is offered, so the report describes the session.
      elicitation: sessionElicitationModes(options.catalog?.urlElicitation),
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
 * Runs `session/new`. When the agent needs sign-in and an `env_var` method's variables (or an
 * API-key method's key, see sign-in.ts) are set, it signs in with that method and tries once
 * more, as the app does.
 */
async function openSession(
  connection: AgentConnection,
  cwd: string,
  mcpServers: acp.McpServer[],
): Promise<ProbeSession> {
  const first = await newSession(connection, cwd, mcpServers);
  const ready = readySignIn(connection, authMethodsWithEnv(connection))?.method;
  if (first.ok || !first.authRequired || !ready) {
    return first;
  }
  try {
    await connection.request('authenticate', { methodId: ready.id });
  } catch (error) {
    return { ok: false, authRequired: true, ...failure(error), signedInWith: ready.id };
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
        error: 'it did not say which session it started',
      };
    }
    return {
      ok: true,
      sessionId: response.sessionId,
      modes: (response.modes?.availableModes ?? []).map((mode) => mode.id),
      configOptions: (response.configOptions ?? []).map((option) => option.id),
      modeNames: (response.modes?.availableModes ?? []).map((mode) => mode.name),
      configOptionNames: (response.configOptions ?? []).map((option) => option.name),
    };
  } catch (error) {
    const authRequired = error instanceof AgentRequestError && error.code === AUTH_REQUIRED;
    return { ok: false, authRequired, ...failure(error) };
  }
}

/** A failed request's words, and apart from them the JSON-RPC code the agent answered with. */
function failure(error: unknown): { error: string; code?: number } {
  const message = (error as Error).message;
  return error instanceof AgentRequestError
    ? { error: message, code: error.code }
    : { error: message };
}

/**
 * What a session of the probed agent will offer, in sentences (see {@link sessionOffers}); none
 * when the handshake failed. The elicitation modes are the ones the probe's own connection
 * advertised, which are a session's (see {@link sessionElicitationModes}).
 */
export function reportOffers(report: ProbeReport): OfferRow[] {
  if (!report.ok) {
    return [];
  }
  const elicitation = report.offered?.elicitation;
  return sessionOffers({
    capabilities: report.capabilities ?? {},
    elicitation: { form: Boolean(elicitation?.form), url: Boolean(elicitation?.url) },
    authMethods: report.authMethods ?? [],
  });
}
