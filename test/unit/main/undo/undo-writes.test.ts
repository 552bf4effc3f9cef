import fc from 'fast-check';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeKept } from '../../../../main/core/undo/kept-write.js';
import { undoWrite, UndoRefused } from '../../../../main/core/undo/restore.js';
import { MAX_FILE_BYTES } from '../../../../main/core/files/read.js';
import {
  MAX_RECORDS,
  sha256,
  WriteStore,
  type KeptWrite,
  type WriteRecord,
} from '../../../../main/core/undo/store.js';

let root: string;
let storeDir: string;
beforeEach(async () => {
  const top = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-undo-')));
  root = path.join(top, 'work');
  storeDir = path.join(top, 'store');
  mkdirSync(root);
});
afterEach(() => rm(path.dirname(root), { recursive: true, force: true }));

/** Writes `content` at `name` in the session folder as an agent write, keeping a copy. */
async function agentWrite(store: WriteStore, name: string, content: string, turn = 1) {
  const real = path.join(root, name);
  const outcome = await writeKept(store, { real, root, content, shown: real, turn });
  if (!outcome.kept.kept) {
    throw new Error(`not kept: ${outcome.kept.reason}`);
  }
  return outcome.kept.kept;
}

const at = (name: string) => path.join(root, name);
const modeOf = (name: string) => statSync(at(name)).mode & 0o7777;

describe('undoing an agent write', () => {
  it('puts back the bytes and mode a write replaced', async () => {
    const store = new WriteStore(storeDir);
    writeFileSync(at('run.sh'), 'echo old\n');
    chmodSync(at('run.sh'), 0o751);
    const record = await agentWrite(store, 'run.sh', 'echo new\n');
    expect(readFileSync(at('run.sh'), 'utf8')).toBe('echo new\n');

    await expect(undoWrite(store, record, root)).resolves.toEqual({ kind: 'undone' });
    expect(readFileSync(at('run.sh'), 'utf8')).toBe('echo old\n');
    expect(modeOf('run.sh')).toBe(0o751);
    // Done once: the record is no longer offered, and its copies are gone.
    await expect(store.records()).resolves.toEqual([]);
    expect(readdirSync(storeDir).sort()).toEqual(['journal.jsonl']);
  });

  it('removes a file the write created, and keeps binary bytes whole', async () => {
    const store = new WriteStore(storeDir);
    const created = await agentWrite(store, 'new/notes.txt', 'fresh\n');
    const bytes = Buffer.from([0, 1, 2, 255, 254]);
    writeFileSync(at('image.bin'), bytes);
    const replaced = await agentWrite(store, 'image.bin', 'now text\n');

    await undoWrite(store, created, root);
    expect(existsSync(at('new/notes.txt'))).toBe(false);
    await undoWrite(store, replaced, root);
    expect(readFileSync(at('image.bin')).equals(bytes)).toBe(true);
  });

  it('asks before undoing over a change made since, and restores when told to', async () => {
    const store = new WriteStore(storeDir);
    writeFileSync(at('a.txt'), 'before\n');
    const record = await agentWrite(store, 'a.txt', 'agent\n');
    writeFileSync(at('a.txt'), 'mine\n');

    await expect(undoWrite(store, record, root)).resolves.toEqual({
      kind: 'changed',
      before: { kind: 'text', text: 'before\n' },
      agent: { kind: 'text', text: 'agent\n' },
      now: { kind: 'text', text: 'mine\n' },
    });
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('mine\n');
    await expect(store.records()).resolves.toHaveLength(1);

    await expect(undoWrite(store, record, root, { force: true })).resolves.toEqual({
      kind: 'undone',
    });
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('before\n');
  });

  it('counts a file deleted since as changed, and one already as before as undone', async () => {
    const store = new WriteStore(storeDir);
    writeFileSync(at('gone.txt'), 'before\n');
    const deleted = await agentWrite(store, 'gone.txt', 'agent\n');
    rmSync(at('gone.txt'));
    await expect(undoWrite(store, deleted, root)).resolves.toMatchObject({
      kind: 'changed',
      now: { kind: 'missing' },
    });

    const created = await agentWrite(store, 'made.txt', 'agent\n');
    rmSync(at('made.txt'));
    await expect(undoWrite(store, created, root)).resolves.toEqual({ kind: 'undone' });
    expect(existsSync(at('made.txt'))).toBe(false);

    writeFileSync(at('back.txt'), 'before\n');
    const putBack = await agentWrite(store, 'back.txt', 'agent\n');
    writeFileSync(at('back.txt'), 'before\n');
    await expect(undoWrite(store, putBack, root)).resolves.toEqual({ kind: 'undone' });
    await expect(store.record(putBack.id)).resolves.toBeUndefined();
  });

  it('puts a file back into its folder removed since, and leaves a created one gone', async () => {
    const store = new WriteStore(storeDir);
    mkdirSync(at('old'));
    writeFileSync(at('old/a.txt'), 'before\n');
    const replaced = await agentWrite(store, 'old/a.txt', 'agent\n');
    mkdirSync(at('new'));
    const created = await agentWrite(store, 'new/a.txt', 'agent\n');
    rmSync(at('old'), { recursive: true });
    rmSync(at('new'), { recursive: true });

    await expect(undoWrite(store, created, root)).resolves.toEqual({ kind: 'undone' });
    expect(existsSync(at('new'))).toBe(false);
    // Asking first changes nothing: the folder is made again only for the file to come back.
    await expect(undoWrite(store, replaced, root)).resolves.toMatchObject({ kind: 'changed' });
    expect(existsSync(at('old'))).toBe(false);
    await expect(undoWrite(store, replaced, root, { force: true })).resolves.toEqual({
      kind: 'undone',
    });
    expect(readFileSync(at('old/a.txt'), 'utf8')).toBe('before\n');
  });

  it('refuses, changing nothing, when the path is now a folder, a symlink or outside', async () => {
    const store = new WriteStore(storeDir);
    const outside = path.join(path.dirname(root), 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'x.txt'), 'theirs\n');

    const folder = await agentWrite(store, 'f.txt', 'agent\n');
    rmSync(at('f.txt'));
    mkdirSync(at('f.txt'));
    await expect(undoWrite(store, folder, root)).rejects.toThrow(
      new UndoRefused(`${at('f.txt')} is a folder, not a file; nothing was restored`),
    );
    expect(statSync(at('f.txt')).isDirectory()).toBe(true);

    const link = await agentWrite(store, 'l.txt', 'agent\n');
    rmSync(at('l.txt'));
    symlinkSync(path.join(outside, 'x.txt'), at('l.txt'));
    await expect(undoWrite(store, link, root, { force: true })).rejects.toThrow(
      /no longer inside the session's folder/,
    );

    mkdirSync(at('sub'));
    const moved = await agentWrite(store, 'sub/x.txt', 'agent\n');
    rmSync(at('sub'), { recursive: true });
    symlinkSync(outside, at('sub'));
    await expect(undoWrite(store, moved, root, { force: true })).rejects.toBeInstanceOf(
      UndoRefused,
    );
    expect(readFileSync(path.join(outside, 'x.txt'), 'utf8')).toBe('theirs\n');

    rmSync(root, { recursive: true });
    await expect(undoWrite(store, folder, root)).rejects.toThrow(
      new UndoRefused(`${at('f.txt')} was not restored: the session's folder is missing`),
    );
  });

  it('keeps the replaced file itself, not a copy, and refuses it once changed in place', async () => {
    const store = new WriteStore(storeDir);
    writeFileSync(at('a.txt'), 'before\n');
    const other = path.join(path.dirname(root), 'other-name.txt');
    linkSync(at('a.txt'), other);
    const inode = statSync(at('a.txt')).ino;
    const record = await agentWrite(store, 'a.txt', 'agent\n');
    expect(statSync(path.join(storeDir, `${record.id}.before`)).ino).toBe(inode);

    // The kept file had another name, through which it was changed: it is not restored.
    writeFileSync(other, 'changed elsewhere\n');
    await expect(undoWrite(store, record, root)).rejects.toThrow(/missing or damaged/);
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('agent\n');
  });

  it('keeps no record of a write that failed after its copy was kept', async () => {
    /** A store whose keeping is followed by the write's folder going away: the write fails. */
    class FolderGoes extends WriteStore {
      override async keep(write: KeptWrite) {
        const outcome = await super.keep(write);
        rmSync(at('gone'), { recursive: true });
        return outcome;
      }
    }
    const store = new FolderGoes(storeDir);
    mkdirSync(at('gone'));
    writeFileSync(at('gone/a.txt'), 'before\n');
    await expect(
      writeKept(store, { real: at('gone/a.txt'), root, content: 'x', shown: 'a', turn: 1 }),
    ).rejects.toThrow(/could not be written/);
    await expect(store.records()).resolves.toEqual([]);

    // Refused before anything was kept.
    mkdirSync(at('folder'));
    await expect(
      writeKept(store, { real: at('folder'), root, content: 'x', shown: 'folder', turn: 1 }),
    ).rejects.toThrow('folder is a folder, not a file');
    await expect(store.records()).resolves.toEqual([]);
  });

  it('writes over a file too large to copy, saying it cannot be undone', async () => {
    const store = new WriteStore(storeDir);
    writeFileSync(at('big.bin'), Buffer.alloc(MAX_FILE_BYTES + 1));
    const outcome = await writeKept(store, {
      real: at('big.bin'),
      root,
      content: 'small\n',
      shown: 'big.bin',
      turn: 1,
    });
    expect(outcome.kept).toEqual({
      kept: undefined,
      reason: `the file it replaced could not be copied (big.bin is too large (10 MB; Airlock reads and writes files up to 10 MB))`,
      dropped: [],
      restarted: false,
    });
    expect(readFileSync(at('big.bin'), 'utf8')).toBe('small\n');
    await expect(store.records()).resolves.toEqual([]);
  });

  it('refuses when the store is damaged or its copies are missing', async () => {
    const store = new WriteStore(storeDir);
    writeFileSync(at('a.txt'), 'before\n');
    const record = await agentWrite(store, 'a.txt', 'agent\n');
    rmSync(path.join(storeDir, `${record.id}.before`));
    await expect(undoWrite(store, record, root)).rejects.toThrow(/missing or damaged/);
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('agent\n');

    writeFileSync(path.join(storeDir, 'journal.jsonl'), '{"version":1,"next":0}\n{"add":"nope"}\n');
    const reopened = new WriteStore(storeDir);
    await expect(reopened.records()).rejects.toThrow(/missing or damaged/);
    // A new write starts the store afresh and says so.
    const outcome = await writeKept(reopened, {
      real: at('b.txt'),
      root,
      content: 'b\n',
      shown: 'b.txt',
      turn: 2,
    });
    expect(outcome.kept).toMatchObject({ restarted: true, kept: { shown: 'b.txt' } });
    await expect(reopened.records()).resolves.toHaveLength(1);
  });
});

describe('the store of one session', () => {
  it('drops the oldest records past its limit, and says which', async () => {
    const store = new WriteStore(storeDir, 100);
    const first = await agentWrite(store, 'a.txt', 'x'.repeat(40));
    const second = await agentWrite(store, 'b.txt', 'y'.repeat(40));
    const third = await writeKept(store, {
      real: at('c.txt'),
      root,
      content: 'z'.repeat(40),
      shown: 'c.txt',
      turn: 1,
    });
    expect(third.kept.dropped.map((record) => record.id)).toEqual([first.id]);
    expect((await store.records()).map((record) => record.id)).toEqual([
      second.id,
      third.kept.kept!.id,
    ]);
    expect(existsSync(path.join(storeDir, `${first.id}.after`))).toBe(false);
    // What it dropped stays dropped for the next run of the app.
    await expect(new WriteStore(storeDir, 100).records()).resolves.toEqual(await store.records());

    const huge = await writeKept(store, {
      real: at('d.txt'),
      root,
      content: 'w'.repeat(101),
      shown: 'd.txt',
      turn: 1,
    });
    expect(huge.kept).toMatchObject({ kept: undefined, reason: expect.stringContaining('MB') });
    expect(readFileSync(at('d.txt'), 'utf8')).toHaveLength(101);

    // The limit counts the file replaced as well as the new text, and holds exactly as much.
    writeFileSync(at('e.txt'), 'v'.repeat(60));
    const both = await writeKept(store, {
      real: at('e.txt'),
      root,
      content: 'u'.repeat(50),
      shown: 'e.txt',
      turn: 1,
    });
    expect(both.kept.kept).toBeUndefined();
    const exact = await writeKept(store, {
      real: at('f.txt'),
      root,
      content: 'f'.repeat(100),
      shown: 'f.txt',
      turn: 1,
    });
    expect(exact.kept.kept).toMatchObject({ shown: 'f.txt', bytes: 100 });
    await expect(store.records()).resolves.toEqual([exact.kept.kept]);
  });

  it('keeps a copy when it cannot keep the file itself, readable by the user alone', async () => {
    const store = new WriteStore(storeDir);
    const bytes = Buffer.from('before\n');
    const write = { real: at('a'), root, shown: 'a', turn: 0, after: 'after\n' };
    const file = { kind: 'file', bytes, mode: 0o644 } as const;
    const copied = await store.keep({ ...write, before: file });
    // Another filesystem, say: no hard link.
    const unlinked = await store.keep({ ...write, before: { ...file, link: async () => false } });
    for (const { kept } of [copied, unlinked]) {
      await expect(store.before(kept!)).resolves.toEqual(bytes);
    }
    expect(statSync(storeDir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(storeDir)) {
      expect(`${name} ${(statSync(path.join(storeDir, name)).mode & 0o777).toString(8)}`).toBe(
        `${name} 600`,
      );
    }
  });

  it('keeps at most MAX_RECORDS records', async () => {
    const store = new WriteStore(storeDir);
    for (let i = 0; i <= MAX_RECORDS; i++) {
      await store.keep({
        real: at('a'),
        root,
        shown: 'a',
        turn: 0,
        before: { kind: 'missing' },
        after: '',
      });
    }
    const records = await store.records();
    expect(records).toHaveLength(MAX_RECORDS);
    expect(records[0]!.id).toBe('w1');
  });

  it('lasts across a restart, with ids that keep counting', async () => {
    const store = new WriteStore(storeDir);
    const record = await agentWrite(store, 'a.txt', 'a\n');
    const again = new WriteStore(storeDir);
    await expect(again.record(record.id)).resolves.toEqual(record);
    const next = await agentWrite(again, 'b.txt', 'b\n');
    expect(next.id).not.toBe(record.id);
    expect(record.after).toBe(sha256('a\n'));
  });

  it('reads its journal after a cut-short append, and after writing it afresh', async () => {
    const store = new WriteStore(storeDir);
    const kept: WriteRecord[] = [];
    for (let i = 0; i < 80; i++) {
      kept.push(await agentWrite(store, `f${i % 3}.txt`, `${i}\n`));
    }
    // Undoing most of them makes the journal far longer than what it describes.
    for (const record of kept.slice(0, 70).reverse()) {
      await store.markUndone(record.id);
    }
    const journal = path.join(storeDir, 'journal.jsonl');
    const lines = readFileSync(journal, 'utf8').split('\n').length - 1;
    expect(lines).toBeLessThan(80);
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"undone":"w7`);

    const again = new WriteStore(storeDir);
    await expect(again.records()).resolves.toEqual(kept.slice(70));
    const next = await agentWrite(again, 'g.txt', 'g\n');
    expect(kept.map((record) => record.id)).not.toContain(next.id);
  });
});

/** The regular files under `dir`: relative name → bytes (base64) and mode. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else {
        files[path.relative(dir, full)] =
          `${(statSync(full).mode & 0o7777).toString(8)}:${readFileSync(full).toString('base64')}`;
      }
    }
  };
  walk(dir);
  return files;
}

type Step =
  | { kind: 'write'; name: string; text: string }
  | { kind: 'edit'; name: string; text: string; mode: number }
  | { kind: 'undo'; pick: number; force: boolean };

describe('any sequence of writes, edits and undos', () => {
  it('leaves the folder, byte for byte and mode for mode, as the undo said', async () => {
    const names = ['a.txt', 'b/c.txt', 'b/d.bin'];
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('write'), name: fc.constantFrom(...names), text: fc.string() }),
      fc.record({
        kind: fc.constant('edit'),
        name: fc.constantFrom(...names),
        text: fc.string(),
        mode: fc.constantFrom(0o600, 0o644, 0o755),
      }),
      fc.record({ kind: fc.constant('undo'), pick: fc.nat(), force: fc.boolean() }),
    ) as fc.Arbitrary<Step>;

    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        rmSync(root, { recursive: true, force: true });
        rmSync(storeDir, { recursive: true, force: true });
        mkdirSync(root);
        const store = new WriteStore(storeDir);
        /** Each kept write and the folder's files just before it. */
        const befores = new Map<string, Record<string, string>>();
        for (const each of steps) {
          if (each.kind === 'write') {
            const shot = snapshot(root);
            const record = await agentWrite(store, each.name, each.text);
            befores.set(record.id, shot);
            expect(readFileSync(at(each.name), 'utf8')).toBe(each.text);
          } else if (each.kind === 'edit') {
            mkdirSync(path.dirname(at(each.name)), { recursive: true });
            writeFileSync(at(each.name), each.text);
            chmodSync(at(each.name), each.mode);
          } else {
            const open = await store.records();
            if (open.length === 0) {
              continue;
            }
            const record: WriteRecord = open[each.pick % open.length]!;
            const name = path.relative(root, record.real);
            const was = snapshot(root);
            const outcome = await undoWrite(store, record, root, { force: each.force });
            const now = snapshot(root);
            if (outcome.kind === 'changed') {
              // Nothing changed, and it said why: the file is not what the agent wrote.
              expect(now).toEqual(was);
              expect(each.force).toBe(false);
              expect(was[name]?.split(':')[1]).not.toBe(
                Buffer.from(readFileSync(path.join(storeDir, `${record.id}.after`))).toString(
                  'base64',
                ),
              );
            } else {
              // That one file is as it was before the write; every other file is untouched.
              const expected = { ...was };
              const before = befores.get(record.id)![name];
              if (before === undefined) {
                delete expected[name];
              } else {
                expected[name] = before;
              }
              expect(now).toEqual(expected);
              await expect(store.record(record.id)).resolves.toBeUndefined();
            }
          }
        }
      }),
      {
        numRuns: 60,
        examples: [
          // Written twice the same, then only its mode changed: the undo puts the mode back too.
          [
            [
              { kind: 'write', name: 'b/c.txt', text: '' },
              { kind: 'write', name: 'b/c.txt', text: '' },
              { kind: 'edit', name: 'b/c.txt', text: '', mode: 0o600 },
              { kind: 'undo', pick: 1, force: false },
            ],
          ],
        ],
      },
    );
  });
});
