/**
 * Agent processes live exactly as long as some tab uses them: closing the last tab stops one,
 * closing another tab or restarting a tab that others share does not, and disposing of the
 * core stops them all. Checked on the real processes, by pid.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnAgent } from '../../../../main/core/agent-connection.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import {
  deadline,
  readySession,
  settledSession,
  TEST_TIMEOUTS,
  useCore,
  type CoreRun,
} from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

/** Every agent pid a test saw, so none outlives it even when the test fails. */
const seen: number[] = [];
// Registered before the core's disposal, so it runs after it.
afterEach(async () => {
  for (const pid of seen.splice(0)) {
    if (alive(pid)) {
      process.kill(pid, 'SIGKILL');
    }
  }
});
const { start } = useCore({ timeouts: TEST_TIMEOUTS });

/** A scripted agent that writes its pid to a file of its own; `pid()` reads the latest. */
async function pidAgent(scenario: string, name: string) {
  const file = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
  const spec: AgentSpec = { ...fixtureSpec(scenario, name), env: { SCRIPTED_PID_FILE: file } };
  return {
    spec,
    pid: async () => {
      const pid = Number(await readFile(file, 'utf8'));
      seen.push(pid);
      return pid;
    },
  };
}

/**
 * The basic agent in the built-in agent's place, launched so the test hears each of its
 * processes end: `ended()` resolves once the latest one has exited and its output closed.
 */
async function watchedAgent() {
  const { spec, pid } = await pidAgent('basic', 'watched');
  let ended: Promise<void> = Promise.reject(new Error('the agent never started'));
  ended.catch(() => undefined);
  const watched: AgentSpec = {
    ...spec,
    builtIn: true,
    launch: (launched) => {
      const child = spawnAgent(launched);
      ended = new Promise((resolve) => child.once('close', () => resolve()));
      return child;
    },
  };
  return { spec: watched, pid, ended: () => deadline(ended, 'the agent process to end') };
}

/** Runs one turn in `key` and checks the agent answered it. */
async function turnWorks(started: CoreRun, key: string, text: string): Promise<void> {
  const { core, recorder } = started;
  const from = recorder.transcript(key).length;
  await core.invoke('session:prompt', { key, text });
  const since = () => recorder.transcript(key).slice(from);
  await recorder.until(
    () => since().some((event) => event.type === 'turn_end' || event.type === 'agent_exit'),
    `the turn in ${key} to end`,
  );
  expect(since().at(-1)).toEqual({ type: 'turn_end', stopReason: 'end_turn' });
}

describe('disposing of the core', () => {
  it('stops every agent process', async () => {
    const first = await pidAgent('basic', 'first');
    const second = await pidAgent('basic', 'second');
    const started = await start({ agents: [first.spec, second.spec] });
    const { core } = started;
    await Promise.all([
      started.ready(first.spec.name),
      started.ready(first.spec.name),
      started.ready(second.spec.name),
    ]);
    const pids = [await first.pid(), await second.pid()];
    expect(pids.map(alive)).toEqual([true, true]);

    await core.dispose();
    expect(pids.map(alive)).toEqual([false, false]);
  });
});

describe('closing tabs', () => {
  it("stops the agent's process with its last tab", async () => {
    const agent = await watchedAgent();
    const started = await start({ options: { demoAgent: agent.spec } });
    const { core } = started;
    const key = await started.ready(agent.spec.name);
    const pid = await agent.pid();
    expect(alive(pid)).toBe(true);

    await core.invoke('session:close', { key });
    await agent.ended();
    expect(alive(pid)).toBe(false);
  });

  it('keeps the process running while another tab uses it', async () => {
    const agent = await watchedAgent();
    const started = await start({ options: { demoAgent: agent.spec } });
    const { core } = started;
    const [closing, staying] = await Promise.all([
      started.ready(agent.spec.name),
      started.ready(agent.spec.name),
    ]);
    const pid = await agent.pid();

    await core.invoke('session:close', { key: closing });
    // A turn after the close is a round trip through the process.
    await turnWorks(started, staying, 'still there?');
    expect(alive(pid)).toBe(true);
    expect(await agent.pid()).toBe(pid);
    expect(started.recorder.summaries.get(staying)?.status).toBe('ready');

    // Closing the other one too stops it.
    await core.invoke('session:close', { key: staying });
    await agent.ended();
    expect(alive(pid)).toBe(false);
  });
});

describe('restarting a tab whose session failed', () => {
  it('opens it on the running process that other tabs use, without stopping it', async () => {
    const agent = await pidAgent('new-fails-second', 'busy');
    const started = await start({ agents: [agent.spec] });
    const { core, recorder } = started;
    const working = await started.ready(agent.spec.name);
    const failed = await started.settled(agent.spec.name);
    expect(failed.summary.status).toBe('failed');
    expect(failed.summary.error).toContain('too busy for a second session');
    const pid = await agent.pid();

    await core.invoke('session:restart', { key: failed.key });
    // The third session/new, on the same process, opens.
    await recorder.status(failed.key, 'ready');
    expect(await agent.pid()).toBe(pid);
    await turnWorks(started, working, 'first tab');
    await turnWorks(started, failed.key, 'restarted tab');
    expect(alive(pid)).toBe(true);
    expect(recorder.summaries.get(working)?.status).toBe('ready');
    expect(recorder.transcript(working).some((event) => event.type === 'agent_exit')).toBe(false);
  });
});

describe('a tab opened after its agent failed to start', () => {
  it('starts a new process, not the one that failed', async () => {
    const marker = join(await mkdtemp(join(tmpdir(), 'airlock-once-')), 'failed');
    const spec: AgentSpec = {
      ...fixtureSpec('basic', 'once'),
      env: { SCRIPTED_FAIL_ONCE: marker },
    };
    const started = await start({ agents: [spec] });
    const { core, recorder, dir, ready } = started;
    const failed = await settledSession(core, recorder, spec.name, dir);
    expect(failed.summary.status).toBe('failed');

    const key = await ready(spec.name);
    await turnWorks(started, key, 'second start');
  });
});

describe('a tab restarted after its agent left the settings', () => {
  it('fails, naming the agent', async () => {
    const spec = fixtureSpec('new-fails-quietly', 'leaving');
    const started = await start({ agents: [spec] });
    const { core, recorder, dir, settingsPath } = started;
    const failed = await settledSession(core, recorder, spec.name, dir);
    expect(failed.summary.status).toBe('failed');
    await writeFile(settingsPath, JSON.stringify({ agent_servers: {} }));
    await core.init();

    await core.invoke('session:restart', { key: failed.key });
    await recorder.until(
      () => recorder.summaries.get(failed.key)?.error === 'No agent named "leaving"',
      () => `the restart to fail naming the agent; ${recorder.summaries.get(failed.key)?.error}`,
    );
    expect(recorder.summaries.get(failed.key)?.status).toBe('failed');
  });
});

describe("a start stopped after its agent's settings changed", () => {
  it('leaves the process started with the new settings to the next tab', async () => {
    const agent = await pidAgent('never-answer', 'switching');
    const started = await start({ agents: [agent.spec] });
    const { core, recorder, dir, settingsPath } = started;
    const name = agent.spec.name;
    // Its first process never answers initialize.
    const { key: hanging } = await started.call('session:create', {
      agentName: name,
      cwd: dir,
    });
    await expect.poll(() => agent.pid().catch(() => 0), { timeout: 10_000 }).toBeGreaterThan(0);
    const old = await agent.pid();
    // Now the settings run it as the basic agent: the next tab starts a new process.
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
      agent_servers: Record<string, { args: string[] }>;
    };
    settings.agent_servers[name]!.args = fixtureSpec('basic', name).args;
    await writeFile(settingsPath, JSON.stringify(settings));
    await core.init();
    await readySession(core, recorder, name, dir);
    const newer = await agent.pid();
    expect(newer).not.toBe(old);

    await core.invoke('session:stopStart', { key: hanging });
    // The stopped start has ended once its process has (the log says so).
    await expect
      .poll(() => readFile(join(dir, 'logs', `${name}.log`), 'utf8'), { timeout: 10_000 })
      .toContain('was stopped by SIGTERM');
    await readySession(core, recorder, name, dir);
    expect(await agent.pid()).toBe(newer);
  });
});
