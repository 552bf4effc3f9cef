/**
 * A dependency loaded on first use: not when the function is made, once when first called, the
 * same exports from then on.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../../../main/core/on-first-use.js';

type Counted = { load: number };

describe('onFirstUse', () => {
  it('loads the module at the first call only, and hands out the same exports after', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'airlock-first-use-'));
    const file = join(folder, 'counted.cjs');
    // Each load of the file counts itself on the global object.
    await writeFile(
      file,
      'globalThis.airlockLoads = (globalThis.airlockLoads ?? 0) + 1;\n' +
        'module.exports = { load: globalThis.airlockLoads };\n',
    );
    const loads = () => (globalThis as { airlockLoads?: number }).airlockLoads ?? 0;
    const counted = onFirstUse<Counted>(file);
    expect(loads()).toBe(0);
    const first = counted();
    expect(first).toEqual({ load: 1 });
    expect(counted()).toBe(first);
    expect(loads()).toBe(1);
  });

  it('says which module could not be found, at the call that needed it', () => {
    const missing = onFirstUse('airlock-no-such-module');
    expect(() => missing()).toThrow(/airlock-no-such-module/);
  });
});
