import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RECENT_FOLDERS } from '../../../preload/contract.js';
import { checkWorkingFolder, RecentFolders } from '../../../main/core/recent-folders.js';

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
