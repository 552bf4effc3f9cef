import { describe, expect, it } from 'vitest';
import type { AgentEntry } from '../../../preload/shared/contract';
import { agentNames, shownName } from '../../../renderer/src/state/agent-names';
import { tabLabel } from '../../../renderer/src/state/tabs';
import { sessionSummary } from '../../helpers/session-summary.js';

const entry = (name: string, label?: string): AgentEntry => ({
  name,
  commandLine: 'From the ACP registry',
  builtIn: false,
  source: 'registry',
  ...(label === undefined ? {} : { label }),
});

describe('the name an agent shows with', () => {
  it('is the registry’s name when the agent list has one, else the agent’s name (its key)', () => {
    expect(shownName(entry('claude-acp', 'Claude Agent'))).toBe('Claude Agent');
    expect(shownName(entry('gone-acp'))).toBe('gone-acp');
    agentNames.set([entry('claude-acp', 'Claude Agent'), entry('gone-acp')]);
    expect(agentNames.of('claude-acp')).toBe('Claude Agent');
    expect(agentNames.of('gone-acp')).toBe('gone-acp');
    expect(agentNames.of('Demo Agent')).toBe('Demo Agent');
    // A tab with nothing better to show names its agent as the UI shows it.
    expect(tabLabel(sessionSummary({ agentName: 'claude-acp' }))).toBe('Claude Agent');
  });

  it('tells its listeners when a shown name changes, and only then', () => {
    agentNames.set([]);
    let told = 0;
    const stop = agentNames.subscribe(() => (told += 1));
    const before = agentNames.snapshot();
    agentNames.set([entry('codex-acp', 'Codex CLI')]);
    agentNames.set([entry('codex-acp', 'Codex CLI')]);
    expect(told).toBe(1);
    expect(agentNames.snapshot()).not.toBe(before);
    agentNames.set([entry('codex-acp', 'Codex')]);
    expect(told).toBe(2);
    expect(agentNames.of('codex-acp')).toBe('Codex');
    stop();
  });
});
