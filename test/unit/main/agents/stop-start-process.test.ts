/**
 * Stopping a start (`session:stopStart`, or closing the tab): which agent process it stops and
 * which it leaves serving other tabs, a restart stopped while it starts, the stopped start's late
 * end meeting the next start, a tab opened after a stopped start, and closing a tab mid-turn
 * while another tab shares its process.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { pidOf, tabStarting, withPid } from '../../../helpers/agent-pid.js';
import { useCore } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

const timeouts = { requestMs: 60_000, cancelGraceMs: 500 };

const { start, startWith } = useCore({ timeouts });

type SystemEvent = Extract<TranscriptEvent, { type: 'system' }>;

/** Ignores SIGTERM and stays when its stdin closes, so it ends only at SIGKILL. */
const lingers = { SCRIPTED_IGNORE_TERM: '1', SCRIPTED_LINGER: '1' };

/** A core with an agent that never answers session/new and outlives SIGTERM (pid in `name`). */
async function lingering(name: string) {
  const agent = await withPid('never-answer-new', name, lingers);
  return { ...(await start({ agents: [agent] })), agent };
}

describe('stopping a start', () => {
  it("stops its agent's process while tabs of other agents run or start", async () => {
    const mine = await withPid('never-answer-new', 'mine');
    const theirs = await withPid('never-answer-new', 'theirs');
    const started = await start({ agents: [mine, theirs] });
    const { core, create, recorder, dir, ready } = started;
    // Another agent's tab that is running, and one that is starting.
    const running = await ready('Demo Agent');
    const starting = await create(theirs.name, dir);
    const stopped = await create(mine.name, dir);
    const theirPid = await pidOf(theirs.pidFile);
    const myPid = await pidOf(mine.pidFile);

    await core.invoke('session:stopStart', { key: stopped });
    await expect.poll(() => alive(myPid), { timeout: 5_000 }).toBe(false);
    expect(alive(theirPid)).toBe(true);
    expect(recorder.summaries.get(starting)?.status).toBe('starting');
    expect(recorder.summaries.get(running)?.status).toBe('ready');
  });

  it('leaves the process serving a tab that is ready on it', async () => {
    const agent = await withPid('new-held-after', 'held');
    const started = await startWith(agent);
    const { core, create, recorder, dir, key: ready } = started;
    const pid = await pidOf(agent.pidFile);
    // Its session/new is held: it starts on the process the ready tab uses.
    const stopped = await create(agent.name, dir);
    await core.invoke('session:stopStart', { key: stopped });
    await recorder.status(stopped, 'failed');

    await core.invoke('session:prompt', { key: ready, text: 'hi' });
    await recorder.event(ready, 'turn_end');
    expect(recorder.text(ready)).toBe('cancelled: ');
    expect(recorder.summaries.get(ready)?.status).toBe('ready');
    expect(readFileSync(agent.pidFile, 'utf8')).toBe(String(pid));
    expect(alive(pid)).toBe(true);
  });

  it('leaves the process to a tab still starting on it when the last ready tab closes', async () => {
    // Holds a second session/new until a third arrives, then answers both.
    const agent = await withPid('new-held-after', 'closing', { SCRIPTED_RELEASE_AT: '2' });
    const started = await startWith(agent);
    const { core, create, recorder, dir, key: ready } = started;
    const pid = await pidOf(agent.pidFile);
    const waiting = await create(agent.name, dir);

    await core.invoke('session:close', { key: ready });
    // A third tab: on the same process, it lets the waiting tab's session/new be answered.
    const third = await create(agent.name, dir);
    const settled = (key: string) =>
      ['ready', 'failed'].includes(recorder.summaries.get(key)?.status ?? '');
    await recorder.until(() => settled(waiting) && settled(third));
    expect(recorder.summaries.get(waiting)?.status).toBe('ready');
    expect(recorder.summaries.get(third)?.status).toBe('ready');
    expect(readFileSync(agent.pidFile, 'utf8')).toBe(String(pid));
  });

  it('opens the next tab on a new process', async () => {
    // It takes its time to go (until SIGKILL, 3 s after SIGTERM): the next tab comes meanwhile.
    const { agent, core, create, recorder, dir } = await lingering('hangs');
    const stopped = await create(agent.name, dir);
    const pid = await pidOf(agent.pidFile);
    await core.invoke('session:stopStart', { key: stopped });
    const next = await create(agent.name, dir);

    const newPid = await pidOf(agent.pidFile, pid);
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    expect(alive(newPid)).toBe(true);
    expect(recorder.summaries.get(next)?.status).toBe('starting');
  });
});

describe('a restart stopped while it starts', () => {
  it('is not ended by the stopped start, and says it was stopped', async () => {
    // It takes its time to go: the restart comes before the stopped start's process has gone.
    const run = await lingering('restarts');
    const { agent, core, recorder } = run;
    const { key, pid } = await tabStarting(run, agent);
    await recorder.status(key, 'starting');

    // Restarted while the stopped start's process goes: its session/new fails as it does, which
    // must not end the new start.
    await core.invoke('session:stopStart', { key });
    await core.invoke('session:restart', { key });
    await pidOf(agent.pidFile, pid);
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    // Its session/new failed at most `cancelGraceMs` after the stop, long before SIGKILL (3 s).
    expect(recorder.summaries.get(key)?.status).toBe('starting');
    const system = () =>
      recorder.transcript(key).filter((event): event is SystemEvent => event.type === 'system');
    const restarting = system().find((event) => event.text === `Restarting ${agent.name}…`);
    expect(restarting?.id).toBeDefined();

    await core.invoke('session:stopStart', { key });
    await recorder.status(key, 'failed');
    const lines = system().filter((event) => event.id === restarting!.id);
    expect(lines.at(-1)).toEqual({
      type: 'system',
      id: restarting!.id,
      text: `Stopped restarting ${agent.name}.`,
    });
  });
});

describe('closing a tab mid-turn while another tab shares its process', () => {
  it('tells the agent to cancel the turn', async () => {
    const agent = await withPid('new-held-after', 'shared', { SCRIPTED_ANSWER_NEW: '2' });
    const started = await startWith(agent);
    const { core, recorder, key: closed, ready } = started;
    const stays = await ready(agent.name);
    await core.invoke('session:prompt', { key: closed, text: 'wait' });
    await recorder.until(() => recorder.text(closed) === 'waiting', 'the turn to start');

    await core.invoke('session:close', { key: closed });
    await core.invoke('session:prompt', { key: stays, text: 'hi' });
    await recorder.event(stays, 'turn_end');
    expect(recorder.text(stays)).toBe('cancelled: scripted-1');
  });
});
