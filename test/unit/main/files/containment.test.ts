import * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isFullPath,
  isWithin,
  nodeResolver,
  quotePath,
  realLocation,
  resolveInside,
  type PathResolver,
} from '../../../../main/core/files/containment.js';
import { deadline } from '../../../helpers/core-harness.js';

/**
 * `value`, on a later turn of the event loop, as the real filesystem answers. A stand-in that
 * answered at once would let a walk that never ends run on promises alone, which no timer can
 * interrupt: the test would freeze instead of failing at its deadline.
 */
function later<T>(value: T): Promise<T> {
  return new Promise((resolve) => setImmediate(() => resolve(value)));
}

/** A resolver over a fixed set of existing Windows paths (no symlinks), compared as Windows does. */
function windowsResolver(existing: string[]): PathResolver {
  const known = new Map(existing.map((p) => [path.win32.normalize(p).toLowerCase(), p]));
  return {
    realpath: (p) => later(known.get(path.win32.normalize(p).toLowerCase())),
    readlink: () => later(undefined),
  };
}

/**
 * The message of the refusal `promise` must end in, within a deadline. Any other failure (a
 * deadline that passed, say) fails the test as it is.
 */
async function refusedWith(promise: Promise<unknown>): Promise<string> {
  const error = await deadline(
    promise.then(
      () => undefined,
      (caught: unknown) => {
        if (caught instanceof acp.RequestError) {
          return caught;
        }
        throw caught;
      },
    ),
    'the refusal',
  );
  expect(error).toBeInstanceOf(acp.RequestError);
  expect((error as acp.RequestError).code).toBe(-32602);
  return (error as acp.RequestError).message;
}

describe('paths on Windows (the pure logic with path.win32)', () => {
  const root = 'C:\\work\\proj';
  const fs = windowsResolver([root, 'C:\\work', 'C:\\', 'D:\\', '\\\\server\\share\\']);

  it('allows a path inside the folder, whatever the case of its letters', async () => {
    await expect(
      deadline(
        resolveInside(root, 'C:\\work\\proj\\src\\a.ts', path.win32, fs),
        'where a.ts leads',
        5_000,
      ),
    ).resolves.toBe('C:\\work\\proj\\src\\a.ts');
    await expect(
      deadline(resolveInside(root, 'c:/WORK/proj/b.ts', path.win32, fs), 'where b.ts leads', 5_000),
    ).resolves.toBe('C:\\work\\proj\\b.ts');
  });

  it.each([
    ['another drive', 'D:\\work\\proj\\a.ts', 'outside'],
    ['a sibling folder whose name starts the same', 'C:\\work\\project2\\a.ts', 'outside'],
    ['`..` out of the folder', 'C:\\work\\proj\\..\\other\\a.ts', 'outside'],
    ['a UNC share', '\\\\server\\share\\a.ts', 'outside'],
    ['a path relative to the current drive', '\\work\\proj\\a.ts', 'not an absolute path'],
    ['a path relative to a drive’s folder', 'C:a.ts', 'not an absolute path'],
    ['a relative path', 'src\\a.ts', 'not an absolute path'],
  ])('refuses %s', async (_what, requested, reason) => {
    expect(await refusedWith(resolveInside(root, requested, path.win32, fs))).toContain(reason);
  });

  it('tells full paths from rooted and drive-relative ones', () => {
    expect(isFullPath('C:\\x', path.win32)).toBe(true);
    expect(isFullPath('\\\\server\\share\\x', path.win32)).toBe(true);
    expect(isFullPath('\\x', path.win32)).toBe(false);
    expect(isFullPath('C:x', path.win32)).toBe(false);
    expect(isWithin('C:\\a', 'C:\\a', path.win32)).toBe(true);
    expect(isWithin('C:\\a', 'C:\\a\\..b', path.win32)).toBe(true);
    expect(isWithin('C:\\a', 'C:\\a..b', path.win32)).toBe(false);
    expect(isWithin('C:\\a', 'D:\\a', path.win32)).toBe(false);
    // Only at the start: a drive or a share further in does not make a full path.
    expect(isFullPath('\\a\\C:\\x', path.win32)).toBe(false);
    expect(isFullPath('\\x\\\\server\\share', path.win32)).toBe(false);
    expect(isFullPath('\\\\server', path.win32)).toBe(false);
    expect(isFullPath('\\\\server\\\\share\\x', path.win32)).toBe(true);
    // The folder's parent is outside it.
    expect(isWithin('/a/b', '/a', path.posix)).toBe(false);
  });
});

describe('what a refusal quotes and where links stop (a resolver over a fixed tree)', () => {
  /** A resolver over existing POSIX folders and symlinks (name → target), no other files. */
  function treeResolver(folders: string[], links: Record<string, string>): PathResolver {
    return {
      realpath: (p) => later(folders.includes(path.posix.normalize(p)) ? p : undefined),
      readlink: (p) => later(links[path.posix.normalize(p)]),
    };
  }

  it('shows control characters as `?` and cuts a long path to 300 characters', () => {
    expect(quotePath('a\u0000b\u001fc\u007fd e\u00e9')).toBe('a?b?c?d e\u00e9');
    expect(quotePath('x'.repeat(300))).toBe('x'.repeat(300));
    expect(quotePath('x'.repeat(301))).toBe(`${'x'.repeat(299)}…`);
  });

  it('follows a chain of 40 symlinks, as Linux does, and refuses a 41st', async () => {
    /** `/root/l0` → `/root/l1` → … → `/root/l<count>`, a folder. */
    const chain = (count: number) =>
      treeResolver(
        ['/', '/root', `/root/l${count}`],
        Object.fromEntries(
          Array.from({ length: count }, (_, i) => [`/root/l${i}`, `/root/l${i + 1}`]),
        ),
      );
    await expect(
      deadline(
        resolveInside('/root', '/root/l0/x', path.posix, chain(40)),
        'the chain’s end',
        5_000,
      ),
    ).resolves.toBe('/root/l40/x');
    expect(await refusedWith(resolveInside('/root', '/root/l0/x', path.posix, chain(41)))).toBe(
      'Invalid params: /root/l0/x cannot be resolved (a symlink loop, or a missing drive)',
    );
  });

  it('names a missing session folder, and where a path outside leads when a link took it there', async () => {
    const fs = treeResolver(['/', '/root', '/elsewhere'], { '/root/out': '/elsewhere' });
    expect(await refusedWith(resolveInside('/gone', '/gone/a', path.posix, fs))).toBe(
      "Invalid params: /gone/a cannot be checked: the session's folder /gone is missing",
    );
    expect(await refusedWith(resolveInside('/root', '/root/out/a', path.posix, fs))).toBe(
      "Invalid params: /root/out/a is outside the session's folder /root (it leads to /elsewhere/a)",
    );
    expect(await refusedWith(resolveInside('/root', '/elsewhere//a', path.posix, fs))).toBe(
      "Invalid params: /elsewhere//a is outside the session's folder /root",
    );
    expect(await refusedWith(resolveInside('/root', '', path.posix, fs))).toBe(
      'Invalid params:  is not a valid path',
    );
    // The refusal names the path in its data too, as quoted.
    const error = await deadline(
      resolveInside('/root', '/elsewhere/\u0001', path.posix, fs).catch(
        (caught: unknown) => caught,
      ),
      'the refusal',
    );
    expect((error as acp.RequestError).data).toEqual({ path: '/elsewhere/?' });
  });

  it('finds no real location when not even the root exists', async () => {
    const nothing: PathResolver = {
      realpath: () => later(undefined),
      readlink: () => later(undefined),
    };
    await expect(
      deadline(realLocation('/a/b', path.posix, nothing), 'the walk to the root', 5_000),
    ).resolves.toBeUndefined();
  });
});

describe('paths on the real filesystem (POSIX)', () => {
  let base: string;
  let root: string;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-contain-')));
    root = path.join(base, 'root');
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    mkdirSync(path.join(base, 'outside'));
    writeFileSync(path.join(root, 'a', 'f.txt'), 'inside\n');
    writeFileSync(path.join(base, 'outside', 'secret.txt'), 'secret\n');
    symlinkSync('a', path.join(root, 'in'));
    symlinkSync('../outside', path.join(root, 'out'));
    symlinkSync('../outside/secret.txt', path.join(root, 'file-out'));
    symlinkSync('../outside/new.txt', path.join(root, 'dangle-out'));
    symlinkSync('a/new.txt', path.join(root, 'dangle-in'));
    symlinkSync('..', path.join(root, 'up'));
    symlinkSync('loop2', path.join(root, 'loop1'));
    symlinkSync('loop1', path.join(root, 'loop2'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const inside = (p: string) =>
    deadline(resolveInside(root, p, path, nodeResolver), `where ${p} leads`, 5_000);

  it.skipIf(process.platform === 'win32').each([
    ['a file symlink out of the folder', 'file-out'],
    ['a folder symlink out of the folder', 'out/secret.txt'],
    ['a new file under a folder symlink out of the folder', 'out/new.txt'],
    ['a dangling symlink to a new file outside', 'dangle-out'],
    ['`..` from a symlinked folder', 'in/../../outside/secret.txt'],
    ['a symlink to the parent', 'up/outside/secret.txt'],
    ['`..` through a missing folder into a symlink', 'missing/../out/x.txt'],
  ])('refuses %s', async (_what, relative) => {
    expect(await refusedWith(inside(path.join(root, relative)))).toContain('outside');
  });

  it.skipIf(process.platform === 'win32')('refuses other absolute paths and loops', async () => {
    expect(await refusedWith(inside('/etc/hostname'))).toContain('outside');
    expect(await refusedWith(inside(path.join(base, 'outside', 'x')))).toContain('outside');
    expect(await refusedWith(inside(`${root}-sibling/x`))).toContain('outside');
    expect(await refusedWith(inside('relative/x'))).toContain('not an absolute path');
    expect(await refusedWith(inside(path.join(root, 'loop1')))).toContain('cannot be resolved');
    expect(await refusedWith(inside(`${root}/a\0b`))).toContain('not a valid path');
  });

  it.skipIf(process.platform === 'win32')('resolves allowed paths to where they lead', async () => {
    await expect(inside(path.join(root, 'in', 'f.txt'))).resolves.toBe(
      path.join(root, 'a', 'f.txt'),
    );
    await expect(inside(path.join(root, 'dangle-in'))).resolves.toBe(
      path.join(root, 'a', 'new.txt'),
    );
    await expect(inside(path.join(root, 'a', 'b', '..', 'new', 'x.txt'))).resolves.toBe(
      path.join(root, 'a', 'new', 'x.txt'),
    );
    await expect(inside(root)).resolves.toBe(root);
  });

  /**
   * Where the kernel would take `p`, walked name by name with lstat and readlink (an algorithm
   * of its own, not the one under test); past a missing name the rest is taken by name.
   */
  function kernelWalk(p: string, links = 0): string | undefined {
    const queue = p.split('/');
    let current = '/';
    while (queue.length > 0) {
      const name = queue.shift()!;
      if (name === '' || name === '.') {
        continue;
      }
      if (name === '..') {
        current = path.dirname(current);
        continue;
      }
      const next = path.join(current, name);
      const stat = (() => {
        try {
          return lstatSync(next);
        } catch {
          return undefined;
        }
      })();
      if (stat?.isSymbolicLink()) {
        if (links >= 40) {
          return undefined;
        }
        links += 1;
        const target = readlinkSync(next);
        queue.unshift(...target.split('/'));
        if (target.startsWith('/')) {
          current = '/';
        }
        continue;
      }
      if (!stat || (!stat.isDirectory() && queue.some((rest) => rest !== '' && rest !== '.'))) {
        const rest = path.join(next, ...queue);
        return queue.includes('..') ? kernelWalk(rest, links) : rest;
      }
      current = next;
    }
    return current;
  }

  it.skipIf(process.platform === 'win32')(
    'allows any path built of names, `..` and symlinks iff its real location is inside',
    async () => {
      const names = ['a', 'b', 'f.txt', 'in', 'out', 'file-out', 'dangle-out', 'dangle-in', 'up'];
      const segment = fc.constantFrom(...names, '..', '.', 'missing', 'outside', 'root', 'new');
      await fc.assert(
        fc.asyncProperty(fc.array(segment, { maxLength: 7 }), async (segments) => {
          const requested = [root, ...segments].join('/');
          const expected = kernelWalk(requested);
          const allowed = expected !== undefined && isWithin(root, expected, path);
          const got = await inside(requested).then(
            (real) => real,
            () => undefined,
          );
          expect(got !== undefined).toBe(allowed);
          if (got !== undefined) {
            expect(got).toBe(expected);
          }
        }),
        { numRuns: 500 },
      );
    },
  );
});
