/**
 * The settings view's MCP servers (listed, values masked) and its `ask_before_writes` checkbox,
 * through the core on real settings files.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { setAskBeforeWrites } from '../../../../main/core/settings/text.js';
import {
  calls,
  type CallChannel,
  type CallRequest,
  type CallResponse,
} from '../../../../preload/shared/contract.js';
import { ZED } from '../../../fixtures/zed-settings.js';
import { deadline, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore();

async function withSettings(text: string) {
  const started = await start();
  const { core } = started;
  await writeFile(started.settingsPath, text);
  await core.init();
  // What the core answers must pass the contract the UI checks it against; a call that never
  // answers fails the test naming it.
  const call = async <C extends CallChannel>(channel: C, request: CallRequest<C>) =>
    calls[channel].response.parse(
      await deadline(started.core.invoke(channel, request), `the answer to ${channel}`),
    ) as CallResponse<C>;
  return { ...started, call, read: () => readFile(started.settingsPath, 'utf8') };
}

const WITH_SERVERS = ZED.replace(
  '"theme": "dark", // the app\'s own',
  `"theme": "dark", // the app's own
    "context_servers": {
        "files": { "command": "npx", "args": ["-y", "server-files"], "env": { "GITHUB_TOKEN": "ghp_x", "LEVEL": "debug" } },
        "docs": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer t", "X-Team": "core" } },
        "old": { "command": "x", "enabled": false },
    },`,
).replace(
  '"Codex": { "command": "codex-acp", },',
  '"Codex": { "command": "codex-acp", "context_servers": { "events": { "url": "https://e.example/sse", "type": "sse" } } },',
);

describe('MCP servers in the settings view', () => {
  it('lists the global servers and each agent’s own, their secret-looking values masked', async () => {
    const { call } = await withSettings(WITH_SERVERS);
    const list = await call('settings:getAgents', {});
    expect(list.error).toBeUndefined();
    expect(list.mcpServers).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        enabled: true,
        command: 'npx',
        args: ['-y', 'server-files'],
        values: [
          { name: 'GITHUB_TOKEN', secret: true, set: true },
          { name: 'LEVEL', secret: false, value: 'debug' },
        ],
      },
      {
        name: 'docs',
        transport: 'http',
        enabled: true,
        url: 'https://mcp.example.com/mcp',
        values: [
          { name: 'Authorization', secret: true, set: true },
          { name: 'X-Team', secret: false, value: 'core' },
        ],
      },
      { name: 'old', transport: 'stdio', enabled: false, command: 'x', args: [], values: [] },
    ]);
    expect(JSON.stringify(list)).not.toContain('ghp_x');
    expect(JSON.stringify(list)).not.toContain('Bearer t');
    const codex = list.agents.find((agent) => agent.name === 'Codex');
    expect(codex?.mcpServers).toEqual([
      { name: 'events', transport: 'sse', enabled: true, url: 'https://e.example/sse', values: [] },
    ]);
    expect(list.agents.find((agent) => agent.name === 'Gemini')?.mcpServers).toBeUndefined();
  });

  it('keeps an agent’s own servers when the agent is saved from the form', async () => {
    const { call, read } = await withSettings(WITH_SERVERS);
    await call('settings:saveAgent', {
      originalName: 'Codex',
      agent: { name: 'Codex', command: 'codex-acp-2', args: [], env: [], urlDomains: [] },
    });
    const list = await call('settings:getAgents', {});
    expect(list.agents.find((agent) => agent.name === 'Codex')?.mcpServers).toHaveLength(1);
    expect(await read()).toContain('"context_servers": { "events"');
  });
});

describe('the ask_before_writes checkbox', () => {
  it('is listed, and set as an edit that keeps the file’s comments; the core asks from then on', async () => {
    const { call, read } = await withSettings(ZED);
    expect((await call('settings:getAgents', {})).askBeforeWrites).toBe(false);
    await call('settings:setAskBeforeWrites', { value: true });
    const text = await read();
    expect(text).toContain('// Airlock settings, pasted from Zed');
    expect(text).toContain('"command": "gemini", // on the PATH');
    expect(text.replace(/\s/g, '')).toContain('"ask_before_writes":true,}');
    expect((await call('settings:getAgents', {})).askBeforeWrites).toBe(true);
    await call('settings:setAskBeforeWrites', { value: false });
    expect(await read()).toBe(
      text.replace('"ask_before_writes": true', '"ask_before_writes": false'),
    );
    expect((await call('settings:getAgents', {})).askBeforeWrites).toBe(false);
  });
});

describe('setAskBeforeWrites', () => {
  it('changes the value in place', () => {
    expect(setAskBeforeWrites('{\n  "ask_before_writes": false, // asked\n  "a": 1\n}', true)).toBe(
      '{\n  "ask_before_writes": true, // asked\n  "a": 1\n}',
    );
  });

  it('adds it at the end of the top level, in the file’s style', () => {
    expect(setAskBeforeWrites('{\n    "a": 1\n}\n', true)).toBe(
      '{\n    "a": 1,\n    "ask_before_writes": true\n}\n',
    );
    expect(setAskBeforeWrites('', true)).toBe('{\n  "ask_before_writes": true\n}\n');
  });

  it('refuses a file that does not parse', () => {
    expect(() => setAskBeforeWrites('{ "a": ', true)).toThrow(/line 1/);
  });
});
