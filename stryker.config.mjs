// @ts-check
/**
 * Mutation testing with StrykerJS: `npm run mutation` (see docs/mutation.md).
 *
 * Runs over the host-independent code (the core with its elicitation code, the web host, the
 * contract and preload code, the renderer's state), not over the Electron host, the CLI or the
 * demo agent.
 */

// The incremental report: a run tests again only the mutants whose code or tests changed since
// the last. Not committed: a full run's is megabytes, rewritten whole by every run. A run
// narrowed with `--mutate` (`npm run mutation -- --mutate main/core/session.ts`) reports on its
// files alone, so it keeps a file of its own rather than overwrite the full run's.
const narrowed = process.argv.some((arg) => arg === '-m' || arg.startsWith('--mutate'));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  mutate: [
    'main/core/**/*.ts',
    'main/web/**/*.ts',
    'preload/**/*.ts',
    'renderer/src/state/**/*.ts',
    // The web host's entry point only starts the server; only the e2e tests run it (built).
    '!main/web/index.ts',
  ],
  testRunner: 'vitest',
  // The unit project alone, in child processes: see test/mutation/vitest.config.ts. Not
  // `related`: a change to code that runs as its module loads (a zod schema, a table) is tested
  // by running every test, and with `related` vitest looked for the tests of the sandbox's copy
  // of the file, found none where tests import it late (`await import`), and Stryker counted the
  // change as survived without running a test. Each other change runs the tests that cover it.
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: false },
  // The unit tests run the demo agent and the fixtures from source, so nothing is built first;
  // the sandbox leaves out the build and what only the e2e tests and benchmarks use.
  ignorePatterns: ['/out', '/dist', '/coverage', '/test-results', '/test/e2e', '/test/bench'],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: narrowed
    ? 'reports/stryker-incremental-narrowed.json'
    : 'reports/stryker-incremental.json',
  // The machine has two cores, shared with other test runs.
  concurrency: 2,
  // Generous, because the machine is shared: a slow run must not pass for an endless loop.
  timeoutMS: 15_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 20,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, reportTests: false, logTests: false },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  // Even after a failed run: ESLint would lint the sandbox's copies of the sources.
  cleanTempDir: 'always',
};

export default config;
