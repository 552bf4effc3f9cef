/**
 * The real agents people use, installed on demand into a cache folder for the integration suite.
 *
 * They are not dependencies of the app: each is installed at a pinned version with npm into
 * `$AIRLOCK_AGENT_CACHE` (default `~/.cache/airlock-test-agents`), once, and reused. `.ci/run`
 * fills the cache before `npm test`; when the install fails (no network, say), the suite says
 * why and skips instead of passing silently.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A real ACP agent the suite runs, pinned. */
export type RealAgent = {
  /** The npm package. */
  pkg: string;
  /** The exact version known to work. */
  version: string;
  /** The package's bin that speaks ACP over stdio. */
  bin: string;
};

/** The agents the suite runs, at the versions the README lists as known to work. */
export const REAL_AGENTS = {
  claude: {
    pkg: '@agentclientprotocol/claude-agent-acp',
    version: '0.101.0',
    bin: 'claude-agent-acp',
  },
  codex: { pkg: '@agentclientprotocol/codex-acp', version: '2.6.0', bin: 'codex-acp' },
} as const satisfies Record<string, RealAgent>;

/** Where installed agents are kept. */
export function agentCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return (
    env.AIRLOCK_AGENT_CACHE ??
    join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'airlock-test-agents')
  );
}

function installDir(agent: RealAgent): string {
  return join(agentCacheDir(), `${agent.pkg.replace('/', '+')}@${agent.version}`);
}

/** The path of an installed agent's bin, or where it would be. */
export function agentBinPath(agent: RealAgent): string {
  return join(installDir(agent), 'node_modules', '.bin', agent.bin);
}

/** The outcome of {@link ensureRealAgent}: the bin to run, or why there is none. */
export type Installed = { ok: true; bin: string } | { ok: false; reason: string };

/**
 * Installs `agent` into the cache unless it is there already. Never throws: a failed install
 * comes back with its reason (the last lines npm printed).
 */
export async function ensureRealAgent(agent: RealAgent): Promise<Installed> {
  const dir = installDir(agent);
  const bin = agentBinPath(agent);
  const marker = join(dir, '.installed');
  if (existsSync(marker) && existsSync(bin)) {
    return { ok: true, bin };
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'airlock-agent-cache', private: true }),
  );
  const spec = `${agent.pkg}@${agent.version}`;
  const result = await run('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--no-save',
    '--loglevel=error',
    '--prefix',
    dir,
    spec,
  ]);
  if (result.code !== 0 || !existsSync(bin)) {
    const why = result.output.trim().split('\n').slice(-5).join('\n');
    await rm(dir, { recursive: true, force: true });
    return { ok: false, reason: `npm install ${spec} failed (exit ${result.code}): ${why}` };
  }
  await writeFile(marker, new Date().toISOString());
  return { ok: true, bin };
}

/** The installed version recorded in the agent's own package.json. */
export async function installedVersion(agent: RealAgent): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(
      await readFile(join(installDir(agent), 'node_modules', agent.pkg, 'package.json'), 'utf8'),
    ) as { version?: string };
    return manifest.version;
  } catch {
    return undefined;
  }
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
    child.once('error', (error) => resolve({ code: null, output: error.message }));
    child.once('close', (code) => resolve({ code, output }));
  });
}
