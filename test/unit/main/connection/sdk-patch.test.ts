/**
 * The SDK as Airlock installs it (patches/, applied by `npm install`): its client app parses
 * each `session/update` once, with its own variant only.
 *
 * Unpatched, the app's session router parses every update for the SDK's own session helpers
 * before the app's handler parses it again, whether or not a helper listens: about 40% of the
 * core's CPU while a reply streams in (`npm run bench`). And the generated schema of an update
 * is a union of intersections: an update is parsed by every variant before its own, then parsed
 * twice more by its own and the two results merged, several times the work of one parse. The
 * patched schema picks the variant by its `sessionUpdate` tag and must accept and give back
 * exactly what the generated one did, which the property test below checks.
 */
import * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
// The SDK's schemas of the stable protocol, which its client app parses with (not exported by
// the package's entry points, so reached by path).
import * as schema from '../../../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js';

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

  it('parses an update with its own variant only, once', async () => {
    // `agent_message_chunk` is the generated union's second variant: the first one read the
    // update's content too before it failed on the tag.
    let reads = 0;
    const update = { sessionUpdate: 'agent_message_chunk' };
    Object.defineProperty(update, 'content', {
      enumerable: true,
      get() {
        reads += 1;
        return CHUNK.content;
      },
    });
    const received: acp.SessionNotification[] = [];
    const { connection, send } = connect((params) => received.push(params));
    send(notification({ sessionId: 's1', update }));
    await expect.poll(() => received.length).toBe(1);
    expect(received).toEqual([{ sessionId: 's1', update: CHUNK }]);
    expect(reads).toBe(1);
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

/**
 * The schema of an update as the SDK generates it: each variant the intersection of its fields
 * and its tag, tried in order. What the patched schema must behave exactly like.
 */
const VARIANTS = [
  [schema.zContentChunk, 'user_message_chunk'],
  [schema.zContentChunk, 'agent_message_chunk'],
  [schema.zContentChunk, 'agent_thought_chunk'],
  [schema.zToolCall, 'tool_call'],
  [schema.zToolCallUpdate, 'tool_call_update'],
  [schema.zPlan, 'plan'],
  [schema.zAvailableCommandsUpdate, 'available_commands_update'],
  [schema.zCurrentModeUpdate, 'current_mode_update'],
  [schema.zConfigOptionUpdate, 'config_option_update'],
  [schema.zSessionInfoUpdate, 'session_info_update'],
  [schema.zUsageUpdate, 'usage_update'],
  [schema.zNotice, 'notice'],
  [schema.zCompactionUpdate, 'compaction_update'],
  [schema.zCompactionSummaryChunk, 'compaction_summary_chunk'],
] as const;
const generated = z.union(
  VARIANTS.map(([fields, tag]) => fields.and(z.object({ sessionUpdate: z.literal(tag) }))),
);

/** One valid update of each variant, with its optional fields, as agents send them. */
const VALID: Record<(typeof VARIANTS)[number][1], Record<string, unknown>> = {
  user_message_chunk: { content: { type: 'text', text: 'Fix the bug' }, messageId: 'm1' },
  agent_message_chunk: { content: { type: 'text', text: 'Done.', annotations: { priority: 1 } } },
  agent_thought_chunk: {
    content: { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' },
    _meta: { x: 1 },
  },
  tool_call: {
    toolCallId: 't1',
    title: 'Edit a.ts',
    kind: 'edit',
    status: 'pending',
    content: [
      { type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b' },
      { type: 'content', content: { type: 'text', text: 'note' } },
      { type: 'terminal', terminalId: 'term1' },
    ],
    locations: [{ path: '/w/a.ts', line: 3 }],
    rawInput: { path: '/w/a.ts' },
  },
  tool_call_update: { toolCallId: 't1', status: 'completed', rawOutput: { ok: true } },
  plan: { entries: [{ content: 'Read the code', priority: 'high', status: 'in_progress' }] },
  available_commands_update: {
    availableCommands: [{ name: 'web', description: 'Search the web', input: { hint: 'query' } }],
  },
  current_mode_update: { currentModeId: 'ask' },
  config_option_update: {
    configOptions: [
      {
        id: 'model',
        name: 'Model',
        type: 'select',
        currentValue: 'fast',
        options: [{ value: 'fast', name: 'Fast' }],
      },
    ],
  },
  session_info_update: { title: 'Fix the bug', updatedAt: '2026-12-02T05:00:00Z' },
  usage_update: { used: 1200, size: 200_000, cost: { amount: 0.5, currency: 'USD' } },
  notice: { severity: 'warning', title: 'Rate limited', description: 'Retrying' },
  compaction_update: { compactionId: 'c1', status: 'completed', summary: [] },
  compaction_summary_chunk: { compactionId: 'c1', content: { type: 'text', text: 'So far' } },
};
const TAGS = VARIANTS.map(([, tag]) => tag);

/** Whatever an agent might put in a field: right or wrong. */
const anyValue = fc.oneof(
  fc.constantFrom(...Object.values(VALID).flatMap((update) => Object.values(update))),
  fc.constantFrom('text', 'select', 'pending', 'edit', ...TAGS),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(undefined),
);

/** An update: a valid one of some variant, then changed in a few ways, or not at all. */
const updates = fc
  .tuple(
    fc.constantFrom(...TAGS),
    fc.oneof(fc.constantFrom(...TAGS), fc.string(), fc.constant(undefined)),
    fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...Object.values(VALID).flatMap((update) => Object.keys(update))),
          fc.string({ maxLength: 8 }),
        ),
        anyValue,
      ),
      { maxLength: 3 },
    ),
    fc.boolean(),
  )
  .map(([from, tag, changes, retag]) => {
    const update: Record<string, unknown> = { ...VALID[from], sessionUpdate: from };
    if (retag) {
      update.sessionUpdate = tag;
    }
    for (const [key, value] of changes) {
      update[key] = value;
    }
    return update;
  });

describe("the SDK's schema of an update, as patched", () => {
  it('accepts each valid update and gives it back as the generated schema did', () => {
    for (const tag of TAGS) {
      const update = { ...VALID[tag], sessionUpdate: tag, unknown: 'dropped' };
      const ours = schema.zSessionUpdate.safeParse(update);
      expect(ours.success, tag).toBe(true);
      expect(ours.data, tag).toStrictEqual(generated.parse(update));
      expect(ours.data, tag).not.toHaveProperty('unknown');
    }
  });

  it('accepts and gives back exactly what the generated schema does, for any update', () => {
    fc.assert(
      fc.property(updates, (update) => {
        const ours = schema.zSessionUpdate.safeParse(update);
        const theirs = generated.safeParse(update);
        expect(ours.success).toBe(theirs.success);
        expect(ours.data).toStrictEqual(theirs.data);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses what is not an update of a known variant', () => {
    for (const update of [null, 'text', [], {}, { sessionUpdate: 'future_update', x: 1 }]) {
      expect(schema.zSessionUpdate.safeParse(update).success).toBe(false);
    }
  });
});
