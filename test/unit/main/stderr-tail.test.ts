import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../../main/core/stderr-tail.js';

describe('what an agent wrote after a point', () => {
  it('is the lines written since the mark, even when older ones were dropped', () => {
    const tail = new StderrTail(3);
    tail.push('one\ntwo\n');
    const mark = tail.mark();
    expect(tail.since(mark)).toEqual([]);
    tail.push('three\nfour\nfive\nsix\n');
    // Only three are kept; all of them came after the mark.
    expect(tail.since(mark)).toEqual(['four', 'five', 'six']);
    const later = tail.mark();
    tail.push('seven\n');
    expect(tail.since(later)).toEqual(['seven']);
  });

  it('counts a line still being written once it changed after the mark', () => {
    const tail = new StderrTail(10);
    tail.push('started\npartial');
    const mark = tail.mark();
    expect(tail.since(mark)).toEqual([]);
    tail.push(' line');
    expect(tail.since(mark)).toEqual(['partial line']);
  });
});
