/**
 * How the outbox cuts a flood into batches: every event once, in its tab's order, no batch over
 * {@link SEND_AT} events, all sent by the end of the macrotask they came in, and a tab's
 * summary after every append of its macrotask; a batch's runs of text go out joined.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEND_AT } from '../../../../main/core/outbox.js';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { recordingOutbox, type Sent } from '../../../helpers/recording-outbox.js';

/** What was sent, less when. */
const untimed = (sent: Sent[]) => sent.map(({ at: _at, ...item }) => item);

const TABS = ['a', 'b', 'c'];

const endOfMacrotask = () => new Promise((resolve) => setImmediate(resolve));

/** One step of what the tabs report: an append, a summary change, or the macrotask's end. */
const step = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record({ op: fc.constant('append' as const), tab: fc.constantFrom(...TABS) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('change' as const), tab: fc.constantFrom(...TABS) }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'tick' as const, tab: '' }) },
);

describe('a flood of appends', () => {
  it('sends each event once, in its tab’s order, in batches of at most SEND_AT', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 3 * SEND_AT }), step), { maxLength: 40 }),
        async (steps) => {
          const { outbox, sent } = recordingOutbox();
          const appended = new Map<string, TranscriptEvent[]>(TABS.map((tab) => [tab, []]));
          let n = 0;
          // Where each macrotask's sends start: its appends all come before its summaries.
          let macrotaskStart = 0;
          const checkMacrotask = () => {
            const mine = sent.slice(macrotaskStart);
            const firstChange = mine.findIndex((item) => item.channel === 'change');
            if (firstChange !== -1) {
              expect(mine.slice(firstChange).every((item) => item.channel === 'change')).toBe(true);
            }
            macrotaskStart = sent.length;
          };
          for (const [times, { op, tab }] of steps) {
            if (op === 'tick') {
              await endOfMacrotask();
              checkMacrotask();
            } else if (op === 'change') {
              outbox.sink.changed(tab);
            } else {
              for (let i = 0; i < times; i++) {
                // Prompts, which go out as they came (runs of text are joined: see below).
                const event: TranscriptEvent = { type: 'prompt', text: `${n++}` };
                appended.get(tab)!.push(event);
                outbox.sink.append(tab, event);
              }
            }
          }
          await endOfMacrotask();
          checkMacrotask();

          const appends = sent.filter((item) => item.channel === 'append');
          for (const tab of TABS) {
            const got = appends.filter((item) => item.key === tab).flatMap((item) => item.events);
            // The very event objects, each once, in order.
            expect(got).toHaveLength(appended.get(tab)!.length);
            got.forEach((event, i) => expect(event).toBe(appended.get(tab)![i]));
          }
          for (const item of appends) {
            expect(item.events.length).toBeGreaterThan(0);
            expect(item.events.length).toBeLessThanOrEqual(SEND_AT);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('sends a macrotask’s flood before the macrotask ends, every SEND_AT events', () => {
    const { outbox, sent } = recordingOutbox();
    outbox.sink.changed('a');
    for (let i = 0; i < 2 * SEND_AT + 1; i++) {
      outbox.sink.append('a', { type: 'prompt', text: `${i}` });
    }
    // Two full batches are out already; the summary and the last event wait for the flush.
    expect(sent.map((item) => item.channel)).toEqual(['append', 'append']);
    expect(sent.map((item) => (item.channel === 'append' ? item.events.length : 0))).toEqual([
      SEND_AT,
      SEND_AT,
    ]);
    outbox.flush();
    expect(untimed(sent.slice(2))).toEqual([
      {
        channel: 'append',
        key: 'a',
        events: [{ type: 'prompt', text: `${2 * SEND_AT}` }],
      },
      { channel: 'change', key: 'a' },
    ]);
  });

  it('sends a batch’s run of text as one chunk, beside the events around it', () => {
    const { outbox, sent } = recordingOutbox();
    outbox.sink.append('a', { type: 'prompt', text: 'go' });
    for (let i = 0; i < SEND_AT - 2; i++) {
      outbox.sink.append('a', { type: 'chunk', role: 'agent', text: `${i} ` });
    }
    outbox.sink.append('a', { type: 'turn_end', stopReason: 'end_turn' });
    expect(untimed(sent)).toEqual([
      {
        channel: 'append',
        key: 'a',
        events: [
          { type: 'prompt', text: 'go' },
          {
            type: 'chunk',
            role: 'agent',
            text: Array.from({ length: SEND_AT - 2 }, (_unused, i) => `${i} `).join(''),
          },
          { type: 'turn_end', stopReason: 'end_turn' },
        ],
      },
    ]);
  });
});
