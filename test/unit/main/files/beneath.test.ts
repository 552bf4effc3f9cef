/** Opening a folder by its real path one name at a time, on both walks, and what reads and writes make of it. */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, open, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openFolder,
  platformWalk,
  WalkError,
  type Folder,
  type Walk,
} from '../../../../main/core/files/beneath.js';
import { CHANGED, readIn, readText } from '../../../../main/core/files/read.js';
import { writeTextFile } from '../../../../main/core/files/write.js';
import { requestFailure } from '../../../helpers/request-error.js';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-beneath-')));
  outside = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-beneath-outside-')));
  writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** The walks this platform can run: `paths` anywhere, `proc` where /proc is. */
const walks: Walk[] = process.platform === 'linux' ? ['proc', 'paths'] : ['paths'];

/** The code of the {@link WalkError} `promise` fails with. */
async function walkFailure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WalkError);
  const { code, message } = error as WalkError;
  expect(message).toBe(`the walk to a folder stopped (${code})`);
  return code;
}

/** Runs `use` on the folder `folder` opened on `walk`, closing it after. */
async function inFolder<T>(folder: string, walk: Walk, use: (opened: Folder) => Promise<T>) {
  const opened = await openFolder(folder, { walk });
  try {
    return await use(opened);
  } finally {
    await opened.close();
  }
}

it('walks through opened folders on Linux, by checked paths elsewhere', () => {
  expect(platformWalk).toBe(process.platform === 'linux' ? 'proc' : 'paths');
});

describe.each(walks)('openFolder, walking `%s`', (walk) => {
  it('opens a real folder, whose entries reach the names inside it', async () => {
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    writeFileSync(path.join(root, 'a', 'b', 'f.txt'), 'here\n');
    await inFolder(path.join(root, 'a', 'b'), walk, async (folder) => {
      expect(folder.path).toBe(path.join(root, 'a', 'b'));
      // Through the opened folder on Linux; by its path elsewhere.
      expect(folder.entry('f.txt')).toMatch(
        walk === 'proc' ? /^\/proc\/self\/fd\/\d+\/f\.txt$/ : /b[/\\]f\.txt$/,
      );
      expect(readFileSync(folder.entry('f.txt'), 'utf8')).toBe('here\n');
      expect(await folder.isAt()).toBe(true);
      const file = await open(folder.entry('f.txt'), 'r');
      try {
        expect(await folder.holds(file, 'f.txt')).toBe(true);
        // Opened at one name, asked about another: not the file there.
        writeFileSync(path.join(root, 'a', 'b', 'g.txt'), 'other\n');
        expect(await folder.holds(file, 'g.txt')).toBe(false);
        expect(await folder.holds(file, 'missing.txt')).toBe(false);
      } finally {
        await file.close();
      }
    });
  });

  it('refuses a symlink on the way, even one that points inside, and names what else stops it', async () => {
    mkdirSync(path.join(root, 'real'));
    symlinkSync(path.join(root, 'real'), path.join(root, 'inside-link'));
    symlinkSync(outside, path.join(root, 'outside-link'));
    writeFileSync(path.join(root, 'file.txt'), 'x');
    // A real path has no symlink left in it: one met now was put there since it was resolved.
    expect(await walkFailure(openFolder(path.join(root, 'inside-link'), { walk }))).toBe('ELOOP');
    expect(await walkFailure(openFolder(path.join(root, 'outside-link', 'x'), { walk }))).toBe(
      'ELOOP',
    );
    expect(await walkFailure(openFolder(path.join(root, 'file.txt', 'x'), { walk }))).toBe(
      'ENOTDIR',
    );
    expect(await walkFailure(openFolder(path.join(root, 'none', 'x'), { walk }))).toBe('ENOENT');
    expect(await walkFailure(openFolder(path.join(root, 'x'.repeat(300)), { walk }))).toBe(
      'ENAMETOOLONG',
    );
  });

  it('creates missing folders strictly inside the folder it is given, and no others', async () => {
    const deep = path.join(root, 'n', 'm');
    expect(await walkFailure(openFolder(deep, { walk }))).toBe('ENOENT');
    expect(readdirSync(root)).toEqual([]);
    const folder = await openFolder(deep, { createInside: root, walk });
    await folder.close();
    expect(readdirSync(path.join(root, 'n'))).toEqual(['m']);
    // Not the given folder itself, nor beside it.
    const gone = path.join(root, 'gone');
    expect(await walkFailure(openFolder(path.join(gone, 'x'), { createInside: gone, walk }))).toBe(
      'ENOENT',
    );
    expect(
      await walkFailure(openFolder(path.join(outside, 'new'), { createInside: root, walk })),
    ).toBe('ENOENT');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readdirSync(root)).toEqual(['n']);
    // Never through a symlink: the name is checked, not followed, after it is made.
    symlinkSync(outside, path.join(root, 'link'));
    expect(
      await walkFailure(openFolder(path.join(root, 'link', 'new'), { createInside: root, walk })),
    ).toBe('ELOOP');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it.runIf(process.platform === 'linux' && existsSync('/sys/kernel'))(
    'names why a missing folder cannot be made',
    async () => {
      // sysfs takes no new folders, not even from root.
      const code = await walkFailure(
        openFolder('/sys/airlock-cannot-be-made/x', { createInside: '/sys', walk }),
      );
      expect(['EPERM', 'EACCES', 'EROFS']).toContain(code);
    },
  );

  it('knows when the folder it opened has moved', async () => {
    mkdirSync(path.join(root, 'a'));
    await inFolder(path.join(root, 'a'), walk, async (folder) => {
      renameSync(path.join(root, 'a'), path.join(root, 'moved'));
      expect(await folder.isAt()).toBe(false);
    });
  });
});

describe.runIf(process.platform === 'linux')('openFolder, walking `proc`', () => {
  it('keeps reaching the folder it opened when a folder above it is swapped for a symlink', async () => {
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    await inFolder(path.join(root, 'a', 'b'), 'proc', async (folder) => {
      renameSync(path.join(root, 'a'), path.join(root, 'was-a'));
      mkdirSync(path.join(outside, 'b'));
      symlinkSync(outside, path.join(root, 'a'));
      writeFileSync(folder.entry('w.txt'), 'written\n');
      expect(readdirSync(path.join(root, 'was-a', 'b'))).toEqual(['w.txt']);
      expect(readdirSync(path.join(outside, 'b'))).toEqual([]);
    });
  });
});

describe.each(walks)('reads and writes, walking `%s`', (walk) => {
  it('reads and writes through folders that are real, and refuses one swapped for a symlink', async () => {
    mkdirSync(path.join(root, 'sub'));
    const file = path.join(root, 'sub', 'f.txt');
    expect(await writeTextFile(file, root, 'one\n', file, walk)).toEqual({ before: null });
    expect(await readText(file, file, walk)).toEqual({ kind: 'text', text: 'one\n' });
    renameSync(path.join(root, 'sub'), path.join(root, 'was-sub'));
    writeFileSync(path.join(outside, 'f.txt'), 'outside\n');
    symlinkSync(outside, path.join(root, 'sub'));
    const read = await requestFailure(readText(file, file, walk));
    expect(read.message).toBe(`Invalid params: ${file} ${CHANGED}`);
    const written = await requestFailure(writeTextFile(file, root, 'two\n', file, walk));
    expect(written.message).toBe(`Invalid params: ${file} ${CHANGED}`);
    expect(readFileSync(path.join(outside, 'f.txt'), 'utf8')).toBe('outside\n');
    expect(readdirSync(outside).sort()).toEqual(['f.txt', 'secret.txt']);
    // A file where a folder should be: missing for a read, named for a write.
    writeFileSync(path.join(root, 'plain'), 'x');
    const under = path.join(root, 'plain', 'f.txt');
    expect(await readText(under, under, walk)).toEqual({ kind: 'missing' });
    expect(await readText(path.join(root, 'none', 'f.txt'), 'f', walk)).toEqual({
      kind: 'missing',
    });
    expect((await requestFailure(writeTextFile(under, root, 'x', under, walk))).message).toContain(
      'its folder cannot be created (ENOTDIR)',
    );
    const long = path.join(root, 'x'.repeat(300), 'f.txt');
    expect((await requestFailure(readText(long, 'long', walk))).message).toBe(
      'Invalid params: long cannot be opened (ENAMETOOLONG)',
    );
  });

  it('writes only where the opened folder really is: inside the session folder, at its path', async () => {
    const beside = path.join(outside, 'a.txt');
    expect((await requestFailure(writeTextFile(beside, root, 'x', 'a', walk))).message).toBe(
      "Invalid params: a is no longer inside the session's folder",
    );
    // A path whose text is not where the folder is (a `..` left in it) is not written either.
    mkdirSync(path.join(root, 'sub'));
    const odd = `${path.join(root, 'sub')}${path.sep}..${path.sep}sub${path.sep}a.txt`;
    expect((await requestFailure(writeTextFile(odd, root, 'x', 'a', walk))).message).toBe(
      "Invalid params: a is no longer inside the session's folder",
    );
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readdirSync(path.join(root, 'sub'))).toEqual([]);
  });
});

describe('readIn', () => {
  it('refuses a file that is not the one at the folder’s path, before reading it', async () => {
    writeFileSync(path.join(root, 'f.txt'), 'here\n');
    const elsewhere: Folder = {
      path: root,
      entry: (name) => path.join(root, name),
      isAt: async () => true,
      holds: async () => false,
      close: async () => undefined,
    };
    const error = await requestFailure(readIn(elsewhere, 'f.txt', 'f.txt'));
    expect(error.message).toBe(`Invalid params: f.txt ${CHANGED}`);
  });
});

describe.runIf(process.platform === 'linux')('file descriptors', () => {
  it('are all closed after reads, writes and refusals, on both walks', async () => {
    mkdirSync(path.join(root, 'sub'));
    writeFileSync(path.join(root, 'sub', 'f.txt'), 'text\n');
    writeFileSync(path.join(root, 'plain'), 'x');
    symlinkSync(outside, path.join(root, 'link'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'sub', 'leaf'));
    const fd = () => readdirSync('/proc/self/fd').length;
    const each = async (walk: Walk, i: number) => {
      const at = (...names: string[]) => path.join(root, ...names);
      const attempts: Promise<unknown>[] = [
        readText(at('sub', 'f.txt'), 'f', walk),
        readText(at('sub'), 'sub', walk),
        readText(at('sub', 'missing'), 'm', walk),
        readText(at('none', 'f.txt'), 'n', walk),
        readText(at('link', 'secret.txt'), 'l', walk),
        readText(at('sub', 'leaf'), 'leaf', walk),
        readText(at('plain', 'f.txt'), 'p', walk),
        writeTextFile(at('sub', 'f.txt'), root, `${i}\n`, 'f', walk),
        writeTextFile(at('new', `${i}`, 'f.txt'), root, 'x', 'n', walk),
        writeTextFile(at('link', 'f.txt'), root, 'x', 'l', walk),
        writeTextFile(at('sub', 'leaf'), root, 'x', 'leaf', walk),
        writeTextFile(at('plain', 'f.txt'), root, 'x', 'p', walk),
        writeTextFile(at('sub'), root, 'x', 'sub', walk),
      ];
      await Promise.allSettled(attempts);
    };
    await each('proc', -1);
    const before = fd();
    for (let i = 0; i < 50; i++) {
      for (const walk of walks) {
        await each(walk, i);
      }
    }
    expect(fd()).toBe(before);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });
});
