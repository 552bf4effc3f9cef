import { defineConfig } from 'vitest/config';
import SpreadSequencer from './test/helpers/sequencer.js';

export default defineConfig({
  test: {
    // Unit files beside the e2e files: vitest runs a project of one worker after all the others,
    // so the e2e files take turns of their own instead (test/helpers/e2e-turns.ts), two at a
    // time, and the third worker runs unit files.
    maxWorkers: 3,
    sequence: { sequencer: SpreadSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/helpers/strict-expect.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Each file waits for its turn first.
          setupFiles: ['test/helpers/e2e-turn.ts', 'test/helpers/strict-expect.ts'],
          globalSetup: ['test/helpers/e2e-turns.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A page under load (CI runs beside other work) can take seconds to reach a state a
          // quiet machine reaches at once: waits give it as long as a locator's own wait.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
