/**
 * Undoing one agent write: the file goes back to what it was before that write, or goes away
 * if the write created it.
 *
 * Only a file nobody changed since is restored without asking: its bytes must still be exactly
 * what the agent wrote. Otherwise the three versions (before the write, as the agent wrote it,
 * as it is now) come back for the user to choose, and a restore they then confirm is `forced`.
 * The restore keeps the rules every write keeps (see ../files/): the path must still lead
 * inside the session's folder, its folders are opened one name at a time following no symlink,
 * a symlink, folder or device now at the path is refused, and the file is replaced atomically.
 */
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  openFolder,
  platformWalk,
  type Folder,
  type Walk,
  type WalkError,
} from '../files/beneath.js';
import { isWithin, nodeResolver, quotePath, resolveInside } from '../files/containment.js';
import { decode, readBytesIn, type FileBytes } from '../files/read.js';
import { checkEntry, replaceIn } from '../files/write.js';
import { sha256, StoreDamaged, type WriteRecord, type WriteStore } from './store.js';

/** One version of a file, as the user is shown it. */
export type Version =
  { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'binary'; bytes: number };

/** What an undo did: restored the file, or found it changed since and changed nothing. */
export type UndoOutcome =
  { kind: 'undone' } | { kind: 'changed'; before: Version; agent: Version; now: Version };

/** An undo that cannot be done, with the sentence that says why; nothing was changed. */
export class UndoRefused extends Error {}

/**
 * Undoes the write `record` kept in `store`, in the session folder `cwd`. Throws
 * {@link UndoRefused} when it cannot; `force` restores over a file changed since.
 */
export async function undoWrite(
  store: WriteStore,
  record: WriteRecord,
  cwd: string,
  options: { force?: boolean; walk?: Walk } = {},
): Promise<UndoOutcome> {
  const shown = quotePath(record.shown);
  const real = await stillInside(cwd, record.real, shown);
  const before = await store.before(record).catch(damaged);
  const walk = options.walk ?? platformWalk;
  /** The file's folder, opened: `undefined` if it is gone, unless made again inside `root`. */
  const open = (root?: string) =>
    openFolder(path.dirname(real), { createInside: root, walk }).catch((error: WalkError) => {
      if (error.code === 'ENOENT' && root === undefined) {
        return undefined;
      }
      throw new UndoRefused(
        error.code === 'ELOOP'
          ? `${shown} was not restored: a folder on its path became a symbolic link`
          : `${shown} was not restored: its folder cannot be opened (${error.code})`,
      );
    });
  let folder = await open();
  try {
    const name = path.basename(real);
    const file = folder ? await current(folder, name, shown) : 'missing';
    const now = file === 'missing' ? 'missing' : file.bytes;
    const unchanged = now !== 'missing' && sha256(now) === record.after;
    // As before the write: the same bytes, and the same mode (a file whose mode alone was
    // changed since is put back, mode and all).
    const asBefore =
      file === 'missing'
        ? before === 'missing'
        : before !== 'missing' &&
          file.bytes.equals(before) &&
          (record.before.kind !== 'file' || (file.mode & 0o7777) === record.before.mode);
    if (!unchanged && !asBefore && !options.force) {
      const agent = await store.after(record).catch(damaged);
      return {
        kind: 'changed',
        before: version(before),
        agent: version(agent),
        now: version(now),
      };
    }
    if (!asBefore) {
      // A folder the user removed since is made again for the file to come back into: only
      // now that the undo goes ahead (an undo that asks first changes nothing).
      folder ??= await open(await rootOf(cwd, shown));
      await put(folder!, name, before, record, shown);
    }
  } finally {
    await folder?.close();
  }
  await store.markUndone(record.id).catch(damaged);
  return { kind: 'undone' };
}

/** The real path `real` if it still leads where it did, inside the session's folder. */
async function stillInside(cwd: string, real: string, shown: string): Promise<string> {
  const root = await rootOf(cwd, shown);
  const now = await resolveInside(root, real, path, nodeResolver).catch(() => undefined);
  if (now === undefined || now !== real || !isWithin(root, real, path)) {
    throw new UndoRefused(
      `${shown} was not restored: it is no longer inside the session's folder where it was written`,
    );
  }
  return real;
}

async function rootOf(cwd: string, shown: string): Promise<string> {
  const root = await nodeResolver.realpath(cwd);
  if (root === undefined) {
    throw new UndoRefused(`${shown} was not restored: the session's folder is missing`);
  }
  return root;
}

/** What is at `name` now: its bytes and mode, or `missing`. Anything but a regular file is refused. */
async function current(
  folder: Folder,
  name: string,
  shown: string,
): Promise<FileBytes | 'missing'> {
  try {
    await checkEntry(folder, name, shown);
    return await readBytesIn(folder, name, shown);
  } catch (error) {
    throw new UndoRefused(`${withoutCode(error)}; nothing was restored`);
  }
}

/** Puts `before` back at `name`: the old bytes and mode, or no file at all. */
async function put(
  folder: Folder,
  name: string,
  before: Buffer | 'missing',
  record: WriteRecord,
  shown: string,
): Promise<void> {
  try {
    if (before === 'missing') {
      await unlink(folder.entry(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') {
          throw new UndoRefused(`${shown} could not be removed (${error.code})`);
        }
      });
    } else {
      const mode = record.before.kind === 'file' ? record.before.mode : undefined;
      await replaceIn(folder, name, before, mode, shown);
    }
  } catch (error) {
    throw error instanceof UndoRefused ? error : new UndoRefused(withoutCode(error));
  }
}

function version(bytes: Buffer | 'missing'): Version {
  if (bytes === 'missing') {
    return { kind: 'missing' };
  }
  const text = decode(bytes);
  return text.kind === 'text'
    ? { kind: 'text', text: text.text }
    : { kind: 'binary', bytes: bytes.length };
}

function damaged(error: unknown): never {
  if (error instanceof StoreDamaged) {
    throw new UndoRefused(`The write was not undone: ${error.message}`);
  }
  throw error;
}

/** A refusal's sentence without the JSON-RPC prefix the agent would see. */
function withoutCode(error: unknown): string {
  return (error as Error).message.replace(/^Invalid params: /, '');
}
