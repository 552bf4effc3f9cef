/** An atomic write that fails at its last step: the old file stays whole, nothing is left behind. */
import * as acp from '@agentclientprotocol/sdk';
import type * as FsPromises from 'node:fs/promises';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

/** What the folder held when the write came to rename its temporary file into place. */
const seenAtRename: { target?: string; temp?: string } = {};

vi.mock('node:fs/promises', async (original) => {
  const actual = await original<typeof FsPromises>();
  return {
    ...actual,
    rename: vi.fn(async (from: string, to: string) => {
      seenAtRename.target = readFileSync(to, 'utf8');
      seenAtRename.temp = readFileSync(from, 'utf8');
      throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    }),
  };
});

const { writeTextFile } = await import('../../../../main/core/files/write.js');

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'airlock-write-fail-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

it('keeps the old file whole and removes its temporary file when the rename fails', async () => {
  const file = path.join(root, 'a.txt');
  writeFileSync(file, 'original\n');
  const error = await writeTextFile(file, root, 'replacement\n', file).catch(
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(acp.RequestError);
  expect((error as acp.RequestError).message).toContain('(ENOSPC); the file was left as it was');
  // Until the rename, the new text was only in the temporary file, complete.
  expect(seenAtRename).toEqual({ target: 'original\n', temp: 'replacement\n' });
  expect(readFileSync(file, 'utf8')).toBe('original\n');
  expect(readdirSync(root)).toEqual(['a.txt']);
});
