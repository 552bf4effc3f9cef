/**
 * How an agent is launched: its spec from the settings, the process it runs as, the launcher
 * that starts one, and its command line as a person reads it.
 *
 * The floor of the core: the settings, the connection, `initialize` and the hosts' launchers
 * all use these, and this file imports nothing from the core above it (only the type of an
 * MCP server setting, from the leaf that parses them).
 */
import type { Readable, Writable } from 'node:stream';
import type { McpServerSetting } from '../settings/mcp.js';

/** How to launch one agent. */
export type AgentSpec = {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  builtIn: boolean;
  /** How to start it, when not as a plain child process (see agent-connection.ts). */
  launch?: AgentLauncher;
  /**
   * The folder to start it in: the working folder of the session that starts it. Some agents
   * (Codex) take their process's folder as the workspace root.
   */
  cwd?: string;
  /**
   * The domains the user expects this agent's URLs on (`url_domains`), each a host or a URL as
   * written; a URL-mode request elsewhere gets a `domain-mismatch` warning. ACP has no field
   * where an agent states its domain, so this is the user's statement.
   */
  urlDomains?: string[];
  /** The agent's own MCP servers (`context_servers` in its entry); see mcp.ts for the merge. */
  mcpServers?: McpServerSetting[];
  /**
   * An agent from the ACP registry (`"type": "registry"` in the settings, keyed by its registry
   * id): its `command` is empty until the pool's `prepare` works out how to run it on this
   * machine (see pool.ts), which fills `command`, `args` and `env`.
   */
  registry?: { id: string };
  /**
   * How many of the leading `args` are the launcher's own (`npx --yes <pkg>`, `uvx --from <pkg>
   * <cmd>`), set by the registry's `prepare`: a `terminal` sign-in method keeps them and puts its
   * args in place of the rest, as the registry's AUTHENTICATION.md runs `<agent> <method args>`
   * (0 for a binary: its command and the method's args). Unset (an agent of the settings' own
   * command line, where launcher and agent cannot be told apart), the method's args are
   * appended, as the ACP schema's AuthMethodTerminal says.
   */
  launcherArgs?: number;
  /** The mode each new session of this agent is set to (`default_mode`), when it offers it. */
  defaultMode?: string;
  /**
   * The model each new session of this agent is set to (`default_model`): the value of its
   * config option of category `model` (or id `model`), when it offers that value.
   */
  defaultModel?: string;
};

/**
 * A started agent process, as much of Node's ChildProcess as the connection uses.
 *
 * Hosts can launch an agent differently (the Electron host starts the demo agent with
 * `utilityProcess`) as long as they present this shape.
 */
export type AgentProcess = {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'close', listener: (code: number | null, signal: string | null) => void): unknown;
};

/**
 * Works out how to run an agent from the ACP registry (installing it first if need be): the spec
 * it is given, with `command`, `args`, `env` (the registry's, which the settings' `env` goes
 * on top of) and perhaps `cwd` filled. `report` shows a line of progress ("Downloading…") in
 * the tabs waiting on it. Throws, in words, when the agent cannot run here.
 */
export type PrepareAgent = (spec: AgentSpec, report: (line: string) => void) => Promise<AgentSpec>;

/** Starts an agent process from its spec. */
export type AgentLauncher = (spec: AgentSpec) => AgentProcess;

/** What an agent from the registry shows for its command line until it is worked out. */
export const FROM_REGISTRY = 'From the ACP registry';

/**
 * The command line as a user would type it, for display; for an agent from the registry whose
 * command is not worked out yet, where it comes from.
 */
export function commandLine(spec: Pick<AgentSpec, 'command' | 'args' | 'registry'>): string {
  if (spec.registry && spec.command === '') {
    return FROM_REGISTRY;
  }
  return [spec.command, ...spec.args]
    .map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part))
    .join(' ');
}
