import { describe, expect, it } from 'vitest';
import { parseAgentCatalog } from '../../../../main/core/settings/catalog.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';

const demo: AgentSpec = { name: 'Demo Agent', command: 'node', args: [], env: {}, builtIn: true };

describe('the ask_before_writes setting', () => {
  it('is off unless the settings file turns it on', () => {
    expect(parseAgentCatalog('{}', '/s.json', demo).askBeforeWrites).toBeUndefined();
    expect(
      parseAgentCatalog('{ "ask_before_writes": false }', '/s.json', demo).askBeforeWrites,
    ).toBeUndefined();
    expect(
      parseAgentCatalog('{ "ask_before_writes": true }', '/s.json', demo).askBeforeWrites,
    ).toBe(true);
  });

  it('stays on when a mistake elsewhere in the file makes the rest unusable', () => {
    const catalog = parseAgentCatalog(
      '{ "ask_before_writes": true, "agent_servers": { "x": { "command": "" } } }',
      '/s.json',
      demo,
    );
    expect(catalog.unusable?.[0]?.reason).toContain('command must not be empty');
    expect(catalog.askBeforeWrites).toBe(true);
  });

  it('is refused, with the reason, when it is not true or false', () => {
    const catalog = parseAgentCatalog('{ "ask_before_writes": "yes" }', '/s.json', demo);
    expect(catalog.error).toContain('ask_before_writes');
    expect(catalog.askBeforeWrites).toBeUndefined();
  });
});
