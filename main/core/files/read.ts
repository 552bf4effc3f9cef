/**
 * `fs/read_text_file`: a text file inside the session's folder, whole or a range of its lines.
 *
 * Only regular files are read, opened without blocking and checked on the open handle, so a
 * FIFO or a device (`/dev/zero`) is refused rather than hanging the request. A file larger than
 * {@link MAX_FILE_BYTES}, or one that is not UTF-8 text, is refused with an error saying so.
 */
import * as acp from '@agentclientprotocol/sdk';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { openFolder, platformWalk, type Folder, type Walk, type WalkError } from './beneath.js';
import { quotePath, refusal } from './containment.js';

/**
 * The largest file Airlock reads or writes for an agent: 10 MB. Far above any source file and
 * any model's context (a 200,000-token window holds about 800 KB of text), yet small enough
 * that the file, its JSON-encoded copy (escapes can double it) and the diff Airlock keeps all
 * fit well under the 64 MB message limit and do not stall the app.
 */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The refusal of a path whose folders or file were swapped while Airlock opened them. */
export const CHANGED =
  "is no longer inside the session's folder: its path changed while Airlock opened it";

/** What a text file held, or why it is not text. */
export type FileText = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'missing' };

/**
 * Reads the regular file at the real path `path` as UTF-8 text. Throws the JSON-RPC error an
 * agent gets when it is not a regular file or is too large; a missing file is `missing`.
 */
export async function readText(
  path: string,
  shown = path,
  walk: Walk = platformWalk,
): Promise<FileText> {
  let folder;
  try {
    // The folder by its real path, one name at a time: a folder on the way swapped for a symlink
    // since the path was checked is met here, not followed (see beneath.ts).
    folder = await openFolder(dirname(path), { walk });
  } catch (error) {
    const code = (error as WalkError).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { kind: 'missing' };
    }
    if (code === 'ELOOP') {
      throw refusal(shown, CHANGED);
    }
    throw refusal(shown, `cannot be opened (${code})`);
  }
  try {
    return await readIn(folder, basename(path), shown);
  } finally {
    await folder.close();
  }
}

/** {@link readText} of the file `name` in a folder already opened. */
export async function readIn(folder: Folder, name: string, shown: string): Promise<FileText> {
  const file = await readBytesIn(folder, name, shown);
  return file === 'missing' ? { kind: 'missing' } : decode(file.bytes);
}

/** A regular file's bytes and mode, as {@link readBytesIn} found them. */
export type FileBytes = { bytes: Buffer; mode: number };

/**
 * The bytes and mode of the regular file `name` in a folder already opened, or `missing`.
 * Throws the JSON-RPC error an agent gets when it is not a regular file or is too large.
 */
export async function readBytesIn(
  folder: Folder,
  name: string,
  shown: string,
): Promise<FileBytes | 'missing'> {
  let handle;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever.
    // No following: `name` is a real path's, so a symlink there now was put there after the
    // check (to lead the read out of the folder); the open then fails instead (ELOOP).
    handle = await open(
      folder.entry(name),
      constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return 'missing';
    }
    if (code === 'ELOOP') {
      throw refusal(shown, 'became a symlink after it was checked, so it is not read');
    }
    throw refusal(shown, `cannot be opened (${code ?? (error as Error).message})`);
  }
  try {
    if (!(await folder.holds(handle, name))) {
      throw refusal(shown, CHANGED);
    }
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      throw refusal(shown, 'is a folder, not a file');
    }
    if (!stat.isFile()) {
      throw refusal(shown, 'is not a regular file (a device, pipe or socket)');
    }
    if (stat.size > MAX_FILE_BYTES) {
      throw tooLarge(shown, stat.size);
    }
    // One byte more than `stat` said, to see whether the file grew since.
    let buffer = Buffer.alloc(Math.min(stat.size, MAX_FILE_BYTES) + 1);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (filled > MAX_FILE_BYTES) {
          throw tooLarge(shown, filled);
        }
        // It grew (a log being written): read on to its end, never hand back a cut copy.
        const larger = Buffer.alloc(Math.min(buffer.length * 2, MAX_FILE_BYTES + 1));
        buffer.copy(larger);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) {
        break;
      }
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, filled), mode: stat.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}

/** UTF-8 text, or `binary` for bytes that are not: a NUL byte, or invalid UTF-8. */
export function decode(bytes: Uint8Array): FileText {
  if (bytes.includes(0)) {
    return { kind: 'binary' };
  }
  try {
    return { kind: 'text', text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { kind: 'binary' };
  }
}

/**
 * The lines `line` (1-based) onwards, at most `limit` of them, each with its line ending. No
 * `line` starts at the first; no `limit` runs to the end.
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) {
    return text;
  }
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const start = Math.max((line ?? 1) - 1, 0);
  const end = limit === undefined || limit === null ? lines.length : start + limit;
  return lines.slice(start, end).join('');
}

/** Reads `path` (already resolved inside the folder) for `fs/read_text_file`. */
export async function readTextFile(
  path: string,
  shown: string,
  line?: number | null,
  limit?: number | null,
): Promise<string> {
  if (line !== undefined && line !== null && line < 1) {
    throw refusal(shown, `cannot be read from line ${line}: lines are numbered from 1`);
  }
  const file = await readText(path, shown);
  if (file.kind === 'missing') {
    throw acp.RequestError.resourceNotFound(quotePath(shown));
  }
  if (file.kind === 'binary') {
    throw refusal(shown, 'is not a text file (it holds NUL bytes or invalid UTF-8)');
  }
  return sliceLines(file.text, line, limit);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** The refusal of a file larger than {@link MAX_FILE_BYTES}. */
export function tooLarge(path: string, bytes: number): acp.RequestError {
  return refusal(
    path,
    `is too large (${megabytes(bytes)}; Airlock reads and writes files up to ${megabytes(MAX_FILE_BYTES)})`,
  );
}
