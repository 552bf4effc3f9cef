/**
 * Where Airlock keeps its files, and the agents the user configured.
 *
 * The settings file uses the shape Zed uses, so users can paste what they have:
 * `{ "agent_servers": { "<name>": { "command", "args", "env" } } }`. Airlock adds an agent's
 * `url_domains` (where its URL-mode requests should lead), `url_elicitation`, and
 * `ask_before_writes` (every file write an agent asks for waits on the user's permission).
 * MCP servers come as Zed writes them too (`context_servers`, see mcp.ts): at the top level for
 * every agent, and inside an agent's entry for that agent alone.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  MAX_AGENT_ARG_CHARS,
  MAX_AGENT_ARGS,
  MAX_AGENT_COMMAND_CHARS,
  MAX_AGENT_ENV,
  MAX_AGENTS,
  MAX_ENV_NAME_CHARS,
  MAX_ENV_VALUE_CHARS,
  MAX_URL_DOMAIN_CHARS,
  MAX_URL_DOMAINS,
} from '../../../preload/shared/contract.js';
import type { AgentSpec } from '../agents/spec.js';
import { statedHost } from '../elicitation/url-analysis.js';
import { parseContextServers, problemOf, type McpProblem, type McpServerSetting } from './mcp.js';
import { lineFinder, readSettingsText } from './text.js';

export { MAX_URL_DOMAIN_CHARS, MAX_URL_DOMAINS };

/** The built-in demo agent's name; it is always present and the default. */
export const DEMO_AGENT_NAME = 'Demo Agent';

/**
 * Where a URL-mode elicitation opens once the user consents, by default: Airlock's isolated
 * window, the system browser, or nowhere (`off`: URL mode is not advertised at all).
 */
export const UrlElicitation = z.enum(['isolated_window', 'system_browser', 'off']);
export type UrlElicitation = z.infer<typeof UrlElicitation>;

/**
 * The agents Airlock offers, how URL mode opens, and a message when the settings file could
 * not be used. `unreadable` when the file could not be read or parsed at all: then it must not
 * be edited until the user fixes it.
 */
export type AgentCatalog = {
  agents: AgentSpec[];
  urlElicitation: UrlElicitation;
  /** `ask_before_writes`: every file write an agent asks for waits on a permission card first. */
  askBeforeWrites?: boolean;
  /** The MCP servers every agent gets (top-level `context_servers`). */
  mcpServers?: McpServerSetting[];
  error?: string;
  unreadable?: true;
};

/** One entry of `agent_servers`, as Airlock reads it (its other keys are kept as they are). */
export const agentServer = z
  .object({
    command: z
      .string()
      .min(1, 'command must not be empty')
      .max(MAX_AGENT_COMMAND_CHARS, `must be at most ${MAX_AGENT_COMMAND_CHARS} characters`),
    args: z
      .array(
        z.string().max(MAX_AGENT_ARG_CHARS, `must be at most ${MAX_AGENT_ARG_CHARS} characters`),
      )
      .max(MAX_AGENT_ARGS, `must list at most ${MAX_AGENT_ARGS} arguments`)
      .default([]),
    env: z
      .record(
        z
          .string()
          .min(1, 'names must not be empty')
          .max(MAX_ENV_NAME_CHARS, `names must be at most ${MAX_ENV_NAME_CHARS} characters`),
        z.string().max(MAX_ENV_VALUE_CHARS, `must be at most ${MAX_ENV_VALUE_CHARS} characters`),
      )
      .refine((env) => Object.keys(env).length <= MAX_AGENT_ENV, {
        message: `must set at most ${MAX_AGENT_ENV} variables`,
      })
      .default({}),
    url_domains: z
      .array(
        z
          .string()
          .max(MAX_URL_DOMAIN_CHARS, `must be at most ${MAX_URL_DOMAIN_CHARS} characters`)
          .refine((text) => statedHost(text) !== null, {
            message: 'must be a host name (openai.com) or a URL (https://chatgpt.com/)',
          }),
      )
      .min(1, 'must list at least one domain; leave it out to expect none')
      .max(MAX_URL_DOMAINS, `must list at most ${MAX_URL_DOMAINS} domains`)
      .optional(),
  })
  .loose();

const settingsFile = z
  .object({
    agent_servers: z
      .record(z.string().min(1).max(200), agentServer)
      .refine((servers) => Object.keys(servers).length <= MAX_AGENTS, {
        message: `must list at most ${MAX_AGENTS} agents`,
      })
      .default({}),
    url_elicitation: UrlElicitation.default('isolated_window'),
    ask_before_writes: z.boolean().default(false),
  })
  .loose();

/** The folder for Airlock's configuration on this platform (or `AIRLOCK_CONFIG_DIR`). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AIRLOCK_CONFIG_DIR) {
    return env.AIRLOCK_CONFIG_DIR;
  }
  if (process.platform === 'win32') {
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Airlock');
  }
  if (process.platform === 'darwin') {
    return join(homedir(), 'Library', 'Application Support', 'Airlock');
  }
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'airlock');
}

/** The settings file's path. */
export function settingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'settings.json');
}

/** The folder for per-agent stderr logs. */
export function logsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'logs');
}

/**
 * Reads the agent catalog: the demo agent first, then the user's agents.
 *
 * A missing file is not an error. A broken one yields the demo agent alone and an error
 * naming the file and the problem, so the app still starts.
 */
export async function loadAgentCatalog(path: string, demo: AgentSpec): Promise<AgentCatalog> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { agents: [demo], urlElicitation: 'isolated_window' };
    }
    return {
      agents: [demo],
      urlElicitation: 'isolated_window',
      error: `Could not read ${path}: ${(error as Error).message}. Check the file's permissions or remove it.`,
      unreadable: true,
    };
  }
  return parseAgentCatalog(raw, path, demo);
}

/**
 * Parses settings text into a catalog; see {@link loadAgentCatalog}. The text is JSON as Zed
 * writes it: comments and trailing commas are fine.
 */
export function parseAgentCatalog(raw: string, path: string, demo: AgentSpec): AgentCatalog {
  const read = readSettingsText(raw);
  if (!read.ok) {
    const { line, column, message } = read.problem;
    return {
      agents: [demo],
      urlElicitation: 'isolated_window',
      error:
        `${path} is not valid JSON at line ${line}, column ${column}: ${message}. ` +
        'Fix it in the file; until then only the built-in agent is offered and agents cannot be edited in Airlock.',
      unreadable: true,
    };
  }
  const json = read.value;
  const mcp = readMcpServers(raw, path, json);
  const withMcp = (catalog: AgentCatalog): AgentCatalog => {
    const error = [catalog.error, ...mcp.problems].filter((line) => line !== undefined);
    return {
      ...catalog,
      ...(mcp.global.length > 0 ? { mcpServers: mcp.global } : {}),
      ...(error.length > 0 ? { error: clipProblems(error) } : {}),
    };
  };
  const parsed = settingsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the top level';
    const said = issue && problemOf(issue);
    // A mistake elsewhere in the file must not turn URL mode back on when it says "off".
    const stated = UrlElicitation.safeParse(
      json !== null && typeof json === 'object'
        ? (json as Record<string, unknown>).url_elicitation
        : undefined,
    );
    // Nor stop asking before writes when it says to ask.
    const askBeforeWrites =
      (json as Record<string, unknown> | null)?.ask_before_writes === true ? true : undefined;
    return withMcp({
      agents: [demo],
      urlElicitation: stated.success ? stated.data : 'isolated_window',
      ...(askBeforeWrites ? { askBeforeWrites } : {}),
      error: `${path}: ${where}: ${said?.message ?? 'invalid settings'}`,
    });
  }
  const agents = [demo];
  for (const [name, server] of Object.entries(parsed.data.agent_servers)) {
    if (name === demo.name) {
      return withMcp({
        agents: [demo],
        urlElicitation: parsed.data.url_elicitation,
        ...(parsed.data.ask_before_writes ? { askBeforeWrites: true } : {}),
        error: `${path}: agent_servers: "${name}" is reserved for the built-in agent`,
      });
    }
    agents.push({
      name,
      command: server.command,
      args: server.args,
      env: server.env,
      builtIn: false,
      ...(server.url_domains === undefined ? {} : { urlDomains: server.url_domains }),
      ...(mcp.own.has(name) ? { mcpServers: mcp.own.get(name) } : {}),
    });
  }
  return withMcp({
    agents,
    urlElicitation: parsed.data.url_elicitation,
    ...(parsed.data.ask_before_writes ? { askBeforeWrites: true } : {}),
  });
}

/** The most problems with MCP servers listed one by one; the rest are counted. */
const MAX_LISTED_PROBLEMS = 10;

/**
 * Every `context_servers` in the file: the top level's, and each agent's own (by agent name,
 * only for agents that have servers). Each problem is a line naming the file, the line and the
 * entry, so the user finds it; the entry is left out and the rest are used.
 */
function readMcpServers(
  raw: string,
  path: string,
  json: unknown,
): {
  global: McpServerSetting[];
  own: Map<string, McpServerSetting[]>;
  problems: (() => string)[];
} {
  const problems: McpProblem[] = [];
  const top = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  const global = parseContextServers(top.context_servers, ['context_servers']);
  problems.push(...global.problems);
  const own = new Map<string, McpServerSetting[]>();
  const agents = top.agent_servers;
  if (agents !== null && typeof agents === 'object' && !Array.isArray(agents)) {
    for (const [name, entry] of Object.entries(agents as Record<string, unknown>).slice(
      0,
      MAX_AGENTS,
    )) {
      const value =
        entry !== null && typeof entry === 'object'
          ? (entry as Record<string, unknown>).context_servers
          : undefined;
      const read = parseContextServers(value, ['agent_servers', name, 'context_servers']);
      problems.push(...read.problems);
      if (read.servers.length > 0) {
        own.set(name, read.servers);
      }
    }
  }
  const lineOf = lineFinder(raw);
  return {
    global: global.servers,
    own,
    // Written only if listed: finding a line reads the text up to it, and a file with a problem
    // in each of thousands of entries lists ten.
    problems: problems.map((problem) => () => {
      const line = lineOf(problem.path);
      const where = problem.path.map(String).join('.');
      return `${path}${line === undefined ? '' : `, line ${line}`}: ${where}: ${problem.message}`;
    }),
  };
}

/**
 * Problem lines for the catalog's error: the first few, then how many more, within bounds. A line
 * may be given as a function that writes it, called only if the line is shown.
 */
function clipProblems(lines: (string | (() => string))[]): string {
  const shown = lines
    .slice(0, MAX_LISTED_PROBLEMS)
    .map((line) => (typeof line === 'string' ? line : line()).slice(0, 900));
  const more = lines.length - shown.length;
  return [...shown, ...(more > 0 ? [`…and ${more} more`] : [])].join('\n');
}
