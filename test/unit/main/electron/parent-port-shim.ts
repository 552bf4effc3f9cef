/**
 * Gives a plain Node child the `process.parentPort` that Electron gives a utility process.
 *
 * Loaded with `--import` into the demo agent in utility-agent.test.ts: messages the parent
 * sends over Node IPC arrive as `{ data }` on the port and, as under Electron, wait in a
 * queue until the first 'message' listener is attached.
 */
import { EventEmitter } from 'node:events';

const port = new EventEmitter();
const queued: unknown[] = [];
process.on('message', (data) => {
  if (port.listenerCount('message') > 0 && queued.length === 0) {
    port.emit('message', { data });
  } else {
    queued.push(data);
  }
});
port.on('newListener', (event: string) => {
  if (event === 'message') {
    // After the listener is in place: 'newListener' fires just before it is added.
    setImmediate(() => {
      for (const data of queued.splice(0)) {
        port.emit('message', { data });
      }
    });
  }
});
Object.defineProperty(process, 'parentPort', { value: port });
