/** Reads and writes open their folder on the walk they are given, and on the platform's own by default. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type * as Beneath from '../../../../main/core/files/beneath.js';

vi.mock('../../../../main/core/files/beneath.js', async (original) => {
  const actual = await original<typeof Beneath>();
  return { ...actual, openFolder: vi.fn(actual.openFolder) };
});

const { openFolder, platformWalk } = await import('../../../../main/core/files/beneath.js');
const { readText } = await import('../../../../main/core/files/read.js');
const { writeTextFile } = await import('../../../../main/core/files/write.js');

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-walk-choice-')));
  vi.mocked(openFolder).mockClear();
});
afterEach(() => rm(root, { recursive: true, force: true }));

it('passes the walk it is given to the folder it opens, for a read and a write', async () => {
  const file = path.join(root, 'a.txt');
  await writeTextFile(file, root, 'x', file, 'paths');
  await readText(file, file, 'paths');
  await writeTextFile(file, root, 'y', file);
  await readText(file);
  expect(vi.mocked(openFolder).mock.calls).toEqual([
    [root, { createInside: root, walk: 'paths' }],
    [root, { walk: 'paths' }],
    [root, { createInside: root, walk: platformWalk }],
    [root, { walk: platformWalk }],
  ]);
});
