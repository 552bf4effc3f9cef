/** Crash recovery: the restart policy under fake timers, then three real tabs healing. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { agentLogPath } from '../../../../main/core/agent-connection.js';
import {
  CrashRecovery,
  FIRST_BACKOFF_MS,
  MAX_RESTARTS,
  RESTART_WINDOW_MS,
} from '../../../../main/core/agents/recovery.js';
import type { Session } from '../../../../main/core/session.js';
import type { SessionSummary } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { useCore, type Recorder } from '../../../helpers/core-harness.js';

/** A tab as recovery sees it: its status. */
function tab(status: SessionSummary['status'] = 'exited'): Session {
  return { summary: { status } } as Session;
}

describe('the restart policy', () => {
  let said: string[];
  let recovery: CrashRecovery;
  beforeEach(() => {
    vi.useFakeTimers();
    said = [];
    recovery = new CrashRecovery({
      restart: (tabs) => said.push(`restart ${tabs.length}`),
      restarting: (tabs, delayMs) => said.push(`restarting ${tabs.length} in ${delayMs}`),
      gaveUp: (_tabs, why) => said.push(`gave up: ${why}`),
      now: () => Date.now(),
    });
  });
  afterEach(() => {
    recovery.dispose();
    vi.useRealTimers();
  });

  it('restarts at once, then after 1 s and 2 s, then gives up within 3 minutes', async () => {
    const tabs = [tab(), tab()];
    recovery.crashed('Agent', tabs);
    expect(said).toEqual(['restarting 2 in 0']);
    await vi.advanceTimersByTimeAsync(0);
    expect(said.at(-1)).toBe('restart 2');

    recovery.crashed('Agent', tabs);
    expect(said.at(-1)).toBe(`restarting 2 in ${FIRST_BACKOFF_MS}`);
    await vi.advanceTimersByTimeAsync(FIRST_BACKOFF_MS - 1);
    expect(said.at(-1)).not.toBe('restart 2');
    await vi.advanceTimersByTimeAsync(1);
    expect(said.at(-1)).toBe('restart 2');

    recovery.crashed('Agent', tabs);
    expect(said.at(-1)).toBe(`restarting 2 in ${2 * FIRST_BACKOFF_MS}`);
    await vi.advanceTimersByTimeAsync(2 * FIRST_BACKOFF_MS);
    expect(said.at(-1)).toBe('restart 2');

    recovery.crashed('Agent', tabs);
    expect(MAX_RESTARTS).toBe(3);
    expect(said.at(-1)).toBe(
      'gave up: Agent stopped unexpectedly 4 times in 3 minutes, so Airlock stopped restarting it. Restart tries again.',
    );
    await vi.advanceTimersByTimeAsync(RESTART_WINDOW_MS);
    expect(said.filter((line) => line.startsWith('restart '))).toHaveLength(3);
  });

  it('counts only the restarts of the last 3 minutes, and of that agent', async () => {
    const tabs = [tab()];
    for (let i = 0; i < MAX_RESTARTS; i++) {
      recovery.crashed('Agent', tabs);
      await vi.advanceTimersByTimeAsync(60_000);
    }
    // Another agent has its own count.
    recovery.crashed('Other', tabs);
    expect(said.at(-1)).toBe('restarting 1 in 0');
    // The first restart is now more than 3 minutes ago: there is room for one more.
    await vi.advanceTimersByTimeAsync(1);
    recovery.crashed('Agent', tabs);
    expect(said.at(-1)).toMatch(/^restarting 1 in \d+$/);
  });

  it('starts counting again once the user restarts, and leaves tabs that moved on', async () => {
    const tabs = [tab()];
    for (let i = 0; i < MAX_RESTARTS; i++) {
      recovery.crashed('Agent', tabs);
      await vi.runAllTimersAsync();
    }
    recovery.forget('Agent');
    recovery.crashed('Agent', tabs);
    expect(said.at(-1)).toBe('restarting 1 in 0');

    // Closed, or restarted by the user, during the wait: not restarted again.
    const closing = [tab('closed'), tab('starting')];
    recovery.crashed('Agent', closing);
    await vi.runAllTimersAsync();
    expect(said.filter((line) => line === 'restart 2')).toEqual([]);
    // A process that served no tab (a history listing) restarts nothing.
    const before = said.length;
    recovery.crashed('Agent', []);
    expect(said).toHaveLength(before);
  });

  it('restarts nothing once disposed', async () => {
    recovery.crashed('Agent', [tab()]);
    await vi.advanceTimersByTimeAsync(0);
    recovery.crashed('Agent', [tab()]);
    recovery.dispose();
    await vi.runAllTimersAsync();
    expect(said.filter((line) => line.startsWith('restart '))).toEqual(['restart 1']);
  });
});

/** The tab's lines as shown: a line replaced by a later one of its id shows the later. */
function shown(recorder: Recorder, key: string): string[] {
  const lines = new Map<string, string>();
  recorder.transcript(key).forEach((event, i) => {
    if (event.type === 'system') {
      lines.set(event.id ?? String(i), event.text);
    }
  });
  return [...lines.values()];
}

/** Waits for the tab's `count`th line saying how a restart ended, its status `status`. */
function restartedBy(
  recorder: Recorder,
  key: string,
  { count = 1, status = 'ready' }: { count?: number; status?: SessionSummary['status'] } = {},
) {
  const ended = () =>
    shown(recorder, key).filter((line) => /^Restarted |stopped restarting/.test(line));
  return recorder.until(
    () => recorder.summaries.get(key)?.status === status && ended().length >= count,
    () => `tab ${key} to restart by itself: ${shown(recorder, key).join(' | ')}`,
  );
}

describe('an agent that crashes under three tabs', () => {
  const { start } = useCore();

  it('restarts once for all of them, each back in its own session, choices kept', async () => {
    const run = await start();
    const { core, recorder } = run;
    const keys = await Promise.all([run.ready(), run.ready(), run.ready()]);
    await run.call('session:setMode', { key: keys[1]!, modeId: 'ask' });

    await core.invoke('session:prompt', { key: keys[0]!, text: '/crash' });
    for (const key of keys) {
      await recorder.event(key, 'agent_exit');
    }
    for (const key of keys) {
      await restartedBy(recorder, key);
    }
    // In each tab, one line that went from "stopped unexpectedly" to how it ended.
    expect(recorder.transcript(keys[0]!).filter((event) => event.type === 'system')).toEqual([
      {
        type: 'system',
        id: expect.any(String),
        text: 'Demo Agent stopped unexpectedly. Restarting it…',
      },
      {
        type: 'system',
        id: expect.any(String),
        text: 'Restarted Demo Agent, in the same session.',
      },
    ]);
    expect(shown(recorder, keys[2]!)).toEqual(['Restarted Demo Agent, in the same session.']);
    expect(shown(recorder, keys[1]!)).toEqual([
      'Restarted Demo Agent, in the same session with your choices: Mode: Ask.',
    ]);
    expect(recorder.summaries.get(keys[1]!)?.currentModeId).toBe('ask');
    // One new process serves all three: the agent's log shows two starts, the first crashed.
    const log = await readFile(agentLogPath(join(run.dir, 'logs'), 'Demo Agent'), 'utf8');
    expect(log.match(/^--- \S+ started: /gm)).toHaveLength(2);
  });

  it('restarts the process once for every tab of the exit when the user restarts one', async () => {
    const run = await start({ options: { restartCrashed: false } });
    const { core, recorder } = run;
    const keys = await Promise.all([run.ready(), run.ready(), run.ready()]);
    await core.invoke('session:prompt', { key: keys[0]!, text: '/crash' });
    for (const key of keys) {
      await recorder.status(key, 'exited');
    }
    await run.call('session:restart', { key: keys[2]! });
    for (const key of keys) {
      await recorder.status(key, 'ready');
    }
    const log = await readFile(agentLogPath(join(run.dir, 'logs'), 'Demo Agent'), 'utf8');
    expect(log.match(/^--- \S+ started: /gm)).toHaveLength(2);
  });

  it('restarts only the tabs of that exit when the user restarts one', async () => {
    const other = fixtureSpec('fixed-session', 'Other Agent');
    const run = await start({ agents: [other], options: { restartCrashed: false } });
    const { recorder } = run;
    const [a, b, c] = await Promise.all([run.ready(), run.ready(), run.ready(other.name)]);
    await run.call('session:prompt', { key: c, text: 'crash' });
    await recorder.status(c, 'exited');
    await run.call('session:prompt', { key: a, text: '/crash' });
    await recorder.status(b, 'exited');

    await run.call('session:restart', { key: b });
    for (const key of [a, b]) {
      await restartedBy(recorder, key);
      expect(shown(recorder, key)).toEqual(['Restarted Demo Agent, in the same session.']);
      expect(recorder.transcript(key)).toContainEqual({
        type: 'system',
        id: expect.any(String),
        text: 'Restarting Demo Agent…',
      });
    }
    // Another agent's tab, stopped by an exit of its own, is left as it is.
    expect(recorder.summaries.get(c)?.status).toBe('exited');
    expect(shown(recorder, c)).toEqual([]);
  });

  it('gives up after the fourth crash in 3 minutes, and counts again after a user Restart', async () => {
    const run = await start();
    const key = await run.ready();
    for (let crash = 1; crash <= MAX_RESTARTS; crash++) {
      await run.call('session:prompt', { key, text: '/crash' });
      await restartedBy(run.recorder, key, { count: crash });
    }
    await run.call('session:prompt', { key, text: '/crash' });
    await restartedBy(run.recorder, key, { count: MAX_RESTARTS + 1, status: 'exited' });
    expect(shown(run.recorder, key)).toEqual([
      'Restarted Demo Agent, in the same session.',
      'Restarted Demo Agent, in the same session.',
      'Restarted Demo Agent, in the same session.',
      'Demo Agent stopped unexpectedly 4 times in 3 minutes, so Airlock stopped restarting it. Restart tries again.',
    ]);

    // Each line said first when the restart would come (the last one at once how it ended).
    const said = run.recorder
      .transcript(key)
      .flatMap((event) => (event.type === 'system' ? [event.text] : []));
    expect([...new Set(said.filter((line) => line.includes('stopped unexpectedly')))]).toEqual([
      'Demo Agent stopped unexpectedly. Restarting it…',
      'Demo Agent stopped unexpectedly again. Restarting it in 1 s…',
      'Demo Agent stopped unexpectedly again. Restarting it in 2 s…',
      'Demo Agent stopped unexpectedly 4 times in 3 minutes, so Airlock stopped restarting it. Restart tries again.',
    ]);

    await run.call('session:restart', { key });
    await run.recorder.status(key, 'ready');
    await run.call('session:prompt', { key, text: '/crash' });
    await restartedBy(run.recorder, key, { count: MAX_RESTARTS + 3 });
    expect(shown(run.recorder, key).slice(-2)).toEqual([
      'Restarted Demo Agent, in the same session.',
      'Restarted Demo Agent, in the same session.',
    ]);
  });

  it('picks up the session of an agent that only loads, without its replay', async () => {
    const agent = {
      ...fixtureSpec('fixed-session', 'Load Only'),
      env: { SCRIPTED_REOPEN: 'load' },
    };
    const run = await start({ agents: [agent] });
    const key = await run.ready(agent.name);
    await run.turn(key, 'hello');
    await run.call('session:prompt', { key, text: 'crash' });
    await restartedBy(run.recorder, key);
    expect(shown(run.recorder, key)).toEqual(['Restarted Load Only, in the same session.']);
    // The agent replays "replayed shared" for a loaded session: the transcript already shows it.
    expect(run.recorder.text(key)).toBe('echo: hello');
    await run.turn(key, 'again');
    expect(run.recorder.text(key)).toBe('echo: helloecho: again');
  });
});
