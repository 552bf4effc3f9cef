/**
 * `fs/write_text_file`: an atomic write of a text file inside the session's folder.
 *
 * The text goes to a new temporary file in the same folder (created exclusively, so it cannot
 * be a symlink planted in advance), is flushed to disk and given the old file's mode, and then
 * renamed over the file: anyone reading the file sees the old text or the new, never a part,
 * and a failed write leaves the old file as it was. Missing parent folders are created, since
 * agents write new files into new folders; they can only be inside the session's folder,
 * because the path was resolved there first (see containment.ts) and the folder is opened by
 * that real path one name at a time, following no symlink (see beneath.ts). The old file, the
 * temporary file and the rename are all reached through that opened folder.
 *
 * Before the rename, what was there (its bytes and mode, or that nothing was) is handed to a
 * `keep` hook, so the write can be undone (see ../undo/); the same replace restores it.
 *
 * Not kept: a hard link to the old file (the rename gives the path a new file), and the owner
 * when another user owned it (Airlock writes as the user it runs as).
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, lstat, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { openFolder, platformWalk, type Folder, type Walk, type WalkError } from './beneath.js';
import { isWithin, refusal } from './containment.js';
import { CHANGED, decode, MAX_FILE_BYTES, readBytesIn, tooLarge, type FileBytes } from './read.js';

/**
 * What was at the path before the write, for the transcript's diff: its text, `null` for a new
 * file, `undefined` when it was not text (or too large to keep).
 */
export type WriteOutcome = { before: string | null | undefined };

/**
 * What was at a path just before a write replaced it: a file's bytes and mode, nothing, or why
 * it could not be read (too large, say).
 */
export type Previous =
  | { kind: 'missing' }
  | ({
      kind: 'file';
      /**
       * Makes `target` a hard link to this very file (not a copy): once the write's rename
       * replaces the path, the old file lives on there alone. `false` when it cannot (another
       * filesystem, or the file changed since it was read).
       */
      link(target: string): Promise<boolean>;
    } & FileBytes)
  | { kind: 'unreadable'; reason: string };

/** Called with what is at the path once it is checked, before anything is replaced. */
export type Keep = (previous: Previous) => Promise<void>;

/**
 * Writes `content` to the real path `real`, inside the real folder `root`. `shown` is the path
 * as the agent gave it, for errors. Throws the JSON-RPC error the agent gets.
 */
export async function writeTextFile(
  real: string,
  root: string,
  content: string,
  shown: string,
  walk: Walk = platformWalk,
  keep?: Keep,
): Promise<WriteOutcome> {
  if (Buffer.byteLength(content, 'utf8') > MAX_FILE_BYTES) {
    throw tooLarge(shown, Buffer.byteLength(content, 'utf8'));
  }
  if (real === root) {
    throw refusal(shown, 'is the session folder itself, not a file');
  }
  const folder = await openFolder(path.dirname(real), { createInside: root, walk }).catch(
    (error: WalkError) => {
      throw error.code === 'ELOOP'
        ? refusal(shown, CHANGED)
        : refusal(shown, `cannot be written: its folder cannot be created (${error.code})`);
    },
  );
  try {
    return await writeIn(folder, root, path.basename(real), content, shown, keep);
  } finally {
    await folder.close();
  }
}

async function writeIn(
  folder: Folder,
  root: string,
  name: string,
  content: string,
  shown: string,
  keep: Keep | undefined,
): Promise<WriteOutcome> {
  // Where the opened folder really is: a folder moved out since its walk is refused.
  if (!isWithin(root, folder.path, path) || !(await folder.isAt())) {
    throw refusal(shown, "is no longer inside the session's folder");
  }
  const existing = await checkEntry(folder, name, shown);
  const previous: Previous = existing
    ? await readBytesIn(folder, name, shown).then(
        (file): Previous =>
          file === 'missing'
            ? { kind: 'missing' }
            : {
                kind: 'file',
                ...file,
                link: (target) => linkSame(folder.entry(name), existing, target),
              },
        (error: Error): Previous => ({ kind: 'unreadable', reason: error.message }),
      )
    : { kind: 'missing' };
  const before =
    previous.kind === 'missing'
      ? null
      : previous.kind === 'file'
        ? textOf(decode(previous.bytes))
        : undefined;
  await keep?.(previous);
  await replaceIn(folder, name, content, existing ? existing.mode & 0o7777 : undefined, shown);
  return { before };
}

/**
 * Links `target` to the file at `entry`, if that is still the file `was` (by device and inode,
 * size and change time: nothing wrote to it since). Never follows a symlink at `entry`.
 */
async function linkSame(entry: string, was: Stats, target: string): Promise<boolean> {
  try {
    await link(entry, target);
  } catch {
    return false;
  }
  const now = await lstat(target).catch(() => undefined);
  const same =
    now?.dev === was.dev &&
    now.ino === was.ino &&
    now.size === was.size &&
    now.mtimeMs === was.mtimeMs;
  if (!same) {
    await unlink(target).catch(() => undefined);
  }
  return same;
}

function textOf(file: ReturnType<typeof decode>): string | undefined {
  return file.kind === 'text' ? file.text : undefined;
}

/**
 * What is at `name` in the opened folder: a regular file's stat, or `undefined` when nothing
 * is. Anything else there (a symlink, a folder, a device) is refused.
 */
export async function checkEntry(folder: Folder, name: string, shown: string) {
  const existing = await lstat(folder.entry(name)).catch(() => undefined);
  if (existing?.isSymbolicLink()) {
    // The path was resolved through its symlinks a moment ago: one here now was put there since.
    throw refusal(shown, 'became a symbolic link while Airlock checked it');
  }
  if (existing?.isDirectory()) {
    throw refusal(shown, 'is a folder, not a file');
  }
  if (existing && !existing.isFile()) {
    throw refusal(shown, 'is not a regular file (a device, pipe or socket)');
  }
  return existing;
}

/**
 * Replaces (or creates) the file `name` in the opened folder with `content`, atomically: a new
 * temporary file beside it, flushed, given `mode` (a new file's default when `undefined`), then
 * renamed over it. On failure the file is left as it was.
 */
export async function replaceIn(
  folder: Folder,
  name: string,
  content: string | Uint8Array,
  mode: number | undefined,
  shown: string,
): Promise<void> {
  const temp = folder.entry(`.${name}.airlock-${randomBytes(6).toString('hex')}.tmp`);
  try {
    // `wx`: fails if anything, a symlink included, is already at the temporary name.
    const handle = await open(temp, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(content);
      if (mode !== undefined) {
        // The mode given to `open` is narrowed by the umask; the old file's mode is kept whole.
        await handle.chmod(mode);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, folder.entry(name));
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw refusal(shown, `could not be written (${code}); the file was left as it was`);
  }
}
