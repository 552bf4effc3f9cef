/**
 * The demo agent's input when Electron runs it as a utility process.
 *
 * A utility process has stdout and stderr pipes but no stdin, so the Electron host sends the
 * agent's input bytes as messages on `process.parentPort` instead (see
 * main/electron/utility-agent.ts). Everywhere else the input is plain stdin.
 */
import { Readable } from 'node:stream';

/**
 * One message from the parent: a chunk of input bytes, or `null` for the end of input.
 *
 * Structured clone turns a Buffer into a plain Uint8Array on the way.
 */
export type InputMessage = Uint8Array | null;

/** The part of Electron's `process.parentPort` the input needs. */
export type ParentPortLike = {
  on(event: 'message', listener: (message: { data: unknown }) => void): unknown;
};

/** A readable stream of the input bytes the parent sends on `port`. */
export function parentPortInput(port: ParentPortLike): Readable {
  let ended = false;
  // The port cannot be paused, so there is nothing for read() to ask for.
  const input = new Readable({ read: () => undefined });
  port.on('message', ({ data }) => {
    if (ended) {
      return;
    }
    if (data === null) {
      ended = true;
      input.push(null);
    } else if (data instanceof Uint8Array) {
      input.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
  });
  return input;
}

/** The agent's input: the parent port under Electron's utilityProcess, else stdin. */
export function agentInput(): Readable {
  // Electron adds parentPort to `process` in a utility process; plain Node has none.
  const port = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  return port ? parentPortInput(port) : process.stdin;
}
