/** MCP servers in the settings file (`context_servers`): both of Zed's shapes, the merge, problems. */
import { describe, expect, it } from 'vitest';
import { parseAgentCatalog } from '../../../../main/core/settings/catalog.js';
import { mergeMcpServers, type McpServerSetting } from '../../../../main/core/settings/mcp.js';
import {
  MAX_AGENT_ARG_CHARS,
  MAX_AGENT_ARGS,
  MAX_ENV_NAME_CHARS,
  MAX_ENV_VALUE_CHARS,
  MAX_MCP_HEADERS,
  MAX_MCP_SERVERS,
  MAX_MCP_URL_CHARS,
} from '../../../../preload/shared/contract.js';
import { demoAgentSpec } from '../../../helpers/agents.js';

const demo = demoAgentSpec();
const parse = (text: string) => parseAgentCatalog(text, '/cfg/settings.json', demo);

/** Zed's shapes, with comments, trailing commas and keys Airlock reads past. */
const SETTINGS = `{
  // every agent gets these
  "context_servers": {
    "files": {
      "source": "custom",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
      "env": { "DEBUG": "1" },
    },
    "older": {
      "command": { "path": "/usr/bin/mcp-old", "args": ["run"], "env": {} },
      "settings": {},
    },
    "docs": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer t" } },
    "events": { "url": "https://mcp.example.com/sse", "type": "sse" },
    "postgres": { "settings": { "database_url": "postgres://localhost" } },
    "off": { "command": "never", "args": [], "enabled": false },
  },
  "agent_servers": {
    "Codex": {
      "command": "codex-acp",
      "context_servers": {
        "docs": { "url": "https://codex.example.com/mcp" },
        "mine": { "command": "mine-mcp" },
      },
    },
    "Plain": { "command": "plain" },
  },
}`;

describe('context_servers', () => {
  it('reads stdio servers in both of Zed’s shapes, remote ones, and extension entries', () => {
    const catalog = parse(SETTINGS);
    expect(catalog.error).toBeUndefined();
    expect(catalog.mcpServers).toEqual([
      {
        name: 'files',
        enabled: true,
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { DEBUG: '1' },
      },
      {
        name: 'older',
        enabled: true,
        transport: 'stdio',
        command: '/usr/bin/mcp-old',
        args: ['run'],
        env: {},
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
      { name: 'postgres', enabled: true, transport: 'extension' },
      { name: 'off', enabled: false, transport: 'stdio', command: 'never', args: [], env: {} },
    ]);
  });

  it('reads an agent’s own servers into that agent only', () => {
    const catalog = parse(SETTINGS);
    const codex = catalog.agents.find((agent) => agent.name === 'Codex');
    expect(codex?.mcpServers).toEqual([
      {
        name: 'docs',
        enabled: true,
        transport: 'http',
        url: 'https://codex.example.com/mcp',
        headers: {},
      },
      { name: 'mine', enabled: true, transport: 'stdio', command: 'mine-mcp', args: [], env: {} },
    ]);
    expect(catalog.agents.find((agent) => agent.name === 'Plain')?.mcpServers).toBeUndefined();
  });

  it('has no servers when the file names none', () => {
    expect(parse('{}').mcpServers).toBeUndefined();
  });
});

describe('mergeMcpServers', () => {
  const stdio = (name: string, command: string): McpServerSetting => ({
    name,
    enabled: true,
    transport: 'stdio',
    command,
    args: [],
    env: {},
  });

  it('adds an agent’s own servers after the global ones, and its own replace a global one by name, in place', () => {
    const merged = mergeMcpServers(
      [stdio('a', 'global-a'), stdio('b', 'global-b'), stdio('c', 'global-c')],
      [stdio('d', 'own-d'), stdio('b', 'own-b')],
    );
    expect(merged.map((server) => [server.name, 'command' in server && server.command])).toEqual([
      ['a', 'global-a'],
      ['b', 'own-b'],
      ['c', 'global-c'],
      ['d', 'own-d'],
    ]);
  });

  it('lets an agent turn a global server off for itself', () => {
    const merged = mergeMcpServers([stdio('a', 'x')], [{ ...stdio('a', 'x'), enabled: false }]);
    expect(merged).toEqual([{ ...stdio('a', 'x'), enabled: false }]);
  });
});

describe('problems in context_servers', () => {
  /** The text with `entry` as server "bad" on line 4, beside a good server "good". */
  const withBad = (entry: string) =>
    parse(`{
  "context_servers": {
    "good": { "command": "ok" },
    "bad": ${entry}
  }
}`);

  it.each([
    ['"npx"', 'context_servers.bad: must be an object with a command or a url'],
    ['{ "command": "" }', 'context_servers.bad.command: must not be empty'],
    ['{ "command": "x", "args": "-y" }', 'context_servers.bad.args:'],
    ['{ "command": "x", "env": { "A": 1 } }', 'context_servers.bad.env.A:'],
    ['{ "command": { "args": [] } }', 'context_servers.bad.command.path:'],
    [
      '{ "url": "ftp://example.com" }',
      'context_servers.bad.url: must be an http:// or https:// URL',
    ],
    [
      '{ "url": "https://x.example", "type": "ws" }',
      'context_servers.bad.type: must be "http" or "sse"',
    ],
    [
      '{ "url": "https://x.example", "command": "y" }',
      'context_servers.bad: has both a command and a url',
    ],
    ['{ "args": [] }', 'context_servers.bad: needs a "command"'],
    ['{ "command": "x", "enabled": "no" }', 'context_servers.bad.enabled:'],
    ['{ "command": "x", "env": { "": "1" } }', 'context_servers.bad.env.: names must not be empty'],
    [
      `{ "command": "x", "env": { "${'N'.repeat(MAX_ENV_NAME_CHARS + 1)}": "1" } }`,
      `context_servers.bad.env.${'N'.repeat(MAX_ENV_NAME_CHARS + 1)}: names must be at most ${MAX_ENV_NAME_CHARS} characters`,
    ],
    [
      `{ "command": "x", "env": { "A": "${'v'.repeat(MAX_ENV_VALUE_CHARS + 1)}" } }`,
      `context_servers.bad.env.A: must be at most ${MAX_ENV_VALUE_CHARS} characters`,
    ],
    [
      `{ "command": "x", "args": ["${'a'.repeat(MAX_AGENT_ARG_CHARS + 1)}"] }`,
      `context_servers.bad.args.0: must be at most ${MAX_AGENT_ARG_CHARS} characters`,
    ],
    [
      `{ "command": "x", "args": ${JSON.stringify(new Array(MAX_AGENT_ARGS + 1).fill('a'))} }`,
      `context_servers.bad.args: must list at most ${MAX_AGENT_ARGS} arguments`,
    ],
    [
      `{ "url": "https://x.example/${'u'.repeat(MAX_MCP_URL_CHARS)}" }`,
      `context_servers.bad.url: must be at most ${MAX_MCP_URL_CHARS} characters`,
    ],
  ])('reports %s with the file and its line, and still uses the other servers', (entry, said) => {
    const catalog = withBad(entry);
    expect(catalog.error).toContain(`/cfg/settings.json, line 4: ${said}`);
    expect(catalog.mcpServers?.map((server) => server.name)).toEqual(['good']);
    // Only this part is left out: the agents stay usable.
    expect(catalog.unreadable).toBeUndefined();
  });

  it('reports a problem in an agent’s own servers on its line, and keeps the agent', () => {
    const catalog = parse(`{
  "agent_servers": {
    "Codex": {
      "command": "codex-acp",
      "context_servers": {
        "x": { "url": "not a url" }
      }
    }
  }
}`);
    expect(catalog.error).toBe(
      '/cfg/settings.json, line 6: agent_servers.Codex.context_servers.x.url: must be an http:// or https:// URL',
    );
    expect(catalog.agents.map((agent) => agent.name)).toEqual(['Demo Agent', 'Codex']);
  });

  it('reports a problem in a list on the line of the item', () => {
    const catalog = parse(`{
  "context_servers": {
    "bad": {
      "command": "x",
      "args": [
        "fine",
        "${'a'.repeat(MAX_AGENT_ARG_CHARS + 1)}"
      ]
    }
  }
}`);
    expect(catalog.error).toBe(
      `/cfg/settings.json, line 7: context_servers.bad.args.1: must be at most ${MAX_AGENT_ARG_CHARS} characters`,
    );
  });

  it('reports context_servers that is not an object', () => {
    expect(parse('{\n  "context_servers": []\n}').error).toBe(
      '/cfg/settings.json, line 2: context_servers: must be an object of servers by name',
    );
  });

  it('keeps the global servers when the agents part of the file is wrong', () => {
    const catalog = parse(
      '{ "context_servers": { "a": { "command": "a" } }, "agent_servers": { "x": { "command": "" } } }',
    );
    expect(catalog.unusable?.[0]?.reason).toContain('agent_servers.x.command');
    expect(catalog.mcpServers?.map((server) => server.name)).toEqual(['a']);
  });

  it(`uses at most ${MAX_MCP_SERVERS} servers, saying so`, () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_MCP_SERVERS + 1 }, (_, index) => [`s${index}`, { command: 'c' }]),
    );
    const catalog = parse(JSON.stringify({ context_servers: many }));
    expect(catalog.mcpServers).toHaveLength(MAX_MCP_SERVERS);
    expect(catalog.error).toContain(
      `context_servers: must list at most ${MAX_MCP_SERVERS} servers`,
    );
  });

  it(`takes exactly ${MAX_MCP_SERVERS} servers, ${MAX_MCP_HEADERS} headers and a name of 200 characters`, () => {
    const servers = Object.fromEntries(
      Array.from({ length: MAX_MCP_SERVERS - 1 }, (_, index) => [`s${index}`, { command: 'c' }]),
    );
    const headers = Object.fromEntries(
      Array.from({ length: MAX_MCP_HEADERS }, (_, index) => [`h${index}`, 'v']),
    );
    const catalog = parse(
      JSON.stringify({
        context_servers: { ...servers, ['n'.repeat(200)]: { url: 'https://x.example', headers } },
      }),
    );
    expect(catalog.error).toBeUndefined();
    expect(catalog.mcpServers).toHaveLength(MAX_MCP_SERVERS);
    expect(catalog.mcpServers?.at(-1)).toMatchObject({ name: 'n'.repeat(200), transport: 'http' });
  });

  it('refuses a server with an empty name', () => {
    const catalog = parse('{\n  "context_servers": { "": { "command": "c" } }\n}');
    expect(catalog.error).toContain('a server name must be 1 to 200 characters');
    expect(catalog.mcpServers).toBeUndefined();
  });

  it(`refuses more than ${MAX_MCP_HEADERS} headers and names longer than 200 characters`, () => {
    const headers = Object.fromEntries(
      Array.from({ length: MAX_MCP_HEADERS + 1 }, (_, index) => [`h${index}`, 'v']),
    );
    const catalog = parse(
      JSON.stringify({
        context_servers: {
          h: { url: 'https://x.example', headers },
          ['n'.repeat(201)]: { command: 'c' },
          long: { command: 'c'.repeat(10_001) },
        },
      }),
    );
    expect(catalog.mcpServers).toBeUndefined();
    expect(catalog.error).toContain(
      `context_servers.h.headers: must set at most ${MAX_MCP_HEADERS} headers`,
    );
    expect(catalog.error).toContain('a server name must be 1 to 200 characters');
    expect(catalog.error).toContain(
      'context_servers.long.command: must be at most 10000 characters',
    );
  });

  it('lists ten problems and counts the rest, within the contract’s bounds', () => {
    const bad = Object.fromEntries(
      Array.from({ length: 30 }, (_, index) => [`b${index}`, { command: '' }]),
    );
    const catalog = parse(JSON.stringify({ context_servers: bad }));
    const lines = catalog.error!.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('…and 20 more');
    expect(catalog.error!.length).toBeLessThanOrEqual(10_000);
  });
});
