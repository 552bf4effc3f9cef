/**
 * The SDK as Airlock installs it (patches/, applied by `npm install`): its client app parses
 * each `session/update` once. Unpatched, the app's session router parses every update for the
 * SDK's own session helpers before the app's handler parses it again, whether or not a helper
 * listens: about 40% of the core's CPU while a reply streams in (`npm run bench`).
 */
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';

const CHUNK = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } };

/**
 * `session/update` params that count how often they are read: each parse reads `update` once.
 * `extra` is a key the schema does not know, which a parse drops.
 */
function countedUpdate(sessionId: string): { params: object; reads: () => number } {
  let reads = 0;
  const params = { sessionId, extra: 'dropped by the parse' };
  Object.defineProperty(params, 'update', {
    enumerable: true,
    get() {
      reads += 1;
      return CHUNK;
    },
  });
  return { params, reads: () => reads };
}

/**
 * A client app handling `session/update`, connected to a stream the test plays the agent on:
 * `send` delivers a message to the app, `sent` holds what the app wrote.
 */
function connect(onUpdate: (params: acp.SessionNotification) => void) {
  const app = acp
    .client({ name: 'sdk-patch' })
    .onNotification(acp.methods.client.session.update, ({ params }) => onUpdate(params));
  let send: (message: object) => void = () => undefined;
  const readable = new ReadableStream<acp.AnyMessage>({
    start(controller) {
      send = (message) => controller.enqueue(message as acp.AnyMessage);
    },
  });
  const sent: acp.AnyMessage[] = [];
  const writable = new WritableStream<acp.AnyMessage>({
    write: (message) => void sent.push(message),
  });
  const connection = app.connect({ readable, writable });
  return { connection, send: (message: object) => send(message), sent };
}

/** A `session/update` notification with `params`. */
const notification = (params: object) => ({ jsonrpc: '2.0', method: 'session/update', params });

describe('the SDK client app, as patched', () => {
  it("parses each session update once, in the app's handler, with the SDK's schema", async () => {
    const update = countedUpdate('s1');
    const received: acp.SessionNotification[] = [];
    const { connection, send } = connect((params) => received.push(params));
    send(notification(update.params));
    await expect.poll(() => received.length).toBe(1);
    // Parsed (the unknown key dropped), and only once.
    expect(received).toEqual([{ sessionId: 's1', update: CHUNK }]);
    expect(update.reads()).toBe(1);
    connection.close();
  });

  it("still routes updates to the SDK's own session helpers when one listens", async () => {
    const received: acp.SessionNotification[] = [];
    const { connection, send, sent } = connect((params) => received.push(params));
    // The SDK's helper: `session/new`, answered here as an agent would.
    const starting = connection.agent.buildSession('/tmp').start();
    await expect.poll(() => sent.length).toBe(1);
    const request = sent[0] as { id: acp.JsonRpcId; method: string };
    expect(request.method).toBe('session/new');
    send({ jsonrpc: '2.0', id: request.id, result: { sessionId: 's2' } });
    const session = await starting;
    const update = countedUpdate('s2');
    send(notification(update.params));
    await expect.poll(() => received.length).toBe(1);
    // The helper had it first (the router runs before the app's handler): it waits, queued.
    const queued = await Promise.race([
      session.nextUpdate(),
      new Promise((resolve) => setImmediate(() => resolve('nothing queued'))),
    ]);
    expect(queued).toMatchObject({ kind: 'session_update', update: CHUNK });
    // The helper's parse and the handler's: the patch changes nothing while one listens.
    expect(update.reads()).toBe(2);
    session.dispose();
    connection.close();
  });
});
