/**
 * How much streamed text the UI takes in per frame.
 *
 * A fixed amount is either too much for a slow machine or a cold page (where the first frames
 * run unoptimised code), or too little to keep up on a fast one. So the amount follows what
 * taking it in actually costs: it grows while that is under the aim (in proportion to the room
 * left, between half of itself and four times itself at once: a page that warms up needs few
 * frames to reach the pace its speed allows), holds
 * while it is up to twice the aim, and shrinks in proportion beyond (by half at most). Most of a
 * frame's cost is the rows in view, whatever the amount of text (the list draws only those), so
 * a frame over the aim is rarely made quicker by taking in less: shrinking then only slows the
 * stream, and a cold page's first frames, slow whatever they take in, would crawl. For the same
 * reason a frame that comes late shrinks the amount only when taking in text was itself over
 * the aim; on a busy machine most frames come late for reasons of their own.
 */

/** The amount a burst starts with, in characters: small, as the page may still be cold. */
export const START_CHARS = 2_000;
/** Never less than this, so a burst always moves on. */
export const MIN_CHARS = 250;
/** Never more than this, so one frame never takes in a whole large burst at once. */
export const MAX_CHARS = 128_000;
/** The least step the amount grows by; it grows by half of itself when that is more. */
export const STEP_CHARS = 500;
/** The most the amount grows by in one frame: four times itself, however quick that was. */
export const MAX_GROWTH = 4;
/** Taking in one frame's amount (rendering included) should take no longer than this. */
export const TARGET_MS = 16;
/** Taking longer than this shrinks the amount; between the aim and this, it holds. */
export const SLOW_MS = TARGET_MS * 2;
/** A frame that starts more than this after the last one was late. */
export const LATE_MS = 36;
/** What a late frame leaves of the amount: less, as layout and paint cost too, but not half. */
export const LATE_FACTOR = 0.75;

/** The per-frame amount, tuned by what the last ones cost. */
export class FrameBudget {
  private chars = START_CHARS;
  private lastFrame: number | undefined;
  /** How long taking in text took in the last frame that took any, in milliseconds. */
  private lastTook = 0;

  /** Characters to take in now. */
  get current(): number {
    return this.chars;
  }

  /**
   * Notes the start of a frame that takes in text. `continues` says whether the previous frame
   * took in text too, and left some: only then does the gap between the two show its cost.
   */
  frame(timestamp: number, continues: boolean): void {
    if (
      continues &&
      this.lastFrame !== undefined &&
      timestamp - this.lastFrame > LATE_MS &&
      this.lastTook > TARGET_MS
    ) {
      this.scale(LATE_FACTOR);
    }
    this.lastFrame = timestamp;
  }

  /**
   * Notes how long taking in text took. `full` says whether the whole amount was used (more was
   * waiting): only then is there a reason to grow it.
   */
  took(ms: number, full: boolean): void {
    this.lastTook = ms;
    if (ms > SLOW_MS) {
      // Most of a frame's cost does not grow with its text (the rows in view are rendered
      // whatever came in), so the amount shrinks in proportion to the overrun, not always by half.
      this.scale(Math.max(0.5, SLOW_MS / ms));
    } else if (full && ms < TARGET_MS) {
      // Taking in this much took `ms`, the rows' rendering included: what the aim leaves room
      // for is at least in proportion, as part of that cost does not grow with the text.
      const growth = Math.min(MAX_GROWTH, Math.max(1.5, TARGET_MS / ms));
      this.chars = Math.min(
        MAX_CHARS,
        Math.max(this.chars + STEP_CHARS, Math.floor(this.chars * growth)),
      );
    }
  }

  private scale(factor: number): void {
    this.chars = Math.max(MIN_CHARS, Math.floor(this.chars * factor));
  }
}
