/**
 * The pace the core reads its agents' output at: while the shown tab's agent streams, a hidden
 * agent that floods is read FLOOD_BYTES at a time, each part waiting at most HOLD_MS; everything
 * else passes at once, and every byte passes, in order.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FLOOD_BYTES,
  HOLD_MS,
  RECENT_MS,
  ReadPace,
  type PacedReader,
} from '../../../../main/core/agents/read-pace.js';

/** What came out of a reader: each part's first byte (its piece's label), size and time out. */
type Out = { label: number; bytes: number; at: number };

/** Feeds pieces into `reader` and records what comes out, and when (on the fake clock). */
function through(reader: PacedReader) {
  const out: Out[] = [];
  const writer = reader.stream.writable.getWriter();
  const reading = (async () => {
    const source = reader.stream.readable.getReader();
    for (;;) {
      const { done, value } = await source.read();
      if (done) {
        return;
      }
      out.push({ label: value[0]!, bytes: value.byteLength, at: Date.now() });
    }
  })();
  return {
    out,
    /** Writes a piece of `bytes` bytes whose every byte is `label`. */
    piece(label: number, bytes: number): void {
      void writer.write(new Uint8Array(bytes).fill(label));
    },
    async end(): Promise<void> {
      await writer.close();
      await reading;
    },
  };
}

/** Lets the streams run what they can at the fake clock's now. */
const settle = () => vi.advanceTimersByTimeAsync(0);

/** The parts that came out, joined back into the pieces written (each has its own label). */
function joined(out: Out[]): Out[] {
  const pieces: Out[] = [];
  for (const part of out) {
    const last = pieces.at(-1);
    if (last?.label === part.label) {
      pieces[pieces.length - 1] = { ...last, bytes: last.bytes + part.bytes, at: part.at };
    } else {
      pieces.push(part);
    }
  }
  return pieces;
}

let pace: ReadPace;
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  pace = new ReadPace(() => Date.now());
});
afterEach(() => {
  vi.useRealTimers();
});

/** The agent of the tab shown and an agent of a hidden tab, each read through the pace. */
function shownAndHidden() {
  const shownReader = pace.reader();
  pace.show(() => shownReader);
  return { shown: through(shownReader), hidden: through(pace.reader()) };
}

const FLOOD = FLOOD_BYTES + 1;
const start = 1_000_000;

describe('ReadPace', () => {
  it('reads every agent as fast as it writes while no tab is shown', async () => {
    const hidden = through(pace.reader());
    for (let label = 1; label <= 5; label++) {
      hidden.piece(label, FLOOD);
    }
    await settle();
    expect(joined(hidden.out)).toEqual(
      [1, 2, 3, 4, 5].map((label) => ({ label, bytes: FLOOD, at: start })),
    );
    // Read FLOOD_BYTES at a time, and no part empty.
    expect(hidden.out.map((part) => part.bytes).slice(0, 2)).toEqual([FLOOD_BYTES, 1]);
    hidden.piece(6, 2 * FLOOD_BYTES);
    hidden.piece(7, FLOOD_BYTES);
    await settle();
    expect(hidden.out.slice(10).map((part) => [part.label, part.bytes])).toEqual([
      [6, FLOOD_BYTES],
      [6, FLOOD_BYTES],
      [7, FLOOD_BYTES],
    ]);
  });

  it("holds a hidden flood while the shown tab's agent streams, until it is quiet", async () => {
    const { shown, hidden } = shownAndHidden();
    shown.piece(9, 10);
    await settle();
    hidden.piece(1, FLOOD);
    // FLOOD_BYTES pass as the window's first; the byte more is a flood.
    await vi.advanceTimersByTimeAsync(RECENT_MS - 1);
    expect(hidden.out).toEqual([{ label: 1, bytes: FLOOD_BYTES, at: start }]);
    await vi.advanceTimersByTimeAsync(1);
    expect(hidden.out.at(-1)).toEqual({ label: 1, bytes: 1, at: start + RECENT_MS });
  });

  it('holds each piece of a hidden flood at most HOLD_MS while the shown agent goes on', async () => {
    const { shown, hidden } = shownAndHidden();
    shown.piece(9, 10);
    await settle();
    hidden.piece(1, FLOOD);
    hidden.piece(2, FLOOD);
    // The shown agent streams all along: a piece every half of RECENT_MS.
    for (let elapsed = 0; elapsed < 3 * HOLD_MS; elapsed += RECENT_MS / 2) {
      await vi.advanceTimersByTimeAsync(RECENT_MS / 2);
      shown.piece(9, 10);
    }
    // A part held its longest starts a window: the next part waits its own turn.
    expect(hidden.out).toEqual([
      { label: 1, bytes: FLOOD_BYTES, at: start },
      { label: 1, bytes: 1, at: start + HOLD_MS },
      { label: 2, bytes: FLOOD_BYTES, at: start + 2 * HOLD_MS },
      { label: 2, bytes: 1, at: start + 3 * HOLD_MS },
    ]);
    // The shown agent's own pieces never waited.
    expect(shown.out.every((piece, index) => piece.at === start + (index * RECENT_MS) / 2)).toBe(
      true,
    );
  });

  it('passes at once what a hidden agent writes without flooding', async () => {
    const { shown, hidden } = shownAndHidden();
    shown.piece(9, 10);
    await settle();
    // FLOOD_BYTES in all within RECENT_MS: a question, a tool call, a reply at a model's pace.
    hidden.piece(1, FLOOD_BYTES / 2);
    hidden.piece(2, FLOOD_BYTES / 2);
    await settle();
    expect(hidden.out.map((piece) => piece.at)).toEqual([start, start]);
    // One byte more within the same window is a flood.
    hidden.piece(3, 1);
    await settle();
    expect(hidden.out).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RECENT_MS);
    expect(hidden.out.at(-1)).toEqual({ label: 3, bytes: 1, at: start + RECENT_MS });
  });

  it('measures a flood over RECENT_MS only: what came before is forgotten', async () => {
    const { shown, hidden } = shownAndHidden();
    // FLOOD_BYTES every RECENT_MS, while the shown agent streams: never a flood.
    for (let label = 1; label <= 4; label++) {
      shown.piece(9, 10);
      hidden.piece(label, FLOOD_BYTES);
      await settle();
      expect(hidden.out.at(-1)).toEqual({
        label,
        bytes: FLOOD_BYTES,
        at: start + (label - 1) * RECENT_MS,
      });
      await vi.advanceTimersByTimeAsync(RECENT_MS);
    }
  });

  it("reads the machine's clock unless given one", () => {
    vi.useRealTimers();
    const before = performance.now();
    const now = new ReadPace().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(performance.now());
  });

  it("never holds the shown tab's agent, and holds nothing once its tab's agent is gone", async () => {
    const shownReader = pace.reader();
    let running = true;
    pace.show(() => (running ? shownReader : undefined));
    const shown = through(shownReader);
    const hidden = through(pace.reader());
    shown.piece(9, FLOOD);
    shown.piece(8, FLOOD);
    await settle();
    expect(joined(shown.out)).toEqual([
      { label: 9, bytes: FLOOD, at: start },
      { label: 8, bytes: FLOOD, at: start },
    ]);
    hidden.piece(1, FLOOD);
    await settle();
    expect(hidden.out).toEqual([{ label: 1, bytes: FLOOD_BYTES, at: start }]);
    running = false;
    hidden.piece(2, FLOOD);
    await vi.advanceTimersByTimeAsync(RECENT_MS);
    // The part held before the agent went passes at its wait's end; the rest at once.
    expect(joined(hidden.out)).toEqual([
      { label: 1, bytes: FLOOD, at: start + RECENT_MS },
      { label: 2, bytes: FLOOD, at: start + RECENT_MS },
    ]);
  });

  it('follows the latest tab shown', async () => {
    const first = pace.reader();
    const second = pace.reader();
    const firstOut = through(first);
    const secondOut = through(second);
    pace.show(() => first);
    firstOut.piece(9, 10);
    await settle();
    pace.show(() => second);
    firstOut.piece(1, FLOOD);
    await settle();
    // The first agent's tab is hidden now, and the second has not streamed: nothing waits.
    expect(joined(firstOut.out)).toEqual([
      { label: 9, bytes: 10, at: start },
      { label: 1, bytes: FLOOD, at: start },
    ]);
    secondOut.piece(8, 10);
    await settle();
    firstOut.piece(2, FLOOD);
    await settle();
    expect(joined(firstOut.out).map((piece) => piece.label)).toEqual([9, 1]);
  });

  it('passes every byte in order, no piece held longer than HOLD_MS', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            hidden: fc.boolean(),
            bytes: fc.integer({ min: 1, max: 3 * FLOOD_BYTES }),
            after: fc.integer({ min: 0, max: 2 * RECENT_MS }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        async (pieces) => {
          vi.setSystemTime(start);
          const { shown, hidden } = shownAndHidden();
          const written: { label: number; at: number }[] = [];
          for (const [index, each] of pieces.entries()) {
            await vi.advanceTimersByTimeAsync(each.after);
            const label = index % 256;
            if (each.hidden) {
              written.push({ label, at: Date.now() });
              hidden.piece(label, each.bytes);
            } else {
              shown.piece(label, each.bytes);
            }
          }
          await vi.advanceTimersByTimeAsync(pieces.length * HOLD_MS);
          await Promise.all([shown.end(), hidden.end()]);
          expect(joined(hidden.out).map((piece) => [piece.label, piece.bytes])).toEqual(
            written.map((piece, index) => [
              piece.label,
              pieces.filter((each) => each.hidden)[index]!.bytes,
            ]),
          );
          expect(hidden.out.every((part) => part.bytes <= FLOOD_BYTES)).toBe(true);
          // Each part waits for the one before it, then at most HOLD_MS of its own.
          const writtenAt = new Map(written.map((piece) => [piece.label, piece.at]));
          let free = Number.NEGATIVE_INFINITY;
          for (const part of hidden.out) {
            const ready = Math.max(writtenAt.get(part.label)!, free);
            expect(part.at - ready).toBeLessThanOrEqual(HOLD_MS);
            free = part.at;
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
