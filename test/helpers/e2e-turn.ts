/**
 * A set-up file of the e2e project: the file waits for its turn (served by
 * test/helpers/e2e-turns.ts) before its first hook and gives it back after its last, so that only
 * a few e2e files run at a time while unit files run beside them.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, inject } from 'vitest';

/** As long as a file may wait for the files before it: the e2e files take minutes in all. */
const WAIT_MS = 30 * 60_000;

let turn: Socket | undefined;

beforeAll(async () => {
  const path = inject('e2eTurnSocket');
  turn = await new Promise<Socket>((resolve, reject) => {
    const socket = connect(path);
    socket.once('data', () => resolve(socket));
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('the e2e turns closed before this file had one')));
  });
}, WAIT_MS);

afterAll(() => {
  turn?.end();
  turn = undefined;
});
