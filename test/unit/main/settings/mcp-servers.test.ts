/** Which MCP servers a session is given, for every combination of what the agent advertises. */
import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { mcpServersFor } from '../../../../main/core/mcp-servers.js';
import type { McpServerSetting } from '../../../../main/core/settings/mcp.js';

const GLOBAL: McpServerSetting[] = [
  {
    name: 'files',
    enabled: true,
    transport: 'stdio',
    command: '/usr/bin/mcp-files',
    args: ['--root', '/tmp'],
    env: { DEBUG: '1', TOKEN: 't' },
  },
  {
    name: 'docs',
    enabled: true,
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { Authorization: 'Bearer t' },
  },
  {
    name: 'events',
    enabled: true,
    transport: 'sse',
    url: 'https://mcp.example.com/sse',
    headers: {},
  },
];

const STDIO: acp.McpServer = {
  name: 'files',
  command: '/usr/bin/mcp-files',
  args: ['--root', '/tmp'],
  env: [
    { name: 'DEBUG', value: '1' },
    { name: 'TOKEN', value: 't' },
  ],
};
const HTTP: acp.McpServer = {
  type: 'http',
  name: 'docs',
  url: 'https://mcp.example.com/mcp',
  headers: [{ name: 'Authorization', value: 'Bearer t' }],
};
const SSE: acp.McpServer = {
  type: 'sse',
  name: 'events',
  url: 'https://mcp.example.com/sse',
  headers: [],
};

const spec = { name: 'Agent X' };
const withMcp = (mcp: unknown) => ({ mcpCapabilities: mcp }) as acp.AgentCapabilities;

describe('mcpServersFor', () => {
  it.each([
    ['nothing advertised', undefined, [STDIO], ['docs', 'events']],
    ['no mcpCapabilities', withMcp(undefined), [STDIO], ['docs', 'events']],
    ['neither', withMcp({ http: false, sse: false }), [STDIO], ['docs', 'events']],
    ['http only', withMcp({ http: true, sse: false }), [STDIO, HTTP], ['events']],
    ['sse only', withMcp({ http: false, sse: true }), [STDIO, SSE], ['docs']],
    ['both', withMcp({ http: true, sse: true }), [STDIO, HTTP, SSE], []],
    // An agent's capabilities are not validated: only a literal true counts.
    ['truthy non-booleans', withMcp({ http: 'yes', sse: 1 }), [STDIO], ['docs', 'events']],
    ['null', withMcp(null), [STDIO], ['docs', 'events']],
  ])('with %s: stdio always, each remote one only when advertised', (_, caps, given, leftOut) => {
    const choice = mcpServersFor({ mcpServers: GLOBAL }, spec, caps);
    expect(choice.mcpServers).toEqual(given);
    expect(choice.leftOut.map((server) => server.name)).toEqual(leftOut);
    expect(choice.notes.map((note) => note.text)).toEqual(
      leftOut.map((name) =>
        name === 'docs'
          ? 'MCP server “docs” was not given to Agent X: it is reached over HTTP, and Agent X does not say it can use HTTP MCP servers.'
          : 'MCP server “events” was not given to Agent X: it is reached over SSE, and Agent X does not say it can use SSE MCP servers.',
      ),
    );
  });

  it('gives one note a stable id per server, so a restart replaces it rather than repeating it', () => {
    const first = mcpServersFor({ mcpServers: GLOBAL }, spec, undefined).notes;
    const again = mcpServersFor({ mcpServers: GLOBAL }, spec, undefined).notes;
    expect(first.map((note) => note.id)).toEqual(again.map((note) => note.id));
    expect(new Set(first.map((note) => note.id)).size).toBe(2);
    // A digest of the name, in letters a key can hold, of one length whatever the name.
    for (const note of first) {
      expect(note.id).toMatch(/^mcp-left-out-[0-9a-f]{16}$/);
    }
  });

  it('merges the agent’s own servers: its own replace a global one by name, and add to them', () => {
    const own: McpServerSetting[] = [
      { name: 'docs', enabled: true, transport: 'stdio', command: 'docs-local', args: [], env: {} },
      { name: 'extra', enabled: true, transport: 'stdio', command: 'extra', args: [], env: {} },
    ];
    const choice = mcpServersFor({ mcpServers: GLOBAL }, { ...spec, mcpServers: own }, undefined);
    expect(choice.mcpServers.map((server) => server.name)).toEqual(['files', 'docs', 'extra']);
    expect(choice.mcpServers[1]).toEqual({
      name: 'docs',
      command: 'docs-local',
      args: [],
      env: [],
    });
    expect(choice.leftOut.map((server) => server.name)).toEqual(['events']);
  });

  it('leaves out a server turned off without a note, and an extension’s server with one', () => {
    const choice = mcpServersFor(
      {
        mcpServers: [
          { ...GLOBAL[0]!, enabled: false },
          { name: 'postgres', enabled: true, transport: 'extension' },
        ],
      },
      spec,
      withMcp({ http: true, sse: true }),
    );
    expect(choice.mcpServers).toEqual([]);
    expect(choice.notes.map((note) => note.text)).toEqual([
      'MCP server “postgres” was not given to Agent X: it is a Zed extension’s server, which Airlock cannot start.',
    ]);
  });

  it('gives an agent no longer in the settings the global servers', () => {
    const choice = mcpServersFor({ mcpServers: GLOBAL }, undefined, withMcp({ http: true }));
    expect(choice.mcpServers).toEqual([STDIO, HTTP]);
    expect(choice.notes[0]?.text).toContain('not given to the agent');
  });

  it('gives nothing when the settings name no servers', () => {
    expect(mcpServersFor({}, spec, undefined)).toEqual({ mcpServers: [], leftOut: [], notes: [] });
  });
});
