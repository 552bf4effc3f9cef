/**
 * A registry agent for tests: a `.tar.gz` archive holding one `#!/bin/sh` script that runs a
 * scripted fixture agent (test/fixtures/agents/scripted-agent.ts) with this Node and tsx, and
 * the registry entry that offers it for this machine's platform from a local server.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { currentPlatform, RegistryAgent } from '../../main/core/registry/format.js';
import { TSX_LOADER } from './agents.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The shell script that runs the scripted agent playing `scenario`, after the shell lines
 * `before` (which may note its environment, say).
 */
export function scriptedAgentScript(scenario = 'basic', before: string[] = []): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  return [
    '#!/bin/sh',
    ...before,
    `exec ${quote(process.execPath)} --import ${quote(TSX_LOADER)} ${quote(`${root}test/fixtures/agents/scripted-agent.ts`)} ${quote(scenario)}`,
    '',
  ].join('\n');
}

/** A `.tar.gz` holding `files` (path → text), each executable. */
export async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const [name, text] of Object.entries(files)) {
    archive.entry({ name, mode: 0o755 }, text);
  }
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** An archive whose `bin/agent` runs the scripted agent playing `scenario` (after `before`). */
export function scriptedAgentArchive(scenario = 'basic', before: string[] = []): Promise<Buffer> {
  return tarGz({ 'bin/agent': scriptedAgentScript(scenario, before) });
}

/** This machine's platform as the registry names it (the tests run on one it names). */
export function platformHere(): string {
  const platform = currentPlatform();
  if (!platform) {
    throw new Error(`The registry names no platform for ${process.platform}-${process.arch}`);
  }
  return platform;
}

/** A registry entry of a binary agent for this platform, its archive at `archive`. */
export function binaryEntry(
  id: string,
  version: string,
  archive: string,
  extra: Record<string, unknown> = {},
) {
  return {
    id,
    name: 'Scripted Binary',
    version,
    description: 'A scripted agent shipped as an archive.',
    authors: ['Airlock tests'],
    license: 'MIT',
    repository: 'https://example.com/scripted-binary',
    distribution: {
      binary: { [platformHere()]: { archive, cmd: './bin/agent', args: [], env: {} } },
    },
    ...extra,
  };
}

/** A registry entry of an npx agent (never run by the tests). */
export function npxEntry(id: string, version = '1.0.0') {
  return {
    id,
    name: 'Npx Agent',
    version,
    description: 'An agent run with npx.',
    authors: ['Someone', 'Someone Else'],
    license: 'Apache-2.0',
    distribution: { npx: { package: `@example/${id}@${version}`, args: ['--acp'] } },
  };
}

/** A registry entry offered only for a platform other than this one. */
export function elsewhereEntry(id: string) {
  const other = platformHere() === 'darwin-aarch64' ? 'windows-x86_64' : 'darwin-aarch64';
  return {
    id,
    name: 'Elsewhere Agent',
    version: '0.1.0',
    description: 'Runs on another platform only.',
    authors: [],
    distribution: {
      binary: { [other]: { archive: 'https://example.com/a.tar.gz', cmd: './a' } },
    },
  };
}

/** The registry agent `some-agent` 2.0.0 offered as `distribution`, read as the registry is. */
export function registryAgentWith(distribution: object): RegistryAgent {
  return RegistryAgent.parse({
    id: 'some-agent',
    name: 'Some Agent',
    version: '2.0.0',
    description: 'Does things.',
    distribution,
  });
}
