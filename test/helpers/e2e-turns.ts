/**
 * The e2e project's global set-up: it hands out turns to the e2e files (test/helpers/e2e-turn.ts),
 * so that at most `E2E_FILES_AT_ONCE` of them run at a time while unit files run beside them.
 *
 * A file asks for its turn by connecting to a unix socket, and has it once it reads a byte; it
 * gives it back by closing the socket, which a file whose worker dies does too. Turns are given
 * first come first served.
 */
import { rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The socket an e2e file connects to for its turn. */
    e2eTurnSocket: string;
  }
}

/**
 * How many e2e files run at a time: each spends most of its time waiting on its page and its
 * agents, not on a core. `AIRLOCK_E2E_FILES_AT_ONCE` sets another count (1: one after another).
 */
export const E2E_FILES_AT_ONCE = Number(process.env.AIRLOCK_E2E_FILES_AT_ONCE) || 2;

/** Serves turns at `path`, `count` at a time; returns how to stop serving them. */
async function serveTurns(path: string, count: number): Promise<() => Promise<void>> {
  const waiting: Socket[] = [];
  const holders = new Set<Socket>();
  const next = () => {
    while (holders.size < count && waiting.length > 0) {
      const socket = waiting.shift()!;
      if (!socket.destroyed) {
        holders.add(socket);
        socket.write('1');
      }
    }
  };
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      holders.delete(socket);
      next();
    });
    waiting.push(socket);
    next();
  });
  await rm(path, { force: true });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Opens the turns for the run, and closes them once it is over. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const path = join(tmpdir(), `airlock-e2e-turns-${process.pid}.sock`);
  const close = await serveTurns(path, E2E_FILES_AT_ONCE);
  project.provide('e2eTurnSocket', path);
  return async () => {
    await close();
    await rm(path, { force: true });
  };
}
