/**
 * How the outbox joins a batch's runs of text (`joinChunks`): the same transcript in fewer
 * events, no event over the largest piece.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinChunks, MAX_CHUNK_CHARS } from '../../../../main/core/updates.js';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { shownEvents } from '../../../helpers/core-harness.js';

const ROLES = ['agent', 'user', 'thought'] as const;

/** A chunk, or another event between chunks. */
const event: fc.Arbitrary<TranscriptEvent> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('chunk' as const),
      role: fc.constantFrom(...ROLES),
      // Mostly small pieces, now and then one near the limit.
      text: fc.oneof(
        { weight: 9, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
        {
          weight: 1,
          arbitrary: fc
            .integer({ min: MAX_CHUNK_CHARS - 10, max: MAX_CHUNK_CHARS })
            .map((length) => 'x'.repeat(length)),
        },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('prompt' as const), text: fc.string() }) },
);

describe('joinChunks', () => {
  it('keeps the transcript as shown, in chunks as few as the limit allows', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const joined = joinChunks(events);
        expect(shownEvents(joined)).toEqual(shownEvents(events));
        joined.forEach((next, i) => {
          if (next.type !== 'chunk') {
            return;
          }
          expect(next.text.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
          // A chunk followed by one of its role is full: the next would not have fit in it.
          const after = joined[i + 1];
          if (after?.type === 'chunk' && after.role === next.role) {
            expect(next.text.length + after.text.length).toBeGreaterThan(MAX_CHUNK_CHARS);
          }
        });
        // Events other than chunks are the very objects given, in order.
        const others = (list: readonly TranscriptEvent[]) =>
          list.filter((item) => item.type !== 'chunk');
        others(joined).forEach((item, i) => expect(item).toBe(others(events)[i]));
      }),
      { numRuns: 300 },
    );
  });

  it('joins a run of pieces into one chunk, and keeps roles and other events apart', () => {
    expect(
      joinChunks([
        { type: 'chunk', role: 'agent', text: 'Hel' },
        { type: 'chunk', role: 'agent', text: 'lo' },
        { type: 'chunk', role: 'thought', text: 'hm' },
        { type: 'chunk', role: 'agent', text: ', you' },
        { type: 'prompt', text: 'next' },
        { type: 'chunk', role: 'agent', text: 'A' },
      ]),
    ).toEqual([
      { type: 'chunk', role: 'agent', text: 'Hello' },
      { type: 'chunk', role: 'thought', text: 'hm' },
      { type: 'chunk', role: 'agent', text: ', you' },
      { type: 'prompt', text: 'next' },
      { type: 'chunk', role: 'agent', text: 'A' },
    ]);
  });

  it('starts a new chunk where the next piece would pass the limit', () => {
    const big = 'a'.repeat(MAX_CHUNK_CHARS - 1);
    expect(
      joinChunks([
        { type: 'chunk', role: 'agent', text: big },
        { type: 'chunk', role: 'agent', text: 'b' },
        { type: 'chunk', role: 'agent', text: 'c' },
      ]),
    ).toEqual([
      { type: 'chunk', role: 'agent', text: `${big}b` },
      { type: 'chunk', role: 'agent', text: 'c' },
    ]);
  });
});
