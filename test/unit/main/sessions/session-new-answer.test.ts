/**
 * What a start does with `session/new`'s answer and after it: an answer without a usable session
 * id fails the tab; a tab the user stopped meanwhile stays stopped, whether the answer comes, the
 * request fails as the process goes, or the stop came while the chosen mode was being set back;
 * and a mode chosen alone is set back on a restart.
 */
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import { pidOf, withPid } from '../../../helpers/agent-pid.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { DEFAULT_DEADLINE_MS, useCore } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';
import { LOST_SESSION } from '../../../../main/core/sessions/start.js';

// Far longer than any wait below: nothing here should end by a timeout.
const timeouts = { requestMs: 60_000, cancelGraceMs: 500 };

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start, startWith } = useCore({ timeouts, options: { restartCrashed: false } });

/**
 * An agent in a few lines, for an answer the scripted fixture cannot give: `session/new` answers
 * `null`.
 */
const NULL_NEW_AGENT = `
const send = (reply) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...reply }) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    const result = { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
    send({ id: message.id, result });
  } else if (message.method === 'session/new') {
    send({ id: message.id, result: null });
  }
}).on('close', () => process.exit(0));
`;

describe("session/new's answer", () => {
  it('fails the tab when the session id is empty, or the answer is null', async () => {
    const empty = { ...fixtureSpec('fixed-session'), env: { SCRIPTED_SESSION_ID: '' } };
    const nothing: AgentSpec = {
      name: 'null-new',
      command: process.execPath,
      args: ['-e', NULL_NEW_AGENT],
      env: {},
      builtIn: false,
    };
    const started = await start({ agents: [empty, nothing] });
    for (const agent of [empty, nothing]) {
      const { summary } = await started.settled(agent.name);
      expect(summary.status).toBe('failed');
      expect(summary.error).toBe(`${agent.name} did not say which session it started`);
    }
  });

  it('is not taken for a tab stopped while it waited', async () => {
    // Holds every session/new until three wait, then answers them all.
    const agent = fixtureSpec('new-held');
    const started = await start({ agents: [agent] });
    const { core, recorder } = started;
    const create = () => started.create(agent.name);
    const stopped = await create();
    await agentLogContains(core, agent.name, '1 session/new waiting');
    // A second tab starting on the process keeps it through the stop.
    const waiting = await create();
    await agentLogContains(core, agent.name, '2 session/new waiting');
    await core.invoke('session:stopStart', { key: stopped });
    await recorder.status(stopped, 'failed');
    // The third request releases all three: the stopped tab's answer comes too.
    const last = await create();
    await recorder.status(waiting, 'ready');
    await recorder.status(last, 'ready');
    await core.invoke('session:getTranscript', { key: stopped });
    expect(recorder.summaries.get(stopped)).toMatchObject({
      status: 'failed',
      error: `You stopped ${agent.name} while it was starting.`,
    });
  });
  it('fails as its process goes, for a tab stopped while it waited, without a word', async () => {
    // The only tab: stopping it stops the process, and the request fails with its end.
    const agent = await withPid('new-held', 'held-alone');
    const started = await start({ agents: [agent] });
    const { core, recorder, dir } = started;
    const { key } = await started.call('session:create', { agentName: agent.name, cwd: dir });
    const pid = await pidOf(agent.pidFile);
    await agentLogContains(core, agent.name, '1 session/new waiting');
    await core.invoke('session:stopStart', { key });
    await recorder.status(key, 'failed');
    await expect.poll(() => alive(pid), { timeout: DEFAULT_DEADLINE_MS }).toBe(false);
    await agentLogContains(core, agent.name, 'was stopped by SIGTERM');
    // Fetching the transcript sends what is queued first.
    await core.invoke('session:getTranscript', { key });
    expect(recorder.summaries.get(key)?.error).toBe(
      `You stopped ${agent.name} while it was starting.`,
    );
  });
});

describe('a restart stopped while it sets the chosen mode back', () => {
  it('leaves the tab stopped, not ready', async () => {
    // Each session/set_mode is answered only when the next prompt comes.
    const agent = await withPid('modes-echo', 'modes-held', { SCRIPTED_HOLD_SET_MODE: '1' });
    const started = await startWith(agent);
    const { core, recorder, key } = started;
    const setting = core.invoke('session:setMode', { key, modeId: 'plan' });
    await core.invoke('session:prompt', { key, text: 'go' });
    await setting;
    await recorder.event(key, 'turn_end');
    process.kill(await pidOf(agent.pidFile), 'SIGKILL');
    await recorder.status(key, 'exited');

    const restarting = core.invoke('session:restart', { key });
    // The new session is there (it starts in the Code mode), and its set_mode sent: the tab
    // still starts.
    await recorder.until(
      () =>
        recorder.summaries.get(key)?.status === 'starting' &&
        recorder.summaries.get(key)?.currentModeId === 'code',
      'the new session, with the tab still starting',
    );
    await core.invoke('session:stopStart', { key });
    await restarting;
    // The process stops with its only tab: setting the mode back fails, and says so.
    await recorder.until(
      () =>
        recorder
          .transcript(key)
          .some((event) => event.type === 'system' && event.text.startsWith('Could not set Mode')),
      'the line saying the mode was not set back',
    );
    await core.invoke('session:getTranscript', { key });
    expect(recorder.summaries.get(key)).toMatchObject({
      status: 'failed',
      error: `You stopped ${agent.name} while it was starting.`,
    });
  });
});

describe('a restart of a tab where only a mode was chosen', () => {
  it('sets the mode back before the tab is ready', async () => {
    const agent = fixtureSpec('restart-choices');
    const { core, recorder, key } = await startWith(agent);
    await core.invoke('session:setMode', { key, modeId: 'plan' });
    await core.invoke('session:prompt', { key, text: 'crash' });
    await recorder.status(key, 'exited');
    await core.invoke('session:restart', { key });
    const ready = await recorder.status(key, 'ready');
    expect(ready.currentModeId).toBe('plan');
    expect(recorder.transcript(key).at(-1)).toMatchObject({
      type: 'system',
      text: `Restarted ${agent.name} in a new session with your choices: Mode: Plan. ${LOST_SESSION}`,
    });
  });
});
