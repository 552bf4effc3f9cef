/**
 * The vitest configuration Stryker runs (see stryker.config.mjs): the unit project of
 * vitest.config.ts alone, in child processes as `npm test` runs it.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

const unit = base.test?.projects?.find(
  (project) => typeof project === 'object' && 'test' in project && project.test?.name === 'unit',
);
if (typeof unit !== 'object' || unit instanceof Promise) {
  throw new Error('vitest.config.ts has no project named "unit"');
}

/**
 * Runs the tests in child processes, vitest's default, which Stryker's vitest runner replaces
 * with worker threads. A few tests fail in a thread: its stack is four times a process's, for
 * one, so there a 10,000-deep form schema no longer overflows `JSON.stringify` (checkSize in
 * main/core/elicitation/form-schema.ts).
 */
function inChildProcesses(): Plugin {
  return { name: 'airlock:mutation-forks', config: () => ({ test: { pool: 'forks' } }) };
}

/**
 * The test files `AIRLOCK_MUTATION_TESTS` names (comma-separated), else every unit test. A change
 * to a module the core imports (attention.ts, say) reaches nearly every core test, each starting
 * real agents: a run over such a module with its own test files alone takes minutes, not hours.
 * Always with the test that loads every module, so that a change that makes a module throw as it
 * loads fails a test (and is not counted as survived because no test of the file could run).
 */
const named = process.env.AIRLOCK_MUTATION_TESTS?.split(',').filter(Boolean);
const only = named?.length ? [...named, 'test/unit/modules-load.test.ts'] : undefined;

/**
 * Only the unit project: the e2e project drives Chromium through the built app, takes minutes
 * a run, and would run again for every mutant it covers.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    projects: [
      {
        ...unit,
        test: { ...unit.test, ...(only?.length ? { include: only } : {}) },
        plugins: [...(unit.plugins ?? []), inChildProcesses()],
      },
    ],
  },
});
