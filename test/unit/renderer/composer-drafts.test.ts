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
  vi.unstubAllGlobals();
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

  it('restores only drafts that are text, from a copy that is an object', () => {
    const restored = (copy: string) => {
      const drafts = new ComposerDrafts(memoryStorage({ [DRAFTS_STORAGE_KEY]: copy }));
      return [drafts.get('0'), drafts.get('s1'), drafts.get('s2')];
    };
    expect(restored('["from a list"]')).toEqual(['', '', '']);
    expect(restored('"a string"')).toEqual(['', '', '']);
    // An empty draft is not kept, so the next copy leaves it out.
    const storage = memoryStorage({ [DRAFTS_STORAGE_KEY]: '{"s1": "", "s2": "kept"}' });
    new ComposerDrafts(storage).save();
    expect(JSON.parse(storage.getItem(DRAFTS_STORAGE_KEY)!)).toEqual({ s2: 'kept' });
  });

  it('leaves a draft emptied out of the copy, and copies one of exactly the most it stores', () => {
    const storage = memoryStorage();
    const drafts = new ComposerDrafts(storage);
    drafts.set('s1', 'gone soon');
    drafts.set('s1', '');
    drafts.set('s2', 'y'.repeat(100_000));
    drafts.save();
    expect(Object.keys(JSON.parse(storage.getItem(DRAFTS_STORAGE_KEY)!))).toEqual(['s2']);
  });

  it('writes once per burst, not again after a save, and again for the next burst', () => {
    const storage = memoryStorage();
    const writes = vi.spyOn(storage, 'setItem');
    const drafts = new ComposerDrafts(storage);
    drafts.set('s1', 'a');
    drafts.set('s1', 'ab');
    drafts.set('s1', 'abc');
    vi.runAllTimers();
    expect(writes).toHaveBeenCalledTimes(1);
    drafts.set('s1', 'abcd');
    drafts.save();
    vi.runAllTimers();
    expect(writes).toHaveBeenCalledTimes(2);
    drafts.set('s1', 'abcde');
    vi.runAllTimers();
    expect(writes).toHaveBeenCalledTimes(3);
    expect(JSON.parse(storage.getItem(DRAFTS_STORAGE_KEY)!)).toEqual({ s1: 'abcde' });
  });

  it('writes a burst 250 ms after its first key, and no sooner for a burst begun since', () => {
    const storage = memoryStorage();
    const writes = vi.spyOn(storage, 'setItem');
    const drafts = new ComposerDrafts(storage);
    drafts.set('s1', 'a');
    vi.advanceTimersByTime(200);
    drafts.set('s1', 'ab');
    vi.advanceTimersByTime(60);
    expect(writes).toHaveBeenCalledTimes(1);
    drafts.set('s1', 'abc');
    vi.advanceTimersByTime(249);
    expect(writes).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveBeenCalledTimes(2);
  });

  it('keeps its copy under a name of its own', () => {
    expect(DRAFTS_STORAGE_KEY).toMatch(/^airlock\./);
  });
});

describe('the page’s drafts', () => {
  it('come from the page’s sessionStorage, and are copied back as the page goes away', async () => {
    const storage = memoryStorage({ [DRAFTS_STORAGE_KEY]: '{"s1": "from before the reload"}' });
    const page = new EventTarget();
    vi.stubGlobal('sessionStorage', storage);
    vi.stubGlobal('window', page);
    vi.resetModules();
    const { composerDrafts } = await import('../../../renderer/src/state/composer-drafts.js');
    expect(composerDrafts.get('s1')).toBe('from before the reload');
    composerDrafts.set('s1', 'typed since');
    page.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse(storage.getItem(DRAFTS_STORAGE_KEY)!)).toEqual({ s1: 'typed since' });
  });
});
