/**
 * Agent processes live exactly as long as some tab uses them: closing the last tab stops one,
 * closing another tab or restarting a tab that others share does not, and disposing of the
 * core stops them all. Checked on the real processes, by pid.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnAgent } from '../../../main/core/agent-connection.js';
import type { AirlockCore } from '../../../main/core/core.js';
import type { AgentSpec } from '../../../main/core/settings/catalog.js';
import { fixtureSpec } from '../../helpers/agents.js';
import { deadline, readySession, settledSession, startCore } from '../../helpers/core-harness.js';
import { alive } from '../../helpers/processes.js';

const timeouts = { requestMs: 10_000, cancelGraceMs: 500 };

let core: AirlockCore | undefined;
/** Every agent pid a test saw, so none outlives it even when the test fails. */
const seen: number[] = [];
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  for (const pid of seen.splice(0)) {
    if (alive(pid)) {
      process.kill(pid, 'SIGKILL');
    }
  }
});

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
async function turnWorks(
  started: Awaited<ReturnType<typeof startCore>>,
  key: string,
  text: string,
): Promise<void> {
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
    const started = await startCore([first.spec, second.spec], timeouts);
    core = started.core;
    await Promise.all([
      readySession(core, started.recorder, first.spec.name, started.dir),
      readySession(core, started.recorder, first.spec.name, started.dir),
      readySession(core, started.recorder, second.spec.name, started.dir),
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
    const started = await startCore([], timeouts, { demoAgent: agent.spec });
    core = started.core;
    const key = await readySession(core, started.recorder, agent.spec.name, started.dir);
    const pid = await agent.pid();
    expect(alive(pid)).toBe(true);

    await core.invoke('session:close', { key });
    await agent.ended();
    expect(alive(pid)).toBe(false);
  });

  it('keeps the process running while another tab uses it', async () => {
    const agent = await watchedAgent();
    const started = await startCore([], timeouts, { demoAgent: agent.spec });
    core = started.core;
    const [closing, staying] = await Promise.all([
      readySession(core, started.recorder, agent.spec.name, started.dir),
      readySession(core, started.recorder, agent.spec.name, started.dir),
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
    const started = await startCore([agent.spec], timeouts);
    core = started.core;
    const { recorder } = started;
    const working = await readySession(core, recorder, agent.spec.name, started.dir);
    const failed = await settledSession(core, recorder, agent.spec.name, started.dir);
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
