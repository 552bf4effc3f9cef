/** Reads a `.zip` archive entry by entry (yauzl, sizes checked) into a {@link TargetFolder}. */
import type { Readable } from 'node:stream';
import type * as Yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { onFirstUse } from '../../on-first-use.js';
import { NotSafe, type TargetFolder } from './target-folder.js';

/** The zip reader, loaded with the first zip archive. */
const yauzl = onFirstUse<typeof Yauzl>('yauzl');

/** The most bytes of a symbolic link's target, stored as the entry's content. */
const MAX_LINK_BYTES = 4096;

/** File type bits of a Unix mode. */
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** yauzl's own refusals of an entry's name, which mean it would land outside the folder. */
const UNSAFE_NAME = /invalid relative path|absolute path|invalid characters in fileName/;

function openZip(archive: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl().open(
      archive,
      // Backslashes become slashes (strictFileNames off); the folder then checks every name.
      { lazyEntries: true, validateEntrySizes: true, autoClose: true, strictFileNames: false },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    );
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
}

async function readAll(stream: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new NotSafe('a link target is too long');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The Unix mode of an entry, when the archive was made on Unix (0 otherwise). */
function unixMode(entry: Entry): number {
  const madeOnUnix = entry.versionMadeBy >>> 8 === 3;
  return madeOnUnix ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
}

/** Writes one entry into `folder`. */
async function place(zip: ZipFile, entry: Entry, folder: TargetFolder): Promise<void> {
  const mode = unixMode(entry);
  const type = mode & S_IFMT;
  if (entry.fileName.endsWith('/') || type === S_IFDIR) {
    await folder.directory(entry.fileName);
    return;
  }
  if (type === S_IFLNK) {
    const target = await readAll(await openEntry(zip, entry), MAX_LINK_BYTES);
    await folder.symlink(entry.fileName, target);
    return;
  }
  if (type !== 0 && type !== S_IFREG) {
    // Devices, fifos and sockets never belong in an agent's folder.
    throw new NotSafe(`${JSON.stringify(entry.fileName.slice(0, 200))} is not a file`);
  }
  if (entry.uncompressedSize > folder.maxBytes) {
    throw folder.tooBig();
  }
  await folder.file(entry.fileName, await openEntry(zip, entry), mode);
}

/** Closes the archive's file (once its open entry streams end); a second close is ignored. */
function closeQuietly(zip: ZipFile): void {
  try {
    zip.close();
  } catch {
    // Already closed by autoClose.
  }
}

/** Unpacks the zip at `archive` into `folder`; rejects on the first entry that fails. */
export async function unzipInto(archive: string, folder: TargetFolder): Promise<void> {
  const zip = await openZip(archive);
  if (zip.entryCount > folder.maxEntries) {
    closeQuietly(zip);
    throw folder.tooBig();
  }
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) {
        return;
      }
      failed = true;
      closeQuietly(zip);
      const message = error instanceof Error ? error.message : '';
      reject(UNSAFE_NAME.test(message) ? new NotSafe(message) : error);
    };
    zip.on('error', fail);
    zip.on('end', () => {
      if (!failed) {
        resolve();
      }
    });
    zip.on('entry', (entry: Entry) => {
      place(zip, entry, folder).then(() => zip.readEntry(), fail);
    });
    zip.readEntry();
  });
}
