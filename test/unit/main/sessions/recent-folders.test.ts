import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RECENT_FOLDERS } from '../../../../preload/shared/contract.js';
import { checkWorkingFolder, RecentFolders } from '../../../../main/core/recent-folders.js';

async function folder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'airlock-recent-'));
}

describe('checkWorkingFolder', () => {
  it('returns an existing folder, normalised', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'sub'));
    await expect(checkWorkingFolder(`  ${dir}/./sub/../sub/  `)).resolves.toBe(join(dir, 'sub'));
  });

  it('refuses a relative path, saying it must be absolute', async () => {
    await expect(checkWorkingFolder('projects/airlock')).rejects.toThrow(
      'The working folder must be an absolute path (/…), not “projects/airlock”.',
    );
    await expect(checkWorkingFolder('~/code')).rejects.toThrow('must be an absolute path');
  });

  it('refuses a path longer than 4096 characters before looking it up', async () => {
    // 4096 characters in short parts: looked up, which Linux refuses (its limit counts the NUL).
    const longest = `/${'abcdefg/'.repeat(512)}`.slice(0, 4096);
    await expect(checkWorkingFolder(longest)).rejects.toThrow('cannot be opened (ENAMETOOLONG)');
    await expect(checkWorkingFolder(`${longest}x`)).rejects.toThrow(
      'The working folder’s path is too long.',
    );
  });

  it('says why a folder that cannot be looked up cannot be opened', async () => {
    const dir = await folder();
    await symlink(join(dir, 'loop'), join(dir, 'loop'));
    await expect(checkWorkingFolder(join(dir, 'loop'))).rejects.toThrow(
      `The working folder ${join(dir, 'loop')} cannot be opened (ELOOP).`,
    );
  });

  it('refuses a folder that does not exist, and a file', async () => {
    const dir = await folder();
    await expect(checkWorkingFolder(join(dir, 'missing'))).rejects.toThrow(
      `The working folder ${join(dir, 'missing')} does not exist.`,
    );
    await writeFile(join(dir, 'file.txt'), 'x');
    await expect(checkWorkingFolder(join(dir, 'file.txt'))).rejects.toThrow(
      `${join(dir, 'file.txt')} is a file, not a folder.`,
    );
    await expect(checkWorkingFolder(join(dir, 'file.txt', 'below'))).rejects.toThrow(
      'does not exist',
    );
  });
});

describe('RecentFolders', () => {
  it('keeps the latest first, each folder once, at most the limit', async () => {
    const dir = await folder();
    const recent = new RecentFolders(join(dir, 'recent-folders.json'));
    await expect(recent.list()).resolves.toEqual([]);
    for (let index = 0; index < MAX_RECENT_FOLDERS + 3; index++) {
      await recent.add(`/work/${index}`);
    }
    await recent.add('/work/5');
    const list = await recent.list();
    expect(list).toHaveLength(MAX_RECENT_FOLDERS);
    expect(list.slice(0, 3)).toEqual([
      '/work/5',
      `/work/${MAX_RECENT_FOLDERS + 2}`,
      `/work/${MAX_RECENT_FOLDERS + 1}`,
    ]);
    expect(list.filter((entry) => entry === '/work/5')).toHaveLength(1);
    // Another reader of the same file sees the same list.
    await expect(new RecentFolders(join(dir, 'recent-folders.json')).list()).resolves.toEqual(list);
    // What an add answers, and what the file holds, are the same bounded list.
    const added = await recent.add('/work/new');
    expect(added).toEqual(['/work/new', ...list.slice(0, -1)]);
    expect(JSON.parse(await readFile(join(dir, 'recent-folders.json'), 'utf8')).folders).toEqual(
      added,
    );
  });

  it('writes atomically: a whole JSON file, no temporary file left behind', async () => {
    const dir = await folder();
    const file = join(dir, 'config', 'recent-folders.json');
    const recent = new RecentFolders(file);
    await Promise.all(['/a', '/b', '/c', '/d'].map((entry) => recent.add(entry)));
    // Adds made together are all kept, in order.
    await expect(recent.list()).resolves.toEqual(['/d', '/c', '/b', '/a']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      folders: ['/d', '/c', '/b', '/a'],
    });
    expect(await readdir(join(dir, 'config'))).toEqual(['recent-folders.json']);
  });

  it.each([
    ['not JSON', '{"folders": ['],
    ['the wrong shape', '["/a", "/b"]'],
    ['null', 'null'],
    ['folders that are not a list', '{"folders": "/a"}'],
  ])('ignores a damaged file (%s) and writes a good one on the next add', async (_what, text) => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    await writeFile(file, text);
    const recent = new RecentFolders(file);
    await expect(recent.list()).resolves.toEqual([]);
    await expect(recent.add('/new')).resolves.toEqual(['/new']);
    expect(JSON.parse(await readFile(file, 'utf8')).folders).toEqual(['/new']);
  });

  it('keeps only absolute paths of sensible length from the file', async () => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    await writeFile(
      file,
      JSON.stringify({
        folders: ['/a', 42, 'relative', null, '/a', `/${'x'.repeat(5000)}`, '/b'],
      }),
    );
    await expect(new RecentFolders(file).list()).resolves.toEqual(['/a', '/b']);
  });

  it('keeps at most the limit from the file, and paths of up to 4096 characters', async () => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    const longest = `/${'x'.repeat(4095)}`;
    const many = Array.from({ length: MAX_RECENT_FOLDERS + 5 }, (_, index) => `/f${index}`);
    await writeFile(file, JSON.stringify({ folders: [longest, ...many] }));
    const list = await new RecentFolders(file).list();
    expect(list).toHaveLength(MAX_RECENT_FOLDERS);
    expect(list[0]).toBe(longest);
    expect(list.at(-1)).toBe(`/f${MAX_RECENT_FOLDERS - 2}`);
  });

  it('reads a file of up to 256 KiB', async () => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    const start = '{"folders": ["/a"], "padding": "';
    await writeFile(file, `${start}${'x'.repeat(256 * 1024 - start.length - 2)}"}`);
    await expect(new RecentFolders(file).list()).resolves.toEqual(['/a']);
  });

  it('ignores a folder in the file’s place, and leaves no temporary file when it cannot replace it', async () => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    await mkdir(file);
    const recent = new RecentFolders(file);
    await expect(recent.list()).resolves.toEqual([]);
    await expect(recent.add('/a')).resolves.toEqual(['/a']);
    expect(await readdir(dir)).toEqual(['recent-folders.json']);
  });

  it('never reads a pipe in the file’s place (it would wait for a writer)', async () => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    execFileSync('mkfifo', [file]);
    const list = new RecentFolders(file).list();
    // Should the list be read from the pipe, this feeds it one at once instead of leaving it waiting.
    let listed = false;
    const feed = (async () => {
      while (!listed) {
        try {
          const fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
          writeSync(fd, JSON.stringify({ folders: ['/from-a-pipe'] }));
          closeSync(fd);
          return;
        } catch {
          // No reader yet (ENXIO).
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    })();
    await expect(list.finally(() => (listed = true))).resolves.toEqual([]);
    await feed;
  });

  it('keeps the list readable by the user alone', async () => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    await new RecentFolders(file).add('/a');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('ignores a file far larger than any list it writes', async () => {
    const dir = await folder();
    const file = join(dir, 'recent-folders.json');
    await writeFile(file, JSON.stringify({ folders: ['/a'], padding: 'x'.repeat(300_000) }));
    await expect(new RecentFolders(file).list()).resolves.toEqual([]);
  });

  it('never fails when the list cannot be written', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'a-file'), 'x');
    const recent = new RecentFolders(join(dir, 'a-file', 'recent-folders.json'));
    await expect(recent.add('/a')).resolves.toEqual(['/a']);
    await expect(recent.list()).resolves.toEqual([]);
  });

  it('offers only the folders that still exist', async () => {
    const dir = await folder();
    const kept = join(dir, 'kept');
    const gone = join(dir, 'gone');
    await mkdir(kept);
    await mkdir(gone);
    const recent = new RecentFolders(join(dir, 'recent-folders.json'));
    await recent.add(kept);
    await recent.add(gone);
    await rm(gone, { recursive: true });
    await expect(recent.existing()).resolves.toEqual([kept]);
  });
});
