import { describe, expect, it, vi } from 'vitest';
import { pageCredentials } from '../../../renderer/src/bridge/page-credentials.js';

/** A page at `hash`, with a storage of its own. */
function page(hash: string, storage: Map<string, string> = new Map()) {
  const replaceState = vi.fn();
  const store = {
    getItem: (name: string) => storage.get(name) ?? null,
    setItem: (name: string, value: string) => void storage.set(name, value),
    removeItem: (name: string) => void storage.delete(name),
  };
  const location = { hash, pathname: '/', search: '' };
  return { replaceState, storage, made: () => pageCredentials(location, { replaceState }, store) };
}

describe('pageCredentials', () => {
  it('takes the link token out of the address at once, keeping the rest of the fragment', () => {
    const opened = page('#token=abc-_1&waiting=s1');
    const held = opened.made();
    expect(held.link).toBe('abc-_1');
    expect(opened.replaceState).toHaveBeenCalledWith(null, '', '/#waiting=s1');
  });

  it('leaves the address alone when it has no token, and an empty fragment when it had only that', () => {
    const plain = page('#waiting=s1');
    expect(plain.made().link).toBeUndefined();
    expect(plain.replaceState).not.toHaveBeenCalled();
    const only = page('#token=abc');
    only.made();
    expect(only.replaceState).toHaveBeenCalledWith(null, '', '/');
  });

  it('keeps the key in the tab’s storage, where a reload finds it, and spends the link', () => {
    const storage = new Map<string, string>();
    const first = page('#token=abc', storage).made();
    expect(first.key()).toBeUndefined();
    first.keep('key-1');
    expect(first.link).toBeUndefined();
    expect(first.key()).toBe('key-1');
    expect(page('', storage).made().key()).toBe('key-1');
  });

  it('keeps the link through a reload until the host trades it, and no longer', () => {
    const storage = new Map<string, string>();
    page('#token=abc', storage).made();
    const reloaded = page('', storage).made();
    expect(reloaded.link).toBe('abc');
    reloaded.keep('key-1');
    expect(page('', storage).made().link).toBeUndefined();
    expect([...storage.keys()]).toEqual(['airlock.pageKey']);
  });

  it('keeps the key in memory when the storage refuses', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const held = pageCredentials(
      { hash: '#token=abc', pathname: '/', search: '' },
      { replaceState: () => undefined },
      broken,
    );
    held.keep('key-2');
    expect(held.key()).toBe('key-2');
  });
});
