import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RegistryAgent, currentPlatform } from '../../../../../main/core/registry/format.js';
import { AgentInstaller } from '../../../../../main/core/registry/install/installer.js';
import { defaultWrite } from '../../../../../main/core/registry/install/target-folder.js';
import { launchPlan } from '../../../../../main/core/registry/install/launch.js';
import { echoScript, tarGzOf, zipOf } from '../../../../helpers/archives.js';
import { useLocalServer } from '../../../../helpers/local-registry.js';
import { tempFolder } from '../../../../helpers/temp-folder.js';

const base = tempFolder('airlock-install-');
const server = useLocalServer();
const platform = currentPlatform()!;

/** A fresh agents folder and an installer for it. */
async function installer(options: Partial<ConstructorParameters<typeof AgentInstaller>[0]> = {}) {
  const agentsDir = join(await mkdtemp(join(base, 'config-')), 'agents');
  return { agentsDir, installer: new AgentInstaller({ agentsDir, platform, ...options }) };
}

/** A registry entry whose archive for this platform is `archive`. */
function agent(archive: string, extra: { version?: string; cmd?: string; sha256?: string } = {}) {
  return RegistryAgent.parse({
    id: 'echo-agent',
    name: 'Echo Agent',
    version: extra.version ?? '1.2.0',
    description: 'Echoes.',
    distribution: {
      binary: {
        [platform]: {
          archive,
          cmd: extra.cmd ?? './echo-agent',
          args: ['--acp'],
          env: { ECHO: '1' },
          ...(extra.sha256 ? { sha256: extra.sha256 } : {}),
        },
      },
    },
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every path left in `agentsDir` (it may not exist at all). */
async function left(agentsDir: string): Promise<string[]> {
  return (await readdir(agentsDir, { recursive: true }).catch(() => [])).map(String);
}

describe('AgentInstaller.install', () => {
  it('installs a .tar.gz behind a redirect, and its program runs', async () => {
    const archive = await tarGzOf([
      { name: 'echo-agent', mode: 0o755, text: echoScript('hello from the agent') },
    ]);
    server().route('/releases/download/echo.tar.gz', {
      status: 302,
      headers: { location: '/objects/echo.tar.gz' },
    });
    server().route('/objects/echo.tar.gz', {
      body: archive,
      headers: { 'content-length': String(archive.length) },
    });
    const { agentsDir, installer: it } = await installer();
    const entry = agent(server().url('/releases/download/echo.tar.gz'), {
      sha256: sha256(archive),
    });
    const progress: { received: number; total?: number }[] = [];

    const installed = await it.install(entry, { onProgress: (step) => progress.push(step) });

    expect(installed).toEqual({
      id: 'echo-agent',
      version: '1.2.0',
      folder: join(agentsDir, 'echo-agent', '1.2.0'),
    });
    expect(progress.at(-1)).toEqual({ received: archive.length, total: archive.length });
    // The archive as published, never re-encoded on the way (its checksum is of those bytes).
    expect(server().requests.map((request) => request.headers['accept-encoding'])).toEqual([
      'identity',
      'identity',
    ]);
    expect(await left(agentsDir)).toEqual([
      'echo-agent',
      'echo-agent/1.2.0',
      'echo-agent/1.2.0/echo-agent',
    ]);
    expect(await it.installed('echo-agent')).toEqual(installed);
    const plan = await launchPlan(entry, installed, { platform });
    expect(plan).toEqual({
      kind: 'binary',
      command: join(agentsDir, 'echo-agent', '1.2.0', 'echo-agent'),
      args: ['--acp'],
      launcherArgs: 0,
      env: { ECHO: '1' },
    });
    const { stdout } = await promisify(execFile)(plan.command, plan.args);
    expect(stdout).toBe('hello from the agent\n');
  });

  it('installs a .zip whose program is in a subfolder, and makes the program executable', async () => {
    // Made without the executable bit, as a zip from a tool that keeps no Unix modes is.
    const archive = await zipOf([
      { name: 'bin/echo-agent', mode: 0o100644, text: echoScript('zipped') },
    ]);
    server().route('/echo.zip', { body: archive });
    const { agentsDir, installer: it } = await installer();
    const installed = await it.install(agent(server().url('/echo.zip'), { cmd: 'bin/echo-agent' }));
    const plan = await launchPlan(
      agent('https://x.test/a.zip', { cmd: 'bin/echo-agent' }),
      installed,
      { platform },
    );
    expect(plan.command).toBe(join(agentsDir, 'echo-agent', '1.2.0', 'bin', 'echo-agent'));
    expect((await promisify(execFile)(plan.command)).stdout).toBe('zipped\n');
  });

  it('clears temporary folders a stopped install left a day ago, and keeps recent ones', async () => {
    server().route('/echo.tar.gz', {
      body: await tarGzOf([{ name: 'echo-agent', mode: 0o755, text: echoScript('x') }]),
    });
    const { agentsDir, installer: it } = await installer();
    await mkdir(join(agentsDir, '.tmp-old', 'unpacked'), { recursive: true });
    await mkdir(join(agentsDir, '.tmp-recent'));
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await utimes(join(agentsDir, '.tmp-old'), dayAgo, dayAgo);
    await it.install(agent(server().url('/echo.tar.gz')));
    expect((await readdir(agentsDir)).sort()).toEqual(['.tmp-recent', 'echo-agent']);
  });

  it('replaces a folder of the same version that lacks the program', async () => {
    server().route('/echo.tar.gz', {
      body: await tarGzOf([{ name: 'echo-agent', mode: 0o755, text: echoScript('x') }]),
    });
    const { agentsDir, installer: it } = await installer();
    await mkdir(join(agentsDir, 'echo-agent', '1.2.0', 'old'), { recursive: true });
    await it.install(agent(server().url('/echo.tar.gz')));
    expect(await left(agentsDir)).toEqual([
      'echo-agent',
      'echo-agent/1.2.0',
      'echo-agent/1.2.0/echo-agent',
    ]);
  });

  it('reuses a complete version folder without downloading again', async () => {
    const archive = await tarGzOf([{ name: 'echo-agent', mode: 0o755, text: echoScript('x') }]);
    server().route('/echo.tar.gz', { body: archive });
    const { installer: it } = await installer();
    const entry = agent(server().url('/echo.tar.gz'));
    const first = await it.install(entry);
    expect(await it.install(entry)).toEqual(first);
    expect(server().requests.length).toBe(1);
  });

  it('joins a second install of the same agent to the first', async () => {
    const archive = await tarGzOf([{ name: 'echo-agent', mode: 0o755, text: echoScript('x') }]);
    let release = () => {};
    server().route('/echo.tar.gz', {
      body: archive,
      after: new Promise<void>((resolve) => (release = resolve)),
    });
    const { installer: it } = await installer();
    const entry = agent(server().url('/echo.tar.gz'));
    const first = it.install(entry);
    const second = it.install(entry);
    await server().waitForRequest('/echo.tar.gz');
    release();
    expect(await second).toEqual(await first);
    expect(server().requests.length).toBe(1);
  });

  it('refuses a download whose checksum does not match, leaving nothing', async () => {
    const archive = await tarGzOf([{ name: 'echo-agent', mode: 0o755, text: echoScript('x') }]);
    const tampered = await tarGzOf([{ name: 'echo-agent', mode: 0o755, text: echoScript('evil') }]);
    server().route('/echo.tar.gz', { body: tampered });
    const { agentsDir, installer: it } = await installer();
    await expect(
      it.install(agent(server().url('/echo.tar.gz'), { sha256: sha256(archive) })),
    ).rejects.toThrow(
      'The download of Echo Agent did not match its checksum; nothing was installed.',
    );
    expect(await left(agentsDir)).toEqual([]);
    expect(await it.installed('echo-agent')).toBe(undefined);
  });

  it('refuses an archive with an entry escaping its folder, leaving nothing', async () => {
    const archive = await tarGzOf([
      { name: 'echo-agent', mode: 0o755, text: echoScript('x') },
      { name: 'link', type: 'symlink', linkname: '../../../outside' },
    ]);
    server().route('/echo.tar.gz', { body: archive });
    const { agentsDir, installer: it } = await installer();
    await expect(it.install(agent(server().url('/echo.tar.gz')))).rejects.toThrow(
      'The archive of Echo Agent has an entry that would be written outside its folder; nothing was installed.',
    );
    expect(await left(agentsDir)).toEqual([]);
  });

  it('refuses an archive without its program', async () => {
    server().route('/echo.tar.gz', { body: await tarGzOf([{ name: 'other', text: 'x' }]) });
    const { agentsDir, installer: it } = await installer();
    await expect(it.install(agent(server().url('/echo.tar.gz')))).rejects.toThrow(
      'The archive of Echo Agent does not hold its program ./echo-agent; nothing was installed.',
    );
    expect(await left(agentsDir)).toEqual([]);
  });

  it('leaves nothing when the disk fails half-way through unpacking', async () => {
    const archive = await tarGzOf([
      { name: 'echo-agent', mode: 0o755, text: echoScript('x') },
      { name: 'lib/data', text: 'data' },
      { name: 'lib/more', text: 'more' },
    ]);
    server().route('/echo.tar.gz', { body: archive });
    let files = 0;
    const { agentsDir, installer: it } = await installer({
      writeFile: async (file, data, mode) => {
        files += 1;
        if (files === 2) {
          data.destroy();
          throw Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), {
            code: 'ENOSPC',
          });
        }
        await defaultWrite(file, data, mode);
      },
    });
    await expect(it.install(agent(server().url('/echo.tar.gz')))).rejects.toThrow(
      'Echo Agent could not be unpacked on this computer (the disk is full); nothing was installed.',
    );
    expect(files).toBe(2);
    expect(await left(agentsDir)).toEqual([]);
  });

  it('cancels a download half-way, leaving nothing', async () => {
    const half = Buffer.alloc(50_000, 1);
    server().route('/slow.tar.gz', (_request, response) => {
      response.writeHead(200, { 'content-length': String(half.length * 2) });
      response.write(half);
      // The second half never comes: only the cancel ends this download.
    });
    const { agentsDir, installer: it } = await installer();
    const controller = new AbortController();
    const installing = it.install(agent(server().url('/slow.tar.gz')), {
      signal: controller.signal,
      onProgress: ({ received }) => {
        if (received > 0) {
          controller.abort();
        }
      },
    });
    await expect(installing).rejects.toThrow('Cancelled');
    expect(await left(agentsDir)).toEqual([]);
  });

  it('gives up on a server that stops sending, or never answers, leaving nothing', async () => {
    server().route('/stalled.tar.gz', (_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write(Buffer.alloc(10));
    });
    server().route('/silent.tar.gz', 'hang');
    const { agentsDir, installer: it } = await installer({ downloadIdleMs: 200 });
    for (const path of ['/stalled.tar.gz', '/silent.tar.gz']) {
      await expect(it.install(agent(server().url(path)))).rejects.toThrow(
        /^Echo Agent could not be downloaded: 127\.0\.0\.1:\d+ stopped sending it\.$/,
      );
    }
    expect(await left(agentsDir)).toEqual([]);
  });

  it('refuses a redirect to plain http beyond this machine', async () => {
    server().route('/echo.tar.gz', {
      status: 302,
      headers: { location: 'http://example.com/echo.tar.gz' },
    });
    const { agentsDir, installer: it } = await installer();
    await expect(it.install(agent(server().url('/echo.tar.gz')))).rejects.toThrow(
      'The download of Echo Agent was sent to an address Airlock does not fetch from (only https is allowed).',
    );
    expect(await left(agentsDir)).toEqual([]);
  });

  it('says in words when the server answers an error', async () => {
    const { installer: it } = await installer();
    await expect(it.install(agent(server().url('/missing.tar.gz')))).rejects.toThrow(
      /^Echo Agent could not be downloaded: 127\.0\.0\.1:\d+ answered 404\.$/,
    );
  });

  it('refuses a download larger than allowed, by its content-length or as it arrives', async () => {
    server().route('/big.tar.gz', (_request, response) => {
      // Says it is big, then sends nothing: refused without waiting for the bytes.
      response.writeHead(200, { 'content-length': String(3 * 1024 * 1024) });
      response.flushHeaders();
    });
    server().route('/chunked.tar.gz', { body: Buffer.alloc(3 * 1024 * 1024) });
    const { agentsDir, installer: it } = await installer({ maxDownloadBytes: 1024 * 1024 });
    await expect(it.install(agent(server().url('/big.tar.gz')))).rejects.toThrow(
      'The download of Echo Agent is larger than 1 MB; nothing was installed.',
    );
    await expect(it.install(agent(server().url('/chunked.tar.gz')))).rejects.toThrow(
      'The download of Echo Agent is larger than 1 MB; nothing was installed.',
    );
    expect(await left(agentsDir)).toEqual([]);
  });

  it('says an agent without a download for this platform is not available', async () => {
    const other = platform === 'linux-x86_64' ? 'darwin-aarch64' : 'linux-x86_64';
    const elsewhere = RegistryAgent.parse({
      id: 'elsewhere',
      name: 'Elsewhere',
      version: '1.0.0',
      description: 'Runs elsewhere.',
      distribution: { binary: { [other]: { archive: 'https://x.test/a.tar.gz', cmd: './a' } } },
    });
    const { installer: it } = await installer();
    await expect(it.install(elsewhere)).rejects.toThrow(
      'Elsewhere is not available for this platform.',
    );
  });
});

describe('AgentInstaller versions', () => {
  it('updates to a newer version, finds the newest numerically, then removes the others', async () => {
    const { agentsDir, installer: it } = await installer();
    for (const version of ['1.9.0', '1.10.0', '1.10.0-rc.1']) {
      server().route(`/echo-${version}.tar.gz`, {
        body: await tarGzOf([{ name: 'echo-agent', mode: 0o755, text: echoScript(version) }]),
      });
      await it.install(agent(server().url(`/echo-${version}.tar.gz`), { version }));
    }
    expect((await it.installed('echo-agent'))?.version).toBe('1.10.0');
    await it.removeOtherVersions('echo-agent', '1.10.0');
    expect(await left(agentsDir)).toEqual([
      'echo-agent',
      'echo-agent/1.10.0',
      'echo-agent/1.10.0/echo-agent',
    ]);
    await it.remove('echo-agent');
    expect(await left(agentsDir)).toEqual([]);
    expect(await it.installed('echo-agent')).toBe(undefined);
  });

  it('never follows a link out of the agents folder when listing or removing', async () => {
    const { agentsDir, installer: it } = await installer();
    const outside = await mkdtemp(join(base, 'outside-'));
    await mkdir(join(outside, '9.9.9'));
    await writeFile(join(outside, '9.9.9', 'keep'), 'mine');
    await mkdir(agentsDir, { recursive: true });
    await symlink(outside, join(agentsDir, 'echo-agent'));
    expect(await it.installed('echo-agent')).toBe(undefined);
    await it.removeOtherVersions('echo-agent', '1.0.0');
    await it.remove('echo-agent');
    expect(await readFile(join(outside, '9.9.9', 'keep'), 'utf8')).toBe('mine');
    expect(await left(agentsDir)).toEqual([]);
  });
});
