/** Temporary folders a test file owns: made when asked, removed after the file's last test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A fresh folder in the system's temporary folder, named `<prefix>…`, removed after all tests. */
export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(folder, { recursive: true, force: true, maxRetries: 3 }));
  return folder;
}

/**
 * Points `AIRLOCK_CONFIG_DIR` (the app's profile and settings) at a fresh {@link tempFolder} for
 * this test file, and puts the variable back after its last test. Returns the folder.
 */
export function useConfigDir(prefix: string): string {
  const previous = process.env.AIRLOCK_CONFIG_DIR;
  const folder = tempFolder(prefix);
  process.env.AIRLOCK_CONFIG_DIR = folder;
  afterAll(() => {
    if (previous === undefined) {
      delete process.env.AIRLOCK_CONFIG_DIR;
    } else {
      process.env.AIRLOCK_CONFIG_DIR = previous;
    }
  });
  return folder;
}
