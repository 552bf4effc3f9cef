import { writeFileSync } from 'node:fs';
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
import { afterEach, describe, expect, it } from 'vitest';
import {
  editSettingsFile,
  watchSettings,
  type SettingsWatcher,
} from '../../../../main/core/settings/file.js';

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
    await expect(
      editSettingsFile(path, (text) => {
        writeFileSync(path, `{ "n": ${++n} }`);
        return `${text} `;
      }),
    ).rejects.toThrow(
      `${path} kept changing while Airlock was saving; nothing was changed. Try again.`,
    );
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

describe('watchSettings', () => {
  let watcher: SettingsWatcher | undefined;
  afterEach(() => watcher?.close());

  /** Watches `path`; each call reads the file. `next(check)` waits for a call whose text passes. */
  function watching(path: string) {
    const reads: string[] = [];
    const waiters: { check: (text: string) => boolean; resolve: () => void }[] = [];
    watcher = watchSettings(path, async () => {
      const text = await readFile(path, 'utf8').catch(() => '(none)');
      reads.push(text);
      for (const waiter of [...waiters]) {
        if (waiter.check(text)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
    const next = (check: (text: string) => boolean) =>
      new Promise<void>((resolve) => waiters.push({ check, resolve }));
    return { reads, next };
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
    watcher = watchSettings(
      path,
      async () => {
        reads.push(await readFile(path, 'utf8'));
      },
      () => new Promise<void>((done) => settling.push(done)),
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
  });

  it('stops watching when closed', async () => {
    const path = join(await folder(), 'settings.json');
    await writeFile(path, '{}');
    const closed = watching(path);
    await closed.next((text) => text === '{}');
    const seenBefore = closed.reads.length;
    watcher!.close();
    // A second watcher, started later, tells when the change has been seen; the closed one,
    // whose reload would come first, saw nothing.
    const open = watching(path);
    await open.next((text) => text === '{}');
    const seen = open.next((text) => text === '{ "a": 1 }');
    await writeFile(path, '{ "a": 1 }');
    await seen;
    expect(closed.reads.length).toBe(seenBefore);
  });
});

/** Checks `condition` on every turn of the event loop until it holds; fails after 10 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('Waited 10 s for a condition');
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
