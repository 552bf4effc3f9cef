import { describe, expect, it } from 'vitest';
import {
  arrowBrowses,
  completeCommand,
  historyOf,
  matchCommands,
  slashQuery,
  stepHistory,
  type HistoryPosition,
} from '../../../renderer/src/state/composer-input.js';

const commands = [
  { name: 'help', description: 'List what I can do' },
  { name: 'form', description: 'A form' },
  { name: 'form-multi', description: 'Multi selects' },
  { name: 'url-form', description: 'A URL' },
  { name: 'Plan', description: 'Plan it' },
];

describe('slashQuery', () => {
  it('is the first word after a leading slash while the caret is in it', () => {
    expect(slashQuery('/', 1)).toBe('');
    expect(slashQuery('/fo', 3)).toBe('fo');
    expect(slashQuery('/form rest', 2)).toBe('form');
    expect(slashQuery('/form rest', 5)).toBe('form');
  });

  it('is nothing once the caret leaves the word, or without a leading slash', () => {
    expect(slashQuery('/form rest', 6)).toBeUndefined();
    expect(slashQuery('/form', 0)).toBeUndefined();
    expect(slashQuery('hello /form', 11)).toBeUndefined();
    expect(slashQuery('hello /form', 2)).toBeUndefined();
    expect(slashQuery(' /form', 6)).toBeUndefined();
    expect(slashQuery('', 0)).toBeUndefined();
  });
});

describe('matchCommands', () => {
  it('lists names that start with the query first, then those that contain it', () => {
    expect(matchCommands(commands, 'form').map((command) => command.name)).toEqual([
      'form',
      'form-multi',
      'url-form',
    ]);
  });

  it('ignores case, and lists every command for an empty query', () => {
    expect(matchCommands(commands, 'pL').map((command) => command.name)).toEqual(['Plan']);
    expect(matchCommands(commands, '')).toHaveLength(commands.length);
    expect(matchCommands(commands, 'zzz')).toEqual([]);
  });
});

describe('completeCommand', () => {
  it('replaces the first word and puts the caret after the space', () => {
    expect(completeCommand('/fo', 'form')).toEqual({ text: '/form ', caret: 6 });
    expect(completeCommand('/fo   the rest', 'form')).toEqual({
      text: '/form the rest',
      caret: 6,
    });
  });
});

describe('the history', () => {
  const entries = historyOf(['one', 'two', 'two', 'three']);

  it('drops a message repeated straight after itself', () => {
    expect(entries).toEqual(['one', 'two', 'three']);
    expect(historyOf(['a', 'b', 'a'])).toEqual(['a', 'b', 'a']);
    // Compared with the entry before it, wherever that is.
    expect(historyOf(['a', 'b', 'c', 'c', 'b'])).toEqual(['a', 'b', 'c', 'b']);
  });

  it('goes back with Up, forward with Down, and then to the text typed before', () => {
    let text = 'my draft';
    let position: HistoryPosition;
    const press = (key: 'up' | 'down') => {
      const step = stepHistory(entries, key, text, position);
      if (step) {
        ({ text, position } = step);
      }
      return text;
    };
    expect(press('up')).toBe('three');
    expect(press('up')).toBe('two');
    expect(press('up')).toBe('one');
    expect(press('up')).toBe('one');
    expect(press('down')).toBe('two');
    expect(press('down')).toBe('three');
    expect(press('down')).toBe('my draft');
    expect(position).toBeUndefined();
    expect(stepHistory(entries, 'down', text, position)).toBeUndefined();
    expect(stepHistory([], 'up', text, undefined)).toBeUndefined();
  });

  it('takes the arrows only at the ends of the text, or on an entry shown unchanged', () => {
    const text = 'line one\nline two';
    const at = (start: number, end = start) => ({ start, end });
    expect(arrowBrowses('up', text, at(0), undefined)).toBe(true);
    expect(arrowBrowses('up', text, at(text.length), undefined)).toBe(false);
    expect(arrowBrowses('down', text, at(text.length), undefined)).toBe(true);
    expect(arrowBrowses('down', text, at(3), undefined)).toBe(false);
    expect(arrowBrowses('up', text, at(0, 4), undefined)).toBe(false);
    expect(arrowBrowses('up', '', at(0), undefined)).toBe(true);
    const shown = { index: 0, shown: text, saved: '' };
    expect(arrowBrowses('up', text, at(text.length), shown)).toBe(true);
    expect(arrowBrowses('up', `${text}!`, at(text.length + 1), shown)).toBe(false);
  });
});
