/**
 * The login shell's PATH, with real processes: small shell scripts stand in for the user's
 * shell (each is run as `$SHELL`, with the arguments a login shell gets).
 */
import fc from 'fast-check';
import { chmod, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import type * as osModule from 'node:os';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  loginShellPath,
  mergePaths,
  applyLoginShellPath,
  userShell,
} from '../../../../main/core/shell-env.js';
import { alive } from '../../../helpers/processes.js';

// The real `userInfo`, unless a test says otherwise: a user without a passwd entry.
vi.mock('node:os', async (importOriginal) => {
  const os = await importOriginal<typeof osModule>();
  return { ...os, userInfo: vi.fn(os.userInfo) };
});

/**
 * Writes an executable `/bin/sh` script named `name`; `body` may use `$DIR`, the script's
 * folder.
 */
async function fakeShell(
  body: string,
  name = 'fake-shell',
): Promise<{ shell: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'airlock-shell-'));
  const shell = join(dir, name);
  await writeFile(shell, `#!/bin/sh\nDIR='${dir}'\n${body}\n`);
  await chmod(shell, 0o755);
  return { shell, dir };
}

/**
 * A shell whose startup files set `path` and talk before and after the command, which it runs
 * as a shell runs `-c`'s argument (the last one). It notes its arguments in `$DIR/args`.
 */
function startupFiles(path: string, after = ''): string {
  return [
    'printf "%s\\n" "$@" > "$DIR/args"',
    'echo "Welcome back! PATH=/banner/bin"',
    `PATH='${path}'; export PATH`,
    'for last; do :; done',
    'eval "$last"',
    'echo "Have a nice day"',
    after,
  ].join('\n');
}

const KNOWN = '/opt/known/bin:/usr/bin:/bin';

/**
 * Settles as `call` does, or rejects after `ms` naming the shell asked. 5 s is half the 10 s
 * deadline a call has by default, and far more than a stand-in shell takes: a change that makes
 * a call wait out its deadline (or wait forever) instead of the shell's end fails here in
 * seconds, saying what it waited for, not after the deadline or at the test's timeout.
 */
function answer<T>(call: Promise<T>, shell: string, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Waited ${ms / 1000} s for the answer of ${shell}`)),
      ms,
    );
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}

/**
 * Kills what is left of the process group whose leader's pid is noted in `pidFile`, if the file
 * is there: a test whose shell hangs must not leave it running when the call failed to end it.
 */
async function endGroup(pidFile: string): Promise<void> {
  const pid = Number(await readFile(pidFile, 'utf8').catch(() => ''));
  if (pid > 0) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
}

describe('loginShellPath', () => {
  it('runs the shell as an interactive login shell and takes the PATH it exports, past its banners', async () => {
    const { shell, dir } = await fakeShell(startupFiles(KNOWN));
    await expect(answer(loginShellPath(shell), shell)).resolves.toEqual({ path: KNOWN });
    const args = (await readFile(join(dir, 'args'), 'utf8')).split('\n');
    expect(args.slice(0, 3)).toEqual(['-i', '-l', '-c']);
  });

  it('takes the PATH even when a startup file fails after it was printed', async () => {
    const { shell } = await fakeShell(startupFiles(KNOWN, 'exit 3'));
    await expect(answer(loginShellPath(shell), shell)).resolves.toEqual({ path: KNOWN });
  });

  it('gives up on a shell that hangs at its deadline, and leaves no process of it behind', async () => {
    const { shell, dir } = await fakeShell(
      [
        // A startup file that ignores a polite end, started something and waits on it forever.
        "trap '' TERM",
        'sleep 1000 &',
        'echo $! > "$DIR/sleep.pid"',
        'echo $$ > "$DIR/shell.pid"',
        'wait',
      ].join('\n'),
    );
    try {
      // Long enough for the script to note its pids on a loaded machine; the answer comes at
      // that deadline, once the group is killed, so 5 s more are plenty.
      const result = await answer(loginShellPath(shell, { deadlineMs: 2500 }), shell, 7500);
      expect(result).toEqual({ failure: `${shell} did not finish within 2.5 s` });
      const shellPid = Number(await readFile(join(dir, 'shell.pid'), 'utf8'));
      const sleepPid = Number(await readFile(join(dir, 'sleep.pid'), 'utf8'));
      // The shell is waited on before the answer; what it started is not its caller's child to
      // wait on, and is gone soon after the kill of its group.
      expect(alive(shellPid)).toBe(false);
      await expect.poll(() => alive(sleepPid), { timeout: 5_000 }).toBe(false);
    } finally {
      await endGroup(join(dir, 'shell.pid'));
    }
  });

  it('runs csh and tcsh with `-l` left out, since they take it only alone', async () => {
    for (const name of ['csh', 'tcsh']) {
      const { shell, dir } = await fakeShell(startupFiles(KNOWN), name);
      await expect(answer(loginShellPath(shell), shell)).resolves.toEqual({ path: KNOWN });
      const args = (await readFile(join(dir, 'args'), 'utf8')).split('\n');
      expect(args.slice(0, 2)).toEqual(['-i', '-c']);
      expect(args[2]).toMatch(/^echo AIRLOCK_[0-9a-f]{16}; printenv PATH; echo AIRLOCK_/);
    }
  });

  it('makes a csh a login shell by a `-` before its name, as a login makes it', async () => {
    // dash named `csh` reads ~/.profile only as a login shell, that is, when argv[0] starts with `-`.
    const dir = await mkdtemp(join(tmpdir(), 'airlock-shell-'));
    await symlink('/bin/sh', join(dir, 'csh'));
    await writeFile(
      join(dir, '.profile'),
      `echo "$0" > "$HOME/zero"\nPATH='${KNOWN}'; export PATH\n`,
    );
    const csh = join(dir, 'csh');
    await expect(
      answer(loginShellPath(csh, { env: { HOME: dir, PATH: '/usr/bin:/bin' } }), csh),
    ).resolves.toEqual({ path: KNOWN });
    expect(await readFile(join(dir, 'zero'), 'utf8')).toBe('-csh\n');
  });

  it('runs the shell with the environment given, and tells its startup files why it runs', async () => {
    const { shell, dir } = await fakeShell(
      [
        'printf "%s %s" "$AIRLOCK_RESOLVING_ENVIRONMENT" "$FROM_CALLER" > "$DIR/env"',
        startupFiles(KNOWN),
      ].join('\n'),
    );
    await expect(
      answer(
        loginShellPath(shell, { env: { PATH: '/usr/bin:/bin', FROM_CALLER: 'caller-Finch-3' } }),
        shell,
      ),
    ).resolves.toEqual({ path: KNOWN });
    expect(await readFile(join(dir, 'env'), 'utf8')).toBe('1 caller-Finch-3');
  });

  it('reads lines that end in CRLF', async () => {
    const { shell } = await fakeShell(
      [`PATH='${KNOWN}'; export PATH`, 'for last; do :; done', `eval "$last" | sed 's/$/\r/'`].join(
        '\n',
      ),
    );
    await expect(answer(loginShellPath(shell), shell)).resolves.toEqual({ path: KNOWN });
  });

  it('gives up on a shell that prints more than 1 MB, and takes up to that much', async () => {
    const chatty = await fakeShell(
      ['head -c 2000000 /dev/zero | tr "\\0" x', startupFiles(KNOWN)].join('\n'),
    );
    await expect(answer(loginShellPath(chatty.shell), chatty.shell)).resolves.toEqual({
      failure: `${chatty.shell} printed more than 1 MB`,
    });
    // Exactly 1 MB: the padding, its newline, two 25-byte marker lines and the PATH's line.
    const padding = 1024 * 1024 - 1 - 2 * 25 - (KNOWN.length + 1);
    const full = await fakeShell(
      [
        `PATH='${KNOWN}'; export PATH`,
        `head -c ${padding} /dev/zero | tr "\\0" x; echo`,
        'for last; do :; done',
        'eval "$last"',
      ].join('\n'),
    );
    await expect(answer(loginShellPath(full.shell), full.shell)).resolves.toEqual({ path: KNOWN });
  });

  it('does not wait long on output held open by a process that left the shell’s group', async () => {
    const { shell, dir } = await fakeShell(
      [
        startupFiles(KNOWN),
        // The shell ends only once the sleep is in a session of its own, out of reach.
        `setsid sh -c 'echo $$ > "$0"; exec sleep 60' "$DIR/sleep.pid" &`,
        'while [ ! -s "$DIR/sleep.pid" ]; do sleep 0.01; done',
      ].join('\n'),
    );
    try {
      // The shell's end, then the 1 s grace for its output to close.
      await expect(answer(loginShellPath(shell), shell)).resolves.toEqual({ path: KNOWN });
    } finally {
      process.kill(Number(await readFile(join(dir, 'sleep.pid'), 'utf8')), 'SIGKILL');
    }
  });

  it('reads the output up to its close, not only up to the shell’s exit', async () => {
    const { shell } = await fakeShell(
      [
        `PATH='${KNOWN}'; export PATH`,
        'for last; do :; done',
        // The command runs in a session of its own, out of the group's reach, once the shell
        // has exited (which it does once the command is out of its group): its PATH comes only
        // after the exit, within the grace for the output.
        `setsid sh -c 'echo $$ > "$0"; sleep 0.2; eval "$1"' "$DIR/moved" "$last" &`,
        'while [ ! -s "$DIR/moved" ]; do sleep 0.01; done',
      ].join('\n'),
    );
    await expect(answer(loginShellPath(shell), shell)).resolves.toEqual({ path: KNOWN });
  });

  it('gives the shell no input to wait for, and nowhere to block writing errors', async () => {
    const { shell } = await fakeShell(
      ['read answer', 'head -c 1000000 /dev/zero >&2', startupFiles(KNOWN)].join('\n'),
    );
    // Past the call's own 5 s deadline and grace, so a shell left waiting fails on its answer.
    await expect(answer(loginShellPath(shell, { deadlineMs: 5000 }), shell, 8000)).resolves.toEqual(
      { path: KNOWN },
    );
  });

  it('says so when a signal ended the shell', async () => {
    const { shell } = await fakeShell('kill -TERM $$');
    await expect(answer(loginShellPath(shell), shell)).resolves.toEqual({
      failure: `${shell} was ended by SIGTERM`,
    });
  });

  it('says why when the shell prints no PATH, exits with an error, or cannot be run', async () => {
    const garbage = await fakeShell('echo "zsh compinit: insecure directories"; printf "\\0\\377"');
    await expect(answer(loginShellPath(garbage.shell), garbage.shell)).resolves.toEqual({
      failure: `${garbage.shell} printed no PATH`,
    });
    const failing = await fakeShell('echo "bash: .bashrc: line 3: syntax error" >&2; exit 1');
    await expect(answer(loginShellPath(failing.shell), failing.shell)).resolves.toEqual({
      failure: `${failing.shell} exited with code 1`,
    });
    const missing = join(failing.dir, 'no-such-shell');
    await expect(answer(loginShellPath(missing), missing)).resolves.toEqual({
      failure: expect.stringMatching(new RegExp(`^${missing} could not be run \\(.*ENOENT`)),
    });
  });
});

describe('applyLoginShellPath', () => {
  const desktop = { platform: 'linux', fromTerminal: false } as const;

  it('puts the login shell’s PATH first in the environment, then what it lacks', async () => {
    const { shell } = await fakeShell(startupFiles(KNOWN));
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' };
    await expect(
      answer(applyLoginShellPath(env, { ...desktop, shell }), shell),
    ).resolves.toBeUndefined();
    expect(env.PATH).toBe('/opt/known/bin:/usr/bin:/bin:/usr/sbin:/sbin');
  });

  it('keeps the environment, and says why in one line, when the shell fails', async () => {
    const { shell } = await fakeShell('printf "garbage"; exit 1');
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin' };
    const kept = await answer(applyLoginShellPath(env, { ...desktop, shell }), shell);
    expect(kept).toBe(`kept the PATH Airlock was started with: ${shell} exited with code 1`);
    expect(kept).not.toContain('\n');
    expect(env).toEqual({ PATH: '/usr/bin:/bin' });
  });

  it('runs no shell on Windows, nor when started from a terminal', async () => {
    const { shell, dir } = await fakeShell(startupFiles(KNOWN));
    for (const context of [
      { platform: 'win32', fromTerminal: false },
      { platform: 'linux', fromTerminal: true },
      { platform: 'darwin', fromTerminal: true },
    ] as const) {
      const env: NodeJS.ProcessEnv = { PATH: '/usr/bin' };
      await expect(
        answer(applyLoginShellPath(env, { ...context, shell }), shell),
      ).resolves.toBeUndefined();
      expect(env.PATH).toBe('/usr/bin');
    }
    await expect(readFile(join(dir, 'args'))).rejects.toThrow(/ENOENT/);
  });

  it('sets the PATH when the environment had none', async () => {
    const { shell } = await fakeShell(startupFiles(KNOWN));
    const env: NodeJS.ProcessEnv = {};
    await expect(
      answer(applyLoginShellPath(env, { ...desktop, shell }), shell),
    ).resolves.toBeUndefined();
    expect(env.PATH).toBe(KNOWN);
  });

  it('gives the shell the deadline it is given', async () => {
    const { shell, dir } = await fakeShell('echo $$ > "$DIR/shell.pid"; exec sleep 1000');
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin' };
    try {
      await expect(
        answer(applyLoginShellPath(env, { ...desktop, shell, deadlineMs: 300 }), shell),
      ).resolves.toBe(
        `kept the PATH Airlock was started with: ${shell} did not finish within 0.3 s`,
      );
    } finally {
      await endGroup(join(dir, 'shell.pid'));
    }
  });

  it('asks $SHELL by default', async () => {
    const { shell } = await fakeShell(startupFiles(KNOWN));
    const env: NodeJS.ProcessEnv = { SHELL: shell, PATH: '/bin' };
    await answer(applyLoginShellPath(env, desktop), shell);
    expect(env.PATH).toBe(KNOWN);
  });
});

describe('userShell', () => {
  it('is /bin/sh when the user has no passwd entry, or no shell in it', () => {
    vi.mocked(userInfo).mockImplementationOnce(() => {
      throw new Error('ENOENT: no such file or directory, uv_os_get_passwd');
    });
    expect(userShell({})).toBe('/bin/sh');
    vi.mocked(userInfo).mockReturnValueOnce({
      username: 'me',
      uid: -1,
      gid: -1,
      shell: null,
      homedir: '/home/me',
    });
    expect(userShell({})).toBe('/bin/sh');
  });

  it('is $SHELL, else the user’s passwd entry', () => {
    expect(userShell({ SHELL: '/usr/bin/fish' })).toBe('/usr/bin/fish');
    const uid = process.getuid?.();
    const entry = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .find((fields) => Number(fields[2]) === uid);
    expect(userShell({})).toBe(entry?.[6] || '/bin/sh');
  });
});

describe('mergePaths', () => {
  const entry = fc.oneof(
    fc.constantFrom('/usr/bin', '/bin', '/opt/homebrew/bin', '/home/me/.nvm/bin', '', '.', 'bin'),
    fc.stringMatching(/^\/[a-z]{1,3}$/),
  );
  const path = fc.array(entry, { maxLength: 8 }).map((entries) => entries.join(':'));
  const absolute = (value: string) => value.split(':').filter((part) => part.startsWith('/'));

  it('lists the login shell’s entries first, in order, then the missing current ones, each once', () => {
    fc.assert(
      fc.property(path, path, (login, current) => {
        const merged = mergePaths(login, current).split(':').filter(Boolean);
        expect(new Set(merged).size).toBe(merged.length);
        const fromLogin = [...new Set(absolute(login))];
        expect(merged.slice(0, fromLogin.length)).toEqual(fromLogin);
        const rest = [...new Set(absolute(current))].filter((part) => !fromLogin.includes(part));
        expect(merged.slice(fromLogin.length)).toEqual(rest);
      }),
    );
  });

  it('drops empty and relative entries, which would be looked up in the agent’s folder', () => {
    expect(mergePaths('::/usr/bin:.:node_modules/.bin', '/bin::')).toBe('/usr/bin:/bin');
  });
});
