/**
 * How a `terminal` sign-in method runs each kind of agent: a registry agent keeps its launcher's
 * part (`npx --yes <pkg>`, `uvx --from <pkg> <cmd>`) and runs the method's args in place of the
 * distribution's own (the registry's AUTHENTICATION.md); a binary runs as `<cmd> <method args>`;
 * an agent of the settings' own command line gets the method's args appended (the ACP schema).
 * The command the sign-in panel shows (Details) is the one that runs.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../../main/core/agents/spec.js';
import { parseInitializeResponse } from '../../../../../main/core/initialize.js';
import type { Platform } from '../../../../../main/core/registry/format.js';
import { launchPlan } from '../../../../../main/core/registry/install/launch.js';
import { registryAgentWith } from '../../../../helpers/agent-archive.js';
import { tempFolder } from '../../../../helpers/temp-folder.js';

const base = tempFolder('airlock-sign-in-args-');
const platform: Platform = 'linux-x86_64';

/** The spec the registry's prepare makes of a launch plan. */
async function registrySpec(distribution: object, folder?: string): Promise<AgentSpec> {
  const path = await mkdtemp(join(base, 'bin-'));
  for (const runner of ['npx', 'uvx']) {
    await writeFile(join(path, runner), '#!/bin/sh\n', { mode: 0o755 });
  }
  const installed = folder ? { id: 'some-agent', version: '2.0.0', folder } : undefined;
  const plan = await launchPlan(registryAgentWith(distribution), installed, { platform, path });
  return {
    name: 'some-agent',
    command: plan.command,
    args: plan.args,
    launcherArgs: plan.launcherArgs,
    env: { ...plan.env, FROM: 'agent' },
    builtIn: false,
    registry: { id: 'some-agent' },
  };
}

/** What the panel shows for the `login` method and what runs, for an agent started as `spec`. */
function signIn(spec: AgentSpec) {
  const result = parseInitializeResponse(
    {
      protocolVersion: PROTOCOL_VERSION,
      authMethods: [
        { id: 'login', name: 'Log in', type: 'terminal', args: ['--login'], env: { M: 'x' } },
      ],
    },
    spec,
  );
  const runs = result.terminalLaunches.get('login')!;
  return { shown: result.authMethods[0]?.terminalCommand, runs };
}

/** A command line as the panel writes it (no part here needs quoting). */
const line = (command: string, args: string[]) => [command, ...args].join(' ');

describe('a terminal sign-in’s command line', () => {
  it.each([
    [
      'npx, its package',
      { package: '@scope/agent@1.0.0', args: ['--acp'] },
      'npx --yes @scope/agent@1.0.0 --login',
    ],
    [
      'npx, a command of its package',
      { package: '@scope/agent@1.0.0', cmd: 'agent-acp', args: ['--acp', 'serve'] },
      'npx --yes --package @scope/agent@1.0.0 agent-acp --login',
    ],
  ])('keeps the launcher’s part of an agent run with %s', async (_case, npx, expected) => {
    const { shown, runs } = signIn(await registrySpec({ npx }));
    expect(shown).toBe(expected);
    expect(line(runs.command, runs.args)).toBe(expected);
    expect(runs.env).toEqual({ FROM: 'agent', M: 'x' });
  });

  it.each([
    [
      'uvx, its package',
      { package: 'agent-py@1.0.0', args: ['acp'] },
      'uvx agent-py@1.0.0 --login',
    ],
    [
      'uvx, a command of its package',
      { package: 'agent-py@1.0.0', cmd: 'agent-acp', args: ['acp'] },
      'uvx --from agent-py@1.0.0 agent-acp --login',
    ],
  ])('keeps the launcher’s part of an agent run with %s', async (_case, uvx, expected) => {
    const { shown, runs } = signIn(await registrySpec({ uvx }));
    expect(shown).toBe(expected);
    expect(line(runs.command, runs.args)).toBe(expected);
  });

  it('runs an installed binary as its program and the method’s args alone', async () => {
    const folder = await mkdtemp(join(base, 'install-'));
    await mkdir(join(folder, 'bin'));
    await writeFile(join(folder, 'bin', 'agent'), '#!/bin/sh\n', { mode: 0o755 });
    const binary = {
      [platform]: {
        archive: 'https://x.test/a.tar.gz',
        cmd: './bin/agent',
        args: ['serve', '--acp'],
      },
    };
    const { shown, runs } = signIn(await registrySpec({ binary }, folder));
    expect(runs.args).toEqual(['--login']);
    expect(runs.command).toMatch(/\/bin\/agent$/);
    expect(shown).toBe(line(runs.command, ['--login']));
  });

  it('appends the method’s args to a custom agent’s own command line', () => {
    const custom: AgentSpec = {
      name: 'Mine',
      command: 'npx',
      args: ['--yes', 'my-agent', '--acp'],
      env: {},
      builtIn: false,
    };
    const { shown, runs } = signIn(custom);
    expect(shown).toBe('npx --yes my-agent --acp --login');
    expect(line(runs.command, runs.args)).toBe(shown);
  });
});
