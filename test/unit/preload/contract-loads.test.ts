/**
 * The contract builds every schema as it loads. A schema zod refuses to build (a discriminated
 * union with an option that lacks its tag, say) throws while preload/shared/contract.ts loads, so every
 * test file that imports it fails before any of its tests run; a mutation run counts only
 * failing tests, and saw none. Loaded here inside a test, the same fault fails this one.
 */
import { expect, it } from 'vitest';

it('builds every schema of the contract as it loads', async () => {
  const contract = await import('../../../preload/shared/contract.js');
  expect(Object.keys(contract.calls).length).toBeGreaterThan(0);
  expect(Object.keys(contract.events).length).toBeGreaterThan(0);
});
