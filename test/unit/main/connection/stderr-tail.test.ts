import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../../../main/core/stderr-tail.js';

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

describe('the lines kept of what an agent wrote', () => {
  it('are none before anything is written', () => {
    expect(new StderrTail(5).lines()).toEqual([]);
  });

  it('are the last ones, oldest first, blank ones left out, each cut to 500 characters', () => {
    const tail = new StderrTail(2);
    tail.push(`one\r\n\r\n\ntwo\rmid\n${'t'.repeat(600)}\n`);
    // A carriage return ends a line only at its end; one inside it stays.
    expect(tail.lines()).toEqual(['two\rmid', 't'.repeat(500)]);
    tail.push('four');
    expect(tail.lines()).toEqual(['two\rmid', 't'.repeat(500), 'four']);
  });

  it('end at a line feed, with a carriage return before it taken off', () => {
    const tail = new StderrTail(10);
    tail.push('one\r\n\r\n\n  \ntwo\n');
    expect(tail.lines()).toEqual(['one', '  ', 'two']);
  });

  it('show a line still being written cut to 500 characters, here and after a mark', () => {
    const tail = new StderrTail(5);
    const mark = tail.mark();
    tail.push('p'.repeat(700));
    expect(tail.lines()).toEqual(['p'.repeat(500)]);
    expect(tail.since(mark)).toEqual(['p'.repeat(500)]);
  });

  it('keep of a line that never ends its last 2000 characters, which it ends with', () => {
    const tail = new StderrTail(5);
    tail.push(`${'a'.repeat(1500)}${'b'.repeat(2000)}`);
    tail.push('\n');
    expect(tail.lines()).toEqual(['b'.repeat(500)]);
  });
});
