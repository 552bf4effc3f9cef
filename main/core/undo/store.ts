/**
 * What each agent write replaced, kept so the write can be undone: one store per session, a
 * folder under Airlock's config folder.
 *
 * Each write is a record in the journal with two files beside it: the bytes that were at the
 * path before (or a note that nothing was) and the bytes the agent wrote, which tell later
 * whether anyone changed the file since. The store is bounded ({@link DEFAULT_LIMIT_BYTES}): the
 * oldest records are dropped first, and the caller is told which, to say so in the transcript.
 *
 * The index is a journal, `journal.jsonl`: a line per change (a record added, undone or
 * dropped), appended, so keeping a write costs one short append whatever the store holds. It
 * is read line by line with a schema, and written afresh (a temporary file, then a rename) once
 * it holds far more lines than records. A last line cut short by a crash is left out; any other
 * line that does not read makes the store damaged: nothing is undone from it, and a new write
 * starts it afresh, saying so.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** Each session keeps at most this much: 50 MB of before-and-after copies. */
export const DEFAULT_LIMIT_BYTES = 50 * 1024 * 1024;

/** The most records a session keeps, whatever their size. */
export const MAX_RECORDS = 2_000;

const JOURNAL = 'journal.jsonl';

const recordSchema = z.object({
  id: z.string().regex(/^w[0-9a-z]{1,12}$/),
  /** The real path written, inside {@link WriteRecord.root}. */
  real: z.string().min(1),
  /** The session folder's real path at the time of the write. */
  root: z.string().min(1),
  /** The path as the agent gave it, for lines and errors. */
  shown: z.string(),
  /** The turn the write came in, so a turn's writes can be undone together. */
  turn: z.number().int().nonnegative().nullable(),
  /** What was there: a file of this mode, or nothing. */
  before: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('missing') }),
    z.object({
      kind: z.literal('file'),
      mode: z.number().int().min(0).max(0o7777),
      /** The SHA-256 of its bytes: a kept copy that changed since is not restored. */
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ]),
  /** The SHA-256 of what the agent wrote. */
  after: z.string().regex(/^[0-9a-f]{64}$/),
  /** The bytes the record's two copies take. */
  bytes: z.number().int().nonnegative(),
});

/** The journal's first line, then one line per change. */
const headSchema = z.object({ version: z.literal(1), next: z.number().int().nonnegative() });
const lineSchema = z.union([
  z.object({ add: recordSchema }),
  z.object({ undone: z.string() }),
  z.object({ drop: z.string() }),
]);

/** One agent write the store can undo. */
export type WriteRecord = z.infer<typeof recordSchema>;

/** What {@link WriteStore.keep} is given: the write, and what it replaces. */
export type KeptWrite = {
  real: string;
  root: string;
  shown: string;
  turn: number | null;
  before:
    | { kind: 'missing' }
    | {
        kind: 'file';
        bytes: Uint8Array;
        mode: number;
        /** Keeps the file itself at `target` instead of a copy, when it can (see write.ts). */
        link?: (target: string) => Promise<boolean>;
      };
  after: string | Uint8Array;
};

/** What {@link WriteStore.keep} did: the record, or why there is none; and what it dropped. */
export type KeepOutcome =
  | { kept: WriteRecord; dropped: WriteRecord[]; restarted: boolean }
  | { kept: undefined; reason: string; dropped: WriteRecord[]; restarted: boolean };

/** The store as read: the next id's number, the records that can be undone, the journal's length. */
type Index = { next: number; records: WriteRecord[]; lines: number };

/** The SHA-256 of `content` in hex (text as UTF-8). */
export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The store of one session's writes, in the folder `dir`. */
export class WriteStore {
  /** The store once read; `damaged` when its journal could not be read. */
  private index: Index | 'damaged' | undefined;
  /** Every change waits on the one before it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly limitBytes = DEFAULT_LIMIT_BYTES,
  ) {}

  /**
   * Keeps what a write replaces. Never throws: a store that cannot keep it (too large, disk
   * full) says why, and the write goes on without an undo.
   */
  keep(write: KeptWrite): Promise<KeepOutcome> {
    return this.serial(async () => {
      const loaded = await this.load();
      const restarted = loaded === 'damaged';
      const index: Index = restarted ? { next: 0, records: [], lines: 0 } : loaded;
      const before = write.before.kind === 'file' ? write.before.bytes : undefined;
      const after = typeof write.after === 'string' ? Buffer.from(write.after) : write.after;
      const bytes = (before?.length ?? 0) + after.length;
      if (bytes > this.limitBytes) {
        return { kept: undefined, reason: tooLargeReason(this.limitBytes), dropped: [], restarted };
      }
      const record: WriteRecord = {
        id: `w${index.next.toString(36)}`,
        real: write.real,
        root: write.root,
        shown: write.shown,
        turn: write.turn,
        before:
          write.before.kind === 'file'
            ? { kind: 'file', mode: write.before.mode & 0o7777, sha256: sha256(write.before.bytes) }
            : { kind: 'missing' },
        after: sha256(after),
        bytes,
      };
      try {
        if (restarted || index.lines === 0) {
          await this.begin(index.next);
        }
        if (
          write.before.kind === 'file' &&
          !(await write.before.link?.(this.blob(record.id, 'before')))
        ) {
          await writeFile(this.blob(record.id, 'before'), write.before.bytes, { mode: 0o600 });
        }
        await writeFile(this.blob(record.id, 'after'), after, { mode: 0o600 });
        const records = [...index.records, record];
        const dropped: WriteRecord[] = [];
        let total = records.reduce((sum, each) => sum + each.bytes, 0);
        while (total > this.limitBytes || records.length > MAX_RECORDS) {
          const oldest = records.shift()!;
          total -= oldest.bytes;
          dropped.push(oldest);
        }
        await this.append({ next: index.next + 1, records, lines: index.lines }, [
          { add: record },
          ...dropped.map((each) => ({ drop: each.id })),
        ]);
        await Promise.all(dropped.map((each) => this.removeBlobs(each.id)));
        return { kept: record, dropped, restarted };
      } catch (error) {
        await this.removeBlobs(record.id);
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        return {
          kept: undefined,
          reason: `Airlock could not keep a copy to undo it with (${code})`,
          dropped: [],
          restarted,
        };
      }
    });
  }

  /** The records that can still be undone, oldest first; throws when the store is damaged. */
  async records(): Promise<WriteRecord[]> {
    const index = await this.serial(() => this.load());
    if (index === 'damaged') {
      throw new StoreDamaged();
    }
    return index.records;
  }

  /** The record `id`, if it can still be undone; throws when the store is damaged. */
  async record(id: string): Promise<WriteRecord | undefined> {
    return (await this.records()).find((record) => record.id === id);
  }

  /** What was at the path before the write `record`: its bytes, or `missing`. */
  async before(record: WriteRecord): Promise<Buffer | 'missing'> {
    if (record.before.kind === 'missing') {
      return 'missing';
    }
    return this.readBlob(record, 'before');
  }

  /** What the agent wrote in the write `record`. */
  after(record: WriteRecord): Promise<Buffer> {
    return this.readBlob(record, 'after');
  }

  /** Marks `id` undone, so it is offered no more; its copies are let go. */
  markUndone(id: string): Promise<void> {
    return this.serial(async () => {
      const index = await this.load();
      if (index === 'damaged') {
        throw new StoreDamaged();
      }
      const records = index.records.filter((record) => record.id !== id);
      await this.append({ ...index, records }, [{ undone: id }]);
      await this.removeBlobs(id);
    });
  }

  /** Removes the whole store (the session was deleted). */
  remove(): Promise<void> {
    return this.serial(async () => {
      this.index = undefined;
      await rm(this.dir, { recursive: true, force: true });
    });
  }

  private async readBlob(record: WriteRecord, side: 'before' | 'after'): Promise<Buffer> {
    const bytes = await readFile(this.blob(record.id, side)).catch(() => {
      throw new StoreDamaged();
    });
    const expected =
      side === 'after' ? record.after : record.before.kind === 'file' && record.before.sha256;
    if (sha256(bytes) !== expected) {
      throw new StoreDamaged();
    }
    return bytes;
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<Index | 'damaged'> {
    if (this.index === undefined) {
      this.index = await readFile(this.journal(), 'utf8').then(parseJournal, (error) =>
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? { next: 0, records: [], lines: 0 }
          : ('damaged' as const),
      );
    }
    return this.index;
  }

  /** Starts an empty store: the folder made (or emptied), a journal with only its head. */
  private async begin(next: number): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFile(this.journal(), `${JSON.stringify({ version: 1, next })}\n`, { mode: 0o600 });
    this.index = { next, records: [], lines: 1 };
  }

  /**
   * Adds `lines` to the journal and takes `index` as the store; a journal far longer than the
   * records it describes is written afresh instead.
   */
  private async append(index: Index, lines: object[]): Promise<void> {
    const length = index.lines + lines.length;
    if (length > 2 * index.records.length + 64) {
      const fresh = [{ version: 1, next: index.next }, ...index.records.map((add) => ({ add }))];
      const temp = `${this.journal()}.${process.pid}.tmp`;
      await writeFile(temp, fresh.map((line) => `${JSON.stringify(line)}\n`).join(''), {
        mode: 0o600,
      });
      await rename(temp, this.journal());
      this.index = { ...index, lines: fresh.length };
      return;
    }
    await appendFile(this.journal(), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    this.index = { ...index, lines: length };
  }

  private journal(): string {
    return join(this.dir, JOURNAL);
  }

  private blob(id: string, side: 'before' | 'after'): string {
    return join(this.dir, `${id}.${side}`);
  }

  private async removeBlobs(id: string): Promise<void> {
    await Promise.all(
      (['before', 'after'] as const).map((side) => rm(this.blob(id, side), { force: true })),
    );
  }
}

/**
 * The store a journal describes, or `damaged`. Its head carries the next id's number; a last
 * line without its newline (an append cut short) is left out.
 */
function parseJournal(text: string): Index | 'damaged' {
  const lines = text.split('\n');
  lines.pop();
  try {
    const head = headSchema.parse(JSON.parse(lines[0] ?? ''));
    let next = head.next;
    const records = new Map<string, WriteRecord>();
    for (const line of lines.slice(1)) {
      const change = lineSchema.parse(JSON.parse(line));
      if ('add' in change) {
        records.set(change.add.id, change.add);
        next = Math.max(next, parseInt(change.add.id.slice(1), 36) + 1);
      } else {
        records.delete('undone' in change ? change.undone : change.drop);
      }
    }
    return { next, records: [...records.values()], lines: lines.length };
  } catch {
    return 'damaged';
  }
}

/** A store whose journal or copies cannot be read: nothing is undone from it. */
export class StoreDamaged extends Error {
  constructor() {
    super("this session's undo copies are missing or damaged, so nothing was changed");
  }
}

function tooLargeReason(limit: number): string {
  return `the file and its new text are larger than the ${Math.round(limit / 1024 / 1024)} MB a session keeps to undo writes`;
}
