/**
 * Where an agent's file path really leads, and whether that is inside the session's folder.
 *
 * The logic is pure: it takes the path flavour (`path.posix` or `path.win32`) and a small view
 * of the filesystem, so the Windows rules (drive letters, UNC shares, case) are tested on any
 * platform. Symlinks are resolved the way the kernel would follow them, including a symlink that
 * points at a file that does not exist yet (writing through it would create that file), and the
 * caller reads or writes the resolved real path, never the path it was given: what was checked
 * is what is used.
 */
import { readlink, realpath } from 'node:fs/promises';
import type { PlatformPath } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';

/** The real filesystem, for {@link resolveInside}. */
export const nodeResolver: PathResolver = {
  realpath: (path) => realpath(path).catch(() => undefined),
  readlink: (path) => readlink(path).catch(() => undefined),
};

/** The filesystem as containment sees it; both answer `undefined` where the kernel would fail. */
export type PathResolver = {
  /** The canonical path of an existing file or folder (all symlinks and `..` resolved). */
  realpath(path: string): Promise<string | undefined>;
  /** The target of a symlink; `undefined` when `path` is not one. */
  readlink(path: string): Promise<string | undefined>;
};

/** How many symlinks a path may pass through before it is refused, as Linux's ELOOP limit. */
const MAX_LINKS = 40;

/** The longest path quoted back in an error. */
const MAX_QUOTED = 300;

/** A path as an error quotes it: shortened, with control characters shown as `?`. */
export function quotePath(path: string): string {
  const clean = path.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > MAX_QUOTED ? `${clean.slice(0, MAX_QUOTED - 1)}…` : clean;
}

/** A refusal of a path, as the JSON-RPC error the agent gets. */
export function refusal(path: string, reason: string): acp.RequestError {
  return acp.RequestError.invalidParams({ path: quotePath(path) }, `${quotePath(path)} ${reason}`);
}

/**
 * Whether `path` is absolute in the sense the protocol means: a full path from a root. On
 * Windows that is a drive letter and a separator (`C:\x`) or a UNC share (`\\server\share\x`);
 * `\x` (relative to the current drive) and `C:x` (relative to that drive's folder) are not.
 */
export function isFullPath(path: string, api: PlatformPath): boolean {
  if (!api.isAbsolute(path)) {
    return false;
  }
  if (api.sep === '\\') {
    return /^[A-Za-z]:[\\/]/.test(path) || /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+/.test(path);
  }
  return true;
}

/** Whether `target` is `root` or lies under it; both must be canonical paths of one flavour. */
export function isWithin(root: string, target: string, api: PlatformPath): boolean {
  // `relative` compares case-insensitively on Windows, and across drives returns `target` itself.
  const rel = api.relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${api.sep}`) && !api.isAbsolute(rel));
}

/**
 * The real path `path` leads to: the canonical path of its deepest existing ancestor, with the
 * missing rest appended (a `..` in that rest steps back by name, as nothing is there to
 * follow). A dangling symlink is followed to where it points, since writing through
 * it would create the file there. `undefined` when even the root does not exist, or links loop.
 */
export async function realLocation(
  path: string,
  api: PlatformPath,
  fs: PathResolver,
  links = 0,
): Promise<string | undefined> {
  let existing = path;
  const missing: string[] = [];
  for (;;) {
    const real = await fs.realpath(existing);
    if (real !== undefined) {
      if (missing.some((name) => name === '..' || name === '.')) {
        // `missing/../x`: joining would drop the `..` by text alone, and `x` could be a
        // symlink; resolve the joined path again (its missing part is now plain names).
        return realLocation(api.join(real, ...missing), api, fs, links);
      }
      return api.join(real, ...missing);
    }
    const target = await fs.readlink(existing);
    if (target !== undefined) {
      if (links >= MAX_LINKS) {
        return undefined;
      }
      const followed = api.resolve(api.dirname(existing), target);
      return realLocation(api.join(followed, ...missing), api, fs, links + 1);
    }
    const parent = api.dirname(existing);
    if (parent === existing) {
      return undefined;
    }
    missing.unshift(api.basename(existing));
    existing = parent;
  }
}

/**
 * The real path an agent's `path` leads to, if it is inside the folder `root`; otherwise throws
 * the JSON-RPC error the agent gets (`Invalid params`, naming the path and why).
 */
export async function resolveInside(
  root: string,
  path: string,
  api: PlatformPath,
  fs: PathResolver,
): Promise<string> {
  if (path.length === 0 || path.includes('\0')) {
    throw refusal(path, 'is not a valid path');
  }
  if (!isFullPath(path, api)) {
    throw refusal(path, 'is not an absolute path; the protocol requires one');
  }
  const realRoot = await fs.realpath(root);
  if (realRoot === undefined) {
    throw refusal(path, `cannot be checked: the session's folder ${quotePath(root)} is missing`);
  }
  const real = await realLocation(path, api, fs);
  if (real === undefined) {
    throw refusal(path, 'cannot be resolved (a symlink loop, or a missing drive)');
  }
  if (!isWithin(realRoot, real, api)) {
    const where = real === api.normalize(path) ? '' : ` (it leads to ${quotePath(real)})`;
    throw refusal(path, `is outside the session's folder ${quotePath(realRoot)}${where}`);
  }
  return real;
}
