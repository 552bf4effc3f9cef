/**
 * Archives made in tests, entry by entry, including ones no honest tool would make (names
 * with `..`, links leading out): `.tar.gz` with tar-stream, `.zip` with yazl.
 */
import { gzipSync } from 'node:zlib';
import { pack, type Header } from 'tar-stream';
import { ZipFile } from 'yazl';

/** One entry of a tar: its header, and the text of a file. */
export type TarEntry = Partial<Header> & { name: string; text?: string };

/** A `.tar.gz` of `entries`, in order. */
export async function tarGzOf(entries: TarEntry[]): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: unknown) => {
    chunks.push(chunk as Buffer);
  });
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const { text, ...header } of entries) {
    archive.entry({ type: 'file', mode: 0o644, ...header }, text ?? '');
  }
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** One entry of a zip: a file's text (or a link's target), and its Unix mode. */
export type ZipEntry = { name: string; text?: string; mode?: number; directory?: boolean };

/**
 * A `.zip` of `entries`. yazl refuses names with `..` or a leading `/`: pass such a name in
 * `rename` (`{ 'xx/evil': '../evil' }`, same length) and it is written over the made name.
 */
export async function zipOf(
  entries: ZipEntry[],
  rename: Record<string, string> = {},
): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    if (entry.directory) {
      zip.addEmptyDirectory(entry.name, { mode: entry.mode ?? 0o40755 });
    } else {
      zip.addBuffer(Buffer.from(entry.text ?? ''), entry.name, { mode: entry.mode ?? 0o100644 });
    }
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) {
    chunks.push(chunk as Buffer);
  }
  let bytes = Buffer.concat(chunks);
  for (const [made, wanted] of Object.entries(rename)) {
    if (made.length !== wanted.length) {
      throw new Error('A renamed zip entry keeps its length');
    }
    bytes = Buffer.from(bytes.toString('latin1').replaceAll(made, wanted), 'latin1');
  }
  return bytes;
}

/** A `#!/bin/sh` script that prints `words`. */
export function echoScript(words: string): string {
  return `#!/bin/sh\necho '${words}'\n`;
}
