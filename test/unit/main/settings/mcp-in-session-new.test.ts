/**
 * MCP servers from the settings reach a real agent process in `session/new`, filtered by what it
 * advertises, and each one left out is a line in the session's transcript.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentLogContains } from '../../../helpers/agent-log.js';
import { TSX_LOADER } from '../../../helpers/agents.js';
import { useCore } from '../../../helpers/core-harness.js';

const fixture = fileURLToPath(new URL('../../../fixtures/agents/mcp-agent.ts', import.meta.url));

const { start } = useCore();

/** The fixture agent advertising `transports`, with `own` servers of its own. */
const agent = (transports: string, own?: object) => ({
  command: process.execPath,
  args: ['--import', TSX_LOADER, fixture, transports],
  ...(own ? { context_servers: own } : {}),
});

const SETTINGS = {
  context_servers: {
    files: { command: '/usr/bin/mcp-files', args: ['--root', '/tmp'], env: { DEBUG: '1' } },
    docs: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
    events: { url: 'https://mcp.example.com/sse', type: 'sse' },
  },
  agent_servers: {
    'HTTP agent': agent('http', { mine: { command: { path: '/opt/mine', args: [], env: {} } } }),
    'Both agent': agent('both'),
  },
};

/** Starts a core with {@link SETTINGS}, opens a session of `agentName`, and returns what it got. */
async function sessionOf(agentName: string) {
  const started = await start();
  const { core } = started;
  await writeFile(started.settingsPath, JSON.stringify(SETTINGS));
  await core.init();
  const key = await started.ready(agentName);
  await agentLogContains(core, agentName, 'session/new mcpServers: ');
  const { text } = await started.call('agent:readLog', { agentName });
  const line = text.split('\n').find((row) => row.startsWith('session/new mcpServers: '))!;
  const received: unknown = JSON.parse(line.slice('session/new mcpServers: '.length));
  const notes = started.recorder
    .transcript(key)
    .flatMap((event) => (event.type === 'system' ? [event.text] : []));
  return { received, notes };
}

describe('MCP servers in session/new', () => {
  it('gives stdio servers and, to an agent that advertises HTTP, HTTP ones; an SSE one is left out with a note', async () => {
    const { received, notes } = await sessionOf('HTTP agent');
    expect(received).toEqual([
      {
        name: 'files',
        command: '/usr/bin/mcp-files',
        args: ['--root', '/tmp'],
        env: [{ name: 'DEBUG', value: '1' }],
      },
      {
        type: 'http',
        name: 'docs',
        url: 'https://mcp.example.com/mcp',
        headers: [{ name: 'Authorization', value: 'Bearer t' }],
      },
      { name: 'mine', command: '/opt/mine', args: [], env: [] },
    ]);
    expect(notes).toEqual([
      'MCP server “events” was not given to HTTP agent: it is reached over SSE, and HTTP agent does not say it can use SSE MCP servers.',
    ]);
  });

  it('gives every server to an agent that advertises both transports, with no note', async () => {
    const { received, notes } = await sessionOf('Both agent');
    expect((received as { name: string }[]).map((server) => server.name)).toEqual([
      'files',
      'docs',
      'events',
    ]);
    expect(received).toContainEqual({
      type: 'sse',
      name: 'events',
      url: 'https://mcp.example.com/sse',
      headers: [],
    });
    expect(notes).toEqual([]);
  });
});
