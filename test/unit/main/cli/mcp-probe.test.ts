/**
 * `airlock probe` and the settings view's Test report both sides of the handshake in full, and
 * the MCP servers a session of the agent is given, from one check.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/run.js';
import { demoAgentSpec, TSX_LOADER } from '../../../helpers/agents.js';
import { useCore } from '../../../helpers/core-harness.js';

const fixture = fileURLToPath(new URL('../../../fixtures/agents/mcp-agent.ts', import.meta.url));

const SETTINGS = {
  context_servers: {
    files: { command: '/usr/bin/mcp-files' },
    events: { url: 'https://mcp.example.com/sse', type: 'sse' },
  },
  agent_servers: {
    'HTTP agent': {
      command: process.execPath,
      args: ['--import', TSX_LOADER, fixture, 'http'],
      context_servers: { docs: { url: 'https://mcp.example.com/mcp' } },
    },
  },
};

/** What the fixture advertises (MCP over HTTP, nothing else), as rows both reports show. */
const AGENT_ROWS: [string, string][] = [
  ['loadSession', 'no'],
  ['sessionCapabilities.list', 'no'],
  ['sessionCapabilities.resume', 'no'],
  ['sessionCapabilities.close', 'no'],
  ['sessionCapabilities.fork', 'no'],
  ['promptCapabilities.image', 'no'],
  ['promptCapabilities.audio', 'no'],
  ['promptCapabilities.embeddedContext', 'no'],
  ['mcpCapabilities.http', 'yes'],
  ['mcpCapabilities.sse', 'no'],
  ['auth.logout', 'no'],
];
/** What Airlock offers a probed agent: what a session offers, URL mode included. */
const OFFERED_ROWS: [string, string][] = [
  ['fs.readTextFile', 'yes'],
  ['fs.writeTextFile', 'yes'],
  ['terminal', 'yes'],
  ['elicitation.form', 'yes'],
  ['elicitation.url', 'yes'],
];
const SSE_LEFT_OUT =
  'it is reached over SSE, and HTTP agent does not say it can use SSE MCP servers';

const { start } = useCore();

describe('airlock probe', () => {
  it('prints every capability of both sides, and the MCP servers given and left out', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'airlock-cli-'));
    await writeFile(join(configDir, 'settings.json'), JSON.stringify(SETTINGS));
    let stdout = '';
    let stderr = '';
    const code = await runCli(['probe', 'HTTP agent'], {
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
      env: { AIRLOCK_CONFIG_DIR: configDir },
      demoAgent: demoAgentSpec(),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const section = (title: string, count: number) => {
      const lines = stdout.split('\n');
      const start = lines.indexOf(title);
      expect(start).toBeGreaterThanOrEqual(0);
      return lines.slice(start + 1, start + 1 + count);
    };
    expect(section('Capabilities', AGENT_ROWS.length + 1)).toEqual([
      ...AGENT_ROWS.map(([name, value]) => `  ${name}: ${value}`),
      'Airlock offers',
    ]);
    expect(section('Airlock offers', OFFERED_ROWS.length + 1)).toEqual([
      ...OFFERED_ROWS.map(([name, value]) => `  ${name}: ${value}`),
      'Sign-in       none needed',
    ]);
    expect(section('MCP servers', 4)).toEqual([
      '  files: given, stdio /usr/bin/mcp-files',
      '  docs: given, http https://mcp.example.com/mcp',
      `  events: left out, ${SSE_LEFT_OUT}`,
      'New session   ok (mcp-1)',
    ]);
    // What it reports is what the agent got.
    const log = await readFile(join(configDir, 'logs', 'HTTP_agent.log'), 'utf8');
    const sent = log.split('\n').find((line) => line.startsWith('session/new mcpServers: '));
    expect(JSON.parse(sent!.slice('session/new mcpServers: '.length))).toEqual([
      { name: 'files', command: '/usr/bin/mcp-files', args: [], env: [] },
      { type: 'http', name: 'docs', url: 'https://mcp.example.com/mcp', headers: [] },
    ]);
  });

  it('says so when the settings name no MCP servers', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'airlock-cli-'));
    let stdout = '';
    await runCli(['probe', 'Demo Agent'], {
      out: (text) => (stdout += text),
      err: () => undefined,
      env: { AIRLOCK_CONFIG_DIR: configDir },
      demoAgent: demoAgentSpec(),
    });
    expect(stdout.split('\n')).toContain('MCP servers   none in the settings');
  });
});

describe('the settings view’s Test', () => {
  it('reports the same rows as the probe, and the same MCP servers', async () => {
    const started = await start();
    const { core } = started;
    await writeFile(started.settingsPath, JSON.stringify(SETTINGS));
    await core.init();
    const report = await started.call('settings:testAgent', {
      agentName: 'HTTP agent',
    });
    expect(report.ok).toBe(true);
    expect(report.capabilities).toEqual(AGENT_ROWS.map(([name, value]) => ({ name, value })));
    expect(report.offered).toEqual(OFFERED_ROWS.map(([name, value]) => ({ name, value })));
    expect(report.mcpServers).toEqual([
      { name: 'files', passed: true, detail: 'stdio /usr/bin/mcp-files' },
      { name: 'docs', passed: true, detail: 'http https://mcp.example.com/mcp' },
      { name: 'events', passed: false, detail: SSE_LEFT_OUT },
    ]);
  });
});
