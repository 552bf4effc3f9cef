import { describe, expect, it } from 'vitest';
import {
  FrameBudget,
  LATE_FACTOR,
  LATE_MS,
  MAX_CHARS,
  MIN_CHARS,
  START_CHARS,
  STEP_CHARS,
  TARGET_MS,
} from '../../../renderer/src/state/frame-budget';

const QUICK_MS = TARGET_MS / 4;
const SLOW_MS = TARGET_MS * 2;

describe('the per-frame text budget', () => {
  it('starts small and grows by half of itself while taking in text is quick', () => {
    const budget = new FrameBudget();
    expect(budget.current).toBe(START_CHARS);
    budget.took(QUICK_MS, true);
    budget.took(QUICK_MS, true);
    expect(budget.current).toBe(START_CHARS * 2.25);
  });

  it('grows at least a step at a time', () => {
    const budget = new FrameBudget();
    for (let i = 0; i < 20; i++) {
      budget.took(SLOW_MS * 10, true);
    }
    expect(budget.current).toBe(MIN_CHARS);
    budget.took(QUICK_MS, true);
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

  it('halves as soon as taking in text is slow', () => {
    const budget = new FrameBudget();
    budget.took(SLOW_MS, true);
    expect(budget.current).toBe(START_CHARS / 2);
  });

  it('shrinks in proportion when taking in text is a little slow', () => {
    const budget = new FrameBudget();
    budget.took(TARGET_MS * 1.25, true);
    expect(budget.current).toBe(START_CHARS * 0.8);
  });

  it('shrinks by a quarter when a frame that follows on from another comes late', () => {
    const budget = new FrameBudget();
    budget.frame(1_000, false);
    budget.frame(1_000 + LATE_MS + 1, true);
    expect(budget.current).toBe(START_CHARS * LATE_FACTOR);
  });

  it('holds at the edges: a frame exactly the late gap after the last, and exactly the aim', () => {
    const budget = new FrameBudget();
    budget.frame(1_000, false);
    budget.frame(1_000 + LATE_MS, true);
    expect(budget.current).toBe(START_CHARS);
    budget.took(TARGET_MS, true);
    expect(budget.current).toBe(START_CHARS);
  });

  it('does not count the gap after a pause as lateness', () => {
    const budget = new FrameBudget();
    budget.frame(1_000, false);
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
      budget.took(SLOW_MS, true);
    }
    expect(budget.current).toBe(MIN_CHARS);
  });
});
