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

/** The bundled copy's text, built from the sample entries in `specDir`. */
export async function buildSnapshot(specDir: string = SPEC_DIR): Promise<string> {
  const agentsDir = join(specDir, 'agents');
  const ids = (await readdir(agentsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const agents: unknown[] = [];
  for (const id of ids) {
    const agent = JSON.parse(await readFile(join(agentsDir, id, 'agent.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const svg = await readFile(join(agentsDir, id, 'icon.svg')).catch(() => undefined);
    agents.push(
      svg === undefined
        ? agent
        : { ...agent, icon: `data:image/svg+xml;base64,${svg.toString('base64')}` },
    );
  }
  const text = JSON.stringify({ version: '1.0.0', agents, extensions: [] });
  return format(text, { parser: 'json', filepath: SNAPSHOT_FILE });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = await buildSnapshot();
  await writeFile(SNAPSHOT_FILE, text);
  console.log(`Wrote ${SNAPSHOT_FILE}`);
}
