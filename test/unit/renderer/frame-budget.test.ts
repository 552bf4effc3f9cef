import { describe, expect, it } from 'vitest';
import {
  FrameBudget,
  LATE_FACTOR,
  LATE_MS,
  MAX_CHARS,
  MAX_GROWTH,
  MIN_CHARS,
  SLOW_MS,
  START_CHARS,
  STEP_CHARS,
  TARGET_MS,
} from '../../../renderer/src/state/frame-budget';

const QUICK_MS = TARGET_MS / 4;
/** Over the aim, but not so slow that the amount shrinks. */
const OVER_MS = TARGET_MS * 1.5;
const VERY_SLOW_MS = SLOW_MS * 2;

describe('the per-frame text budget', () => {
  it('starts small and grows in proportion to the room taking in text left under the aim', () => {
    const budget = new FrameBudget();
    expect(budget.current).toBe(START_CHARS);
    budget.took(TARGET_MS / 2, true);
    expect(budget.current).toBe(START_CHARS * 2);
    budget.took(TARGET_MS / 3, true);
    expect(budget.current).toBe(START_CHARS * 6);
  });

  it('grows four times at most in one frame, however quick it was', () => {
    const budget = new FrameBudget();
    budget.took(TARGET_MS / (MAX_GROWTH * 2), true);
    expect(budget.current).toBe(START_CHARS * MAX_GROWTH);
    budget.took(0, true);
    expect(budget.current).toBe(START_CHARS * MAX_GROWTH * MAX_GROWTH);
  });

  it('grows at least a step at a time', () => {
    const budget = new FrameBudget();
    for (let i = 0; i < 20; i++) {
      budget.took(VERY_SLOW_MS * 10, true);
    }
    expect(budget.current).toBe(MIN_CHARS);
    budget.took(TARGET_MS * 0.9, true);
    expect(budget.current).toBe(MIN_CHARS + STEP_CHARS);
  });

  it('does not grow when the whole amount was not needed', () => {
    const budget = new FrameBudget();
    budget.took(QUICK_MS, false);
    expect(budget.current).toBe(START_CHARS);
  });

  it('grows while taking in text stays under the aim, even close to it', () => {
    // A frame's cost is mostly the rows in view, whatever the amount: more text a frame means
    // fewer frames, and rows the list passes over without drawing.
    const budget = new FrameBudget();
    budget.took(TARGET_MS * 0.9, true);
    expect(budget.current).toBe(START_CHARS * 1.5);
  });

  it('holds while taking in text is over the aim but not twice it', () => {
    // A cold page's first frames are slow whatever they take in: shrinking would only make the
    // stream crawl.
    const budget = new FrameBudget();
    budget.took(OVER_MS, true);
    expect(budget.current).toBe(START_CHARS);
    budget.took(SLOW_MS, true);
    expect(budget.current).toBe(START_CHARS);
  });

  it('halves when taking in text takes twice as long as it may', () => {
    const budget = new FrameBudget();
    budget.took(VERY_SLOW_MS, true);
    expect(budget.current).toBe(START_CHARS / 2);
  });

  it('shrinks in proportion when taking in text is a little too slow', () => {
    const budget = new FrameBudget();
    budget.took(SLOW_MS * 1.25, true);
    expect(budget.current).toBe(START_CHARS * 0.8);
  });

  it('shrinks by a quarter when a frame comes late after taking in text over the aim', () => {
    const budget = new FrameBudget();
    budget.frame(1_000, false);
    budget.took(OVER_MS, true);
    budget.frame(1_000 + LATE_MS + 1, true);
    expect(budget.current).toBe(START_CHARS * LATE_FACTOR);
  });

  it('does not shrink for a late frame when taking in text was quick', () => {
    // On a busy machine most frames come late for reasons of their own (other processes).
    const budget = new FrameBudget();
    budget.frame(1_000, false);
    budget.took(QUICK_MS, false);
    budget.frame(1_000 + LATE_MS * 3, true);
    expect(budget.current).toBe(START_CHARS);
  });

  it('holds at the edges: a frame exactly the late gap after the last, and exactly the aim', () => {
    const budget = new FrameBudget();
    budget.frame(1_000, false);
    budget.took(OVER_MS, false);
    budget.frame(1_000 + LATE_MS, true);
    expect(budget.current).toBe(START_CHARS);
    budget.took(TARGET_MS, true);
    expect(budget.current).toBe(START_CHARS);
    // Taking in text exactly at the aim is not over it: the next late frame does not shrink.
    budget.frame(2_000 + LATE_MS + 1, true);
    expect(budget.current).toBe(START_CHARS);
  });

  it('does not count the gap after a pause as lateness', () => {
    const budget = new FrameBudget();
    budget.frame(1_000, false);
    budget.took(OVER_MS, false);
    budget.frame(5_000, false);
    budget.frame(5_016, true);
    expect(budget.current).toBe(START_CHARS);
  });

  it('stays within its bounds', () => {
    const budget = new FrameBudget();
    for (let i = 0; i < 100; i++) {
      budget.took(QUICK_MS, true);
    }
    expect(budget.current).toBe(MAX_CHARS);
    for (let i = 0; i < 100; i++) {
      budget.took(VERY_SLOW_MS, true);
    }
    expect(budget.current).toBe(MIN_CHARS);
  });
});
