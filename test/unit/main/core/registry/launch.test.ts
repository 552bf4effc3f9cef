import { chmod, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../../../main/core/registry/format.js';
import {
  chooseDistribution,
  launchPlan,
} from '../../../../../main/core/registry/install/launch.js';
import { registryAgentWith } from '../../../../helpers/agent-archive.js';
import { tempFolder } from '../../../../helpers/temp-folder.js';

const base = tempFolder('airlock-launch-');
const platform: Platform = 'linux-x86_64';

/** A folder holding an executable `program` script, as PATH would list it. */
async function pathWith(...programs: string[]): Promise<string> {
  const folder = await mkdtemp(join(base, 'bin-'));
  for (const program of programs) {
    await writeFile(join(folder, program), '#!/bin/sh\n', { mode: 0o755 });
  }
  return folder;
}

const binary = {
  archive: 'https://x.test/a.tar.gz',
  cmd: './agent',
  args: ['serve'],
  env: { A: '1' },
};
const npx = { package: '@scope/agent@1.0.0', args: ['--acp'], env: { B: '2' } };
const uvx = { package: 'agent-py@1.0.0', args: ['acp'] };

describe('chooseDistribution', () => {
  it("prefers this platform's binary, then npx, then uvx", () => {
    expect(
      chooseDistribution(registryAgentWith({ binary: { [platform]: binary }, npx, uvx }), platform),
    ).toEqual({
      ok: true,
      kind: 'binary',
    });
    expect(
      chooseDistribution(
        registryAgentWith({ binary: { 'darwin-aarch64': binary }, npx, uvx }),
        platform,
      ),
    ).toEqual({
      ok: true,
      kind: 'npx',
    });
    expect(chooseDistribution(registryAgentWith({ uvx }), platform)).toEqual({
      ok: true,
      kind: 'uvx',
    });
  });

  it('says an agent offered only for other platforms is not available', () => {
    expect(
      chooseDistribution(registryAgentWith({ binary: { 'darwin-aarch64': binary } }), platform),
    ).toEqual({
      ok: false,
      reason: 'Some Agent is not available for this platform.',
    });
  });
});

describe('launchPlan with npx and uvx', () => {
  it('runs the package with npx, or its named command with --package', async () => {
    const path = await pathWith('npx');
    expect(await launchPlan(registryAgentWith({ npx }), undefined, { platform, path })).toEqual({
      kind: 'npx',
      command: 'npx',
      args: ['--yes', '@scope/agent@1.0.0', '--acp'],
      launcherArgs: 2,
      env: { B: '2' },
    });
    const withCmd = registryAgentWith({ npx: { ...npx, cmd: 'agent-acp' } });
    expect((await launchPlan(withCmd, undefined, { platform, path })).args).toEqual([
      '--yes',
      '--package',
      '@scope/agent@1.0.0',
      'agent-acp',
      '--acp',
    ]);
  });

  it('runs the package with uvx, or its named command with --from', async () => {
    const path = await pathWith('uvx');
    expect(await launchPlan(registryAgentWith({ uvx }), undefined, { platform, path })).toEqual({
      kind: 'uvx',
      command: 'uvx',
      args: ['agent-py@1.0.0', 'acp'],
      launcherArgs: 1,
      env: {},
    });
    const withCmd = registryAgentWith({ uvx: { ...uvx, cmd: 'agent-acp' } });
    expect((await launchPlan(withCmd, undefined, { platform, path })).args).toEqual([
      '--from',
      'agent-py@1.0.0',
      'agent-acp',
      'acp',
    ]);
  });

  it('says npx or uv is missing from the PATH, and what to install', async () => {
    const empty = await pathWith();
    await expect(
      launchPlan(registryAgentWith({ npx }), undefined, { platform, path: empty }),
    ).rejects.toThrow(
      'Some Agent needs npx, which is not on your PATH. Install Node.js (it includes npx), then try again.',
    );
    await expect(
      launchPlan(registryAgentWith({ uvx }), undefined, { platform, path: empty }),
    ).rejects.toThrow(
      'Some Agent needs uvx, which is not on your PATH. Install uv (it includes uvx), then try again.',
    );
  });

  it('skips a PATH entry that is relative: it would name whatever folder Airlock runs in', async () => {
    const folder = await pathWith('npx');
    await expect(
      launchPlan(registryAgentWith({ npx }), undefined, {
        platform,
        path: [relative(process.cwd(), folder), ''].join(delimiter),
      }),
    ).rejects.toThrow(/needs npx, which is not on your PATH/);
  });

  it('does not count a file on the PATH that cannot be run', async () => {
    const folder = await pathWith('npx');
    await chmod(join(folder, 'npx'), 0o644);
    await expect(
      launchPlan(registryAgentWith({ npx }), undefined, { platform, path: folder }),
    ).rejects.toThrow(/needs npx, which is not on your PATH/);
  });
});

describe('launchPlan with a binary', () => {
  async function installedWith(cmd: string, build: (folder: string) => Promise<void>) {
    const folder = await mkdtemp(join(base, 'install-'));
    await build(folder);
    const agent = registryAgentWith({ binary: { [platform]: { ...binary, cmd } } });
    return launchPlan(agent, { id: 'some-agent', version: '2.0.0', folder }, { platform });
  }

  it('runs the installed program with the target args and env, in no folder of its own', async () => {
    const folder = await mkdtemp(join(base, 'install-'));
    await writeFile(join(folder, 'agent'), '#!/bin/sh\n', { mode: 0o755 });
    const agent = registryAgentWith({ binary: { [platform]: binary } });
    const plan = await launchPlan(
      agent,
      { id: 'some-agent', version: '2.0.0', folder },
      { platform },
    );
    expect(plan).toEqual({
      kind: 'binary',
      command: join(folder, 'agent'),
      args: ['serve'],
      launcherArgs: 0,
      env: { A: '1' },
    });
  });

  it.each([
    ['climbs out', '../agent'],
    ['is absolute', '/bin/sh'],
    ['is a link leading out', './out'],
  ])('refuses a cmd that %s', async (_case, cmd) => {
    const plan = installedWith(cmd, async (folder) => {
      await symlink('/bin/sh', join(folder, 'out'));
    });
    await expect(plan).rejects.toThrow(
      `The agent's program ${cmd} is not inside its install folder.`,
    );
  });

  it('refuses an absolute, drive or NUL cmd, even one naming the program inside its folder', async () => {
    const folder = await mkdtemp(join(base, 'install-'));
    await writeFile(join(folder, 'agent'), '#!/bin/sh\n', { mode: 0o755 });
    // Past the registry's own check of the entry: this refusal stands on its own.
    const agent = registryAgentWith({ binary: { [platform]: binary } });
    for (const cmd of [join(folder, 'agent'), 'C:agent', '\\agent', './agent\0']) {
      agent.distribution.binary![platform]!.cmd = cmd;
      await expect(
        launchPlan(agent, { id: 'some-agent', version: '2.0.0', folder }, { platform }),
      ).rejects.toThrow(`The agent's program ${cmd} is not inside its install folder.`);
    }
  });

  it('quotes at most 200 characters of a program it cannot find or refuses', async () => {
    const folder = await mkdtemp(join(base, 'install-'));
    const agent = registryAgentWith({ binary: { [platform]: binary } });
    const cmd = `./${'a'.repeat(300)}`;
    // Longer than the registry's entries may name: this cut stands on its own.
    agent.distribution.binary![platform]!.cmd = cmd;
    const plan = launchPlan(agent, { id: 'some-agent', version: '2.0.0', folder }, { platform });
    await expect(plan).rejects.toThrow(
      `The agent's program ${cmd.slice(0, 200)} is missing from its install folder.`,
    );
    await expect(plan).rejects.not.toThrow(cmd);
    const out = `../${'a'.repeat(300)}`;
    agent.distribution.binary![platform]!.cmd = out;
    const refused = launchPlan(agent, { id: 'some-agent', version: '2.0.0', folder }, { platform });
    await expect(refused).rejects.toThrow(
      `The agent's program ${out.slice(0, 200)} is not inside its install folder.`,
    );
    await expect(refused).rejects.not.toThrow(out);
  });

  it('says when the binary is not installed yet, or its program is missing', async () => {
    const agent = registryAgentWith({ binary: { [platform]: binary } });
    await expect(launchPlan(agent, undefined, { platform })).rejects.toThrow(
      'Some Agent is not installed yet.',
    );
    await expect(
      installedWith('./agent', (folder) => mkdir(join(folder, 'other'))),
    ).rejects.toThrow("The agent's program ./agent is missing from its install folder.");
  });
});
