/**
 * The settings view's Test results, kept while the page lives: shown again for the agent's
 * settings as they were when the test ran, and not once those settings change.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AgentSettingsView, AgentTestReport } from '../../../preload/shared/contract.js';
import { AgentTests, agentTests } from '../../../renderer/src/state/agent-tests.js';

const settings = (patch: Partial<AgentSettingsView> = {}): AgentSettingsView => ({
  name: 'Demo Agent',
  builtIn: false,
  command: 'demo',
  args: ['--acp'],
  env: [],
  urlDomains: [],
  ...patch,
});

const report: AgentTestReport = {
  agentName: 'Demo Agent',
  commandLine: 'demo --acp',
  ok: true,
  capabilities: [],
  authMethods: [],
  log: '/logs/demo.log',
};

describe('AgentTests', () => {
  it('gives back the latest test of an agent whose settings are unchanged', () => {
    const tests = new AgentTests();
    expect(tests.get(settings())).toBeUndefined();
    tests.set(settings(), { busy: true });
    expect(tests.get(settings())).toEqual({ busy: true });
    tests.set(settings(), { busy: false, report });
    expect(tests.get(settings())).toEqual({ busy: false, report });
  });

  it('keeps each agent’s test apart, by name', () => {
    const tests = new AgentTests();
    tests.set(settings(), { busy: false, error: 'no such command' });
    expect(tests.get(settings({ name: 'Other Agent' }))).toBeUndefined();
    expect(tests.get(settings())).toEqual({ busy: false, error: 'no such command' });
  });

  it('shows no result once the settings it ran with have changed', () => {
    const tests = new AgentTests();
    tests.set(settings(), { busy: false, report });
    expect(tests.get(settings({ args: ['--acp', '--verbose'] }))).toBeUndefined();
    expect(tests.get(settings({ command: 'demo2' }))).toBeUndefined();
  });

  it('tells subscribers about every result until they unsubscribe, and moves its snapshot on', () => {
    const tests = new AgentTests();
    const first = vi.fn();
    const second = vi.fn();
    const unsubscribe = tests.subscribe(first);
    tests.subscribe(second);
    const before = tests.snapshot();
    tests.set(settings(), { busy: true });
    expect(tests.snapshot()).not.toBe(before);
    const during = tests.snapshot();
    expect(unsubscribe()).toBe(true);
    tests.set(settings(), { busy: false, report });
    expect(tests.snapshot()).not.toBe(during);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('keeps the page’s results in one shared instance', () => {
    expect(agentTests).toBeInstanceOf(AgentTests);
  });
});
