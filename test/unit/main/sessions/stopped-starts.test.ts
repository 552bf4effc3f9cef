/**
 * Starts that end after the user stopped them: the stopped start's failure does not replace what
 * the tab says, and an older start's late answer (a sign-in that fails after the user stopped it
 * and signed in again on a newer process) is ignored, not taken for the newer start's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../../preload/shared/contract.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import { pidOf, withPid } from '../../../helpers/agent-pid.js';
import { DEFAULT_DEADLINE_MS, settledSession, useCore } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

// Far longer than any wait below: nothing here should end by a timeout.
const timeouts = { requestMs: 60_000, cancelGraceMs: 500 };

const { start } = useCore();

/** A core with the scripted agent of `scenario`, its pid written under `name`. */
async function withAgent(scenario: string, name: string, env?: Record<string, string>) {
  const agent = await withPid(scenario, name, env);
  return { ...(await start({ agents: [agent], timeouts })), agent };
}

describe('a start stopped while its agent starts', () => {
  it('still says the user stopped it once its process has gone', async () => {
    const { agent, core, create, recorder, dir } = await withAgent(
      'never-answer',
      'never-initialized',
    );
    const key = await create(agent.name, dir);
    const pid = await pidOf(agent.pidFile);
    await recorder.status(key, 'starting');
    await core.invoke('session:stopStart', { key });
    await recorder.status(key, 'failed');
    // Its start fails as the process's end is noticed (and logged); that failure is the
    // stopped start's, not news. Fetching the transcript sends what is queued first.
    await expect.poll(() => alive(pid), { timeout: DEFAULT_DEADLINE_MS }).toBe(false);
    await expect
      .poll(() => readFile(join(dir, 'logs', `${agent.name}.log`), 'utf8'))
      .toContain('was stopped by SIGTERM');
    await core.invoke('session:getTranscript', { key });
    expect(recorder.summaries.get(key)?.error).toBe(
      `You stopped ${agent.name} while it was starting.`,
    );
  });
});

describe('a start stopped while another tab starts on the same process', () => {
  it('sends no session/new for the stopped tab once the process is up', async () => {
    // Holds every session/new until three wait, then answers them all.
    const { agent, core, create, recorder, dir } = await withAgent('new-held', 'held');
    const stopped = await create(agent.name, dir);
    const waiting = await create(agent.name, dir);
    // Stopped while the process starts (long before it answers initialize); the other tab keeps it.
    await core.invoke('session:stopStart', { key: stopped });
    await recorder.status(stopped, 'failed');
    await agentLogContains(core, agent.name, '1 session/new waiting');
    await create(agent.name, dir);
    await agentLogContains(core, agent.name, '2 session/new waiting');
    // The third session/new is this tab's: a stopped tab's would have been, and left it held.
    const last = await create(agent.name, dir);
    await recorder.status(waiting, 'ready');
    await recorder.status(last, 'ready');
    expect(recorder.summaries.get(stopped)?.status).toBe('failed');
  });
});

describe('a restart while another tab starts on the running process', () => {
  it('joins that process rather than stopping it under the other tab', async () => {
    // Holds every session/new until three wait, then answers them all.
    const { agent, core, create, recorder, dir } = await withAgent('new-held', 'held');
    // A tab stopped while its process started: that process goes with it.
    const restarted = await create(agent.name, dir);
    await core.invoke('session:stopStart', { key: restarted });
    await recorder.status(restarted, 'failed');
    // Another tab starts a new process and waits on it for its session.
    const waiting = await create(agent.name, dir);
    await agentLogContains(core, agent.name, '1 session/new waiting');
    // The stopped tab, started again, waits on that process too; a third tab releases all three.
    await core.invoke('session:restart', { key: restarted });
    await agentLogContains(core, agent.name, '2 session/new waiting');
    const third = await create(agent.name, dir);
    for (const key of [waiting, restarted, third]) {
      await recorder.status(key, 'ready');
    }
  });
});

describe('a restart while another tab waits for the running process to start', () => {
  it('waits on that process too rather than stopping it under the other tab', async () => {
    // Never answers initialize: each start waits on its process until the request's limit.
    const agent = await withPid('never-answer', 'never-initialized');
    const started = await start({
      agents: [agent],
      timeouts: { requestMs: 3_000, cancelGraceMs: 500 },
    });
    const { core, create, recorder, dir } = started;
    const restarted = await create(agent.name, dir);
    const first = await pidOf(agent.pidFile);
    await core.invoke('session:stopStart', { key: restarted });
    await recorder.status(restarted, 'failed');
    // Another tab starts a new process, which is up but has not answered initialize.
    const waiting = await create(agent.name, dir);
    await expect.poll(() => pidOf(agent.pidFile), { timeout: DEFAULT_DEADLINE_MS }).not.toBe(first);
    await core.invoke('session:restart', { key: restarted });
    // Both starts end the same way, at the limit of that one process's initialize.
    const reason = `${agent.name} did not finish starting within 3 s`;
    for (const key of [waiting, restarted]) {
      await recorder.until(
        () => recorder.summaries.get(key)?.error?.includes(reason) === true,
        () => `tab ${key} to fail at that limit; it says ${recorder.summaries.get(key)?.error}`,
      );
      expect(recorder.summaries.get(key)?.status).toBe('failed');
    }
  });
});

describe('a sign-in stopped, then run again on a newer process', () => {
  it("ignores the stopped sign-in's failure when it comes after the new one began", async () => {
    // Each sign-in waits for SIGUSR2, which the test sends only to the newer process.
    const { agent, core, recorder, dir, settingsPath } = await withAgent(
      'auth-required',
      'signin',
      { SCRIPTED_AUTH_HANG: 'signal' },
    );
    const other = (await settledSession(core, recorder, agent.name, dir)).key;
    const key = (await settledSession(core, recorder, agent.name, dir)).key;
    const older = await pidOf(agent.pidFile);
    // Another tab signing in on the same process keeps it running through the stop below.
    void core.invoke('agent:authenticate', { key: other, methodId: 'login' });
    await recorder.status(other, 'starting');
    void core.invoke('agent:authenticate', { key, methodId: 'login' });
    await recorder.status(key, 'starting');
    await core.invoke('session:stopStart', { key });
    await recorder.status(key, 'failed');

    // Saved with one more variable: the next sign-in starts a new process.
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
      agent_servers: Record<string, { env: Record<string, string> }>;
    };
    settings.agent_servers[agent.name]!.env.EDITED = '1';
    await writeFile(settingsPath, JSON.stringify(settings));
    await core.init();
    const statuses: SessionSummary['status'][] = [];
    core.onEvent((channel, payload) => {
      if (channel === 'session:onDidChange' && (payload as SessionSummary).key === key) {
        statuses.push((payload as SessionSummary).status);
      }
    });
    const signedIn = core.invoke('agent:authenticate', { key, methodId: 'login' });
    await recorder.status(key, 'starting');
    const newer = await pidOf(agent.pidFile, older);

    // The older process ends: the stopped sign-in fails now, after the newer one began.
    process.kill(older, 'SIGKILL');
    await recorder.status(other, 'auth_required');
    process.kill(newer, 'SIGUSR2');
    await signedIn;
    await recorder.status(key, 'ready');
    expect(statuses).not.toContain('auth_required');
  });
});
