/**
 * Unpacks an agent's archive (`.tar.gz` or `.zip`) into a fresh folder, writing each entry
 * itself: nothing in the archive is trusted.
 *
 * An entry is refused, and with it the whole archive, when its name is absolute, names a drive,
 * or climbs out with `..` (backslashes count as separators); when it is a device or a fifo; when
 * it is a link whose target lies outside the folder; or when it would be written through a link.
 * Files keep their executable bit, and nothing else of their mode. The total of bytes written
 * and the number of entries are capped, so an archive that unpacks to far more than it weighs
 * is refused. No program is run to unpack.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type * as TarStream from 'tar-stream';
import { UserFacingError } from '../../errors.js';
import { cancelled } from './download.js';
import { defaultWrite, meter, NotSafe, TargetFolder, type FileWriter } from './target-folder.js';
import { unzipInto } from './unzip.js';
import { onFirstUse } from '../../on-first-use.js';

export type { FileWriter } from './target-folder.js';

/** The tar reader, loaded with the first archive. */
const tarStream = onFirstUse<typeof TarStream>('tar-stream');

/** The most bytes unpacked from one archive. */
export const MAX_UNPACKED_BYTES = 4 * 1024 * 1024 * 1024;
/** The most entries of one archive. */
export const MAX_ENTRIES = 50_000;

/** The archive formats Airlock unpacks. */
export type ArchiveKind = 'tar.gz' | 'zip';

/** The format an archive's address names by its suffix, or undefined for another. */
export function archiveKind(url: string): ArchiveKind | undefined {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return undefined;
  }
  if (path.endsWith('.tar.gz') || path.endsWith('.tgz')) {
    return 'tar.gz';
  }
  return path.endsWith('.zip') ? 'zip' : undefined;
}

/** How an archive is unpacked. */
export type UnpackOptions = {
  signal?: AbortSignal;
  /** Writes one file's bytes (tests make it fail). */
  write?: FileWriter;
  maxBytes?: number;
  maxEntries?: number;
};

/** Whether the file starts as an archive of `kind` does (gzip's or zip's magic bytes). */
async function looksLike(archive: string, kind: ArchiveKind): Promise<boolean> {
  const handle = await open(archive, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    if (kind === 'tar.gz') {
      return bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
    }
    return bytesRead === 4 && buffer.readUInt32LE(0) === 0x04034b50;
  } finally {
    await handle.close();
  }
}

/**
 * Unpacks `archive` into `root` (an existing, empty folder). Rejects with a
 * {@link UserFacingError} in words; whatever was written is then the caller's to remove.
 */
export async function unpack(
  archive: string,
  kind: ArchiveKind,
  root: string,
  name: string,
  options: UnpackOptions = {},
): Promise<void> {
  const damaged = (detail?: string) =>
    new UserFacingError(
      `The download of ${name} is not a readable ${kind === 'zip' ? '.zip' : '.tar.gz'} archive; nothing was installed.`,
      detail,
    );
  if (!(await looksLike(archive, kind))) {
    throw damaged();
  }
  const folder = new TargetFolder(root, {
    name,
    write: options.write ?? defaultWrite,
    maxBytes: options.maxBytes ?? MAX_UNPACKED_BYTES,
    maxEntries: options.maxEntries ?? MAX_ENTRIES,
    signal: options.signal,
  });
  try {
    if (kind === 'zip') {
      await unzipInto(archive, folder);
    } else {
      await untarInto(archive, folder);
    }
    await folder.finish();
  } catch (error) {
    if (options.signal?.aborted) {
      throw cancelled();
    }
    if (error instanceof UserFacingError) {
      throw error;
    }
    if (error instanceof NotSafe) {
      throw new UserFacingError(
        `The archive of ${name} has an entry that would be written outside its folder; nothing was installed.`,
        error.message,
      );
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string' && /^E(NOSPC|ACCES|PERM|IO|ROFS|DQUOT|MFILE|NFILE)$/.test(code)) {
      throw new UserFacingError(
        `${name} could not be unpacked on this computer (${code === 'ENOSPC' ? 'the disk is full' : 'a file could not be written'}); nothing was installed.`,
        error instanceof Error ? error.message : undefined,
      );
    }
    throw damaged(error instanceof Error ? error.message : undefined);
  }
}

/** Reads a gzipped tar entry by entry into `folder`. */
async function untarInto(archive: string, folder: TargetFolder): Promise<void> {
  const extract = tarStream().extract();
  // The tar's own headers and padding are a little more than its files' bytes.
  const limit = meter(folder.maxBytes + folder.maxEntries * 1024 + 1024 * 1024, () =>
    folder.tooBig(),
  );
  const feeding = pipeline(createReadStream(archive), createGunzip(), limit, extract);
  // The loop below reports the same failure; this keeps it from being unhandled.
  feeding.catch(() => undefined);
  for await (const entry of extract) {
    const { header } = entry;
    switch (header.type) {
      case 'file':
      case 'contiguous-file':
      case null:
      case undefined:
        await folder.file(header.name, Readable.from(entry), header.mode ?? 0o644);
        break;
      case 'directory':
        entry.resume();
        await folder.directory(header.name);
        break;
      case 'symlink':
        entry.resume();
        await folder.symlink(header.name, header.linkname ?? '');
        break;
      case 'link':
        entry.resume();
        await folder.hardlink(header.name, header.linkname ?? '');
        break;
      default:
        // Devices and fifos never belong in an agent's folder.
        throw new NotSafe(`${header.name} is a ${header.type}`);
    }
  }
  await feeding;
}
