/**
 * Opening a folder by its real path so that the open itself cannot be led anywhere else.
 *
 * containment.ts resolves an agent's path through its symlinks and checks where it leads; this
 * module makes the open that follows reach that very place. Between the two, a folder on the
 * path can be swapped for a symlink to somewhere outside, and an open of the whole path would
 * follow it (`O_NOFOLLOW` guards only a path's last name). So a real path, which has no symlink
 * anywhere, is opened one name at a time, none of them followed: a symlink met on the way was
 * put there since the check, and the open is refused.
 *
 * Node has no `openat`. On Linux a path through `/proc/self/fd/<fd>/` is looked up from the
 * folder that descriptor holds, whatever happens to the names above it meanwhile, and
 * `readlink('/proc/self/fd/<fd>')` names where an open really arrived ({@link Walk} `proc`).
 * Elsewhere each name is checked with `lstat` and the result compared by device and inode
 * (`paths`): a narrower window than one open of the whole path, but not none (see the README).
 */
import { constants, fstat } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isWithin } from './containment.js';

/** How a folder is walked to: through opened folders (Linux), or by checked paths. */
export type Walk = 'proc' | 'paths';

/** The walk this platform supports. */
export const platformWalk: Walk = process.platform === 'linux' ? 'proc' : 'paths';

/**
 * Linux's `O_PATH` (the same on every architecture Node runs on; Node does not export it): a
 * handle to a folder that only names it, so a folder the user may search but not list (mode
 * 0711) is walked through as `realpath` walks through it.
 */
const O_PATH = 0o10000000;

/** Each folder on the way: never a symlink followed, only a folder accepted. */
const STEP = O_PATH | constants.O_DIRECTORY | (constants.O_NOFOLLOW ?? 0);

/**
 * Why a walk stopped, as an errno code: `ELOOP` when a name on the way is a symlink, `ENOTDIR`
 * when it is something other than a folder, `ENOENT` when it is missing, or the code of
 * whatever else failed.
 */
export class WalkError extends Error {
  constructor(readonly code: string) {
    super(`the walk to a folder stopped (${code})`);
  }
}

/** A folder opened by {@link openFolder}, and the way to reach the names inside it. */
export type Folder = {
  /** The real path it was opened as. */
  readonly path: string;
  /** The path that reaches `name` inside this very folder (a single name, not a path). */
  entry(name: string): string;
  /** Whether the folder is still at {@link Folder.path}: not moved, no symlink on the way. */
  isAt(): Promise<boolean>;
  /** Whether `handle`, opened at {@link Folder.entry} of `name`, is the file at `path/name`. */
  holds(handle: FileHandle, name: string): Promise<boolean>;
  /** Lets the folder go; call it once, on every path. */
  close(): Promise<void>;
};

/** What {@link openFolder} may do besides opening. */
export type OpenFolderOptions = {
  /** Creates the missing folders that lie strictly inside this real folder. */
  createInside?: string;
  /** How to walk; the platform's own unless a test picks one. */
  walk?: Walk;
};

/**
 * Opens the folder at the real path `folder` one name at a time from the filesystem's root,
 * following no symlink. Throws a {@link WalkError} when the way is not all folders.
 */
export async function openFolder(folder: string, options: OpenFolderOptions = {}): Promise<Folder> {
  // From the filesystem's root, not the session's folder: a real path has no symlink above that
  // folder either, so the walk needs nothing but the path, and the exact place it arrives at is
  // compared after (which is inside the folder, as the path was checked to be).
  const top = path.parse(folder).root;
  const names = path.relative(top, folder).split(path.sep).filter(Boolean);
  const create = (at: string): boolean =>
    options.createInside !== undefined &&
    at !== options.createInside &&
    isWithin(options.createInside, at, path);
  return (options.walk ?? platformWalk) === 'proc'
    ? openThroughProc(folder, top, names, create)
    : openByPaths(folder, top, names, create);
}

async function openThroughProc(
  folder: string,
  top: string,
  names: string[],
  create: (at: string) => boolean,
): Promise<Folder> {
  let handle = await open(top, STEP).catch(failed);
  let at = top;
  try {
    for (const name of names) {
      at = path.join(at, name);
      const next = await step(`/proc/self/fd/${handle.fd}/${name}`, create(at), openStep);
      await handle.close();
      handle = next;
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  const opened = handle;
  const where = (fd: number) => readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
  return {
    path: folder,
    entry: (name) => `/proc/self/fd/${opened.fd}/${name}`,
    isAt: async () => (await where(opened.fd)) === folder,
    holds: async (file, name) => (await where(file.fd)) === path.join(folder, name),
    close: () => opened.close(),
  };
}

async function openByPaths(
  folder: string,
  top: string,
  names: string[],
  create: (at: string) => boolean,
): Promise<Folder> {
  let at = top;
  for (const name of names) {
    at = path.join(at, name);
    await step(at, create(at), checkStep);
  }
  const isAt = () =>
    realpath(folder).then(
      (real) => real === folder,
      () => false,
    );
  return {
    path: folder,
    entry: (name) => path.join(folder, name),
    isAt,
    holds: async (file, name) => {
      // The opened file and the one at the checked path now: the same only if no name moved.
      const [opened, there] = await Promise.all([
        fstatOf(file.fd),
        lstat(path.join(folder, name), { bigint: true }).catch(() => undefined),
      ]);
      return there?.dev === opened.dev && there.ino === opened.ino && (await isAt());
    },
    close: async () => undefined,
  };
}

/**
 * One name of the walk at `entry`: made first when `create` and missing (never through a
 * symlink: `mkdir` does not follow one at its last name), then `reach`ed.
 */
async function step<T>(entry: string, create: boolean, reach: (entry: string) => Promise<T>) {
  try {
    return await reach(entry);
  } catch (error) {
    // `reach` throws only a WalkError.
    if ((error as WalkError).code !== 'ENOENT' || !create) {
      throw error;
    }
  }
  await mkdir(entry).catch((error: NodeJS.ErrnoException) => {
    // Made meanwhile by someone else: what it is now is checked by `reach`.
    if (error.code !== 'EEXIST') {
      failed(error);
    }
  });
  return reach(entry);
}

async function openStep(entry: string): Promise<FileHandle> {
  try {
    return await open(entry, STEP);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      // `O_DIRECTORY` with `O_NOFOLLOW` fails the same way for a symlink and for a file; which
      // one it was only chooses the message, as either is refused. A folder there now was a
      // symlink a moment ago: the name is being swapped.
      const stat = await lstat(entry).catch(failed);
      throw new WalkError(stat.isSymbolicLink() || stat.isDirectory() ? 'ELOOP' : 'ENOTDIR');
    }
    return failed(error);
  }
}

async function checkStep(entry: string): Promise<void> {
  const stat = await lstat(entry).catch(failed);
  if (stat.isSymbolicLink()) {
    throw new WalkError('ELOOP');
  }
  if (!stat.isDirectory()) {
    throw new WalkError('ENOTDIR');
  }
}

const fstatOf = (fd: number) => promisify(fstat)(fd, { bigint: true });

function failed(error: unknown): never {
  throw new WalkError((error as NodeJS.ErrnoException).code ?? 'EIO');
}
