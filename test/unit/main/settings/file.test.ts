import fs, { writeFileSync, type FSWatcher } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  editSettingsFile,
  watchSettings,
  type SettingsWatcher,
} from '../../../../main/core/settings/file.js';
import { deadline } from '../../../helpers/core-harness.js';

/** The random bytes of the next temporary name, when a test sets them. */
const crypto: { next?: Buffer } = {};
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof Crypto>();
  return {
    ...actual,
    randomBytes: (size: number) => {
      const bytes = crypto.next ?? actual.randomBytes(size);
      crypto.next = undefined;
      return bytes;
    },
  };
});

const folder = () => mkdtemp(join(tmpdir(), 'airlock-settings-file-'));
const append = (line: string) => (text: string) => text.replace(/}\s*$/, `  ${line}\n}\n`);

describe('editSettingsFile', () => {
  it('creates the folder and the file when they are missing, readable by the user alone', async () => {
    const path = join(await folder(), 'new', 'deeper', 'settings.json');
    expect(await editSettingsFile(path, () => '{ "a": 1 }\n')).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('{ "a": 1 }\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('replaces the file in one step (a new file renamed over it) and leaves no temporary file', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{\n  // mine\n  "a": 1\n}\n');
    const before = (await stat(path)).ino;
    await editSettingsFile(path, append('"b": 2'));
    expect(await readFile(path, 'utf8')).toBe('{\n  // mine\n  "a": 1\n  "b": 2\n}\n');
    expect((await stat(path)).ino).not.toBe(before);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('keeps the file’s permissions', async () => {
    const path = join(await folder(), 'settings.json');
    await writeFile(path, '{}');
    // Wider than the usual umask lets a new file be: only an explicit chmod keeps it.
    await chmod(path, 0o666);
    await editSettingsFile(path, () => '{ "a": 1 }');
    expect((await stat(path)).mode & 0o777).toBe(0o666);
    await chmod(path, 0o640);
    await editSettingsFile(path, () => '{ "a": 2 }');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
  });

  it('keeps a symlinked file a symlink and changes its target', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'dotfiles'));
    const target = join(dir, 'dotfiles', 'airlock.json');
    await writeFile(target, '{}');
    const path = join(dir, 'settings.json');
    await symlink(join('dotfiles', 'airlock.json'), path);
    await editSettingsFile(path, () => '{ "a": 1 }');
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
    expect(await readlink(path)).toBe(join('dotfiles', 'airlock.json'));
    expect(await readFile(target, 'utf8')).toBe('{ "a": 1 }');
    expect((await readdir(join(dir, 'dotfiles'))).sort()).toEqual(['airlock.json']);
  });

  it('creates the target of a symlink that points at no file yet', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await symlink(join(dir, 'elsewhere', 'airlock.json'), path);
    await editSettingsFile(path, () => '{ "a": 1 }');
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'elsewhere', 'airlock.json'), 'utf8')).toBe('{ "a": 1 }');
  });

  it('applies the edit to a change made meanwhile instead of writing over it', async () => {
    const path = join(await folder(), 'settings.json');
    await writeFile(path, '{\n  "a": 1\n}\n');
    const seen: string[] = [];
    await editSettingsFile(path, (text) => {
      seen.push(text);
      if (seen.length === 1) {
        // Someone saves the file by hand while Airlock is preparing its own change.
        writeFileSync(path, '{\n  "a": 1\n  , "hand": true\n}\n');
      }
      return append('"b": 2')(text);
    });
    expect(seen).toHaveLength(2);
    expect(await readFile(path, 'utf8')).toBe('{\n  "a": 1\n  , "hand": true\n  "b": 2\n}\n');
  });

  it('gives up, writing nothing, when the file keeps changing', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{}');
    let n = 0;
    const editing = editSettingsFile(path, (text) => {
      writeFileSync(path, `{ "n": ${++n} }`);
      return `${text} `;
    });
    await expect(deadline(editing, 'the edit to give up', 5_000)).rejects.toThrow(
      `${path} kept changing while Airlock was saving; nothing was changed. Try again.`,
    );
    // Five attempts, each reading the file anew.
    expect(n).toBe(5);
    expect(await readFile(path, 'utf8')).toBe(`{ "n": ${n} }`);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('never writes over text that cannot be parsed, naming the file and the line', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    const broken = '{\n  "agent_servers": {\n    "A": { "command": "a" }\n    "B": {}\n  }\n}\n';
    await writeFile(path, broken);
    let edited = false;
    await expect(
      editSettingsFile(path, () => {
        edited = true;
        return '{}';
      }),
    ).rejects.toThrow(
      `${path} has an error at line 4, column 5 (a comma is expected). Fix it in the file first; nothing was changed.`,
    );
    expect(edited).toBe(false);
    expect(await readFile(path, 'utf8')).toBe(broken);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('writes nothing when the edit fails, and nothing when it changes nothing', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{}');
    const before = (await stat(path)).ino;
    await expect(
      editSettingsFile(path, () => {
        throw new Error('no such agent');
      }),
    ).rejects.toThrow('no such agent');
    expect(await editSettingsFile(path, (text) => text)).toBe(false);
    expect((await stat(path)).ino).toBe(before);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });
});

describe('editSettingsFile: where it writes and what it refuses', () => {
  it('creates a missing file even when the edit leaves its text empty', async () => {
    const path = join(await folder(), 'settings.json');
    expect(await editSettingsFile(path, (text) => text)).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('follows a symlink whose target passes through another link and `..` as the kernel does', async () => {
    const dir = await folder();
    // `deep` leads into other/deep, so `deep/../target.json` is other/target.json, not
    // dir/target.json as the text of the link would say.
    await mkdir(join(dir, 'other', 'deep'), { recursive: true });
    await symlink(join('other', 'deep'), join(dir, 'deep'));
    await writeFile(join(dir, 'other', 'target.json'), '{}');
    const path = join(dir, 'settings.json');
    await symlink('deep/../target.json', path);
    await editSettingsFile(path, () => '{ "a": 1 }');
    expect(await readFile(join(dir, 'other', 'target.json'), 'utf8')).toBe('{ "a": 1 }');
    expect((await readdir(dir)).sort()).toEqual(['deep', 'other', 'settings.json']);
  });

  it('says why it cannot read a file that is there, writing nothing', async () => {
    const dir = await folder();
    // A folder where the file should be: reading it fails with EISDIR, not "missing".
    const path = join(dir, 'settings.json');
    await mkdir(path);
    await expect(editSettingsFile(path, () => '{}')).rejects.toThrow(
      `Could not read ${path}: EISDIR: illegal operation on a directory, read. Check the file's permissions.`,
    );
    expect(await readdir(path)).toEqual([]);
  });

  it('passes on a failure to resolve the path as it is, never taking it for a missing file', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'plain'), '');
    // Under a file rather than a folder: realpath fails with ENOTDIR, not ENOENT.
    const path = join(dir, 'plain', 'settings.json');
    await expect(editSettingsFile(path, () => '{}')).rejects.toMatchObject({
      code: 'ENOTDIR',
      syscall: 'realpath',
    });
  });

  it('never writes through a file already at its temporary name', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{}');
    // The next temporary name, taken before the write by a link to a file elsewhere.
    crypto.next = Buffer.from('0123456789ab', 'hex');
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'untouched');
    await symlink(victim, join(dir, '.settings.json.0123456789ab.tmp'));
    await expect(editSettingsFile(path, () => '{ "a": 1 }')).rejects.toThrow(/EEXIST/);
    expect(await readFile(victim, 'utf8')).toBe('untouched');
    expect(await readFile(path, 'utf8')).toBe('{}');
  });
});

describe('watchSettings', () => {
  let watcher: SettingsWatcher | undefined;
  /** Every watcher a test starts (some start several), closed after it. */
  const all: SettingsWatcher[] = [];
  const keep = (watching: SettingsWatcher) => (all.push(watching), watching);
  afterEach(() => {
    for (const watching of all.splice(0)) {
      watching.close();
    }
  });

  /** Watches `path`; each call reads the file. `next(check)` waits for a call whose text passes. */
  function watching(path: string) {
    const reads: string[] = [];
    const started = { calls: 0 };
    const waiters: { check: (text: string) => boolean; resolve: () => void }[] = [];
    watcher = keep(
      watchSettings(path, async () => {
        started.calls += 1;
        const text = await readFile(path, 'utf8').catch(() => '(none)');
        reads.push(text);
        for (const waiter of [...waiters]) {
          if (waiter.check(text)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      }),
    );
    // Bounded: a change that stops the reloads fails the test in seconds, naming the text.
    const next = (check: (text: string) => boolean) =>
      deadline(
        new Promise<void>((resolve) => waiters.push({ check, resolve })),
        `a reload that reads ${String(check)}`,
        5_000,
      );
    return { reads, started, next };
  }

  it('sees the file written in place, replaced by a rename (as editors save) and removed', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{}');
    const { next } = watching(path);
    await next((text) => text === '{}');

    const written = next((text) => text === '{ "a": 1 }');
    await writeFile(path, '{ "a": 1 }');
    await written;

    const replaced = next((text) => text === '{ "b": 2 }');
    await writeFile(join(dir, 'settings.json.swp'), '{ "b": 2 }');
    await rename(join(dir, 'settings.json.swp'), path);
    await replaced;

    const removed = next((text) => text === '(none)');
    const { unlink } = await import('node:fs/promises');
    await unlink(path);
    await removed;
  });

  it('sees a change to the target of a symlinked file in another folder', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'dotfiles'));
    const target = join(dir, 'dotfiles', 'airlock.json');
    await writeFile(target, '{}');
    const path = join(dir, 'settings.json');
    await symlink(target, path);
    const { next } = watching(path);
    await next((text) => text === '{}');
    const changed = next((text) => text === '{ "a": 1 }');
    await writeFile(target, '{ "a": 1 }');
    await changed;
  });

  it('coalesces a burst of writes into one reload, and one more for what came during it', async () => {
    const path = join(await folder(), 'settings.json');
    await writeFile(path, '{}');
    const reads: string[] = [];
    // The wait that lets an editor finish writing, held until the test lets it end.
    const settling: (() => void)[] = [];
    watcher = keep(
      watchSettings(
        path,
        async () => {
          reads.push(await readFile(path, 'utf8'));
        },
        () => new Promise<void>((done) => settling.push(done)),
      ),
    );
    await until(() => settling.length === 1);
    settling.shift()!();
    await until(() => reads.length === 1);
    for (let n = 0; n < 50; n++) {
      writeFileSync(path, `{ "n": ${n} }`);
      // A turn of the event loop between writes: each write is its own change event.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => settling.length > 0);
    // Fifty changes, one wait.
    expect(settling).toHaveLength(1);
    settling.shift()!();
    await until(() => reads.length === 2);
    expect(reads[1]).toBe('{ "n": 49 }');
    // Changes seen while it waited bring one more reload, no more.
    await until(() => settling.length > 0);
    expect(settling).toHaveLength(1);
    settling.shift()!();
    await until(() => reads.length === 3);
    expect(reads[2]).toBe('{ "n": 49 }');
    // Then it rests: no further wait begins once a reload saw no change come.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settling).toHaveLength(0);
  });

  it('stops watching when closed', async () => {
    const path = join(await folder(), 'settings.json');
    await writeFile(path, '{}');
    const made = spyOnWatch();
    const closed = watching(path);
    await closed.next((text) => text === '{}');
    made.restore();
    const seenBefore = closed.reads.length;
    let ended = 0;
    for (const watch of made) {
      watch.once('close', () => ended++);
    }
    watcher!.close();
    // Its watch is closed too, not only left unheard.
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(made.length);
    // A second watcher, started later, tells when the change has been seen; the closed one,
    // whose reload would come first, saw nothing.
    const open = watching(path);
    await open.next((text) => text === '{}');
    for (const text of ['{ "a": 1 }', '{ "a": 2 }']) {
      const seen = open.next((read) => read === text);
      await writeFile(path, text);
      await seen;
    }
    expect(closed.reads.length).toBe(seenBefore);
    expect(closed.started.calls).toBe(seenBefore);
  });

  it('waits 50 ms by default for an editor to finish writing', async () => {
    const path = join(await folder(), 'settings.json');
    await writeFile(path, '{}');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { started } = watching(path);
      await until(() => vi.getTimerCount() === 1 || started.calls > 0);
      vi.advanceTimersByTime(49);
      await new Promise((resolve) => setImmediate(resolve));
      expect(started.calls).toBe(0);
      vi.advanceTimersByTime(1);
      await until(() => started.calls === 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('calls nothing once closed while it waits to reload, or before it has begun', async () => {
    const path = join(await folder(), 'settings.json');
    await writeFile(path, '{}');
    let calls = 0;
    const settling: (() => void)[] = [];
    const settle = () => new Promise<void>((done) => settling.push(done));
    const waiting = watchSettings(path, async () => void calls++, settle);
    await until(() => settling.length === 1);
    waiting.close();
    settling.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(0);
    // Closed at once, before it has set up its watch: it never watches (a watch made then
    // would never be closed), waits, nor reloads.
    const made = spyOnWatch();
    try {
      watchSettings(path, async () => void calls++, settle).close();
      // A later watcher's first reload comes after the first one's set-up would have ended.
      await watching(path).next((text) => text === '{}');
      expect(made).toHaveLength(1);
    } finally {
      made.restore();
    }
    expect(settling).toHaveLength(0);
    expect(calls).toBe(0);
  });

  it('ignores other files in its folder', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await writeFile(path, '{}');
    let calls = 0;
    watcher = keep(
      watchSettings(
        path,
        async () => void calls++,
        async () => undefined,
      ),
    );
    await until(() => calls === 1);
    // A watcher of a neighbour sees its change: the settings' watcher had it too, and let it be.
    const other = join(dir, 'other.json');
    const neighbour = watchSettings(other, async () => undefined);
    const { next } = watching(other);
    await next((text) => text === '(none)');
    const seen = next((text) => text === '{ "n": 1 }');
    await writeFile(other, '{ "n": 1 }');
    await seen;
    neighbour.close();
    expect(calls).toBe(1);
  });

  it('makes the missing folders of the file before it watches them', async () => {
    const path = join(await folder(), 'new', 'deeper', 'settings.json');
    const { next } = watching(path);
    await next((text) => text === '(none)');
    expect((await stat(join(path, '..'))).isDirectory()).toBe(true);
    const written = next((text) => text === '{}');
    await writeFile(path, '{}');
    await written;
  });

  it('keeps nothing alive: the app may quit while it watches', async () => {
    const watches = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'FSEventWrap').length;
    // The watches of earlier tests, closed, leave the list a little later.
    await until(() => watches() === 0);
    const path = join(await folder(), 'settings.json');
    const made = spyOnWatch();
    try {
      await watching(path).next((text) => text === '(none)');
      expect(made).toHaveLength(1);
      expect(watches()).toBe(0);
    } finally {
      made.restore();
    }
  });

  it('takes an error from its watch (its folder removed, say) without a crash', async () => {
    const path = join(await folder(), 'settings.json');
    const made = spyOnWatch();
    try {
      await watching(path).next((text) => text === '(none)');
      // With no listener, an 'error' event throws.
      expect(() => made[0]!.emit('error', new Error('gone'))).not.toThrow();
    } finally {
      made.restore();
    }
  });

  it('watches a path it cannot follow (a symlink loop) where it is', async () => {
    const dir = await folder();
    const path = join(dir, 'settings.json');
    await symlink(join(dir, 'loop.json'), path);
    await symlink(path, join(dir, 'loop.json'));
    const { next } = watching(path);
    await next((text) => text === '(none)');
    const replaced = next((text) => text === '{}');
    await rename(await writeTemp(dir, '{}'), path);
    await replaced;
  });
});

/** Records the watches made from now on; `restore` stops that. */
function spyOnWatch(): FSWatcher[] & { restore(): void } {
  const made: FSWatcher[] = [];
  const real = fs.watch;
  const spy = vi.spyOn(fs, 'watch').mockImplementation(((...args: Parameters<typeof fs.watch>) => {
    const watcher = real(...args);
    made.push(watcher);
    return watcher;
  }) as typeof fs.watch);
  // The module reads `watch` from node:fs's ES exports, which follow the object only when told.
  syncBuiltinESMExports();
  return Object.assign(made, {
    restore() {
      spy.mockRestore();
      syncBuiltinESMExports();
    },
  });
}

/** A new file in `dir` holding `text`. */
async function writeTemp(dir: string, text: string): Promise<string> {
  const file = join(dir, 'temporary.json');
  await writeFile(file, text);
  return file;
}

/** Checks `condition` on every turn of the event loop until it holds; fails after 5 s. */
async function until(condition: () => boolean): Promise<void> {
  const end = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > end) {
      throw new Error(`Waited 5 s for ${String(condition)}`);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
