/**
 * MCP servers in the settings file, in the shape Zed uses (`context_servers`), so a user can
 * paste what they have:
 *
 * - a local server, started by the agent: `{ "command": "npx", "args": [...], "env": {...} }`,
 *   or as older Zed wrote it, `{ "command": { "path": "npx", "args": [...], "env": {...} } }`;
 * - a remote one: `{ "url": "https://…", "headers": {...} }`, reached over HTTP. Zed tells the
 *   transport by `url` alone; Airlock also reads `"type": "sse"` for a server that speaks SSE;
 * - a Zed extension's server (`{ "settings": {...} }`): listed, but Airlock cannot start it.
 *
 * `"enabled": false` keeps an entry without using it; Zed's other keys (`source`, `remote`,
 * `timeout`) are read past. Each problem names the entry's path in the file, so one bad server
 * is left out and reported while the rest are used.
 */
import { z } from 'zod';
import {
  MAX_AGENT_ARG_CHARS,
  MAX_AGENT_ARGS,
  MAX_AGENT_COMMAND_CHARS,
  MAX_AGENT_ENV,
  MAX_ENV_NAME_CHARS,
  MAX_ENV_VALUE_CHARS,
  MAX_MCP_HEADERS,
  MAX_MCP_SERVERS,
  MAX_MCP_URL_CHARS,
} from '../../../preload/shared/contract.js';

/**
 * The part of a zod issue a user can act on. A bad name in a record (an `env` or `headers` map)
 * comes as "Invalid key in record", with the name's own problem (say, that it is empty) inside.
 */
export function problemOf(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  return issue.code === 'invalid_key' ? (issue.issues[0] ?? issue) : issue;
}

/** One MCP server as the settings file configures it. */
export type McpServerSetting = { name: string; enabled: boolean } & (
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { transport: 'http' | 'sse'; url: string; headers: Record<string, string> }
  | { transport: 'extension' }
);

/** Something wrong in `context_servers`: where in the file (a JSON path), and what. */
export type McpProblem = { path: (string | number)[]; message: string };

/** A map of names to values: an agent's environment, or a remote server's headers. */
function namedValues(what: 'variables' | 'headers', max: number) {
  return z
    .record(
      z
        .string()
        .min(1, 'names must not be empty')
        .max(MAX_ENV_NAME_CHARS, `names must be at most ${MAX_ENV_NAME_CHARS} characters`),
      z.string().max(MAX_ENV_VALUE_CHARS, `must be at most ${MAX_ENV_VALUE_CHARS} characters`),
    )
    .refine((values) => Object.keys(values).length <= max, {
      message: `must set at most ${max} ${what}`,
    });
}

const command = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_AGENT_COMMAND_CHARS, `must be at most ${MAX_AGENT_COMMAND_CHARS} characters`);
const args = z
  .array(z.string().max(MAX_AGENT_ARG_CHARS, `must be at most ${MAX_AGENT_ARG_CHARS} characters`))
  .max(MAX_AGENT_ARGS, `must list at most ${MAX_AGENT_ARGS} arguments`)
  .nullish();
const env = namedValues('variables', MAX_AGENT_ENV).nullish();
const enabled = z.boolean().default(true);

const local = z.object({ enabled, command, args, env }).loose();
const localNested = z
  .object({ enabled, command: z.object({ path: command, args, env }).loose() })
  .loose();
const remote = z
  .object({
    enabled,
    url: z
      .string()
      .max(MAX_MCP_URL_CHARS, `must be at most ${MAX_MCP_URL_CHARS} characters`)
      .refine(isWebUrl, { message: 'must be an http:// or https:// URL' }),
    headers: namedValues('headers', MAX_MCP_HEADERS).nullish(),
    type: z.enum(['http', 'sse'], { message: 'must be "http" or "sse"' }).default('http'),
  })
  .loose();
const extension = z.object({ enabled, settings: z.unknown() }).loose();

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads one `context_servers` object found at `at` in the file (`["context_servers"]`, or
 * `["agent_servers", "<agent>", "context_servers"]`). Entries with a problem are left out, each
 * problem reported; the others are returned in the file's order.
 */
export function parseContextServers(
  value: unknown,
  at: (string | number)[],
): { servers: McpServerSetting[]; problems: McpProblem[] } {
  const servers: McpServerSetting[] = [];
  const problems: McpProblem[] = [];
  if (value === undefined) {
    return { servers, problems };
  }
  if (!isObject(value)) {
    problems.push({ path: at, message: 'must be an object of servers by name' });
    return { servers, problems };
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_MCP_SERVERS) {
    problems.push({
      path: at,
      message: `must list at most ${MAX_MCP_SERVERS} servers; the first ${MAX_MCP_SERVERS} are used`,
    });
  }
  for (const [name, entry] of entries.slice(0, MAX_MCP_SERVERS)) {
    const path = [...at, name];
    if (name.length === 0 || name.length > 200) {
      problems.push({ path, message: 'a server name must be 1 to 200 characters' });
      continue;
    }
    const read = readServer(name, entry);
    if ('problem' in read) {
      problems.push({ path: [...path, ...read.problem.path], message: read.problem.message });
    } else {
      servers.push(read.server);
    }
  }
  return { servers, problems };
}

/** A local server as read from either of Zed's shapes. */
function stdioServer(
  name: string,
  enabled: boolean,
  path: string,
  given: string[] | null | undefined,
  vars: Record<string, string> | null | undefined,
): McpServerSetting {
  return { name, enabled, transport: 'stdio', command: path, args: given ?? [], env: vars ?? {} };
}

/** One entry, or its first problem (its path relative to the entry). */
function readServer(
  name: string,
  entry: unknown,
): { server: McpServerSetting } | { problem: McpProblem } {
  if (!isObject(entry)) {
    return { problem: { path: [], message: 'must be an object with a command or a url' } };
  }
  if (entry.command !== undefined && entry.url !== undefined) {
    return { problem: { path: [], message: 'has both a command and a url; keep one' } };
  }
  const first = (error: z.ZodError): { problem: McpProblem } => {
    const issue = error.issues[0];
    const said = issue && problemOf(issue);
    return {
      problem: {
        path: (issue?.path ?? []).map((key) => (typeof key === 'number' ? key : String(key))),
        message: said?.message ?? 'is not a server Airlock can read',
      },
    };
  };
  if (isObject(entry.command)) {
    const parsed = localNested.safeParse(entry);
    if (!parsed.success) {
      return first(parsed.error);
    }
    const { path, args: given, env: vars } = parsed.data.command;
    return { server: stdioServer(name, parsed.data.enabled, path, given, vars) };
  }
  if (entry.command !== undefined) {
    const parsed = local.safeParse(entry);
    if (!parsed.success) {
      return first(parsed.error);
    }
    const { command: path, args: given, env: vars } = parsed.data;
    return { server: stdioServer(name, parsed.data.enabled, path, given, vars) };
  }
  if (entry.url !== undefined) {
    const parsed = remote.safeParse(entry);
    if (!parsed.success) {
      return first(parsed.error);
    }
    return {
      server: {
        name,
        enabled: parsed.data.enabled,
        transport: parsed.data.type,
        url: parsed.data.url,
        headers: parsed.data.headers ?? {},
      },
    };
  }
  if (entry.settings !== undefined) {
    const parsed = extension.safeParse(entry);
    if (!parsed.success) {
      return first(parsed.error);
    }
    return { server: { name, enabled: parsed.data.enabled, transport: 'extension' } };
  }
  return {
    problem: {
      path: [],
      message: 'needs a "command" (a server the agent starts) or a "url" (a remote server)',
    },
  };
}

/**
 * The servers an agent gets: the global ones, then its own. Its own add to the global list and
 * replace a global one of the same name (in that one's place), so an agent can change or turn
 * off (`"enabled": false`) one server for itself.
 */
export function mergeMcpServers(
  global: readonly McpServerSetting[],
  own: readonly McpServerSetting[],
): McpServerSetting[] {
  const ownByName = new Map(own.map((server) => [server.name, server]));
  const merged = global.map((server) => ownByName.get(server.name) ?? server);
  const globalNames = new Set(global.map((server) => server.name));
  return [...merged, ...own.filter((server) => !globalNames.has(server.name))];
}
