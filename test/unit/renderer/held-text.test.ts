import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/shared/contract.js';
import {
  CHARS_PER_JOIN,
  GROWTH_PER_COPY,
  growHeld,
  MIN_JOINS,
  NO_HELD_TEXT,
  type HeldText,
} from '../../../renderer/src/state/held-text.js';
import { MESSAGE_CAP } from '../../../renderer/src/state/text-cap.js';
import {
  applyEvents,
  emptyTranscript,
  type Transcript,
} from '../../../renderer/src/state/transcript.js';

describe('growHeld', () => {
  it('keeps every piece, in order', () => {
    let held = NO_HELD_TEXT;
    const pieces: string[] = [];
    for (let batch = 0; batch < 500; batch++) {
      const parts = Array.from({ length: batch % 4 }, (_, at) => `${batch}.${at};`);
      pieces.push(...parts);
      held = growHeld(held, parts);
    }
    expect(held.text).toBe(pieces.join(''));
  });

  it('takes a batch that adds nothing as no change', () => {
    const held = growHeld(NO_HELD_TEXT, ['abc']);
    expect(growHeld(held, [])).toBe(held);
  });

  it('copies the text flat again once its joins pass their share of it, and not before', () => {
    const start = CHARS_PER_JOIN * 20;
    let held: HeldText = growHeld(NO_HELD_TEXT, ['x'.repeat(start)]);
    expect(held).toMatchObject({ flat: start, joins: 0 });
    for (let join = 1; join < 20; join++) {
      held = growHeld(held, ['y'.repeat(100)]);
      expect(held).toMatchObject({ flat: start, joins: join });
    }
    held = growHeld(held, ['z'.repeat(100)]);
    expect(held).toMatchObject({ flat: start + 2_000, joins: 0 });
  });

  it('waits for the text to grow by a part of itself before it copies it again', () => {
    const start = CHARS_PER_JOIN * 20;
    let held: HeldText = growHeld(NO_HELD_TEXT, ['x'.repeat(start)]);
    const pieces = Math.ceil(start * GROWTH_PER_COPY);
    for (let join = 1; join < pieces; join++) {
      held = growHeld(held, ['y']);
    }
    expect(held).toMatchObject({ flat: start, joins: pieces - 1 });
    expect(growHeld(held, ['z'])).toMatchObject({ flat: start + pieces, joins: 0 });
  });

  it('lets a short text take a few joins before it is copied', () => {
    let held = growHeld(NO_HELD_TEXT, ['a']);
    for (let join = 1; join < MIN_JOINS; join++) {
      held = growHeld(held, ['b']);
    }
    expect(held.joins).toBe(MIN_JOINS - 1);
    expect(growHeld(held, ['c'])).toMatchObject({ flat: MIN_JOINS + 1, joins: 0 });
  });

  it('copies a text grown a character at a time a few hundred times, not once a character', () => {
    let held = NO_HELD_TEXT;
    let copied = 0;
    for (let char = 0; char < 1_000_000; char++) {
      held = growHeld(held, ['q']);
      if (held.joins === 0) {
        copied += held.text.length;
      }
    }
    expect(held.text.length).toBe(1_000_000);
    // Each copy waits for the text to grow in proportion: the copying is linear in the text.
    expect(copied).toBeLessThan(30_000_000);
  });
});

/** V8's `gc()`, which Node gives only behind a flag: the flag turned on, then read. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** The heap the transcript that `build` returns takes, after a full collection, in bytes. */
function heapOf(build: () => Transcript): { bytes: number; transcript: Transcript } {
  const gc = collector();
  gc();
  const before = process.memoryUsage().heapUsed;
  const transcript = build();
  gc();
  return { bytes: process.memoryUsage().heapUsed - before, transcript };
}

const CHUNK = `${'The agent writes this paragraph. '.padEnd(98, '.')}\n\n`;
/** Characters of a 10 MB reply of 100-character updates. */
const REPLY = 100_000 * CHUNK.length;
/** `count` updates as they come from the host: parsed, each text a string of its own. */
const batchOf = (count: number): TranscriptEvent[] =>
  JSON.parse(
    JSON.stringify(
      Array.from({ length: count }, () => ({ type: 'chunk', role: 'agent', text: CHUNK })),
    ),
  ) as TranscriptEvent[];

describe('a long reply held back in the transcript', () => {
  it.each([
    ['batches of a thousand updates', 1_000],
    ['one update at a time', 1],
  ])('costs the heap about its length, streamed in %s', (_name, batch) => {
    const { bytes, transcript } = heapOf(() => {
      let t = applyEvents(emptyTranscript(), [{ type: 'prompt', text: 'go' }]);
      for (let sent = 0; sent < REPLY / CHUNK.length; sent += batch) {
        t = applyEvents(t, batchOf(batch));
      }
      return t;
    });
    const held = transcript.rows.find((row) => row.kind === 'overflow');
    expect(held?.text.length).toBe(REPLY - MESSAGE_CAP);
    // Kept as a string grown piece by piece, 100-character pieces cost a third more than this.
    expect(bytes).toBeLessThan(REPLY * 1.08);
  });
});
