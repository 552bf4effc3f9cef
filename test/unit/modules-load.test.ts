/// <reference types="vite/client" />
/**
 * Every module that a mutation run changes loads, each inside a test of its own.
 *
 * Many modules build things as they load: zod schemas, keyword tables, regular expressions. A
 * fault there (a discriminated union with an option that lacks its tag, say) throws while the
 * module loads, so every test file that imports it fails before any of its tests run, and a
 * mutation run, which counts only failing tests, sees none. Here the same fault fails a test.
 * (`contract-loads.test.ts` checks the contract's schemas further.)
 */
import { describe, expect, it } from 'vitest';

/** The modules `npm run mutation` changes (stryker.config.mjs), by path, not loaded yet. */
const modules = {
  ...import.meta.glob('../../main/core/**/*.ts'),
  ...import.meta.glob('../../main/web/server.ts'),
  // The code both sides share (the Electron preloads themselves need Electron).
  ...import.meta.glob('../../preload/shared/*.ts'),
  ...import.meta.glob('../../renderer/src/state/*.ts'),
};

describe('the modules mutation testing changes', () => {
  it('are all found', () => {
    const folders = new Set(Object.keys(modules).map((path) => path.split('/').slice(2, 4)[0]));
    expect([...folders].sort()).toEqual(['main', 'preload', 'renderer']);
    expect(Object.keys(modules)).toContain('../../main/core/core.ts');
    expect(Object.keys(modules)).toContain('../../preload/shared/contract.ts');
    expect(Object.keys(modules)).toContain('../../renderer/src/state/store.ts');
  });

  it.each(Object.keys(modules))('%s loads', async (path) => {
    await expect(modules[path]!()).resolves.toBeTypeOf('object');
  });
});
