/**
 * How a registry agent is started on this machine: its installed binary for this platform, else
 * `npx`, else `uvx`.
 */
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { UserFacingError } from '../../errors.js';
import { currentPlatform, type Platform, type RegistryAgent } from '../format.js';
import type { InstalledAgent } from './installer.js';
import { isInside } from './target-folder.js';

/** The program to start, its arguments and environment. `cwd` unset: the session's folder. */
export type LaunchPlan = {
  kind: 'binary' | 'npx' | 'uvx';
  command: string;
  args: string[];
  /**
   * How many of `args` lead the launcher's own part (`--yes <pkg>`, `--from <pkg> <cmd>`; none
   * for a binary), before the distribution's args: a terminal sign-in keeps them and puts its
   * method's args in place of the rest (see AgentSpec's `launcherArgs`).
   */
  launcherArgs: number;
  env: Record<string, string>;
  cwd?: string;
};
/** Whether the agent can run here, and how; else why not, in words. */
export type Availability =
  { ok: true; kind: 'binary' | 'npx' | 'uvx' } | { ok: false; reason: string };

/** What to install when a package runner is missing. */
const RUNNER_HELP = {
  npx: 'Install Node.js (it includes npx), then try again.',
  uvx: 'Install uv (it includes uvx), then try again.',
} as const;

/** How this machine runs the agent: this platform's binary first, else npx, else uvx; else "Not available for this platform". */
export function chooseDistribution(
  agent: RegistryAgent,
  platform: Platform | undefined = currentPlatform(),
): Availability {
  const { binary, npx, uvx } = agent.distribution;
  if (platform !== undefined && binary?.[platform] !== undefined) {
    return { ok: true, kind: 'binary' };
  }
  if (npx) {
    return { ok: true, kind: 'npx' };
  }
  if (uvx) {
    return { ok: true, kind: 'uvx' };
  }
  return { ok: false, reason: `${agent.name} is not available for this platform.` };
}

/**
 * The real path of `cmd` (`./codex-acp`, `bin/agent`) in `folder`, checked to be a file inside
 * the folder's real path: a `cmd` that is absolute, climbs out, or is a link leading out is
 * refused. Throws a {@link UserFacingError}.
 */
export async function commandInside(folder: string, cmd: string): Promise<string> {
  const refused = () =>
    new UserFacingError(
      `The agent's program ${cmd.slice(0, 200)} is not inside its install folder.`,
    );
  if (cmd.includes('\0') || isAbsolute(cmd) || /^[A-Za-z]:|^[\\/]/.test(cmd)) {
    throw refused();
  }
  const root = await realpath(folder);
  const lexical = resolve(root, cmd);
  if (!isInside(root, lexical)) {
    throw refused();
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw new UserFacingError(
      `The agent's program ${cmd.slice(0, 200)} is missing from its install folder.`,
    );
  }
  if (!isInside(root, real) || real === root || !(await stat(real)).isFile()) {
    throw refused();
  }
  return real;
}

/** The first executable `program` in the folders of `path`, or undefined. */
export async function findOnPath(program: string, path: string): Promise<string | undefined> {
  const names =
    process.platform === 'win32' ? [`${program}.cmd`, `${program}.exe`, program] : [program];
  for (const dir of path.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) {
      continue;
    }
    for (const name of names) {
      const candidate = join(dir, name);
      const found = await stat(candidate).catch(() => undefined);
      if (
        found?.isFile() &&
        (await access(candidate, constants.X_OK).then(
          () => true,
          () => false,
        ))
      ) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** The command to run: npx/uvx (found on `path`, the login-shell PATH, else a clear UserFacingError that npx/uvx is missing), or the installed binary's cmd (checked to be inside its install folder). */
export async function launchPlan(
  agent: RegistryAgent,
  installed: InstalledAgent | undefined,
  options: { platform?: Platform; path?: string } = {},
): Promise<LaunchPlan> {
  const platform = options.platform ?? currentPlatform();
  const chosen = chooseDistribution(agent, platform);
  if (!chosen.ok) {
    throw new UserFacingError(chosen.reason);
  }
  if (chosen.kind === 'binary') {
    const target = platform === undefined ? undefined : agent.distribution.binary?.[platform];
    if (target === undefined || installed === undefined) {
      throw new UserFacingError(`${agent.name} is not installed yet.`);
    }
    return {
      kind: 'binary',
      command: await commandInside(installed.folder, target.cmd),
      args: [...target.args],
      launcherArgs: 0,
      env: { ...target.env },
    };
  }
  const runner = chosen.kind;
  const found = agent.distribution[runner];
  if (found === undefined) {
    throw new UserFacingError(`${agent.name} is not available for this platform.`);
  }
  const path = options.path ?? process.env.PATH ?? '';
  if ((await findOnPath(runner, path)) === undefined) {
    throw new UserFacingError(
      `${agent.name} needs ${runner}, which is not on your PATH. ${RUNNER_HELP[runner]}`,
    );
  }
  const pkg = found.package;
  const launcher =
    runner === 'npx'
      ? found.cmd === undefined
        ? ['--yes', pkg]
        : ['--yes', '--package', pkg, found.cmd]
      : found.cmd === undefined
        ? [pkg]
        : ['--from', pkg, found.cmd];
  return {
    kind: runner,
    command: runner,
    args: [...launcher, ...found.args],
    launcherArgs: launcher.length,
    env: { ...found.env },
  };
}
