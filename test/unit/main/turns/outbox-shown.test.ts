/**
 * The shown tab first: once a UI names the tab it shows, that tab's events go out at the end of
 * their macrotask as before, while the other tabs' wait at most {@link HIDDEN_WAIT_MS} and go out
 * together, in one batch; a card, a summary change, showing the tab or a flush sends what a
 * tab holds at once. Every event reaches its tab, in order, and the transcript is the same.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOLD_CHARS, HOLD_EVENTS } from '../../../../main/core/held-appends.js';
import { HIDDEN_WAIT_MS } from '../../../../main/core/outbox.js';
import { Transcript } from '../../../../main/core/transcript.js';
import { MAX_CHUNK_CHARS } from '../../../../main/core/updates.js';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { recordingOutbox } from '../../../helpers/recording-outbox.js';

const chunk = (text: string, role: 'agent' | 'thought' = 'agent'): TranscriptEvent => ({
  type: 'chunk',
  role,
  text,
});
const permission = (promptKey: string) =>
  ({ type: 'permission', promptKey }) as unknown as TranscriptEvent;

/** The end of the macrotask: what waits for it is sent. */
const endOfMacrotask = () => new Promise((resolve) => setImmediate(resolve));

/** Lets `ms` pass on the fake clock, then the macrotask end after it. */
async function wait(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await endOfMacrotask();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the events of the tab shown and of the others', () => {
  it('sends the shown tab’s at the end of the macrotask, the others’ once HIDDEN_WAIT_MS is up', async () => {
    const { outbox, eventsOf } = recordingOutbox();
    outbox.show('shown');
    outbox.sink.append('hidden', chunk('one '));
    outbox.sink.append('shown', chunk('here'));
    outbox.sink.append('hidden', chunk('two'));
    await endOfMacrotask();
    expect(eventsOf('shown')).toEqual([chunk('here')]);
    expect(eventsOf('hidden')).toEqual([]);

    await wait(HIDDEN_WAIT_MS - 1);
    expect(eventsOf('hidden')).toEqual([]);
    await wait(1);
    // Its text merged into one chunk.
    expect(eventsOf('hidden')).toEqual([chunk('one two')]);
  });

  it('sends every tab’s at the end of the macrotask while no tab is named shown', async () => {
    const { outbox, eventsOf } = recordingOutbox();
    outbox.sink.append('a', chunk('one'));
    outbox.sink.append('b', chunk('two'));
    await endOfMacrotask();
    expect(eventsOf('a')).toEqual([chunk('one')]);
    expect(eventsOf('b')).toEqual([chunk('two')]);
  });

  it('keeps text of another role, and events that are not text, apart and in order', async () => {
    const { outbox, eventsOf } = recordingOutbox();
    outbox.show('shown');
    const turnEnd = { type: 'turn_end', stopReason: 'end_turn' } as unknown as TranscriptEvent;
    for (const event of [chunk('a'), chunk('b'), chunk('t', 'thought'), chunk('c'), turnEnd]) {
      outbox.sink.append('hidden', event);
    }
    await wait(HIDDEN_WAIT_MS);
    expect(eventsOf('hidden')).toEqual([chunk('ab'), chunk('t', 'thought'), chunk('c'), turnEnd]);
  });

  it('sends what it held in one batch, its text in chunks of at most MAX_CHUNK_CHARS', async () => {
    const { outbox, sent, eventsOf } = recordingOutbox();
    outbox.show('shown');
    const small = (n: number) => Array.from({ length: n }, (_, i) => `${i % 10}`.repeat(100));
    const pieces = [...small(25), 'L'.repeat(MAX_CHUNK_CHARS - 100), ...small(5)];
    for (const piece of pieces) {
      outbox.sink.append('hidden', chunk(piece));
    }
    await wait(HIDDEN_WAIT_MS);
    expect(sent).toHaveLength(1);
    const texts = eventsOf('hidden').map((event) => (event as { text: string }).text);
    expect(texts.join('')).toBe(pieces.join(''));
    expect(texts.map((text) => text.length)).toEqual([2_500, MAX_CHUNK_CHARS, 400]);
  });
});

describe('what a hidden tab holds goes at once', () => {
  it('when a card that waits on the user comes: it and what came before it, in its macrotask', async () => {
    const { outbox, sent, eventsOf } = recordingOutbox();
    outbox.show('shown');
    outbox.sink.append('hidden', chunk('before'));
    outbox.sink.append('hidden', permission('p1'));
    await endOfMacrotask();
    expect(eventsOf('hidden')).toEqual([chunk('before'), permission('p1')]);
    expect(sent.every((item) => item.at === 0)).toBe(true);
  });

  it('when its summary changes: its appends go first, then the summary', async () => {
    const { outbox, sent } = recordingOutbox();
    outbox.show('shown');
    outbox.sink.append('hidden', chunk('text'));
    outbox.sink.changed('hidden');
    await endOfMacrotask();
    expect(sent.map(({ channel, key }) => [channel, key])).toEqual([
      ['append', 'hidden'],
      ['change', 'hidden'],
    ]);
  });

  it('when it is shown: what it held, then what follows, each once', async () => {
    const { outbox, eventsOf } = recordingOutbox();
    outbox.show('a');
    outbox.sink.append('b', chunk('held '));
    outbox.show('b');
    outbox.sink.append('b', chunk('new'));
    outbox.sink.append('a', chunk('now hidden'));
    await endOfMacrotask();
    expect(eventsOf('b')).toEqual([chunk('held new')]);
    expect(eventsOf('a')).toEqual([]);
    await wait(HIDDEN_WAIT_MS);
    expect(eventsOf('a')).toEqual([chunk('now hidden')]);
  });

  it('when the tab shown closes: what the others held, and from then on what they send', async () => {
    const { outbox, eventsOf } = recordingOutbox();
    outbox.show('shown');
    outbox.sink.append('other', chunk('held '));
    // Another tab closing changes nothing.
    outbox.tabClosed('closed', { key: 'closed' } as never);
    outbox.sink.append('other', chunk('still '));
    await endOfMacrotask();
    expect(eventsOf('other')).toEqual([]);
    outbox.tabClosed('shown', { key: 'shown' } as never);
    outbox.sink.append('other', chunk('then'));
    await endOfMacrotask();
    expect(eventsOf('other')).toEqual([chunk('held still then')]);
    // Until a UI names the tab it shows next.
    outbox.show('next');
    outbox.sink.append('other', chunk('later'));
    await endOfMacrotask();
    expect(eventsOf('other')).toEqual([chunk('held still then')]);
  });

  it('when the outbox is flushed (a transcript is fetched): at once, before the call returns', () => {
    const { outbox, eventsOf } = recordingOutbox();
    outbox.show('shown');
    outbox.sink.append('hidden', chunk('held'));
    outbox.flush();
    expect(eventsOf('hidden')).toEqual([chunk('held')]);
  });

  it(`when it holds ${HOLD_CHARS} characters or ${HOLD_EVENTS} events`, async () => {
    const { outbox, eventsOf } = recordingOutbox();
    outbox.show('shown');
    // Pieces that make up HOLD_CHARS exactly: the one that reaches it releases them.
    const piece = 'x'.repeat(1024);
    for (let held = 0; held + piece.length < HOLD_CHARS; held += piece.length) {
      outbox.sink.append('text', chunk(piece));
    }
    const prompt: TranscriptEvent = { type: 'prompt', text: 'p' };
    for (let n = 0; n < HOLD_EVENTS - 1; n++) {
      outbox.sink.append('events', prompt);
    }
    await endOfMacrotask();
    expect(eventsOf('text')).toEqual([]);
    expect(eventsOf('events')).toEqual([]);

    outbox.sink.append('text', chunk(piece));
    outbox.sink.append('events', prompt);
    await endOfMacrotask();
    expect(
      eventsOf('text')
        .map((event) => (event as { text: string }).text)
        .join(''),
    ).toBe(piece.repeat(Math.ceil(HOLD_CHARS / piece.length)));
    expect(eventsOf('events')).toHaveLength(HOLD_EVENTS);
  });
});

/** One step: an append to a tab (text of a role, or a card), a tab shown, a summary, time. */
const step = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record({
      op: fc.constant('append' as const),
      tab: fc.constantFrom('a', 'b', 'c'),
      kind: fc.constantFrom('agent', 'agent', 'agent', 'thought', 'card'),
      times: fc.integer({ min: 1, max: 40 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('show' as const), tab: fc.constantFrom('a', 'b', 'c') }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('change' as const),
      tab: fc.constantFrom('a', 'b', 'c'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('wait' as const),
      ms: fc.integer({ min: 0, max: HIDDEN_WAIT_MS }),
    }),
  },
);

/** How much of a transcript `events` hold: their text, and one for each other event. */
const size = (events: TranscriptEvent[]) =>
  events.reduce((sum, event) => sum + (event.type === 'chunk' ? event.text.length : 1), 0);

describe('any mix of tabs, shown tabs, cards and time', () => {
  it('gives each tab the same transcript, in order, each event within HIDDEN_WAIT_MS', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        vi.setSystemTime(0);
        const { outbox, eventsOf, sent } = recordingOutbox();
        const appended = new Map<string, { event: TranscriptEvent; at: number }[]>();
        let n = 0;
        for (const item of steps) {
          if (item.op === 'wait') {
            await wait(item.ms);
            // Everything appended HIDDEN_WAIT_MS ago or more is out.
            for (const [tab, list] of appended) {
              const due = list.filter(({ at }) => at <= Date.now() - HIDDEN_WAIT_MS);
              expect(size(eventsOf(tab))).toBeGreaterThanOrEqual(
                size(due.map(({ event }) => event)),
              );
            }
          } else if (item.op === 'show') {
            outbox.show(item.tab);
          } else if (item.op === 'change') {
            outbox.sink.changed(item.tab);
          } else {
            for (let i = 0; i < item.times; i++) {
              const event =
                item.kind === 'card' ? permission(`p${n++}`) : chunk(`${n++},`, item.kind);
              const list = appended.get(item.tab) ?? [];
              list.push({ event, at: Date.now() });
              appended.set(item.tab, list);
              outbox.sink.append(item.tab, event);
            }
          }
        }
        await wait(HIDDEN_WAIT_MS);
        for (const [tab, list] of appended) {
          const want = new Transcript();
          list.forEach(({ event }) => want.add(event));
          const got = new Transcript();
          eventsOf(tab).forEach((event) => got.add(event));
          expect(got.events()).toEqual(want.events());
          // Each card went out in the macrotask it came in.
          for (const { event, at } of list.filter(({ event }) => event.type === 'permission')) {
            const batch = sent.find(
              (item) => item.channel === 'append' && item.events.includes(event),
            );
            expect(batch?.at).toBe(at);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
