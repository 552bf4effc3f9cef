/**
 * How much streamed text the UI takes in per frame.
 *
 * A fixed amount is either too much for a slow machine or a cold page (where the first frames
 * run unoptimised code), or too little to keep up on a fast one. So the amount follows what
 * taking it in actually costs: it grows by half of itself while that is under the aim, shrinks in
 * proportion as soon as it is slow (by half at most), and by a quarter as soon as a frame comes
 * late (layout and paint of the new rows cost too). Most of a frame's cost is the rows in view,
 * whatever the amount of text, so the amount can grow large: a fast stream then takes few frames.
 */

/** The amount a burst starts with, in characters: small, as the page may still be cold. */
export const START_CHARS = 2_000;
/** Never less than this, so a burst always moves on. */
export const MIN_CHARS = 250;
/** Never more than this, so one frame never takes in a whole large burst at once. */
export const MAX_CHARS = 128_000;
/** The least step the amount grows by; it grows by half of itself when that is more. */
export const STEP_CHARS = 500;
/** Taking in one frame's amount (rendering included) should take no longer than this. */
export const TARGET_MS = 16;
/** A frame that starts more than this after the last one was late. */
export const LATE_MS = 36;
/** What a late frame leaves of the amount: less, as layout and paint cost too, but not half. */
export const LATE_FACTOR = 0.75;

/** The per-frame amount, tuned by what the last ones cost. */
export class FrameBudget {
  private chars = START_CHARS;
  private lastFrame: number | undefined;

  /** Characters to take in now. */
  get current(): number {
    return this.chars;
  }

  /**
   * Notes the start of a frame that takes in text. `continues` says whether the previous frame
   * took in text too, and left some: only then does the gap between the two show its cost.
   */
  frame(timestamp: number, continues: boolean): void {
    if (continues && this.lastFrame !== undefined && timestamp - this.lastFrame > LATE_MS) {
      this.scale(LATE_FACTOR);
    }
    this.lastFrame = timestamp;
  }

  /**
   * Notes how long taking in text took. `full` says whether the whole amount was used (more was
   * waiting): only then is there a reason to grow it.
   */
  took(ms: number, full: boolean): void {
    if (ms > TARGET_MS) {
      // Most of a frame's cost does not grow with its text (the rows in view are rendered
      // whatever came in), so the amount shrinks in proportion to the overrun, not always by half.
      this.scale(Math.max(0.5, TARGET_MS / ms));
    } else if (full && ms < TARGET_MS) {
      this.chars = Math.min(MAX_CHARS, this.chars + Math.max(STEP_CHARS, this.chars >> 1));
    }
  }

  private scale(factor: number): void {
    this.chars = Math.max(MIN_CHARS, Math.floor(this.chars * factor));
  }
}
