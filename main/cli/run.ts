/**
 * The `airlock` command line itself: parses arguments, finds the agent, runs the probe and
 * prints its report. The entry point (airlock.ts) only wires it to the process.
 */
import { basename } from 'node:path';
import { DEFAULT_TIMEOUTS } from '../core/agent-connection.js';
import {
  loadAgentCatalog,
  logsDir,
  settingsPath,
  type AgentCatalog,
} from '../core/settings/catalog.js';
import type { AgentSpec } from '../core/agents/spec.js';
import { probeAgent } from '../core/agents/probe.js';
import { RegistryService } from '../core/registry/service.js';
import { formatReport } from './probe.js';

/** Exit statuses: the handshake worked, it did not, the command line was wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Where the command line writes, and what it runs in. */
export type CliContext = {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** How to launch the built-in demo agent from where this runs. */
  demoAgent: AgentSpec;
};

type ProbeArgs = {
  json: boolean;
  cwd: string;
  timeoutMs: number;
  name?: string;
  command?: string[];
  label?: string;
};

function helpText(env: NodeJS.ProcessEnv): string {
  return `Usage: airlock probe <agent name> [options]
       airlock probe [options] -- <command> [args...]

Connects to an ACP agent without the app and prints what setting it up needs: who the agent
is, its protocol version and capabilities, how to sign in (and which variable an env_var
method reads), and whether session/new succeeds.

Agents by name come from agent_servers in ${settingsPath(env)},
plus the built-in "Demo Agent". With --, the command is run as the agent instead.

Options:
  --json           print the report as JSON
  --cwd <dir>      the folder session/new is asked to work in (default: the current folder)
  --timeout <s>    seconds to wait for each answer (default: ${DEFAULT_TIMEOUTS.requestMs / 1000})
  --name <name>    what to call an agent given with -- (default: the command's file name)
  -h, --help       show this help

Exit status: 0 when the handshake worked (even if session/new did not), 1 when it did not,
2 when the command line is wrong.
`;
}

class UsageError extends Error {}

function parseProbeArgs(args: string[]): ProbeArgs | 'help' {
  const parsed: ProbeArgs = {
    json: false,
    cwd: process.cwd(),
    timeoutMs: DEFAULT_TIMEOUTS.requestMs,
  };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      parsed.command = args.slice(i + 1);
      if (parsed.command.length === 0) {
        throw new UsageError('nothing after --: give the command that starts the agent');
      }
      break;
    }
    if (arg === '-h' || arg === '--help') {
      return 'help';
    }
    if (arg === '--json') {
      parsed.json = true;
    } else if (arg === '--cwd' || arg === '--timeout' || arg === '--name') {
      const value = args[++i];
      if (value === undefined) {
        throw new UsageError(`${arg} needs a value`);
      }
      if (arg === '--cwd') {
        parsed.cwd = value;
      } else if (arg === '--name') {
        parsed.label = value;
      } else {
        const seconds = Number(value);
        if (!Number.isFinite(seconds) || seconds <= 0) {
          throw new UsageError(`--timeout wants a number of seconds, not "${value}"`);
        }
        parsed.timeoutMs = Math.round(seconds * 1000);
      }
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (parsed.command && positional.length > 0) {
    throw new UsageError('give either an agent name or -- and a command, not both');
  }
  if (parsed.label !== undefined && !parsed.command) {
    throw new UsageError('--name is for agents given with -- and a command');
  }
  if (!parsed.command) {
    if (positional.length !== 1) {
      throw new UsageError(
        positional.length
          ? 'give one agent name (quote it if it has spaces)'
          : 'which agent? give its name, or -- and a command',
      );
    }
    parsed.name = positional[0];
  }
  return parsed;
}

async function resolveAgent(
  args: ProbeArgs,
  cx: CliContext,
): Promise<{ spec: AgentSpec; catalog?: AgentCatalog } | undefined> {
  if (args.command) {
    const [command, ...rest] = args.command as [string, ...string[]];
    const spec = { name: args.label ?? basename(command), command, args: rest, env: {} };
    return { spec: { ...spec, builtIn: false } };
  }
  const path = settingsPath(cx.env);
  const catalog = await loadAgentCatalog(path, cx.demoAgent);
  if (catalog.error) {
    cx.err(`airlock: warning: ${catalog.error}\n`);
  }
  const spec = catalog.agents.find((agent) => agent.name === args.name);
  if (!spec) {
    const known = catalog.agents.map((agent) => `"${agent.name}"`).join(', ');
    cx.err(`airlock: no agent named "${args.name}" in ${path}; known agents: ${known}\n`);
    return undefined;
  }
  return { spec, catalog };
}

/**
 * An agent from the ACP registry made ready to run as the app does (registry.prepare: installed
 * first if need be), its progress told on stderr; undefined, said in words, when it cannot be.
 */
async function fromRegistry(spec: AgentSpec, cx: CliContext): Promise<AgentSpec | undefined> {
  const registry = new RegistryService({
    settingsPath: settingsPath(cx.env),
    reload: async () => undefined,
    progress: () => undefined,
    env: cx.env,
  });
  let last = '';
  try {
    return await registry.prepare(spec, (line) => {
      // Progress repeats itself between the sizes it shows: each line once.
      if (line !== last) {
        last = line;
        cx.err(`airlock: ${line}\n`);
      }
    });
  } catch (error) {
    cx.err(`airlock: could not start ${spec.name}: ${(error as Error).message}\n`);
    return undefined;
  } finally {
    registry.dispose();
  }
}

/** Runs the command line `argv` (without `node` and the script) and returns the exit status. */
export async function runCli(argv: string[], cx: CliContext): Promise<number> {
  const { env } = cx;
  const [command, ...rest] = argv;
  if (command === '-h' || command === '--help' || command === 'help') {
    cx.out(helpText(env));
    return EXIT.ok;
  }
  if (command !== 'probe') {
    cx.err(`${command ? `airlock: unknown command "${command}"\n\n` : ''}${helpText(env)}`);
    return EXIT.usage;
  }
  let args: ProbeArgs | 'help';
  try {
    args = parseProbeArgs(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      cx.err(`airlock: ${error.message}\nRun "airlock --help" for how to use it.\n`);
      return EXIT.usage;
    }
    throw error;
  }
  if (args === 'help') {
    cx.out(helpText(env));
    return EXIT.ok;
  }
  const found = await resolveAgent(args, cx);
  if (!found) {
    return EXIT.usage;
  }
  const spec = found.spec.registry ? await fromRegistry(found.spec, cx) : found.spec;
  if (!spec) {
    return EXIT.failed;
  }
  // A named agent gets the settings' MCP servers, as in the app; a bare command gets none.
  const report = await probeAgent(spec, {
    catalog: found.catalog,
    logsDir: logsDir(env),
    timeouts: { requestMs: args.timeoutMs, cancelGraceMs: DEFAULT_TIMEOUTS.cancelGraceMs },
    cwd: args.cwd,
  });
  cx.out(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.ok ? EXIT.ok : EXIT.failed;
}
