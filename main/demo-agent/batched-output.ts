/**
 * The demo agent's stdout as a web stream that gathers what is written in one turn of the event
 * loop into one write.
 *
 * The SDK writes each message on its own and waits for it before the next: a reply streamed as
 * 10,000 small updates is then 10,000 writes to the pipe, most of the agent's time, and as many
 * small reads on Airlock's side. Gathered, they go in a few hundred writes, in order. A write
 * waits for the pipe once `HIGH_WATER_BYTES` are waiting, so a reader that falls behind still
 * slows the agent down; a write that fails fails every write after it.
 */
import type { Writable } from 'node:stream';

/** Bytes waiting for the pipe beyond which a write waits for them to be written. */
export const HIGH_WATER_BYTES = 64 * 1024;

export function batchedOutput(out: Writable): WritableStream<Uint8Array> {
  let pending: Uint8Array[] = [];
  let size = 0;
  let failure: Error | undefined;
  let running: Promise<void> | undefined;

  const flush = () =>
    new Promise<void>((resolve, reject) => {
      const data = Buffer.concat(pending, size);
      pending = [];
      size = 0;
      out.write(data, (error) => (error ? reject(error) : resolve()));
    });

  /** Writes what is waiting once this turn of the event loop is over; resolves once written. */
  const schedule = (): Promise<void> => {
    running ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(flush)
      .catch((error: unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        running = undefined;
        // What came in while the last write was under way.
        if (size > 0 && !failure) {
          void schedule();
        }
      });
    return running;
  };

  return new WritableStream<Uint8Array>({
    write(chunk) {
      if (failure) {
        throw failure;
      }
      pending.push(chunk);
      size += chunk.byteLength;
      const written = schedule();
      return size >= HIGH_WATER_BYTES ? written : undefined;
    },
    async close() {
      // Each write schedules the next while anything is waiting, and a write never rejects.
      while (running) {
        await running;
      }
      if (failure) {
        throw failure;
      }
    },
  });
}
