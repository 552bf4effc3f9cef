/**
 * Agents as the settings view shows and saves them: secrets masked on the way out, every field
 * checked on the way in, with what to do about each problem in words.
 */
import type {
  AgentEnvView,
  AgentSettingsInput,
  AgentSettingsView,
  FieldProblem,
  McpServerView,
} from '../../../preload/shared/contract.js';
import {
  MAX_AGENT_ENV,
  MAX_ENV_NAME_CHARS,
  MAX_ENV_VALUE_CHARS,
} from '../../../preload/shared/contract.js';
import { UserFacingError } from '../errors.js';
import { agentServer, DEMO_AGENT_NAME } from './catalog.js';
import type { AgentSpec } from '../agents/spec.js';
import type { McpServerSetting } from './mcp.js';
import type { AgentServerFields } from './text.js';

/** Names of variables that hold secrets: API keys, tokens, passwords and the like. */
const SECRET_NAME =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|PRIVATE|SESSION|SIGNATURE/i;

/** Values that look like keys whatever their variable is called. */
const KEY_PREFIXES =
  /^(?:sk-|sk_|pk_|rk_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abpors]-|hf_|AKIA|ASIA|AIza|ya29\.|eyJ)/;

/**
 * Whether an environment variable looks secret: by its name, by a known key prefix, or by
 * looking like a long random token (letters and digits mixed, no spaces, not a path).
 */
export function looksSecret(name: string, value: string): boolean {
  if (SECRET_NAME.test(name) || KEY_PREFIXES.test(value)) {
    return true;
  }
  return (
    value.length >= 20 &&
    /^[A-Za-z0-9+/=_.-]+$/.test(value) &&
    /\d/.test(value) &&
    /[A-Za-z]/.test(value) &&
    !/^[./~]/.test(value)
  );
}

/** An agent for the settings view, its secret-looking values left out. */
export function agentView(spec: AgentSpec): AgentSettingsView {
  return {
    name: spec.name,
    builtIn: spec.builtIn,
    command: spec.command,
    args: spec.args,
    env: maskedValues(spec.env),
    urlDomains: spec.urlDomains ?? [],
    ...(spec.mcpServers?.length ? { mcpServers: spec.mcpServers.map(mcpServerView) } : {}),
    ...(spec.registry ? { source: 'registry' as const } : {}),
  };
}

/** Values shown as the settings view lists them: secret-looking ones only said to be set. */
function maskedValues(values: Record<string, string>): AgentEnvView[] {
  return Object.entries(values).map(([name, value]): AgentEnvView =>
    looksSecret(name, value) ? { name, secret: true, set: true } : { name, secret: false, value },
  );
}

/** An MCP server for the settings view's listing, its secret-looking values masked. */
export function mcpServerView(server: McpServerSetting): McpServerView {
  const base = { name: server.name, enabled: server.enabled, transport: server.transport };
  switch (server.transport) {
    case 'stdio':
      return {
        ...base,
        command: server.command,
        args: server.args,
        values: maskedValues(server.env),
      };
    case 'http':
    case 'sse':
      return { ...base, url: server.url, values: maskedValues(server.headers) };
    case 'extension':
      return { ...base, values: [] };
  }
}

/** Refuses any change to the built-in agent, saying what to do instead. */
export function refuseBuiltIn(name: string, what: 'changed' | 'removed' | 'copied'): void {
  if (name === DEMO_AGENT_NAME) {
    throw new UserFacingError(
      what === 'copied'
        ? `${DEMO_AGENT_NAME} is built in and cannot be copied. Add a new agent instead.`
        : `${DEMO_AGENT_NAME} is built in and cannot be ${what}. Add your own agent instead.`,
    );
  }
}

/** A name for the environment variable that a process can take. */
const ENV_NAME = /^[^=\0]+$/;

/**
 * The problems with an agent being saved, one per field, in words; none when it can be saved.
 * `taken` says whether a name belongs to another agent.
 */
export function formProblems(
  input: AgentSettingsInput,
  taken: (name: string) => boolean,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const name = input.name.trim();
  if (name === '') {
    problem('name', 'Enter a name for the agent.');
  } else if (name !== input.name) {
    problem('name', 'Remove the spaces at the start or end of the name.');
  } else if (name.length > 200) {
    problem('name', 'Shorten the name to at most 200 characters.');
  } else if (name === DEMO_AGENT_NAME) {
    problem('name', `${DEMO_AGENT_NAME} is the built-in agent's name. Choose another name.`);
  } else if (taken(name)) {
    problem('name', `There is already an agent named "${name}". Choose another name.`);
  }
  if (input.command.trim() === '') {
    problem('command', 'Enter the command that starts the agent, such as npx or a full path.');
  }
  const names = new Set<string>();
  input.env.forEach((variable, index) => {
    if (variable.name === '') {
      problem(`env.${index}.name`, 'Enter a name for the variable, or remove the row.');
    } else if (!ENV_NAME.test(variable.name)) {
      problem(`env.${index}.name`, 'A variable name cannot hold "=". Rename it.');
    } else if (variable.name.length > MAX_ENV_NAME_CHARS) {
      problem(`env.${index}.name`, `Shorten the name to at most ${MAX_ENV_NAME_CHARS} characters.`);
    } else if (names.has(variable.name)) {
      problem(`env.${index}.name`, `${variable.name} is set twice. Remove one of them.`);
    }
    names.add(variable.name);
    if ('value' in variable && variable.value.length > MAX_ENV_VALUE_CHARS) {
      problem(
        `env.${index}.value`,
        `Shorten the value to at most ${MAX_ENV_VALUE_CHARS} characters.`,
      );
    }
  });
  if (input.env.length > MAX_AGENT_ENV) {
    problem('env', `Remove variables: an agent can have at most ${MAX_AGENT_ENV}.`);
  }
  // The same checks the settings file gets when it is read, so what is saved can be read back.
  const parsed = agentServer.safeParse({
    command: input.command,
    args: input.args,
    ...(input.urlDomains.length > 0 ? { url_domains: input.urlDomains } : {}),
  });
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const [key, index] = issue.path.map(String);
    const field = [key === 'url_domains' ? 'urlDomains' : key, index]
      .filter((part) => part !== undefined)
      .join('.');
    if (!problems.some((known) => known.field === field)) {
      problem(field, `${label(key, index)} ${issue.message}.`);
    }
  }
  return problems;
}

/** How a field reads at the start of a sentence. */
function label(key: string | undefined, index: string | undefined): string {
  const position = index === undefined ? undefined : Number(index) + 1;
  switch (key) {
    case 'args':
      return position === undefined ? 'The arguments' : `Argument ${position}`;
    case 'url_domains':
      return position === undefined ? 'The domains' : `Domain ${position}`;
    default:
      return 'The command';
  }
}

/**
 * The fields to write for an agent being saved: `keep` entries take the stored value of the
 * agent `stored` (as the file holds it now), since the view never had it.
 */
export function fieldsToWrite(
  input: AgentSettingsInput,
  stored: Record<string, unknown> | undefined,
): AgentServerFields {
  const storedEnv =
    stored?.env !== null && typeof stored?.env === 'object' && !Array.isArray(stored.env)
      ? (stored.env as Record<string, unknown>)
      : {};
  const env: Record<string, string> = {};
  for (const variable of input.env) {
    if ('value' in variable) {
      env[variable.name] = variable.value;
      continue;
    }
    const from = variable.from ?? variable.name;
    const kept = Object.hasOwn(storedEnv, from) ? storedEnv[from] : undefined;
    if (typeof kept !== 'string') {
      throw new UserFacingError(
        `The settings file no longer holds a value for ${from}. Enter the value again.`,
      );
    }
    env[variable.name] = kept;
  }
  return { command: input.command, args: input.args, env, url_domains: input.urlDomains };
}

/** A free name for a copy of agent `name`: "<name> copy", then "<name> copy 2" and on. */
export function copyName(name: string, taken: (name: string) => boolean): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' copy' : ` copy ${n}`;
    const candidate = `${name.slice(0, 200 - suffix.length)}${suffix}`;
    if (!taken(candidate)) {
      return candidate;
    }
  }
}
