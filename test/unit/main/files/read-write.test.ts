import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  constants,
  mkdirSync,
  readdirSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, open, realpath, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_FILE_BYTES, readTextFile, sliceLines } from '../../../../main/core/files/read.js';
import { writeTextFile } from '../../../../main/core/files/write.js';
import { deadline } from '../../../helpers/core-harness.js';
import { requestFailure } from '../../../helpers/request-error.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-files-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('readTextFile', () => {
  const lines = 'one\ntwo\nthree\nfour\n';

  it('honours `line` (1-based) and `limit`', async () => {
    const file = path.join(root, 'a.txt');
    writeFileSync(file, lines);
    // Each read within a deadline: a read loop that never ends (reading on at the file's end)
    // fails here in seconds, the first test to read a file.
    const read = (line?: number | null, limit?: number) =>
      deadline(readTextFile(file, file, line, limit), 'the read of a.txt', 5_000);
    await expect(read()).resolves.toBe(lines);
    await expect(read(2)).resolves.toBe('two\nthree\nfour\n');
    await expect(read(2, 2)).resolves.toBe('two\nthree\n');
    await expect(read(null, 1)).resolves.toBe('one\n');
    await expect(read(9)).resolves.toBe('');
    await expect(read(1, 1)).resolves.toBe('one\n');
    expect(sliceLines('a\nb', 2, 5)).toBe('b');
    expect((await requestFailure(readTextFile(file, file, 0))).message).toContain(
      'numbered from 1',
    );
  });

  it('splits lines at `\n` only, keeping each ending, from any start with any count', () => {
    const text = 'a\r\n\nb\ncd';
    expect(sliceLines(text)).toBe(text);
    expect(sliceLines(text, 1)).toBe(text);
    expect(sliceLines(text, undefined, 2)).toBe('a\r\n\n');
    expect(sliceLines(text, 2, 1)).toBe('\n');
    expect(sliceLines(text, 3, null)).toBe('b\ncd');
    expect(sliceLines(text, 4)).toBe('cd');
    expect(sliceLines(text, 2, 0)).toBe('');
    // Called directly, a line before the first starts at the first.
    expect(sliceLines(text, -3, 1)).toBe('a\r\n');
    expect(sliceLines('', 1, 1)).toBe('');
  });

  it('refuses binary files: NUL bytes or invalid UTF-8', async () => {
    const nul = path.join(root, 'nul.bin');
    writeFileSync(nul, Buffer.from([0x61, 0x00, 0x62]));
    const latin1 = path.join(root, 'latin1.txt');
    writeFileSync(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    for (const file of [nul, latin1]) {
      const error = await requestFailure(readTextFile(file, file));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('is not a text file');
    }
  });

  it('refuses a file over the limit without reading it', async () => {
    const big = path.join(root, 'big.txt');
    writeFileSync(big, '');
    // Sparse: the size is there without writing 10 MB.
    truncateSync(big, MAX_FILE_BYTES + 1);
    const error = await requestFailure(readTextFile(big, big));
    expect(error.message).toContain('is too large (10 MB;');
    // A fraction of a megabyte is shown to one decimal.
    truncateSync(big, MAX_FILE_BYTES + 512 * 1024);
    expect((await requestFailure(readTextFile(big, big))).message).toContain(
      'is too large (10.5 MB; Airlock reads and writes files up to 10 MB)',
    );
    // Exactly the limit is read (its zeros then make it binary, not too large).
    truncateSync(big, MAX_FILE_BYTES);
    expect((await requestFailure(readTextFile(big, big))).message).toContain('is not a text file');
    writeFileSync(path.join(root, 'ok.txt'), 'x'.repeat(1000));
    await expect(readTextFile(path.join(root, 'ok.txt'), 'ok.txt')).resolves.toHaveLength(1000);
  });

  it('reads a file that grows after its size was taken to its end, or refuses it past the limit', async () => {
    const file = path.join(root, 'growing.txt');
    writeFileSync(file, 'hello');
    // The file grows right after `stat` on the open handle, as a log being written would.
    const probe = await open(file, 'r');
    const handles = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const realStat = handles.stat;
    let grow = (): void => appendFileSync(file, ', world\n');
    const stat = vi.spyOn(handles, 'stat').mockImplementation(async function (this: FileHandle) {
      const taken = await realStat.call(this);
      grow();
      return taken;
    });
    try {
      await expect(readTextFile(file, file)).resolves.toBe('hello, world\n');
      // Grown past the limit meanwhile: refused, never a cut copy.
      writeFileSync(file, 'small');
      grow = () => truncateSync(file, MAX_FILE_BYTES + 1);
      expect((await requestFailure(readTextFile(file, file))).message).toContain(
        'is too large (10 MB;',
      );
      // Grown to exactly the limit: read (its zeros make it binary, not too large).
      truncateSync(file, MAX_FILE_BYTES - 1);
      grow = () => truncateSync(file, MAX_FILE_BYTES);
      expect((await requestFailure(readTextFile(file, file))).message).toContain(
        'is not a text file',
      );
      // Grown far past it from more than half of it: the limit is what is named.
      truncateSync(file, 6 * 1024 * 1024);
      grow = () => truncateSync(file, 20 * 1024 * 1024);
      expect((await requestFailure(readTextFile(file, file))).message).toContain(
        'is too large (10 MB;',
      );
      expect(stat).toHaveBeenCalledTimes(4);
    } finally {
      stat.mockRestore();
    }
  });

  it.runIf(process.platform === 'linux')('closes the file after reading it', async () => {
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'text\n');
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    await readTextFile(file, file);
    expect(open()).toBe(before);
  });

  it('refuses a FIFO and a folder at once instead of hanging, and reports a missing file', async () => {
    const folder = path.join(root, 'dir');
    mkdirSync(folder);
    expect((await requestFailure(readTextFile(folder, folder))).message).toContain('is a folder');
    if (process.platform !== 'win32') {
      const fifo = path.join(root, 'fifo');
      execFileSync('mkfifo', [fifo]);
      try {
        const error = await deadline(
          requestFailure(readTextFile(fifo, fifo)),
          'the refusal of a FIFO',
        );
        expect(error.message).toContain('not a regular file');
      } finally {
        // An open that waits for a writer holds a thread of libuv's pool: be that writer, so a
        // failed run lets it go (with no open waiting, this open fails with ENXIO).
        await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then(
          (writer) => writer.close(),
          () => undefined,
        );
      }
    }
    const missing = path.join(root, 'missing.txt');
    expect((await requestFailure(readTextFile(missing, missing))).code).toBe(-32002);
    // Under a file rather than a folder: missing too (ENOTDIR), not an error opening it.
    writeFileSync(path.join(root, 'plain.txt'), 'x');
    const under = path.join(root, 'plain.txt', 'x.txt');
    expect((await requestFailure(readTextFile(under, under))).code).toBe(-32002);
    // Any other failure to open it is named by its code.
    const long = path.join(root, 'x'.repeat(300));
    const error = await requestFailure(readTextFile(long, 'long.txt'));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('long.txt cannot be opened (ENAMETOOLONG)');
  });

  it('does not follow a symlink put at the checked path after the check', async () => {
    // The path was resolved to a real file inside the folder; then it was swapped for a link out.
    const outside = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-outside-')));
    try {
      writeFileSync(path.join(outside, 'secret.txt'), 'secret');
      const checked = path.join(root, 'a.txt');
      symlinkSync(path.join(outside, 'secret.txt'), checked);
      const error = await requestFailure(readTextFile(checked, checked));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('became a symlink after it was checked');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('writeTextFile', () => {
  it('writes a new file, creating its missing folders', async () => {
    const file = path.join(root, 'new', 'deep', 'a.txt');
    const outcome = await writeTextFile(file, root, 'hello\n', file);
    expect(readFileSync(file, 'utf8')).toBe('hello\n');
    expect(outcome.before).toBeNull();
  });

  it('replaces a file atomically, keeping its mode, and reports what was there', async () => {
    const file = path.join(root, 'run.sh');
    writeFileSync(file, 'echo old\n');
    chmodSync(file, 0o751);
    const inodeBefore = statSync(file).ino;
    const outcome = await writeTextFile(file, root, 'echo new\n', file);
    expect(outcome.before).toBe('echo old\n');
    expect(readFileSync(file, 'utf8')).toBe('echo new\n');
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o7777).toBe(0o751);
    }
    // A new file was renamed into place: the old one was never truncated and rewritten.
    expect(statSync(file).ino).not.toBe(inodeBefore);
    expect(readdirSync(root)).toEqual(['run.sh']);
    if (process.platform !== 'win32') {
      // Bits the umask would clear are kept too.
      chmodSync(file, 0o666);
      await writeTextFile(file, root, 'echo newer\n', file);
      expect(statSync(file).mode & 0o7777).toBe(0o666);
    }
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'leaves the old file intact and no temporary file behind when the write fails',
    async () => {
      const folder = path.join(root, 'locked');
      mkdirSync(folder);
      const file = path.join(folder, 'a.txt');
      writeFileSync(file, 'original\n');
      // The folder takes no new entries: the temporary file cannot be created.
      chmodSync(folder, 0o555);
      try {
        const error = await requestFailure(writeTextFile(file, root, 'replacement\n', file));
        expect(error.message).toContain('the file was left as it was');
        expect(readFileSync(file, 'utf8')).toBe('original\n');
        expect(readdirSync(folder)).toEqual(['a.txt']);
      } finally {
        chmodSync(folder, 0o755);
      }
    },
  );

  it('reports an old text file, a new file and an old binary file as `before`', async () => {
    const file = path.join(root, 'a.bin');
    writeFileSync(file, Buffer.from([0x61, 0x00]));
    await expect(writeTextFile(file, root, 'text\n', file)).resolves.toEqual({ before: undefined });
    await expect(writeTextFile(file, root, 'more\n', file)).resolves.toEqual({ before: 'text\n' });
    // An old file too large to read is not kept either.
    const big = path.join(root, 'big.txt');
    writeFileSync(big, '');
    truncateSync(big, MAX_FILE_BYTES + 1);
    await expect(writeTextFile(big, root, 'small\n', big)).resolves.toEqual({ before: undefined });
    const fresh = path.join(root, 'fresh.txt');
    await expect(writeTextFile(fresh, root, '', fresh)).resolves.toEqual({ before: null });
    expect(readFileSync(fresh, 'utf8')).toBe('');
  });

  it('links the file it replaces for keeping, only while it is still the file it read', async () => {
    const file = path.join(root, 'a.txt');
    const target = path.join(root, 'kept');
    /** Writes over `file`, linking what it replaces to `target` after `change`. */
    const linkAfter = async (change: () => void) => {
      rmSync(target, { force: true });
      writeFileSync(file, 'before\n');
      utimesSync(file, 1000, 1000);
      let linked: boolean | undefined;
      await writeTextFile(file, root, 'after\n', file, undefined, async (previous) => {
        change();
        linked = previous.kind === 'file' && (await previous.link(target));
      });
      expect(readFileSync(file, 'utf8')).toBe('after\n');
      return { linked, kept: existsSync(target) ? readFileSync(target, 'utf8') : undefined };
    };
    await expect(linkAfter(() => {})).resolves.toEqual({ linked: true, kept: 'before\n' });
    await expect(linkAfter(() => writeFileSync(target, 'x'))).resolves.toEqual({
      linked: false,
      kept: 'x',
    });
    // Changed since it was read: its bytes, its size (same time), or another file (same time).
    const sameTime = () => utimesSync(file, 1000, 1000);
    const changes = [
      () => writeFileSync(file, 'BEFORE\n'),
      () => {
        appendFileSync(file, 'more');
        sameTime();
      },
      () => {
        writeFileSync(`${file}.new`, 'before\n');
        renameSync(`${file}.new`, file);
        sameTime();
      },
    ];
    for (const change of changes) {
      await expect(linkAfter(change)).resolves.toEqual({ linked: false, kept: undefined });
    }
  });

  it('refuses the folder itself, a FIFO, a folder that cannot be made, and a folder now a link out', async () => {
    expect((await requestFailure(writeTextFile(root, root, 'x', 'root'))).message).toContain(
      'is the session folder itself',
    );
    if (process.platform !== 'win32') {
      const fifo = path.join(root, 'fifo');
      execFileSync('mkfifo', [fifo]);
      expect((await requestFailure(writeTextFile(fifo, root, 'x', 'fifo'))).message).toContain(
        'not a regular file',
      );
    }
    writeFileSync(path.join(root, 'plain.txt'), 'x');
    const under = path.join(root, 'plain.txt', 'sub', 'a.txt');
    expect((await requestFailure(writeTextFile(under, root, 'x', 'a.txt'))).message).toContain(
      'its folder cannot be created (',
    );
    // The path was resolved inside; then its folder became a symlink to outside.
    const outside = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-outside-')));
    try {
      symlinkSync(outside, path.join(root, 'swapped'));
      const swapped = path.join(root, 'swapped', 'a.txt');
      expect((await requestFailure(writeTextFile(swapped, root, 'x', 'a.txt'))).message).toContain(
        "is no longer inside the session's folder",
      );
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('refuses a symlink at the path, a folder, and content over the limit', async () => {
    writeFileSync(path.join(root, 'target.txt'), 'kept\n');
    const link = path.join(root, 'link.txt');
    symlinkSync('target.txt', link);
    expect((await requestFailure(writeTextFile(link, root, 'x', link))).message).toContain(
      'symbolic link',
    );
    expect(readFileSync(path.join(root, 'target.txt'), 'utf8')).toBe('kept\n');
    mkdirSync(path.join(root, 'dir'));
    expect(
      (await requestFailure(writeTextFile(path.join(root, 'dir'), root, 'x', 'dir'))).message,
    ).toContain('is a folder');
    // Exactly the limit is written.
    const limit = path.join(root, 'limit.txt');
    await writeTextFile(limit, root, 'x'.repeat(MAX_FILE_BYTES), 'limit.txt');
    expect(statSync(limit).size).toBe(MAX_FILE_BYTES);
    const big = 'x'.repeat(MAX_FILE_BYTES + 1);
    expect(
      (await requestFailure(writeTextFile(path.join(root, 'big.txt'), root, big, 'big.txt')))
        .message,
    ).toContain('too large');
  });
});
