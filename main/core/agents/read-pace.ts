/**
 * The pace at which the core reads its agents' output, so that the reply a person watches gets
 * the machine first.
 *
 * Many agents streaming at once share a few cores: read as fast as they write, they take as
 * much of the machine as the agent of the tab shown, and its reply comes as slowly as theirs.
 * So while the agent of the shown tab streams (its output came within {@link RECENT_MS}), an
 * agent whose tabs are all hidden and that floods (more than {@link FLOOD_BYTES} within
 * {@link RECENT_MS}) is read {@link FLOOD_BYTES} at a time, at most every {@link HOLD_MS}. What
 * it writes meanwhile waits in its pipe, and a full pipe stops it writing: it waits too, instead
 * of taking the CPU. Once the shown agent is quiet, every agent is read at once again.
 *
 * An agent that does not flood (a question, a permission request, a tool's call for a file, a
 * reply streamed at the pace of a model) is never held, no part waits longer than
 * {@link HOLD_MS} after the one before it, and what is read keeps its order.
 */

/** How recent output must be to count as streaming, and the window that measures a flood. */
export const RECENT_MS = 100;
/** More than this many bytes within {@link RECENT_MS} is a flood. */
export const FLOOD_BYTES = 32 * 1024;
/** The longest a part of a flooding agent's output waits, once the part before it has passed. */
export const HOLD_MS = 250;

/** The readers of one core's agents, and which of them is the agent of the tab shown. */
export class ReadPace {
  private shownReader: () => PacedReader | undefined = () => undefined;

  /** @param now the clock, in milliseconds (the tests' own). */
  constructor(readonly now: () => number = () => performance.now()) {}

  /**
   * Names the reader of the agent whose tab a UI shows, asked for when needed: the tab's agent
   * may start, stop or start again while it is shown. The latest call decides.
   */
  show(shown: () => PacedReader | undefined): void {
    this.shownReader = shown;
  }

  /** The reader of the shown tab's agent, if that tab is open and its agent running. */
  shown(): PacedReader | undefined {
    return this.shownReader();
  }

  /** A reader for one agent's output: its `stream` passes the agent's bytes on at this pace. */
  reader(): PacedReader {
    return new PacedReader(this);
  }
}

/** One agent's output, read at its core's {@link ReadPace}. */
export class PacedReader {
  /**
   * The agent's bytes in, the same bytes out, in order: in parts of at most
   * {@link FLOOD_BYTES}, each when its turn comes.
   */
  readonly stream: TransformStream<Uint8Array, Uint8Array>;
  /** When the latest part came, on the pace's clock. */
  private lastAt = Number.NEGATIVE_INFINITY;
  /** Since when the bytes in {@link windowBytes} came. */
  private windowAt = Number.NEGATIVE_INFINITY;
  private windowBytes = 0;

  constructor(private readonly pace: ReadPace) {
    this.stream = new TransformStream({
      transform: async (piece, controller) => {
        for (let at = 0; at < piece.byteLength; at += FLOOD_BYTES) {
          const part = piece.subarray(at, at + FLOOD_BYTES);
          await this.turnOf(part.byteLength);
          controller.enqueue(part);
        }
      },
    });
  }

  /** Counts a part of `bytes` that came now, and waits until it may be passed on. */
  private async turnOf(bytes: number): Promise<void> {
    const came = this.pace.now();
    this.lastAt = came;
    if (came - this.windowAt >= RECENT_MS) {
      this.windowAt = came;
      this.windowBytes = 0;
    }
    this.windowBytes += bytes;
    if (this.windowBytes <= FLOOD_BYTES) {
      return;
    }
    // Each wait ends when the shown agent has been quiet for RECENT_MS, or at the hold's end;
    // output that came from it meanwhile pushes the first of those later.
    for (;;) {
      const shown = this.pace.shown();
      if (shown === undefined || shown === this) {
        return;
      }
      const now = this.pace.now();
      if (now >= came + HOLD_MS) {
        // Held its longest: it passes, and starts a window of its own, so that what follows at
        // once waits its turn rather than passing as a window's first bytes.
        this.windowAt = now;
        this.windowBytes = bytes;
        return;
      }
      const wait = Math.min(shown.lastAt + RECENT_MS, came + HOLD_MS) - now;
      if (wait <= 0) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
