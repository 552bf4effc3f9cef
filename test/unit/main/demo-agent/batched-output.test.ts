import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { batchedOutput, HIGH_WATER_BYTES } from '../../../../main/demo-agent/batched-output.js';

/** A pipe's end that records each write, and answers them when told to. */
function recordingPipe(options: { hold?: boolean; fail?: Error } = {}) {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  const pipe = new Writable({
    highWaterMark: 1 << 30,
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      const answer = () => done(options.fail);
      if (options.hold) {
        held.push(answer);
      } else {
        answer();
      }
    },
  });
  // A failed write also emits 'error' on the pipe; the stream reports it through its writes.
  pipe.on('error', () => undefined);
  return { pipe, writes, release: () => held.splice(0).forEach((answer) => answer()) };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the demo agent's batched stdout", () => {
  it('writes what came in during one turn of the event loop as one write, in order', async () => {
    const { pipe, writes } = recordingPipe();
    const writer = batchedOutput(pipe).getWriter();
    const lines = Array.from({ length: 500 }, (_, n) => `{"n":${n}}\n`);
    for (const line of lines) {
      // As the SDK does: each write awaited before the next.
      await writer.write(bytes(line));
    }
    expect(writes).toEqual([]);
    await writer.close();
    expect(writes).toEqual([lines.join('')]);
  });

  it('writes what comes in while a write is under way once that write is done', async () => {
    const { pipe, writes, release } = recordingPipe({ hold: true });
    const writer = batchedOutput(pipe).getWriter();
    await writer.write(bytes('first\n'));
    await vi.waitFor(() => expect(writes).toEqual(['first\n']));
    await writer.write(bytes('second\n'));
    await writer.write(bytes('third\n'));
    release();
    await vi.waitFor(() => expect(writes).toEqual(['first\n', 'second\nthird\n']));
    const closed = writer.close();
    release();
    await closed;
    expect(writes).toEqual(['first\n', 'second\nthird\n']);
  });

  it('makes a write wait for the pipe once HIGH_WATER_BYTES are waiting', async () => {
    const { pipe, writes, release } = recordingPipe({ hold: true });
    const writer = batchedOutput(pipe).getWriter();
    const half = 'x'.repeat(HIGH_WATER_BYTES / 2 - 1);
    await writer.write(bytes(half));
    let full = false;
    const write = writer.write(bytes(`${half}yy`)).then(() => {
      full = true;
    });
    await vi.waitFor(() => expect(writes).toEqual([`${half}${half}yy`]));
    expect(full).toBe(false);
    release();
    await write;
    expect(full).toBe(true);
  });

  it('fails every write after one the pipe refused', async () => {
    const broken = new Error('EPIPE: the reader is gone');
    const { pipe } = recordingPipe({ fail: broken });
    const writer = batchedOutput(pipe).getWriter();
    await writer.write(bytes('lost\n'));
    await vi.waitFor(() => expect(writer.write(bytes('next\n'))).rejects.toBe(broken));
  });

  it('fails its close when a write the pipe refused was the last', async () => {
    const broken = new Error('EPIPE: the reader is gone');
    const { pipe, writes } = recordingPipe({ fail: broken });
    const writer = batchedOutput(pipe).getWriter();
    await writer.write(bytes('lost\n'));
    await expect(writer.close()).rejects.toBe(broken);
    expect(writes).toEqual(['lost\n']);
  });
});
