import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pidOf, tabStarting, withPid } from '../../../helpers/agent-pid.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import { useCore } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

// Far longer than any wait below: a stop that works does not wait for the timeout.
const timeouts = { requestMs: 60_000, cancelGraceMs: 500 };

const { start } = useCore({ timeouts });

/** A core with the pid-writing agent of `scenario`, with `env` added to its environment. */
async function setUp(scenario: string, env: Record<string, string> = {}) {
  const agent = await withPid(scenario, `fixture-${scenario}`, env);
  return { ...(await start({ agents: [agent] })), agent };
}

/** As `setUp`, with a tab of its agent that is still starting: its key and the agent's pid. */
async function startingTab(scenario: string, env: Record<string, string> = {}) {
  const run = await setUp(scenario, env);
  return { ...run, ...(await tabStarting(run, run.agent)) };
}

describe('session:stopStart', () => {
  it('stops an agent that never answers initialize, at once', async () => {
    const { recorder, agent, dir, core, key, pid } = await startingTab('never-answer');
    await recorder.status(key, 'starting');

    await core.invoke('session:stopStart', { key });
    const summary = await recorder.status(key, 'failed');
    expect(summary.error).toBe(`You stopped ${agent.name} while it was starting.`);
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    // The log says so (written as the process's end is noticed).
    await expect
      .poll(() => readFileSync(join(dir, 'logs', `${agent.name}.log`), 'utf8'))
      .toContain('was stopped by SIGTERM');
  });

  it('stops an agent that never answers session/new, at once', async () => {
    const { recorder, core, key, pid } = await startingTab('never-answer-new');
    await core.invoke('session:stopStart', { key });
    await recorder.status(key, 'failed');
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });

  it('leaves the agent running while another tab waits on the same start', async () => {
    // Its session/new answers once three wait: the third tab comes after the stop.
    const { recorder, agent, dir, core, create } = await setUp('new-held');
    const first = await create(agent.name, dir);
    const second = await create(agent.name, dir);
    const pid = await pidOf(agent.pidFile);
    // Both session/new have reached the agent: the stopped one counts towards the three.
    await agentLogContains(core, agent.name, '2 session/new waiting');
    await core.invoke('session:stopStart', { key: first });
    await recorder.status(first, 'failed');

    // The process still serves: the waiting tab opens on it and answers a prompt.
    const third = await create(agent.name, dir);
    await recorder.status(third, 'ready');
    await recorder.status(second, 'ready');
    await core.invoke('session:prompt', { key: second, text: 'hi' });
    await recorder.event(second, 'turn_end');
    expect(recorder.text(second)).toBe('Hello from the scripted agent.');
    expect(readFileSync(agent.pidFile, 'utf8')).toBe(String(pid));
    expect(alive(pid)).toBe(true);
    expect(recorder.summaries.get(first)?.status).toBe('failed');
  });

  it('stops an agent whose sign-in never ends, and the tab stays stopped', async () => {
    const { core, create, recorder, dir, agent } = await setUp('auth-required', {
      SCRIPTED_AUTH_HANG: '1',
    });
    const key = await create(agent.name, dir);
    await recorder.status(key, 'auth_required');
    const pid = await pidOf(agent.pidFile);
    const signIn = core.invoke('agent:authenticate', { key, methodId: 'login' });
    await recorder.status(key, 'starting');

    await core.invoke('session:stopStart', { key });
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    // The sign-in ends as its process does, and changes nothing.
    await signIn;
    // (Reading the transcript sends what is queued first.)
    await core.invoke('session:getTranscript', { key });
    expect(recorder.summaries.get(key)).toMatchObject({
      status: 'failed',
      error: `You stopped ${agent.name} while it was starting.`,
    });
  });

  it('stops an agent whose sign-in with a variable never ends, and the tab stays stopped', async () => {
    const { core, recorder, dir, agent, key, pid } = await startingTab('auth-env', {
      FOO_KEY: 'k',
      SCRIPTED_AUTH_HANG: '1',
    });
    await expect
      .poll(() => readFileSync(join(dir, 'logs', `${agent.name}.log`), 'utf8'), { timeout: 10_000 })
      .toContain('authenticate foo-key');

    await core.invoke('session:stopStart', { key });
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    await recorder.status(key, 'failed');
    // The sign-in ends as its process does (its end is in the log once noticed), and changes
    // nothing: the tab is not asked to sign in.
    await expect
      .poll(() => readFileSync(join(dir, 'logs', `${agent.name}.log`), 'utf8'))
      .toContain('was stopped by SIGTERM');
    await core.invoke('session:getTranscript', { key });
    expect(recorder.summaries.get(key)?.status).toBe('failed');
  });

  it('lets a stopped tab go of its process when its sign-in answers after the stop', async () => {
    // Each sign-in answers once the test signals the agent: after the stop.
    const { core, create, recorder, dir, agent } = await setUp('auth-required', {
      SCRIPTED_AUTH_HANG: 'signal',
    });
    const stopped = await create(agent.name, dir);
    const kept = await create(agent.name, dir);
    await recorder.status(stopped, 'auth_required');
    await recorder.status(kept, 'auth_required');
    const pid = await pidOf(agent.pidFile);
    const signIns = [stopped, kept].map((key) =>
      core.invoke('agent:authenticate', { key, methodId: 'login' }),
    );
    await recorder.status(stopped, 'starting');
    await recorder.status(kept, 'starting');
    // The other tab signing in on the same process keeps it running.
    await core.invoke('session:stopStart', { key: stopped });
    await recorder.status(stopped, 'failed');
    expect(alive(pid)).toBe(true);

    process.kill(pid, 'SIGUSR2');
    await recorder.status(kept, 'ready');
    await Promise.all(signIns);
    // The stopped tab's late sign-in opened nothing: closing the last tab that uses the process
    // stops it.
    await core.invoke('session:close', { key: kept });
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    expect(recorder.summaries.get(stopped)?.status).toBe('failed');
  });

  it('lets a stopped tab go of its process when the shared sign-in with a variable answers after the stop', async () => {
    const { core, create, recorder, dir, agent } = await setUp('auth-env', {
      FOO_KEY: 'k',
      SCRIPTED_AUTH_HANG: 'signal',
    });
    // Both start together and wait on one sign-in, which the first tab's start sent.
    const stopped = await create(agent.name, dir);
    const kept = await create(agent.name, dir);
    const pid = await pidOf(agent.pidFile);
    await agentLogContains(core, agent.name, 'authenticate foo-key');
    await core.invoke('session:stopStart', { key: stopped });
    await recorder.status(stopped, 'failed');
    expect(alive(pid)).toBe(true);

    process.kill(pid, 'SIGUSR2');
    await recorder.status(kept, 'ready');
    await core.invoke('session:close', { key: kept });
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    expect(recorder.summaries.get(stopped)?.status).toBe('failed');
  });

  it('refuses a session that is not starting', async () => {
    const started = await start();
    const { core } = started;
    const key = await started.ready('Demo Agent');
    await expect(core.invoke('session:stopStart', { key })).rejects.toThrow(
      'The session is not starting',
    );
  });
});

describe('session:close while starting', () => {
  it('stops the agent the tab was starting', async () => {
    const { recorder, core, key, pid } = await startingTab('never-answer');
    await core.invoke('session:close', { key });
    await recorder.status(key, 'closed');
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });
});

describe('dispose while a start hangs', () => {
  it('stops the agent without waiting for the timeout', async () => {
    const { core, pid } = await startingTab('never-answer');
    await core.dispose();
    expect(alive(pid)).toBe(false);
  });
});
