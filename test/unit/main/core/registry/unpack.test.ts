import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  stat,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { archiveKind, unpack } from '../../../../../main/core/registry/install/unpack.js';
import { tarGzOf, zipOf, type TarEntry } from '../../../../helpers/archives.js';
import { tempFolder } from '../../../../helpers/temp-folder.js';

const base = tempFolder('airlock-unpack-');

/** A fresh `<case>/outer/inner/target` to unpack into, and the archive's file beside `<case>`. */
async function place(archive: Buffer, kind: 'tar.gz' | 'zip') {
  const folder = await mkdtemp(join(base, 'case-'));
  const outer = join(folder, 'outer');
  const target = join(outer, 'inner', 'target');
  await mkdir(target, { recursive: true });
  const file = join(folder, `archive.${kind}`);
  await writeFile(file, archive);
  return { folder, outer, target, file };
}

/** Whether `outer` holds nothing but `inner/target` and what is inside it. */
async function onlyTarget(outer: string): Promise<boolean> {
  return (await tree(outer)).every((path) => path === 'inner' || path.startsWith('inner/target'));
}

/** Every path under `folder`, relative, sorted. */
async function tree(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true })).map(String).sort();
}

const OUTSIDE = /has an entry that would be written outside its folder; nothing was installed/;

describe('archiveKind', () => {
  it('names the format by the address path suffix, not its query', () => {
    expect(archiveKind('https://x.test/a/agent-1.0.tar.gz?sig=zip')).toBe('tar.gz');
    expect(archiveKind('https://x.test/a/agent.TGZ')).toBe('tar.gz');
    expect(archiveKind('https://x.test/a/agent.zip')).toBe('zip');
    expect(archiveKind('https://x.test/a/agent.tar.xz')).toBe(undefined);
  });
});

describe('unpack a .tar.gz', () => {
  it('writes files and folders, keeping the executable bit and nothing else of the mode', async () => {
    const archive = await tarGzOf([
      { name: 'bin/', type: 'directory', mode: 0o700 },
      { name: 'bin/agent', mode: 0o4755, text: 'run' },
      { name: './README', mode: 0o666, text: 'read me' },
      { name: 'lib/agent.so', type: 'symlink', linkname: '../README' },
      { name: 'lib/copy', type: 'link', linkname: 'README' },
    ]);
    const { target, file } = await place(archive, 'tar.gz');
    await unpack(file, 'tar.gz', target, 'Agent');
    expect(await tree(target)).toEqual([
      'README',
      'bin',
      'bin/agent',
      'lib',
      'lib/agent.so',
      'lib/copy',
    ]);
    expect((await stat(join(target, 'bin/agent'))).mode & 0o7777).toBe(0o755);
    expect((await stat(join(target, 'README'))).mode & 0o7777).toBe(0o644);
    expect(await readlink(join(target, 'lib/agent.so'))).toBe('../README');
    expect(await readFile(join(target, 'lib/copy'), 'utf8')).toBe('read me');
  });

  it.each<[string, TarEntry]>([
    ['a name climbing out with ..', { name: 'bin/../../evil', text: 'x' }],
    ['an absolute name', { name: '/tmp/evil', text: 'x' }],
    ['a Windows name with backslashes', { name: 'bin\\..\\..\\evil', text: 'x' }],
    ['a drive letter', { name: 'C:\\evil', text: 'x' }],
    ['a symlink pointing out', { name: 'bin/out', type: 'symlink', linkname: '../../x' }],
    ['an absolute symlink', { name: 'out', type: 'symlink', linkname: '/etc/passwd' }],
    ['a hardlink to a file outside', { name: 'copy', type: 'link', linkname: '../../secret' }],
    ['a device', { name: 'tty', type: 'character-device', devmajor: 4, devminor: 1 }],
    ['a fifo', { name: 'pipe', type: 'fifo' }],
  ])('refuses %s, and the archive with it', async (_case, entry) => {
    const archive = await tarGzOf([{ name: 'first', text: 'kept?' }, entry]);
    const { outer, file } = await place(archive, 'tar.gz');
    const unpacking = unpack(file, 'tar.gz', join(outer, 'inner', 'target'), 'Agent');
    await expect(unpacking).rejects.toThrow(OUTSIDE);
    // Nothing beside the target folder; the installer removes the folder itself.
    expect(await onlyTarget(outer)).toBe(true);
    expect(await readFile(join(outer, 'inner/target/first'), 'utf8')).toBe('kept?');
  });

  it('refuses a file written through a link, even one pointing inside', async () => {
    const archive = await tarGzOf([
      { name: 'sub/', type: 'directory' },
      { name: 'link', type: 'symlink', linkname: 'sub' },
      { name: 'link/file', text: 'x' },
    ]);
    const { target, file } = await place(archive, 'tar.gz');
    await expect(unpack(file, 'tar.gz', target, 'Agent')).rejects.toThrow(OUTSIDE);
  });

  it('refuses a chain of links that leads out though each one points inside', async () => {
    // a/b/up → ../.. is the target itself; top → a/b/up/.. then is the target's parent.
    const archive = await tarGzOf([
      { name: 'a/b/', type: 'directory' },
      { name: 'a/b/up', type: 'symlink', linkname: '../..' },
      { name: 'top', type: 'symlink', linkname: 'a/b/up/..' },
    ]);
    const { target, file } = await place(archive, 'tar.gz');
    await expect(unpack(file, 'tar.gz', target, 'Agent')).rejects.toThrow(OUTSIDE);
  });

  it('replaces a file listed twice, and a link listed before a file of its name is not followed', async () => {
    const { folder, target, file } = await place(
      await tarGzOf([
        { name: 'x', type: 'symlink', linkname: 'y' },
        { name: 'y', text: 'inside' },
        { name: 'x', text: 'second' },
      ]),
      'tar.gz',
    );
    await unpack(file, 'tar.gz', target, 'Agent');
    expect((await lstat(join(target, 'x'))).isFile()).toBe(true);
    expect(await readFile(join(target, 'x'), 'utf8')).toBe('second');
    expect(await readFile(join(target, 'y'), 'utf8')).toBe('inside');
    expect(await readdir(folder)).toEqual(['archive.tar.gz', 'outer']);
  });

  it('refuses an archive that unpacks to more bytes or entries than allowed', async () => {
    const big = await tarGzOf([{ name: 'zeros', text: '0'.repeat(100_000) }]);
    const one = await place(big, 'tar.gz');
    await expect(
      unpack(one.file, 'tar.gz', one.target, 'Agent', { maxBytes: 50_000 }),
    ).rejects.toThrow(
      'The archive of Agent unpacks to more than Airlock allows; nothing was installed.',
    );
    const many = await place(
      await tarGzOf(Array.from({ length: 20 }, (_, index) => ({ name: `f${index}`, text: '' }))),
      'tar.gz',
    );
    await expect(
      unpack(many.file, 'tar.gz', many.target, 'Agent', { maxEntries: 10 }),
    ).rejects.toThrow(/unpacks to more than Airlock allows/);
  });

  it('says a file that is not a gzip archive is not readable', async () => {
    const { target, file } = await place(Buffer.from('PK\u0003\u0004 not gzip'), 'tar.gz');
    await expect(unpack(file, 'tar.gz', target, 'Agent')).rejects.toThrow(
      'The download of Agent is not a readable .tar.gz archive; nothing was installed.',
    );
  });

  it('says a file that is not a zip archive is not readable, as a .zip', async () => {
    const { target, file } = await place(Buffer.from([0x1f, 0x8b, 0, 0, 0]), 'zip');
    await expect(unpack(file, 'zip', target, 'Agent')).rejects.toThrow(
      'The download of Agent is not a readable .zip archive; nothing was installed.',
    );
  });

  it('never writes outside the target folder, whatever the entry names', async () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', '', 'C:', '\\', '..\\..', '/', 'a\\..');
    const name = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
    await fc.assert(
      fc.asyncProperty(fc.array(name, { minLength: 1, maxLength: 4 }), async (names) => {
        const archive = await tarGzOf(names.map((entry) => ({ name: entry, text: 'x' })));
        const { folder, outer, target, file } = await place(archive, 'tar.gz');
        await unpack(file, 'tar.gz', target, 'Agent').catch(() => undefined);
        expect(await readdir(folder)).toEqual(['archive.tar.gz', 'outer']);
        expect(await onlyTarget(outer)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});

describe('unpack a .zip', () => {
  it('writes files, folders and links, keeping the executable bit', async () => {
    const archive = await zipOf([
      { name: 'bin/', directory: true },
      { name: 'bin/agent', text: 'run', mode: 0o100755 },
      { name: 'notes.txt', text: 'notes' },
      { name: 'bin/notes', text: '../notes.txt', mode: 0o120777 },
    ]);
    const { target, file } = await place(archive, 'zip');
    await unpack(file, 'zip', target, 'Agent');
    expect(await tree(target)).toEqual(['bin', 'bin/agent', 'bin/notes', 'notes.txt']);
    expect((await stat(join(target, 'bin/agent'))).mode & 0o111).toBe(0o111);
    expect((await stat(join(target, 'notes.txt'))).mode & 0o111).toBe(0);
    expect(await readFile(join(target, 'bin/notes'), 'utf8')).toBe('notes');
  });

  it.each([
    ['a name climbing out with ..', [{ name: 'xx/evil', text: 'x' }], { 'xx/evil': '../evil' }],
    ['an absolute name', [{ name: 'tmp/evil', text: 'x' }], { 'tmp/evil': '/mp/evil' }],
    ['a symlink pointing out', [{ name: 'out', text: '../../../x', mode: 0o120777 }], {}],
    ['a fifo', [{ name: 'pipe', text: '', mode: 0o010644 }], {}],
  ])('refuses %s', async (_case, entries, rename: Record<string, string>) => {
    const { outer, target, file } = await place(await zipOf(entries, rename), 'zip');
    await expect(unpack(file, 'zip', target, 'Agent')).rejects.toThrow(OUTSIDE);
    expect(await onlyTarget(outer)).toBe(true);
  });
});
