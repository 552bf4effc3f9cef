/**
 * Working folders: checking the one the user typed before anything starts, and remembering the
 * ones used recently.
 *
 * The recent list is a small JSON file in Airlock's config folder, most recent first, bounded,
 * and written atomically (a temporary file renamed over it), so a crash mid-write leaves the old
 * list. A missing or damaged file is an empty list: it never stops a session from starting.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { MAX_RECENT_FOLDERS } from '../../preload/shared/contract.js';
import { UserFacingError } from './errors.js';

/** The longest folder path kept; longer ones are neither kept nor read back. */
export const MAX_FOLDER_CHARS = 4096;
/** A recent-folders file larger than this is not read (it was not written by Airlock). */
const MAX_FILE_BYTES = 256 * 1024;

/**
 * Checks that `typed` names an existing folder by an absolute path, and returns it normalised
 * (`..` and doubled separators resolved). Throws a {@link UserFacingError} saying what is wrong.
 */
export async function checkWorkingFolder(typed: string): Promise<string> {
  const path = typed.trim();
  if (path.length > MAX_FOLDER_CHARS) {
    throw new UserFacingError('The working folder’s path is too long.');
  }
  if (!isAbsolute(path)) {
    throw new UserFacingError(
      `The working folder must be an absolute path (${process.platform === 'win32' ? 'C:\\…' : '/…'}), not “${path}”.`,
    );
  }
  const folder = resolve(path);
  let info;
  try {
    info = await stat(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new UserFacingError(`The working folder ${folder} does not exist.`);
    }
    throw new UserFacingError(
      `The working folder ${folder} cannot be opened (${code ?? 'unknown error'}).`,
    );
  }
  if (!info.isDirectory()) {
    throw new UserFacingError(`${folder} is a file, not a folder.`);
  }
  return folder;
}

/** The recent working folders, kept in one file. */
export class RecentFolders {
  /** Writes run one after the other, so two quick adds cannot lose one. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  /** The folders, most recent first; an unreadable or damaged file gives none. */
  async list(): Promise<string[]> {
    await this.queue.catch(() => undefined);
    return this.read();
  }

  /** The folders that still exist, most recent first (what the new-session form offers). */
  async existing(): Promise<string[]> {
    const folders = await this.list();
    const exists = await Promise.all(
      folders.map((folder) =>
        stat(folder).then(
          (info) => info.isDirectory(),
          () => false,
        ),
      ),
    );
    return folders.filter((_folder, index) => exists[index]);
  }

  /**
   * Puts `folder` first. Never rejects: a list that cannot be written is only not remembered.
   * Resolves with the new list.
   */
  add(folder: string): Promise<string[]> {
    const next = this.queue.then(async () => {
      const folders = [folder, ...(await this.read()).filter((other) => other !== folder)].slice(
        0,
        MAX_RECENT_FOLDERS,
      );
      await this.write(folders).catch(() => undefined);
      return folders;
    });
    this.queue = next.catch(() => undefined);
    return next.catch(() => [folder]);
  }

  private async read(): Promise<string[]> {
    try {
      const info = await stat(this.file);
      if (!info.isFile() || info.size > MAX_FILE_BYTES) {
        return [];
      }
      const parsed: unknown = JSON.parse(await readFile(this.file, 'utf8'));
      const folders =
        parsed !== null && typeof parsed === 'object' && 'folders' in parsed
          ? (parsed as { folders: unknown }).folders
          : undefined;
      if (!Array.isArray(folders)) {
        return [];
      }
      // Only what Airlock would have written: absolute paths of sensible length, once each.
      const kept = folders.filter(
        (value): value is string =>
          typeof value === 'string' && value.length <= MAX_FOLDER_CHARS && isAbsolute(value),
      );
      return [...new Set(kept)].slice(0, MAX_RECENT_FOLDERS);
    } catch {
      return [];
    }
  }

  private async write(folders: string[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify({ version: 1, folders }, null, 2)}\n`, {
        mode: 0o600,
      });
      await rename(temporary, this.file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}
