/**
 * `npm run bench -- writes`: what keeping an undo copy adds to an agent's write. A 100 KB
 * `fs/write_text_file` over a 100 KB file, written as the core writes it (atomic, flushed), once
 * plain and once with its copy kept in the session's undo store (see main/core/undo/),
 * alternating, over many runs. Goal: the store adds at most 1 ms to the median write.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeTextFile } from '../../main/core/files/write.js';
import { writeKept } from '../../main/core/undo/kept-write.js';
import { WriteStore } from '../../main/core/undo/store.js';
import { median, spread } from './spread.js';

const RUNS = 200;
const SIZE = 100 * 1024;

const fractional = (value: number) => `${value.toFixed(2)} ms`;

export async function writesBench(): Promise<void> {
  const top = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-bench-writes-')));
  try {
    const root = path.join(top, 'work');
    await mkdir(root);
    const file = path.join(root, 'big.txt');
    // The store holds up to its limit: writes beyond it drop the oldest copies, as in use.
    const store = new WriteStore(path.join(top, 'undo'));
    const text = (run: number) => `${String(run).padStart(8, '0')}${'x'.repeat(SIZE - 8)}`;
    await writeFile(file, text(-1));
    const plain: number[] = [];
    const kept: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let start = performance.now();
      await writeTextFile(file, root, text(run), file);
      plain.push(performance.now() - start);
      start = performance.now();
      const outcome = await writeKept(store, {
        real: file,
        root,
        content: text(run + RUNS),
        shown: file,
        turn: 1,
      });
      kept.push(performance.now() - start);
      if (!outcome.kept.kept) {
        throw new Error(`the store did not keep a copy: ${outcome.kept.reason}`);
      }
    }
    const added = median(kept) - median(plain);
    console.log(`agent writes of 100 KB, ${RUNS} runs each:`);
    console.log(`  plain write:             ${spread(plain, fractional)}`);
    console.log(`  with its undo copy kept: ${spread(kept, fractional)}`);
    console.log(`  the store adds ${fractional(added)} to the median write (goal: at most 1 ms)`);
  } finally {
    await rm(top, { recursive: true, force: true });
  }
}
