/**
 * The built web host starts on what its first screen needs: what only a sign-in terminal, an
 * agent's install or a URL's check needs loads when first used (main/core/on-first-use.ts), so
 * that none of it is in the time to the host's link.
 */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { deadline } from '../helpers/core-harness.js';

const webHost = fileURLToPath(new URL('../../out/main/web.js', import.meta.url));
const logLoads = fileURLToPath(new URL('../fixtures/node/module-loads.mjs', import.meta.url));

/** Loaded on first use, never at start. */
const LATER = [
  '@lydell/node-pty',
  '@xterm/headless',
  'tar-stream',
  'yauzl',
  'unicode-confusables',
] as const;

it('prints its link without loading what only later work needs', async () => {
  const config = await mkdtemp(join(tmpdir(), 'airlock-start-'));
  const host = spawn(process.execPath, ['--import', logLoads, webHost], {
    env: { ...process.env, AIRLOCK_CONFIG_DIR: config, AIRLOCK_CWD: config },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const loaded: string[] = [];
  createInterface({ input: host.stderr }).on('line', (line) => {
    const match = /^airlock-load (.+)$/.exec(line);
    if (match) {
      loaded.push(match[1]!);
    }
  });
  try {
    await deadline(
      new Promise<void>((resolve, reject) => {
        createInterface({ input: host.stdout }).on('line', (line) => {
          if (line.includes('#token=')) {
            resolve();
          }
        });
        host.once('exit', (code) => reject(new Error(`the web host exited (${code})`)));
      }),
      "the web host's link",
    );
    // The log works: the bundled code asks the loader for Node's own modules.
    expect(loaded).toContain('http');
    expect(loaded.filter((request) => LATER.some((later) => request.includes(later)))).toEqual([]);
  } finally {
    host.kill();
  }
});
