/**
 * How the hosts launch the built-in demo agent (main/core/demo.ts): the web host and the CLI pass
 * their own bundle's URL, or the repository's root when they run from source.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtDemoAgent, sourceDemoAgent } from '../../../../main/core/demo.js';
import { DEMO_AGENT_NAME } from '../../../../main/core/settings/catalog.js';

describe('the demo agent of a built host', () => {
  it.each([
    ['the bundle’s own URL', 'file:///opt/airlock/out/main/web.js'],
    ['its folder’s URL', 'file:///opt/airlock/out/main/'],
    ['its folder’s URL as a URL', new URL('file:///opt/airlock/out/main/')],
  ])('is demo-agent.js beside the bundle, given %s, run by the host’s Node', (_what, dirUrl) => {
    expect(builtDemoAgent(dirUrl)).toEqual({
      name: DEMO_AGENT_NAME,
      command: process.execPath,
      args: ['/opt/airlock/out/main/demo-agent.js'],
      env: {},
      builtIn: true,
    });
  });
});

describe('the demo agent of a host run from source', () => {
  it('is main/demo-agent/index.ts run through tsx, built in', () => {
    const root = join('/', 'work', 'airlock');
    expect(sourceDemoAgent(root)).toEqual({
      name: DEMO_AGENT_NAME,
      command: process.execPath,
      args: ['--import', 'tsx', join(root, 'main', 'demo-agent', 'index.ts')],
      env: {},
      builtIn: true,
    });
  });
});
