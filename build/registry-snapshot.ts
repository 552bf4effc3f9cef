/**
 * Builds the registry copy bundled with Airlock (main/core/registry/snapshot.json), shown when
 * the agent registry cannot be reached and nothing is cached yet.
 *
 * It merges the sample entries in `../shared/spec/acp-registry/agents/<id>/agent.json` the way
 * the published `registry.json` does (`{ version, agents, extensions }`), each with its
 * `icon.svg` inlined as a `data:image/svg+xml;base64,` URL so the copy needs no network.
 * Run with `npm run registry:snapshot`; the result is formatted as Prettier would.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'prettier';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/** Where the sample entries are, relative to the project's root. */
export const SPEC_DIR = resolve(ROOT, '..', 'shared', 'spec', 'acp-registry');

/** Where the bundled copy is written. */
export const SNAPSHOT_FILE = resolve(ROOT, 'main', 'core', 'registry', 'snapshot.json');

/**
 * What the live registry has changed since the sample entries were copied, as the samples'
 * README records it: Claude's adapter is listed as `claude-acp` (the package
 * `@agentclientprotocol/claude-agent-acp`), and Codex's as the TypeScript package
 * `@agentclientprotocol/codex-acp`. The versions are the ones Airlock's own suites run. A Zed
 * settings file written today names these ids; offline, before the first fetch, the bundled copy
 * must know them.
 */
const CURRENT: Record<string, { id: string; name: string; version: string; package: string }> = {
  'claude-code-acp': {
    id: 'claude-acp',
    name: 'Claude Agent',
    version: '0.101.0',
    package: '@agentclientprotocol/claude-agent-acp@0.101.0',
  },
  'codex-acp': {
    id: 'codex-acp',
    name: 'Codex CLI',
    version: '2.6.0',
    package: '@agentclientprotocol/codex-acp@2.6.0',
  },
};

/** A sample entry as the live registry lists it now (see {@link CURRENT}). */
function current(agent: Record<string, unknown>): Record<string, unknown> {
  const now = CURRENT[String(agent.id)];
  return now === undefined
    ? agent
    : {
        ...agent,
        id: now.id,
        name: now.name,
        version: now.version,
        distribution: { npx: { package: now.package } },
      };
}

/** The bundled copy's text, built from the sample entries in `specDir`. */
export async function buildSnapshot(specDir: string = SPEC_DIR): Promise<string> {
  const agentsDir = join(specDir, 'agents');
  const ids = (await readdir(agentsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const agents: unknown[] = [];
  for (const id of ids) {
    const agent = current(
      JSON.parse(await readFile(join(agentsDir, id, 'agent.json'), 'utf8')) as Record<
        string,
        unknown
      >,
    );
    const svg = await readFile(join(agentsDir, id, 'icon.svg')).catch(() => undefined);
    agents.push(
      svg === undefined
        ? agent
        : { ...agent, icon: `data:image/svg+xml;base64,${svg.toString('base64')}` },
    );
  }
  agents.sort((a, b) => String((a as { id: string }).id).localeCompare((b as { id: string }).id));
  const text = JSON.stringify({ version: '1.0.0', agents, extensions: [] });
  return format(text, { parser: 'json', filepath: SNAPSHOT_FILE });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = await buildSnapshot();
  await writeFile(SNAPSHOT_FILE, text);
  console.log(`Wrote ${SNAPSHOT_FILE}`);
}
