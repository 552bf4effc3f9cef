/**
 * How much streamed text the UI takes in per frame.
 *
 * A fixed amount is either too much for a slow machine or a cold page (where the first frames
 * run unoptimised code), or too little to keep up on a fast one. So the amount follows what
 * taking it in actually costs: it grows a step at a time while that is quick, and halves as soon
 * as it is slow, or as soon as a frame comes late (layout and paint of the new rows cost too).
 */

/** The amount a burst starts with, in characters: small, as the page may still be cold. */
export const START_CHARS = 2_000;
/** Never less than this, so a burst always moves on. */
export const MIN_CHARS = 250;
/** Never more than this, so one frame never takes in a whole burst at once. */
export const MAX_CHARS = 12_000;
/** The step the amount grows by. */
export const STEP_CHARS = 500;
/** Taking in one frame's amount (rendering included) should take no longer than this. */
export const TARGET_MS = 16;
/** A frame that starts more than this after the last one was late. */
export const LATE_MS = 36;

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
      this.halve();
    }
    this.lastFrame = timestamp;
  }

  /**
   * Notes how long taking in text took. `full` says whether the whole amount was used (more was
   * waiting): only then is there a reason to grow it.
   */
  took(ms: number, full: boolean): void {
    if (ms > TARGET_MS) {
      this.halve();
    } else if (full && ms < TARGET_MS / 2) {
      this.chars = Math.min(MAX_CHARS, this.chars + STEP_CHARS);
    }
  }

  private halve(): void {
    this.chars = Math.max(MIN_CHARS, Math.floor(this.chars / 2));
  }
}
