import { describe, expect, it } from 'vitest';
import { newRows } from '../../../renderer/src/state/terminal-announce.js';

describe('newRows', () => {
  it('gives the rows the command wrote or the user typed on, not those scrolling moved', () => {
    expect(newRows([], ['What is your name?', '', ''])).toEqual(['What is your name?']);
    expect(newRows(['What is your name?', ''], ['What is your name? Ada', ''])).toEqual([
      'What is your name? Ada',
    ]);
    expect(newRows(['one', 'two', 'three'], ['two', 'three', 'four'])).toEqual(['four']);
  });

  it('counts repeated rows, and leaves out blank ones', () => {
    expect(newRows(['ok'], ['ok', 'ok', '   '])).toEqual(['ok']);
    expect(newRows(['a', 'b'], ['a', 'b'])).toEqual([]);
  });
});
