/**
 * The deadline of "Test" once the test has answered: its timer is cleared and its agent is no
 * longer the settings' to stop. The probe itself is a stand-in here (the tests that run real
 * agents through it are in agents.test.ts), so that fake timers see only the deadline's timer.
 */
import type * as Probe from '../../../../main/core/agents/probe.js';
import { afterEach, expect, it, vi } from 'vitest';
import { deadline } from '../../../helpers/core-harness.js';

/** The signal each probe was given. */
const signals: AbortSignal[] = [];

vi.mock('../../../../main/core/agents/probe.js', async (original) => {
  const actual = await original<typeof Probe>();
  return {
    ...actual,
    probeAgent: vi.fn(async (spec: { name: string }, options: { signal: AbortSignal }) => {
      signals.push(options.signal);
      return { ok: false, agent: spec.name, command: 'agent', log: '/logs/agent.log', error: 'no' };
    }),
  };
});

const { AgentSettings } = await import('../../../../main/core/settings/service.js');

/** The test's report, or a failure after 5 s (of real time, fake timers or not) naming it. */
function answered<T>(report: Promise<T>): Promise<T> {
  return deadline(report, 'the test to answer', 5_000);
}

afterEach(() => {
  vi.useRealTimers();
  signals.length = 0;
});

function settings() {
  return new AgentSettings({
    path: '/settings.json',
    catalog: () => ({
      agents: [{ name: 'Quick', command: 'agent', args: [], env: {}, builtIn: false }],
      urlElicitation: 'isolated_window',
    }),
    reload: async () => undefined,
    logsDir: '/logs',
    cwd: '/',
    timeouts: { requestMs: 10_000, cancelGraceMs: 500 },
    testDeadlineMs: 5_000,
  });
}

it('leaves no deadline timer behind once a test has answered, and never aborts it later', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const service = settings();
  const report = await answered(service.test({ agentName: 'Quick' }));
  expect(report).toMatchObject({ agentName: 'Quick', ok: false, error: 'no' });
  // A pending 5 s timer would keep a quitting app alive, and abort a finished probe's signal.
  expect(vi.getTimerCount()).toBe(0);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(signals).toHaveLength(1);
  expect(signals[0]?.aborted).toBe(false);
});

it('stops only the tests still running when disposed, not one that has answered', async () => {
  const service = settings();
  await answered(service.test({ agentName: 'Quick' }));
  service.dispose();
  expect(signals).toHaveLength(1);
  expect(signals[0]?.aborted).toBe(false);
});
