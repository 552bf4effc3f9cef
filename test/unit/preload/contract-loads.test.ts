/**
 * The contract builds every schema: as it loads, or the first time one is read (each call's and
 * event's, see preload/shared/lazy-schema.ts). A schema zod refuses to build (a discriminated
 * union with an option that lacks its tag, say) throws while preload/shared/contract.ts loads,
 * or when it is first read, so test files that use it fail in ways a mutation run does not
 * count; built here inside a test, the same fault fails this one.
 */
import { expect, it } from 'vitest';

it('builds every schema of the contract as it loads', async () => {
  const contract = await import('../../../preload/shared/contract.js');
  expect(Object.keys(contract.calls).length).toBeGreaterThan(0);
  expect(Object.keys(contract.events).length).toBeGreaterThan(0);
});

it('builds every schema of the contract when first read', async () => {
  const contract = await import('../../../preload/shared/contract.js');
  const schemas: unknown[] = [
    ...Object.values(contract.calls).flatMap((call) => [call.request, call.response]),
    ...Object.values(contract.events),
    ...Object.values(contract).filter(
      (value) => typeof value === 'object' && value !== null && '_zod' in value,
    ),
  ];
  for (const schema of schemas) {
    // Reading the schema's internals builds it, and what it holds directly.
    expect((schema as { _zod: { def: unknown } })._zod.def).toBeDefined();
  }
  expect(schemas.length).toBeGreaterThan(100);
});
