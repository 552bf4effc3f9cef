/**
 * The `airlock` command line: `airlock probe <agent name>` or `airlock probe -- <command> [args]`.
 *
 * Built to `out/main/cli.js` and started by `bin/airlock.js`; see run.ts for what it does.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentSpec } from '../core/agents/spec.js';
import { builtDemoAgent, sourceDemoAgent } from '../core/demo.js';
import { EXIT, runCli } from './run.js';

/** The demo agent beside this bundle, or from source when this file runs through tsx. */
function demoAgent(): AgentSpec {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts')
    ? sourceDemoAgent(join(dirname(here), '..', '..'))
    : builtDemoAgent(import.meta.url);
}

runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  demoAgent: demoAgent(),
}).then(
  (status) => {
    // Exit now rather than when every agent pipe has closed: a probed agent's own children can
    // hold them open long after the agent was stopped.
    process.stdout.write('', () => process.exit(status));
  },
  (error: unknown) => {
    process.stderr.write(`airlock: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(EXIT.failed);
  },
);
