/** The composer's file completion: what it offers, in which order, and its budget. */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { completeFiles, DEFAULT_BUDGET, matchRank } from '../../../../main/core/files/complete.js';

let root: string;

/** Creates files (and their folders) under the root. */
function files(...names: string[]) {
  for (const name of names) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), name);
  }
}

/**
 * The completions for `query` with the default budget on a clock that stands still: these are
 * tests of what is offered and in which order, which a slow machine's clock must not cut short
 * (the time budget has tests of its own below).
 */
function complete(query: string) {
  return completeFiles(root, query, DEFAULT_BUDGET, () => 0);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'airlock-complete-')));
});

describe('matchRank', () => {
  it('ranks a name that starts with the query, then contains it, then the path, then fuzzy', () => {
    expect(matchRank('src/notes.md', 'note')).toBe(0);
    expect(matchRank('src/my-notes.md', 'note')).toBe(1);
    expect(matchRank('notes/index.md', 'note')).toBe(2);
    expect(matchRank('renderer/composer.tsx', 'cmpsr')).toBe(3);
    expect(matchRank('renderer/composer.tsx', 'zz')).toBeUndefined();
    expect(matchRank('README.md', 'readme')).toBe(0);
  });
});

describe('completeFiles', () => {
  it('offers files (not folders) shallow before deep, best fit first', async () => {
    files('deep/er/notes.md', 'notes.md', 'docs/notes-old.md', 'docs/my-notes.md', 'src/a.ts');
    const { paths, partial } = await complete('notes');
    expect(paths).toEqual([
      'notes.md',
      'docs/notes-old.md',
      'deep/er/notes.md',
      'docs/my-notes.md',
    ]);
    expect(partial).toBe(false);
  });

  it('orders files of the same fit and depth shorter first, then by name', async () => {
    const names = ['ab.md', 'aa.md', 'a.md', 'abc.md', 'ba.md', 'b.md', 'aaa.md', 'c.md', 'bb.md'];
    files(...names);
    expect((await complete('')).paths).toEqual([
      'a.md',
      'b.md',
      'c.md',
      'aa.md',
      'ab.md',
      'ba.md',
      'bb.md',
      'aaa.md',
      'abc.md',
    ]);
  });

  it('orders files of the same fit shallow before deep, whatever their length', async () => {
    files(
      'x/y/z/a.md',
      'x/y/a.md',
      'x/a.md',
      'a-long-name.md',
      'x/a-long-name.md',
      'x/y/a-long.md',
    );
    expect((await complete('')).paths).toEqual([
      'a-long-name.md',
      'x/a.md',
      'x/a-long-name.md',
      'x/y/a.md',
      'x/y/a-long.md',
      'x/y/z/a.md',
    ]);
  });

  it('skips hidden folders, dependency folders and hidden files', async () => {
    files(
      '.git/config.md',
      'node_modules/x/config.md',
      '__pycache__/config.md',
      'bower_components/config.md',
      'target/config.md',
      'a/config.md',
      '.config.md',
    );
    expect((await complete('config')).paths).toEqual(['a/config.md']);
    // A hidden file when asked for by its dot.
    expect((await complete('.config')).paths).toEqual(['.config.md']);
  });

  it('offers a symlink to a file inside, never one that leads out, and never walks a linked folder', async () => {
    files('real/target.md');
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'airlock-outside-')));
    writeFileSync(path.join(outside, 'target-out.md'), 'x');
    mkdirSync(path.join(outside, 'sub'));
    writeFileSync(path.join(outside, 'sub', 'target-sub.md'), 'x');
    symlinkSync(path.join(root, 'real', 'target.md'), path.join(root, 'target-link.md'));
    symlinkSync(path.join(outside, 'target-out.md'), path.join(root, 'target-escape.md'));
    symlinkSync(path.join(outside, 'sub'), path.join(root, 'linked-folder'));
    // A loop: a folder that links to the root; and a link to a folder inside, not a file.
    symlinkSync(root, path.join(root, 'real', 'loop'));
    symlinkSync(path.join(root, 'real'), path.join(root, 'target-folder'));
    expect((await complete('target')).paths).toEqual(['target-link.md', 'real/target.md']);
  });

  it('answers at most the limit', async () => {
    files(...Array.from({ length: 80 }, (_, i) => `f${i}.txt`));
    const { paths } = await complete('');
    expect(paths).toHaveLength(DEFAULT_BUDGET.limit);
  });

  it('stops at its entry budget and says the answer is partial', async () => {
    files('a1.md', 'a2.md', 'a3.md', 'deep/a4.md');
    const budget = { ...DEFAULT_BUDGET, maxEntries: 3 };
    const { paths, partial } = await completeFiles(root, 'a', budget);
    expect(partial).toBe(true);
    expect(paths.length).toBeLessThanOrEqual(3);
    expect(paths).not.toContain('deep/a4.md');
  });

  it('stops at its time budget and says the answer is partial', async () => {
    files('a1.md', 'a2.md', 'a3.md');
    let clock = 0;
    // Each reading of the clock is 100 ms later: the second entry is past a 150 ms budget.
    const now = () => (clock += 100);
    const { paths, partial } = await completeFiles(
      root,
      'a',
      { ...DEFAULT_BUDGET, maxMs: 150 },
      now,
    );
    expect(partial).toBe(true);
    expect(paths).toHaveLength(1);
  });

  it('answers in full when the walk takes exactly its budget', async () => {
    files('a1.md', 'a2.md', 'a3.md');
    const budget = { ...DEFAULT_BUDGET, maxEntries: 3, maxMs: 0 };
    // The clock stands still: each entry is read at exactly the time budget.
    const { paths, partial } = await completeFiles(root, 'a', budget, () => 0);
    expect(partial).toBe(false);
    expect(paths).toHaveLength(3);
  });

  it('answers nothing for a folder that cannot be read', async () => {
    expect(await completeFiles(path.join(root, 'missing'), '')).toEqual({
      paths: [],
      partial: false,
    });
  });
});
