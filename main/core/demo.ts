/**
 * How hosts launch the built-in demo agent.
 *
 * Built, it is `demo-agent.js` beside the host's own bundle in `out/main/`; from source (a host
 * run through tsx, as the CLI tests do) it is `main/demo-agent/index.ts` run through tsx.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_AGENT_NAME } from './settings/catalog.js';
import type { AgentSpec } from './agents/spec.js';

/**
 * The demo agent of a built host: `demo-agent.js` in the folder of `dirUrl`.
 *
 * Pass the host bundle's `import.meta.url` (or the folder's URL, ending in `/`). It runs with the
 * Node that runs the host.
 */
export function builtDemoAgent(dirUrl: string | URL): AgentSpec {
  return {
    name: DEMO_AGENT_NAME,
    command: process.execPath,
    args: [fileURLToPath(new URL('./demo-agent.js', dirUrl))],
    env: {},
    builtIn: true,
  };
}

/** The demo agent run from source through tsx, for hosts that themselves run from source. */
export function sourceDemoAgent(repoRoot: string): AgentSpec {
  return {
    name: DEMO_AGENT_NAME,
    command: process.execPath,
    args: ['--import', 'tsx', join(repoRoot, 'main', 'demo-agent', 'index.ts')],
    env: {},
    builtIn: true,
  };
}
