import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
          setupFiles: ['test/helpers/strict-expect.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          // A page under load (CI runs beside other work) can take seconds to reach a state a
          // quiet machine reaches at once: waits give it as long as a locator's own wait.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
