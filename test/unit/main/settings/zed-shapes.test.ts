import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAgentCatalog, settingsProblems } from '../../../../main/core/settings/catalog.js';
import { commandLine } from '../../../../main/core/agents/spec.js';
import { MAX_UNUSABLE_AGENTS } from '../../../../preload/shared/contract.js';
import { ZED_TODAY } from '../../../fixtures/zed-settings.js';
import { demoAgentSpec } from '../../../helpers/agents.js';

const demo = demoAgentSpec();
const parse = (settings: unknown) => parseAgentCatalog(JSON.stringify(settings), '/s.json', demo);

describe('agent_servers as Zed writes them today', () => {
  it('reads a registry entry, a custom one and an untyped one, and lists the one it cannot use', () => {
    const catalog = parseAgentCatalog(ZED_TODAY, '/cfg/settings.json', demo);
    expect(catalog.agents).toEqual([
      demo,
      {
        name: 'claude-acp',
        command: '',
        args: [],
        env: { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '8000' },
        builtIn: false,
        registry: { id: 'claude-acp' },
        defaultMode: 'plan',
      },
      {
        name: 'My Agent',
        command: 'my-agent',
        args: ['--acp'],
        env: {},
        builtIn: false,
        defaultModel: 'fast',
      },
      { name: 'Codex', command: 'codex-acp', args: [], env: {}, builtIn: false },
    ]);
    expect(catalog.unusable).toEqual([
      {
        name: 'Legacy',
        reason:
          '/cfg/settings.json, line 18: agent_servers.Legacy.type: Airlock cannot run agents from Zed extensions; use "registry" or "custom" with a command',
      },
    ]);
    expect(catalog.error).toBeUndefined();
    expect(catalog).not.toHaveProperty('unreadable');
  });

  it('shows where a registry agent comes from in words, not an empty command', () => {
    const [, registry] = parse({ agent_servers: { 'gemini-cli': { type: 'registry' } } }).agents;
    expect(registry).toMatchObject({ name: 'gemini-cli', registry: { id: 'gemini-cli' } });
    expect(commandLine(registry!)).toBe('From the ACP registry');
  });

  it('keeps every other agent when one entry is broken, naming its line and field', () => {
    const text = `{
  "agent_servers": {
    "claude-acp": { "type": "registry" },
    "Broken": { "type": "custom", "args": ["x"] },
    "Codex": { "command": "codex-acp" },
    "Bad Id": { "type": "registry" },
    "odd": { "type": "remote" },
    "env": { "command": "a", "env": { "A": 1 } },
  },
  "url_elicitation": "off",
  "ask_before_writes": true,
}`;
    const catalog = parseAgentCatalog(text, '/s.json', demo);
    expect(catalog.agents.map((agent) => agent.name)).toEqual([
      'Demo Agent',
      'claude-acp',
      'Codex',
    ]);
    expect(catalog.unusable?.map((agent) => agent.name)).toEqual([
      'Broken',
      'Bad Id',
      'odd',
      'env',
    ]);
    const reasons = catalog.unusable!.map((agent) => agent.reason);
    expect(reasons[0]).toMatch(/^\/s\.json, line 4: agent_servers\.Broken\.command: is missing$/);
    expect(reasons[1]).toBe(
      '/s.json, line 6: agent_servers.Bad Id: an agent from the registry is named by its registry id: lowercase letters, digits and hyphens, starting with a letter (claude-acp)',
    );
    expect(reasons[2]).toBe(
      '/s.json, line 7: agent_servers.odd.type: must be "registry" or "custom"',
    );
    expect(reasons[3]).toMatch(
      /^\/s\.json, line 8: agent_servers\.env\.env\.A: must be text, in quotes$/,
    );
    // The settings beside the agents are read on their own.
    expect(catalog.urlElicitation).toBe('off');
    expect(catalog.askBeforeWrites).toBe(true);
    expect(catalog.error).toBeUndefined();
    expect(settingsProblems(catalog)?.split('\n')).toEqual(reasons);
  });

  it('reads default_mode and default_model on custom and untyped entries too, and checks them', () => {
    const catalog = parse({
      agent_servers: {
        A: { command: 'a', default_mode: 'ask', default_model: 'big' },
        B: { command: 'b', default_mode: '' },
        C: { command: 'c', default_model: 7 },
      },
    });
    expect(catalog.agents[1]).toMatchObject({ name: 'A', defaultMode: 'ask', defaultModel: 'big' });
    expect(catalog.unusable?.map((agent) => agent.reason)).toEqual([
      '/s.json, line 1: agent_servers.B.default_mode: must not be empty',
      expect.stringMatching(
        /^\/s\.json, line 1: agent_servers\.C\.default_model: must be text, in quotes$/,
      ),
    ]);
  });

  it('keeps the file-level error for a file whose agent_servers is not an object', () => {
    for (const servers of [['codex-acp'], 'codex', 3]) {
      const catalog = parse({ agent_servers: servers, url_elicitation: 'off' });
      expect(catalog.agents).toEqual([demo]);
      expect(catalog.error).toBe('/s.json: agent_servers: must be an object of agents by name');
      expect(catalog.urlElicitation).toBe('off');
    }
  });

  it(`lists at most ${MAX_UNUSABLE_AGENTS} unusable entries`, () => {
    const servers = Object.fromEntries(
      Array.from({ length: MAX_UNUSABLE_AGENTS + 5 }, (_, index) => [`A${index}`, { type: 'x' }]),
    );
    const catalog = parse({ agent_servers: { ...servers, Ok: { command: 'ok' } } });
    expect(catalog.unusable).toHaveLength(MAX_UNUSABLE_AGENTS);
    expect(catalog.agents.map((agent) => agent.name)).toEqual(['Demo Agent', 'Ok']);
  });

  it('offers exactly the usable entries of any record of entries, and lists every broken one', () => {
    const good = fc.oneof(
      fc.record({ command: fc.string({ minLength: 1, maxLength: 20 }) }),
      fc.record({
        type: fc.constant('custom'),
        command: fc.string({ minLength: 1, maxLength: 20 }),
        args: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
      }),
      fc.constant({ type: 'registry' }),
    );
    const broken = fc.oneof(
      fc.constant({ type: 'custom' }),
      fc.constant({ command: '' }),
      fc.constant({ command: 'a', args: 'b' }),
      fc.constant({ type: 'extension' }),
      fc.constant(null),
      fc.constant([]),
      fc.record({ command: fc.constant('a'), env: fc.constant({ A: false }) }),
    );
    const entries = fc.uniqueArray(
      fc.tuple(
        fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
        fc.oneof(
          good.map((entry) => ({ entry, usable: true })),
          broken.map((entry) => ({ entry, usable: false })),
        ),
      ),
      { selector: ([name]) => name, maxLength: 12 },
    );
    fc.assert(
      fc.property(entries, (list) => {
        const catalog = parse({
          agent_servers: Object.fromEntries(list.map(([name, { entry }]) => [name, entry])),
        });
        const usable = list.filter(([, { usable }]) => usable).map(([name]) => name);
        const unusable = list.filter(([, { usable }]) => !usable).map(([name]) => name);
        expect(catalog.agents.map((agent) => agent.name)).toEqual(['Demo Agent', ...usable]);
        expect((catalog.unusable ?? []).map((agent) => agent.name)).toEqual(unusable);
        for (const agent of catalog.unusable ?? []) {
          expect(agent.reason).toMatch(
            new RegExp(`^/s\\.json, line 1: agent_servers\\.${agent.name}`),
          );
        }
        expect(catalog.error).toBeUndefined();
      }),
    );
  });
});
