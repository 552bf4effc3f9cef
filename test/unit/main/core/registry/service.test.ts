/**
 * The registry's catalogue in the core, against a registry served on 127.0.0.1: what it lists
 * (available here, installed, with an update), installs as Zed writes them keeping the settings
 * file's comments, a binary agent downloaded, unpacked and run for a whole turn, its update,
 * its removal, and a cancelled install that leaves nothing.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../../preload/shared/contract';
import {
  binaryEntry,
  elsewhereEntry,
  npxEntry,
  scriptedAgentArchive,
} from '../../../../helpers/agent-archive';
import { deadline, TEST_TIMEOUTS, useCore, type CoreRun } from '../../../../helpers/core-harness';
import { useLocalServer, type LocalServer } from '../../../../helpers/local-registry';
import { tempFolder } from '../../../../helpers/temp-folder';

const server = useLocalServer();
const { start } = useCore({ timeouts: TEST_TIMEOUTS });

type Progress = EventPayload<'registry:onDidProgress'>;

/** Serves a registry of `agents`, and the binary agent's archive of each version named. */
async function serve(registry: LocalServer, agents: object[], versions: string[] = []) {
  registry.route('/registry.json', { body: { version: '1.0.0', agents } });
  for (const version of versions) {
    registry.route(`/bin-agent-${version}.tar.gz`, { body: await scriptedAgentArchive() });
  }
}

/** A core whose settings file points at the local registry, and every progress event it sent. */
async function catalogueCore(
  agentServers: Record<string, unknown> = {},
): Promise<CoreRun & { progress: Progress[] }> {
  const run = await start({
    settings: { agent_registry_url: server().url('/registry.json'), agent_servers: agentServers },
  });
  const progress: Progress[] = [];
  run.core.onEvent((channel, payload) => {
    if (channel === 'registry:onDidProgress') {
      progress.push(payload as Progress);
    }
  });
  return { ...run, progress };
}

const archiveUrl = (version: string) => server().url(`/bin-agent-${version}.tar.gz`);

describe('registry:list and registry:refresh', () => {
  it('lists each agent with whether it runs here, is installed, and has an update', async () => {
    await serve(
      server(),
      [
        npxEntry('npx-agent'),
        binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0')),
        elsewhereEntry('elsewhere'),
      ],
      ['1.0.0'],
    );
    const run = await catalogueCore();
    const fresh = await run.call('registry:refresh', {});
    expect(fresh.source).toBe('network');
    expect(fresh.problem).toBeUndefined();
    const byId = new Map(fresh.agents.map((agent) => [agent.id, agent]));
    expect(byId.get('npx-agent')).toMatchObject({
      name: 'Npx Agent',
      authors: ['Someone', 'Someone Else'],
      license: 'Apache-2.0',
      distribution: 'npx',
      available: true,
      updateAvailable: false,
    });
    expect(byId.get('npx-agent')?.installed).toBeUndefined();
    expect(byId.get('bin-agent')).toMatchObject({
      distribution: 'binary',
      available: true,
      repository: 'https://example.com/scripted-binary',
    });
    expect(byId.get('elsewhere')).toMatchObject({ available: false, distribution: 'binary' });
    expect(byId.get('elsewhere')?.unavailableReason).toMatch(/platform/);

    await run.call('registry:install', { id: 'bin-agent' });
    await run.call('registry:install', { id: 'npx-agent' });
    // A newer version in the registry: listed as an update of the one installed.
    await serve(
      server(),
      [npxEntry('npx-agent'), binaryEntry('bin-agent', '2.0.0', archiveUrl('2.0.0'))],
      ['2.0.0'],
    );
    const later = await run.call('registry:refresh', {});
    const now = new Map(later.agents.map((agent) => [agent.id, agent]));
    expect(now.get('bin-agent')).toMatchObject({
      version: '2.0.0',
      installed: { version: '1.0.0' },
      updateAvailable: true,
    });
    expect(now.get('npx-agent')).toMatchObject({
      installed: { version: '1.0.0' },
      updateAvailable: false,
    });
    // The list without the network is the copy just fetched.
    expect((await run.call('registry:list', {})).agents.map((agent) => agent.id)).toEqual([
      'npx-agent',
      'bin-agent',
    ]);
  });

  it('shows an icon as an SVG data URL, and lists without one that does not come', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle r="8"/></svg>';
    server().route('/icon.svg', { body: svg, headers: { 'content-type': 'image/svg+xml' } });
    server().route('/slow.svg', 'hang');
    await serve(server(), [
      { ...npxEntry('npx-agent'), icon: server().url('/icon.svg') },
      { ...npxEntry('slow-agent'), icon: server().url('/slow.svg') },
    ]);
    const run = await catalogueCore();
    const listed = (await run.call('registry:refresh', {})).agents;
    expect(listed[0]?.iconUrl).toBe(
      `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    );
    expect(listed[1]?.id).toBe('slow-agent');
    expect(listed[1]?.iconUrl).toBeUndefined();
  });

  it('says why the registry could not be fetched, and lists the copy it has', async () => {
    server().route('/registry.json', { status: 500, body: 'down' });
    const run = await catalogueCore();
    const listing = await run.call('registry:refresh', {});
    expect(listing.problem).toMatch(/registry/i);
    expect(listing.source).toBe('snapshot');
    expect(listing.agents.length).toBeGreaterThan(0);
  });
});

describe('registry:install', () => {
  it('writes the agent as Zed does, keeping the comments of the settings file', async () => {
    await serve(server(), [npxEntry('npx-agent')]);
    const run = await catalogueCore();
    const text = [
      '// My settings, by hand',
      '{',
      `    "agent_registry_url": ${JSON.stringify(server().url('/registry.json'))},`,
      '    "agent_servers": {',
      '        // the agent I wrote myself',
      '        "mine": { "command": "mine-acp" },',
      '    },',
      '}',
      '',
    ].join('\n');
    await writeFile(run.settingsPath, text);
    await expect(run.call('registry:install', { id: 'npx-agent' })).resolves.toEqual({
      agentName: 'npx-agent',
    });
    const written = await readFile(run.settingsPath, 'utf8');
    expect(written).toContain('// My settings, by hand');
    expect(written).toContain('// the agent I wrote myself');
    expect(written).toContain('"mine": { "command": "mine-acp" }');
    expect(written.replace(/\s+/g, ' ')).toContain('"npx-agent": { "type": "registry" }');
    // Nothing downloaded for an npx agent; the app knows it at once.
    expect(run.progress).toEqual([]);
    const state = await run.call('app:getState', {});
    expect(state.agents.map((agent) => agent.name)).toContain('npx-agent');
  });

  it('refuses an id the settings file gives an agent of its own, downloading and changing nothing', async () => {
    await serve(server(), [binaryEntry('mine', '1.0.0', archiveUrl('1.0.0'))], ['1.0.0']);
    const run = await catalogueCore();
    const text = `{ "agent_registry_url": ${JSON.stringify(server().url('/registry.json'))}, "agent_servers": { "mine": { "command": "x" } } }`;
    await writeFile(run.settingsPath, text);
    await run.call('registry:refresh', {});
    await expect(run.call('registry:install', { id: 'mine' })).rejects.toThrow(
      /already has an agent named "mine"/,
    );
    expect(await readFile(run.settingsPath, 'utf8')).toBe(text);
    expect(server().requests.map((request) => request.path)).not.toContain(
      '/bin-agent-1.0.0.tar.gz',
    );
    expect(existsSync(join(run.dir, 'agents', 'mine'))).toBe(false);
  });

  it('refuses an agent that does not run here, and one the registry does not list', async () => {
    await serve(server(), [elsewhereEntry('elsewhere')]);
    const run = await catalogueCore();
    await expect(run.call('registry:install', { id: 'elsewhere' })).rejects.toThrow(
      /Elsewhere Agent cannot run on this computer/,
    );
    await expect(run.call('registry:install', { id: 'nobody' })).rejects.toThrow(
      'nobody is not in the ACP registry. Check the id in your settings file.',
    );
    expect(await readFile(run.settingsPath, 'utf8')).not.toContain('registry"');
  });

  it('downloads and unpacks a binary agent with progress, then runs a whole turn with it', async () => {
    await serve(server(), [binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'))], ['1.0.0']);
    const run = await catalogueCore();
    await run.call('registry:refresh', {});
    await run.call('registry:install', { id: 'bin-agent' });
    expect(run.progress.at(-1)).toMatchObject({ id: 'bin-agent', done: true });
    expect(run.progress.at(-1)!.received).toBeGreaterThan(0);
    expect(await readdir(join(run.dir, 'agents', 'bin-agent'))).toEqual(['1.0.0']);
    expect((await readFile(run.settingsPath, 'utf8')).replace(/\s+/g, ' ')).toContain(
      '"bin-agent": { "type": "registry" }',
    );

    const key = await run.ready('bin-agent');
    await run.turn(key, 'Hello');
    expect(run.recorder.text(key)).toBe('Hello from the scripted agent.');
  });

  it('installs a binary agent on its first session when only its entry is there', async () => {
    await serve(server(), [binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'))], ['1.0.0']);
    // Written by hand (or by Zed): the registry is asked for the agent when it first starts.
    const run = await catalogueCore({ 'bin-agent': { type: 'registry' } });
    const key = await run.ready('bin-agent');
    // The tab said what it waited on.
    expect(
      run.recorder
        .transcript(key)
        .some(
          (event) =>
            event.type === 'system' && event.text.startsWith('Installing Scripted Binary 1.0.0'),
        ),
    ).toBe(true);
    await run.turn(key, 'Hello');
    expect(run.recorder.text(key)).toBe('Hello from the scripted agent.');
    expect(run.progress.at(-1)).toMatchObject({ id: 'bin-agent', done: true });
    expect(await readdir(join(run.dir, 'agents', 'bin-agent'))).toEqual(['1.0.0']);
  });
});

describe('prepare', () => {
  it('says in words when the registry copy on hand lacks the id, and which copy it read', async () => {
    // Offline from the start: the registry answers 503, so the copy bundled with Airlock is read.
    server().route('/registry.json', { status: 503, body: 'down' });
    const run = await catalogueCore({ 'gone-acp': { type: 'registry' } });
    const { key, summary } = await run.settled('gone-acp');
    expect(summary.error).toBe(
      'Airlock could not start gone-acp: gone-acp is not in the ACP registry Airlock could read (the copy that came with Airlock). Check the id in your settings file, or connect to the internet and try again.',
    );
    expect(summary.errorDetail).toMatch(/503/);

    // A copy fetched once and kept: its date is named.
    await serve(server(), [npxEntry('npx-agent')]);
    await run.call('registry:refresh', {});
    server().route('/registry.json', { status: 503, body: 'down' });
    const kept = await run.call('registry:list', {});
    const day = new Date(kept.fetchedAt!).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    await run.call('session:restart', { key });
    await run.recorder.until(
      () => run.recorder.summaries.get(key)?.error?.includes('copy from') === true,
      'the tab to fail again, naming the kept copy',
    );
    expect(run.recorder.summaries.get(key)?.error).toBe(
      `Airlock could not start gone-acp: gone-acp is not in the ACP registry Airlock could read (the copy from ${day}). Check the id in your settings file, or connect to the internet and try again.`,
    );
  });

  it('runs the binary with the registry’s arguments and environment, the entry’s env over it', async () => {
    const noted = join(tempFolder('airlock-env-'), 'env.txt');
    server().route('/bin-agent-1.0.0.tar.gz', {
      body: await scriptedAgentArchive('basic', [
        `printf '%s|%s|%s' "$FROM_REGISTRY" "$SHARED" "$*" > "$NOTED"`,
      ]),
    });
    const entry = binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'));
    const target = Object.values(entry.distribution.binary)[0]!;
    Object.assign(target, {
      args: ['--acp', 'two words'],
      env: { FROM_REGISTRY: 'registry', SHARED: 'registry', NOTED: noted },
    });
    server().route('/registry.json', { body: { version: '1.0.0', agents: [entry] } });
    const run = await catalogueCore({
      'bin-agent': { type: 'registry', env: { SHARED: 'entry' } },
    });
    const key = await run.ready('bin-agent');
    await run.turn(key, 'Hello');
    expect(await readFile(noted, 'utf8')).toBe('registry|entry|--acp two words');
  });
});

describe('registry:update and registry:remove', () => {
  it('installs the new version and removes the old one', async () => {
    await serve(server(), [binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'))], ['1.0.0']);
    const run = await catalogueCore();
    await run.call('registry:refresh', {});
    await run.call('registry:install', { id: 'bin-agent' });
    await serve(server(), [binaryEntry('bin-agent', '2.0.0', archiveUrl('2.0.0'))], ['2.0.0']);
    await run.call('registry:refresh', {});
    await run.call('registry:update', { id: 'bin-agent' });
    expect(await readdir(join(run.dir, 'agents', 'bin-agent'))).toEqual(['2.0.0']);
    const listed = (await run.call('registry:list', {})).agents[0];
    expect(listed).toMatchObject({ installed: { version: '2.0.0' }, updateAvailable: false });
  });

  it('removes the settings entry and the installed files', async () => {
    await serve(server(), [binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'))], ['1.0.0']);
    const run = await catalogueCore();
    await run.call('registry:refresh', {});
    await run.call('registry:install', { id: 'bin-agent' });
    await run.call('registry:remove', { id: 'bin-agent' });
    expect(await readFile(run.settingsPath, 'utf8')).not.toContain('bin-agent');
    expect(existsSync(join(run.dir, 'agents', 'bin-agent', '1.0.0'))).toBe(false);
    const state = await run.call('app:getState', {});
    expect(state.agents.map((agent) => agent.name)).not.toContain('bin-agent');
    expect((await run.call('registry:list', {})).agents[0]?.installed).toBeUndefined();
  });
});

describe('settings:removeAgent of a registry agent', () => {
  it('removes its installed files with its settings entry, as the catalogue’s Remove does', async () => {
    await serve(server(), [binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'))], ['1.0.0']);
    const run = await catalogueCore({ mine: { command: 'mine-acp' } });
    await run.call('registry:install', { id: 'bin-agent' });
    expect(existsSync(join(run.dir, 'agents', 'bin-agent', '1.0.0'))).toBe(true);
    await run.call('settings:removeAgent', { agentName: 'bin-agent' });
    expect(await readFile(run.settingsPath, 'utf8')).not.toContain('bin-agent');
    expect(existsSync(join(run.dir, 'agents', 'bin-agent'))).toBe(false);
    // An agent of the user's own is only taken out of the file.
    await run.call('settings:removeAgent', { agentName: 'mine' });
    expect(existsSync(join(run.dir, 'agents'))).toBe(true);
  });
});

describe('the names registry agents show with', () => {
  it('shows each by the registry’s name, found in the background, and one the registry lacks as not in it', async () => {
    await serve(server(), [binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'))], ['1.0.0']);
    const run = await catalogueCore({
      'bin-agent': { type: 'registry' },
      'gone-acp': { type: 'registry' },
      mine: { command: 'mine-acp' },
    });
    // No call to the catalogue: the core reads the registry by itself and tells the app.
    const shown = async () =>
      Object.fromEntries(
        (await run.call('app:getState', {})).agents.map(({ name, label, notInRegistry }) => [
          name,
          { label, notInRegistry },
        ]),
      );
    let latest: Awaited<ReturnType<typeof shown>> = await shown();
    await deadline(
      new Promise<void>((resolve) => {
        const check = () => {
          if (latest['bin-agent']?.label !== undefined) {
            resolve();
          }
        };
        run.core.onEvent((channel, payload) => {
          if (channel === 'app:onDidChangeAgents') {
            const { agents } = payload as EventPayload<'app:onDidChangeAgents'>;
            latest = Object.fromEntries(
              agents.map(({ name, label, notInRegistry }) => [name, { label, notInRegistry }]),
            );
            check();
          }
        });
        check();
      }),
      'the registry names to reach the app',
    );
    expect(latest['bin-agent']).toEqual({ label: 'Scripted Binary', notInRegistry: undefined });
    expect(latest['gone-acp']).toEqual({ label: undefined, notInRegistry: true });
    expect(latest.mine).toEqual({ label: undefined, notInRegistry: undefined });
    expect(await shown()).toEqual(latest);

    const listed = (await run.call('settings:getAgents', {})).agents;
    expect(listed.find((agent) => agent.name === 'bin-agent')).toMatchObject({
      label: 'Scripted Binary',
    });
    expect(listed.find((agent) => agent.name === 'gone-acp')?.notInRegistry).toBe(true);
  });
});

describe('registry:cancelInstall', () => {
  it('stops an install under way: it fails saying so, and leaves no files and no entry', async () => {
    await serve(server(), [binaryEntry('bin-agent', '1.0.0', archiveUrl('1.0.0'))]);
    // Half an archive, then nothing more: the install waits on the rest.
    server().route('/bin-agent-1.0.0.tar.gz', (_request, response) => {
      response.writeHead(200, { 'content-length': '100000' });
      response.write(Buffer.alloc(1000));
    });
    const run = await catalogueCore();
    await run.call('registry:refresh', {});
    const install = run.call('registry:install', { id: 'bin-agent' });
    const failed = expect(install).rejects.toThrow(/install of Scripted Binary was cancelled/);
    await server().waitForRequest('/bin-agent-1.0.0.tar.gz', 1);
    await run.call('registry:cancelInstall', { id: 'bin-agent' });
    await failed;
    expect(run.progress.at(-1)).toMatchObject({
      id: 'bin-agent',
      error: 'The install of Scripted Binary was cancelled.',
    });
    expect(await readFile(run.settingsPath, 'utf8')).not.toContain('bin-agent');
    expect(existsSync(join(run.dir, 'agents', 'bin-agent', '1.0.0'))).toBe(false);
  });
});
