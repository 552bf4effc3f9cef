/**
 * Where Airlock keeps its files, and the agents the user configured.
 *
 * The settings file uses the shape Zed uses, so users can paste what they have:
 * `{ "agent_servers": { "<name>": { "command", "args", "env" } } }`. Airlock adds an agent's
 * `url_domains` (where its URL-mode requests should lead), `url_elicitation`, and
 * `ask_before_writes` (every file write an agent asks for waits on the user's permission).
 * MCP servers come as Zed writes them too (`context_servers`, see mcp.ts): at the top level for
 * every agent, and inside an agent's entry for that agent alone.
 *
 * An entry may say its `type` as Zed writes it today: `"registry"` (an agent from the ACP
 * registry, keyed by its registry id, whose command is worked out when it starts) or `"custom"`
 * (a command, as an entry without a type). Each entry is read on its own: one Airlock cannot use
 * is listed in `unusable` with why, and every other agent is still offered.
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
  MAX_UNUSABLE_AGENTS,
  MAX_ENV_VALUE_CHARS,
  MAX_URL_DOMAIN_CHARS,
  MAX_URL_DOMAINS,
  type UnusableAgent,
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
  /**
   * The `agent_servers` entries Airlock cannot use, each with why (the file, line and field),
   * at most {@link MAX_UNUSABLE_AGENTS}; absent when none. Not repeated in `error`.
   */
  unusable?: UnusableAgent[];
  error?: string;
  unreadable?: true;
};

/** What a registry id looks like (`claude-acp`); the key of a `"type": "registry"` entry. */
export const REGISTRY_ID = /^[a-z][a-z0-9-]*$/;

/** The longest `default_mode` or `default_model`, in characters. */
const MAX_DEFAULT_CHARS = 200;

/** The fields every kind of `agent_servers` entry may have. */
const entryFields = {
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
  default_mode: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_DEFAULT_CHARS, `must be at most ${MAX_DEFAULT_CHARS} characters`)
    .optional(),
  default_model: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_DEFAULT_CHARS, `must be at most ${MAX_DEFAULT_CHARS} characters`)
    .optional(),
};

/**
 * One entry of `agent_servers` that states its command (`"type": "custom"`, or no type), as
 * Airlock reads it (its other keys are kept as they are).
 */
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
    ...entryFields,
  })
  .loose();

/** An `agent_servers` entry for an agent from the ACP registry (`"type": "registry"`). */
const registryServer = z.object(entryFields).loose();

/** The settings Airlock reads besides the agents, each on its own. */
const urlElicitationSetting = UrlElicitation.default('isolated_window');
const askBeforeWritesSetting = z.boolean().default(false);

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
  const lineOf = lineFinder(raw);
  const where = (at: (string | number)[]) => {
    const line = lineOf(at);
    return `${path}${line === undefined ? '' : `, line ${line}`}: ${at.map(String).join('.')}`;
  };
  const problems: (string | (() => string))[] = [];
  const top =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  if (!top) {
    return withProblems(
      { agents: [demo], urlElicitation: 'isolated_window' },
      [`${path}: the top level: must be an object, as in { "agent_servers": {} }`],
      mcp,
    );
  }
  // Each setting is read on its own: a mistake elsewhere must not turn URL mode back on when it
  // says "off", nor stop asking before writes when it says to ask.
  const urlElicitation = urlElicitationSetting.safeParse(top.url_elicitation);
  if (!urlElicitation.success) {
    problems.push(`${path}: url_elicitation: ${issueMessage(urlElicitation.error)}`);
  }
  const askBeforeWrites = askBeforeWritesSetting.safeParse(top.ask_before_writes);
  if (!askBeforeWrites.success) {
    problems.push(`${path}: ask_before_writes: ${issueMessage(askBeforeWrites.error)}`);
  }
  const base: AgentCatalog = {
    agents: [demo],
    urlElicitation: urlElicitation.success ? urlElicitation.data : 'isolated_window',
    ...(askBeforeWrites.success && askBeforeWrites.data ? { askBeforeWrites: true } : {}),
  };
  const servers = top.agent_servers ?? {};
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    problems.push(`${path}: agent_servers: must be an object of agents by name`);
    return withProblems(base, problems, mcp);
  }
  const entries = Object.entries(servers as Record<string, unknown>);
  if (entries.length > MAX_AGENTS) {
    problems.push(`${path}: agent_servers: must list at most ${MAX_AGENTS} agents`);
    return withProblems(base, problems, mcp);
  }
  const unusable: UnusableAgent[] = [];
  for (const [name, entry] of entries) {
    const read = readAgentServer(name, entry, demo.name);
    if (!read.ok) {
      if (unusable.length < MAX_UNUSABLE_AGENTS) {
        const at = ['agent_servers', name, ...read.path];
        unusable.push({
          name: name.slice(0, 200),
          reason: `${where(at)}: ${read.message}`.slice(0, 900),
        });
      }
      continue;
    }
    const own = mcp.own.get(name);
    base.agents.push({ ...read.spec, ...(own ? { mcpServers: own } : {}) });
  }
  return withProblems({ ...base, ...(unusable.length > 0 ? { unusable } : {}) }, problems, mcp);
}

/**
 * The catalog's problems as one text for the app's notice: each unusable agent's reason, then
 * the file's other problems (`error`), within bounds.
 */
export function settingsProblems(catalog: AgentCatalog): string | undefined {
  const lines = [
    ...(catalog.unusable ?? []).map((agent) => agent.reason),
    ...(catalog.error === undefined ? [] : [catalog.error]),
  ];
  return lines.length > 0 ? clipProblems(lines) : undefined;
}

/** The catalog with the file's problems and the MCP servers' added. */
function withProblems(
  catalog: AgentCatalog,
  problems: (string | (() => string))[],
  mcp: ReturnType<typeof readMcpServers>,
): AgentCatalog {
  const error = [...problems, ...mcp.problems];
  return {
    ...catalog,
    ...(mcp.global.length > 0 ? { mcpServers: mcp.global } : {}),
    ...(error.length > 0 ? { error: clipProblems(error) } : {}),
  };
}

/** The first problem zod found, in words. */
function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? inWords(problemOf(issue)) : 'invalid';
}

/** What a value should have been, as a person says it. */
const EXPECTED: Record<string, string> = {
  string: 'must be text, in quotes',
  array: 'must be a list, in [ ]',
  object: 'must be an object, in { }',
  record: 'must be an object, in { }',
  boolean: 'must be true or false',
  number: 'must be a number',
};

/** A problem as the user reads it: a missing or wrong-typed value said plainly. */
function inWords(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    // zod keeps no input in its issues unless asked; its message says what it received.
    if (/received undefined$/.test(issue.message)) {
      return 'is missing';
    }
    return EXPECTED[issue.expected] ?? issue.message;
  }
  return issue.message;
}

/**
 * One `agent_servers` entry as an agent, or where in the entry (a path below it) and what is
 * wrong.
 */
function readAgentServer(
  name: string,
  entry: unknown,
  reserved: string,
): { ok: true; spec: AgentSpec } | { ok: false; path: (string | number)[]; message: string } {
  if (name === reserved) {
    return { ok: false, path: [], message: `"${name}" is reserved for the built-in agent` };
  }
  if (name.length === 0 || name.length > 200) {
    return { ok: false, path: [], message: 'the name must be 1 to 200 characters' };
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    return { ok: false, path: [], message: 'must be an object, as in { "command": "…" }' };
  }
  const type = (entry as Record<string, unknown>).type;
  const failed = (error: z.ZodError) => {
    const issue = error.issues[0];
    return {
      ok: false as const,
      path: issue?.path.map((part) => (typeof part === 'symbol' ? String(part) : part)) ?? [],
      message: issue ? inWords(problemOf(issue)) : 'invalid',
    };
  };
  /** The agent of a valid entry, launched as `launch` says. */
  const agent = (
    server: z.infer<typeof registryServer>,
    launch: Pick<AgentSpec, 'command' | 'args' | 'registry'>,
  ) => ({
    ok: true as const,
    spec: {
      name,
      ...launch,
      env: server.env,
      builtIn: false,
      ...(server.url_domains === undefined ? {} : { urlDomains: server.url_domains }),
      ...(server.default_mode === undefined ? {} : { defaultMode: server.default_mode }),
      ...(server.default_model === undefined ? {} : { defaultModel: server.default_model }),
    },
  });
  if (type === 'registry') {
    if (!REGISTRY_ID.test(name)) {
      return {
        ok: false,
        path: [],
        message:
          'an agent from the registry is named by its registry id: lowercase letters, digits and hyphens, starting with a letter (claude-acp)',
      };
    }
    const parsed = registryServer.safeParse(entry);
    if (!parsed.success) {
      return failed(parsed.error);
    }
    return agent(parsed.data, { command: '', args: [], registry: { id: name } });
  }
  if (type !== undefined && type !== 'custom') {
    return {
      ok: false,
      path: ['type'],
      message:
        type === 'extension'
          ? 'Airlock cannot run agents from Zed extensions; use "registry" or "custom" with a command'
          : 'must be "registry" or "custom"',
    };
  }
  const parsed = agentServer.safeParse(entry);
  if (!parsed.success) {
    return failed(parsed.error);
  }
  return agent(parsed.data, { command: parsed.data.command, args: parsed.data.args });
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
