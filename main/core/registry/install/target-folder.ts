/**
 * The folder an archive is unpacked into, and the only code that writes there: every entry's
 * path is checked to stay inside it, nothing is written through a link, and links must point
 * inside.
 */
import { createWriteStream } from 'node:fs';
import { chmod, link, lstat, mkdir, realpath, symlink, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Transform, pipeline as pipe, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UserFacingError } from '../../errors.js';
import { cancelled } from './download.js';

/** Writes one file's bytes to `file`, which does not exist yet. */
export type FileWriter = (file: string, data: Readable, mode: number) => Promise<void>;

/** The writer used outside tests: a new file, never one that exists (so never through a link). */
export const defaultWrite: FileWriter = (file, data, mode) =>
  pipeline(data, createWriteStream(file, { flags: 'wx', mode }));

/** An entry that would reach outside the folder; `message` names it, for "Details". */
export class NotSafe extends Error {}

/** A pass-through that fails with `tooBig()` once more than `limit` bytes have passed. */
export function meter(
  limit: number,
  tooBig: () => Error,
  onBytes?: (bytes: number) => void,
): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      onBytes?.(chunk.length);
      if (seen > limit) {
        done(tooBig());
      } else {
        done(null, chunk);
      }
    },
  });
}

/** `data`, failing with `tooBig()` once more than `limit` bytes have passed. */
export function counted(
  data: Readable,
  limit: number,
  tooBig: () => Error,
  onBytes?: (bytes: number) => void,
): Readable {
  return pipe(data, meter(limit, tooBig, onBytes), () => undefined);
}

/**
 * The path segments of an archive entry's name, or undefined for the folder itself. Throws
 * {@link NotSafe} for a name that is absolute, names a drive, or climbs out with `..`.
 */
export function entrySegments(name: string): string[] | undefined {
  const shown = JSON.stringify(name.slice(0, 200));
  if (name.includes('\0')) {
    throw new NotSafe(`${shown} has a NUL character`);
  }
  // An archive made on Windows may separate with backslashes: they count as separators here.
  const slashed = name.replaceAll('\\', '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    throw new NotSafe(`${shown} is an absolute path`);
  }
  const segments = slashed.split('/').filter((part) => part !== '' && part !== '.');
  if (segments.includes('..')) {
    throw new NotSafe(`${shown} climbs out with ..`);
  }
  return segments.length === 0 ? undefined : segments;
}

/** Whether `path` is `root` or inside it. */
export function isInside(root: string, path: string): boolean {
  const way = relative(root, path);
  return way === '' || (!way.startsWith(`..${sep}`) && way !== '..' && !isAbsolute(way));
}

/** The limits and hooks of one unpacking. */
export type TargetOptions = {
  name: string;
  write: FileWriter;
  maxBytes: number;
  maxEntries: number;
  signal?: AbortSignal;
};

/** An empty folder being filled from an archive. */
export class TargetFolder {
  private entries = 0;
  private bytesLeft: number;
  /** The links made so far, by path, with their targets. */
  private readonly links = new Map<string, string>();

  constructor(
    readonly root: string,
    private readonly options: TargetOptions,
  ) {
    this.bytesLeft = options.maxBytes;
  }

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  get maxEntries(): number {
    return this.options.maxEntries;
  }

  /** The error of an archive that unpacks to more than allowed. */
  tooBig(): UserFacingError {
    return new UserFacingError(
      `The archive of ${this.options.name} unpacks to more than Airlock allows; nothing was installed.`,
    );
  }

  /** Writes a file entry; keeps the executable bit of `mode` only. */
  async file(name: string, data: Readable, mode: number): Promise<void> {
    const path = await this.placeFor(name);
    if (path === undefined) {
      data.resume();
      return;
    }
    const executable = (mode & 0o111) !== 0;
    const metered = counted(
      data,
      this.bytesLeft,
      () => this.tooBig(),
      (bytes) => (this.bytesLeft -= bytes),
    );
    await this.options.write(path, metered, executable ? 0o755 : 0o644);
    // The process's umask may have taken bits away; the executable bit is what runs the agent.
    await chmod(path, executable ? 0o755 : 0o644);
  }

  /** Makes a directory entry (and its parents). */
  async directory(name: string): Promise<void> {
    this.count();
    const segments = entrySegments(name);
    if (segments !== undefined) {
      await this.realDirectories(segments, true);
    }
  }

  /** Makes a symbolic link, whose target must stay inside the folder. */
  async symlink(name: string, target: string): Promise<void> {
    const path = await this.placeFor(name);
    if (path === undefined) {
      throw new NotSafe(`${JSON.stringify(name.slice(0, 200))} is a link in place of the folder`);
    }
    const shown = `${JSON.stringify(name.slice(0, 200))} → ${JSON.stringify(target.slice(0, 200))}`;
    if (
      target === '' ||
      target.includes('\0') ||
      target.includes('\\') ||
      isAbsolute(target) ||
      /^[A-Za-z]:/.test(target) ||
      !isInside(this.root, resolve(dirname(path), target))
    ) {
      throw new NotSafe(`${shown} points outside`);
    }
    await symlink(target, path);
    this.links.set(path, target);
  }

  /** Makes a hard link to a file unpacked before it. */
  async hardlink(name: string, target: string): Promise<void> {
    const path = await this.placeFor(name);
    const segments = entrySegments(target);
    if (path === undefined || segments === undefined) {
      throw new NotSafe(`${JSON.stringify(name.slice(0, 200))} links to the folder`);
    }
    await this.realDirectories(segments.slice(0, -1), false);
    const existing = join(this.root, ...segments);
    const found = await lstat(existing).catch(() => undefined);
    if (!found?.isFile()) {
      throw new NotSafe(`${JSON.stringify(name.slice(0, 200))} links to something not unpacked`);
    }
    await link(existing, path);
  }

  /**
   * Checks, once everything is written, that each link resolves inside the folder (a chain of
   * links, each inside, can still lead out). A link that leads nowhere is kept only when its
   * target cannot climb.
   */
  async finish(): Promise<void> {
    const root = await realpath(this.root);
    for (const [path, target] of this.links) {
      const resolved = await realpath(path).catch(() => undefined);
      const ok =
        resolved === undefined ? !target.split('/').includes('..') : isInside(root, resolved);
      if (!ok) {
        throw new NotSafe(`${relative(this.root, path)} leads outside`);
      }
    }
  }

  private count(): void {
    if (this.options.signal?.aborted) {
      throw cancelled();
    }
    this.entries += 1;
    if (this.entries > this.options.maxEntries) {
      throw this.tooBig();
    }
  }

  /**
   * Where entry `name` goes: its parents made (each a real directory, never a link), and
   * whatever an earlier entry of the same name left there removed (never followed).
   */
  private async placeFor(name: string): Promise<string | undefined> {
    this.count();
    const segments = entrySegments(name);
    if (segments === undefined) {
      return undefined;
    }
    await this.realDirectories(segments.slice(0, -1), true);
    const path = join(this.root, ...segments);
    const existing = await lstat(path).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new UserFacingError(
        `The archive of ${this.options.name} lists ${JSON.stringify(name.slice(0, 200))} twice; nothing was installed.`,
      );
    }
    if (existing) {
      await unlink(path);
      this.links.delete(path);
    }
    return path;
  }

  /** Checks (and with `create`, makes) each of `segments` as a real directory under the root. */
  private async realDirectories(segments: string[], create: boolean): Promise<void> {
    let path = this.root;
    for (const segment of segments) {
      path = join(path, segment);
      const found = await lstat(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') {
          return undefined;
        }
        throw error;
      });
      if (found === undefined && create) {
        await mkdir(path, { mode: 0o755 });
      } else if (!found?.isDirectory()) {
        throw new NotSafe(`${relative(this.root, path)} is not a folder of the archive`);
      }
    }
  }
}
