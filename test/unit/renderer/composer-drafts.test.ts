import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ComposerDrafts, DRAFTS_STORAGE_KEY } from '../../../renderer/src/state/composer-drafts.js';

/** Just enough of `Storage`. */
function memoryStorage(initial: Record<string, string> = {}): Storage {
  const items = new Map(Object.entries(initial));
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ComposerDrafts', () => {
  it('keeps a draft per tab and forgets an empty one', () => {
    const drafts = new ComposerDrafts(memoryStorage());
    drafts.set('s1', 'first');
    drafts.set('s2', 'second');
    expect(drafts.get('s1')).toBe('first');
    expect(drafts.get('s2')).toBe('second');
    drafts.set('s1', '');
    expect(drafts.get('s1')).toBe('');
    expect(drafts.get('s3')).toBe('');
  });

  it('copies them to storage after a burst of typing, for a reload to find', () => {
    const storage = memoryStorage();
    const drafts = new ComposerDrafts(storage);
    drafts.set('s1', 'h');
    drafts.set('s1', 'hello');
    expect(storage.getItem(DRAFTS_STORAGE_KEY)).toBeNull();
    vi.runAllTimers();
    expect(JSON.parse(storage.getItem(DRAFTS_STORAGE_KEY)!)).toEqual({ s1: 'hello' });
    expect(new ComposerDrafts(storage).get('s1')).toBe('hello');
  });

  it('keeps a very long draft in memory only', () => {
    const storage = memoryStorage();
    const drafts = new ComposerDrafts(storage);
    drafts.set('s1', 'x'.repeat(200_000));
    drafts.set('s2', 'short');
    drafts.save();
    expect(JSON.parse(storage.getItem(DRAFTS_STORAGE_KEY)!)).toEqual({ s2: 'short' });
    expect(drafts.get('s1')).toHaveLength(200_000);
  });

  it('ignores a damaged copy, and storage that refuses to write', () => {
    const storage = memoryStorage({ [DRAFTS_STORAGE_KEY]: '{"s1": 4, "s2": "kept"' });
    expect(new ComposerDrafts(storage).get('s2')).toBe('');
    const wrongShape = memoryStorage({ [DRAFTS_STORAGE_KEY]: '{"s1": 4, "s2": "kept"}' });
    const drafts = new ComposerDrafts(wrongShape);
    expect(drafts.get('s1')).toBe('');
    expect(drafts.get('s2')).toBe('kept');
    const full = memoryStorage();
    full.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const unsaved = new ComposerDrafts(full);
    unsaved.set('s1', 'still here');
    expect(() => unsaved.save()).not.toThrow();
    expect(unsaved.get('s1')).toBe('still here');
    expect(new ComposerDrafts(undefined).get('s1')).toBe('');
  });
});
