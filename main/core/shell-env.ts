/**
 * The user's login-shell `PATH`, for an app started from a desktop launcher.
 *
 * The macOS Finder and Linux desktop launchers start apps with a minimal environment: the
 * `PATH` a terminal gets from the user's shell startup files (nvm, Homebrew, `~/.local/bin`)
 * is missing, so an agent configured as `npx ...` or `gemini` is not found. Editors run the
 * user's login shell once at start and take its environment (VS Code's `resolveShellEnv`,
 * Zed's `shell_env::capture`); Airlock does the same, for `PATH` only.
 *
 * Only `PATH`, because it is what decides whether an agent's command is found. The rest of a
 * shell's environment describes that shell (`SHLVL`, `PWD`, `TERM`, its `XDG_RUNTIME_DIR`),
 * and what startup files export besides (API keys, say) would reach every agent without the
 * user having chosen it: agents get their variables from the settings file or the keychain.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { basename, posix } from 'node:path';

/** How long the login shell may take; VS Code gives it the same. */
export const SHELL_DEADLINE_MS = 10_000;

/** The most a shell may print (startup files can be chatty) before it is given up on. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** How long a killed shell's output may take to close (a process that left its group can hold it). */
const CLOSE_GRACE_MS = 1000;

/** What {@link loginShellPath} found: the shell's `PATH`, or why there is none. */
export type LoginShellPath = { path: string } | { failure: string };

/** The user's login shell: `$SHELL`, else the passwd entry's, else `/bin/sh`. */
export function userShell(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SHELL) {
    return env.SHELL;
  }
  try {
    return userInfo().shell ?? '/bin/sh';
  } catch {
    // No passwd entry for this user (a container, say).
    return '/bin/sh';
  }
}

/**
 * Runs `shell` as an interactive login shell (so it reads the startup files a terminal reads)
 * and takes the `PATH` it exports. The shell runs in a session and process group of its own,
 * without a terminal: it cannot stop for terminal input or signal the terminal Airlock came
 * from, and whatever it leaves running is killed with its group once it has exited or its
 * deadline has passed. Resolves once it and its group are gone.
 */
export async function loginShellPath(
  shell: string,
  { env = process.env, deadlineMs = SHELL_DEADLINE_MS } = {},
): Promise<LoginShellPath> {
  // A random marker around the value: startup files may print banners before and after it.
  const mark = `AIRLOCK_${randomBytes(8).toString('hex')}`;
  // `echo`, `;` and a plain word are the same in sh, bash, zsh, fish and tcsh; `printenv` prints
  // the variable as exported to programs, after the shell's own conversions (fish's PATH list).
  const command = `echo ${mark}; printenv PATH; echo ${mark}`;
  const name = basename(shell);
  // csh and tcsh take `-l` only alone; a leading `-` in argv[0] makes any shell a login shell.
  const csh = name === 'csh' || name === 'tcsh';
  const child = spawn(shell, csh ? ['-i', '-c', command] : ['-i', '-l', '-c', command], {
    argv0: csh ? `-${name}` : undefined,
    // Startup files can test this to skip slow work that only a terminal needs.
    env: { ...env, AIRLOCK_RESOLVING_ENVIRONMENT: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  const chunks: Buffer[] = [];
  let bytes = 0;
  let tooLong = false;

  const ended = new Promise<string | undefined>((resolve) => {
    child.once('error', (error) => resolve(`${shell} could not be run (${error.message})`));
    child.once('exit', (code, signal) =>
      resolve(
        code === 0
          ? undefined
          : `${shell} ${signal ? `was ended by ${signal}` : `exited with code ${code}`}`,
      ),
    );
  });
  const closed = new Promise<void>((resolve) => child.stdout.once('close', resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_OUTPUT_BYTES) {
      tooLong = true;
      killGroup(child.pid);
      return;
    }
    chunks.push(chunk);
  });

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`${shell} did not finish within ${deadlineMs / 1000} s`),
      deadlineMs,
    );
  });
  const exitProblem = await Promise.race([ended, deadline]).finally(() => clearTimeout(timer));
  // The shell is done or out of time: nothing it started may outlive it.
  killGroup(child.pid);
  let grace: NodeJS.Timeout | undefined;
  // A killed process lets go of its files before it has gone: its exit is awaited as well as
  // its output's close, so that the shell is gone when this answers.
  await Promise.race([
    Promise.all([closed, ended]),
    new Promise<void>((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS))),
  ]).finally(() => clearTimeout(grace));
  child.stdout.destroy();

  if (tooLong) {
    return { failure: `${shell} printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB` };
  }
  const found = new RegExp(`${mark}\\r?\\n([^\\r\\n]*)\\r?\\n${mark}`).exec(
    Buffer.concat(chunks).toString('utf8'),
  )?.[1];
  // A startup file that fails at the very end does not make the PATH printed before it wrong.
  if (found) {
    return { path: found };
  }
  return { failure: exitProblem ?? `${shell} printed no PATH` };
}

/** Ends the process group `pid` leads (a detached child's), if any of it is left. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) {
    return;
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * The login shell's `PATH` entries first (its order is the user's choice), then those of
 * `current` it lacks, each once. Empty and relative entries are dropped: they are looked up
 * from the agent's working folder, the user's project, where any file could be named `npx`.
 */
export function mergePaths(login: string, current: string): string {
  const entries = [...login.split(':'), ...current.split(':')].filter((entry) =>
    posix.isAbsolute(entry),
  );
  return [...new Set(entries)].join(':');
}

/** Where and how Airlock was started, as {@link applyLoginShellPath} needs to know. */
export type StartContext = {
  platform: NodeJS.Platform;
  /** Whether Airlock was started from a terminal (its stdin or stdout is one). */
  fromTerminal: boolean;
  /** The login shell to ask; {@link userShell} by default. */
  shell?: string;
  deadlineMs?: number;
};

/**
 * Puts the login shell's `PATH` in `env` (merged with the one there, see {@link mergePaths}),
 * once, at start. Resolves to one line saying why `env` was left as it was, or nothing when
 * the `PATH` was taken.
 *
 * Skipped on Windows, whose apps get the user's `PATH` from the registry, and when started
 * from a terminal: that environment already is the user's shell's, perhaps changed on purpose
 * (a virtualenv, `PATH=... airlock`), and putting the startup files' entries first would undo
 * that. VS Code skips it the same way when started from its command line.
 */
export async function applyLoginShellPath(
  env: NodeJS.ProcessEnv,
  context: StartContext,
): Promise<string | undefined> {
  if (context.platform === 'win32') {
    return undefined;
  }
  if (context.fromTerminal) {
    return undefined;
  }
  const shell = context.shell ?? userShell(env);
  const result = await loginShellPath(shell, { env, deadlineMs: context.deadlineMs });
  if ('failure' in result) {
    return `kept the PATH Airlock was started with: ${result.failure}`;
  }
  env.PATH = mergePaths(result.path, env.PATH ?? '');
  return undefined;
}
