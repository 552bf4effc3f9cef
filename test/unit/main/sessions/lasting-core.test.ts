/**
 * Sessions that last, through a real core and the real demo agent: the tabs kept across a quit
 * and offered again, the history (`session/list`), reopening with `session/load` (the transcript
 * replays) or `session/resume`, `session/close` sent only to an agent that advertises it, and an
 * agent without any of it saying so.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import { DEMO, useCore, type CoreRun, type Recorder } from '../../../helpers/core-harness.js';
import { LOST_SESSION } from '../../../../main/core/sessions/start.js';

/** The demo agent as a user's own agent: no folder to keep sessions in, so none of it. */
const plainDemo: AgentSpec = { ...demoAgentSpec(), name: 'Plain Demo', builtIn: false };

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start, startWith } = useCore({ bounded: true, options: { restartCrashed: false } });

/** The tab's system lines, as the user reads them. */
function systemLines(recorder: Recorder, key: string): string[] {
  return recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));
}

async function history(run: CoreRun, agentName: string, cwd: string) {
  return await run.call('session:history', { agentName, cwd });
}

/** A ready demo tab of `run`, in `cwd` (the run's folder unless told), titled `title`. */
async function titledTab(run: CoreRun, title: string, cwd?: string): Promise<string> {
  const key = await run.ready(DEMO, cwd);
  await run.turn(key, `/title ${title}`);
  return key;
}

describe('a session of the built-in demo agent, after a quit', () => {
  it('is offered again, and reopening it replays its transcript with session/load', async () => {
    const run = await start();
    const { core, recorder, dir } = run;
    const key = await titledTab(run, 'Planning the trip');
    await run.turn(key, 'hello there');
    const before = recorder.text(key, 'agent');
    await core.dispose();

    // The tab is kept in the config folder.
    const file = JSON.parse(await readFile(join(dir, 'sessions.json'), 'utf8')) as {
      tabs: { agentName: string; acpSessionId?: string; title?: string }[];
    };
    expect(file.tabs).toHaveLength(1);
    expect(file.tabs[0]).toMatchObject({ agentName: DEMO, title: 'Planning the trip' });
    expect(file.tabs[0]!.acpSessionId).toMatch(/^demo_/);

    const next = await run.again();
    const { tabs } = await next.call('session:listSaved', {});
    expect(tabs).toEqual([
      expect.objectContaining({ agentName: DEMO, cwd: dir, title: 'Planning the trip' }),
    ]);
    const { keys } = await next.call('session:reopenSaved', { id: tabs[0]!.id });
    const reopened = keys[0]!;
    await next.recorder.status(reopened, 'ready');
    expect(next.recorder.text(reopened, 'user')).toBe('/title Planning the triphello there');
    expect(next.recorder.text(reopened, 'agent')).toBe(before);
    expect(next.recorder.summaries.get(reopened)?.title).toBe('Planning the trip');
    // Taken from the offer, and the agent knows the session again.
    expect(await next.core.invoke('session:listSaved', {})).toEqual({ tabs: [] });
    await next.turn(reopened, 'still here?');
    expect(next.recorder.transcript(reopened).at(-1)).toEqual({
      type: 'turn_end',
      stopReason: 'end_turn',
    });
  });

  it('is listed in the history of its folder, newest first, and reopens from there', async () => {
    const run = await start();
    const { dir } = run;
    const first = await titledTab(run, 'First one');
    await titledTab(run, 'Second one');
    const elsewhere = await mkdtemp(join(tmpdir(), 'airlock-elsewhere-'));
    await run.ready(DEMO, elsewhere);

    const listed = await history(run, DEMO, dir);
    expect(listed.supported).toBe(true);
    expect(listed.canReopen).toBe(true);
    expect(listed.entries.map((entry) => entry.title)).toEqual(['Second one', 'First one']);
    expect(listed.entries[0]!.updatedAt).toBeGreaterThan(Date.now() - 60_000);
    expect((await history(run, DEMO, elsewhere)).entries).toHaveLength(1);

    // An entry open in a tab already is that tab.
    const { key } = await run.call('session:reopen', {
      agentName: DEMO,
      cwd: dir,
      sessionId: listed.entries[1]!.sessionId,
    });
    expect(key).toBe(first);
  });
});

describe('a session whose agent exited', () => {
  it('goes on in the same session after a restart, where the agent can resume it', async () => {
    const run = await start();
    const { core, recorder, dir } = run;
    const key = await titledTab(run, 'Before the crash');
    await core.invoke('session:prompt', { key, text: '/crash' });
    await recorder.status(key, 'exited');
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    expect(systemLines(recorder, key)).toContain('Restarted Demo Agent, in the same session.');
    await run.turn(key, 'still there?');
    // One session in the folder's history, not a second one started by the restart.
    const listed = await history(run, DEMO, dir);
    expect(listed.entries.map((entry) => entry.title)).toEqual(['Before the crash']);
  });

  it('starts a new session after a restart where the agent lost it', async () => {
    const run = await start();
    const { core, recorder } = run;
    const key = await titledTab(run, 'Lost with its files');
    await core.invoke('session:prompt', { key, text: '/crash' });
    await recorder.status(key, 'exited');
    // The demo agent keeps its sessions here: without them it cannot resume one.
    await rm(join(dirname(run.settingsPath), 'demo-agent'), { recursive: true, force: true });
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    expect(systemLines(recorder, key)).toContain(
      `Restarted Demo Agent in a new session. ${LOST_SESSION}`,
    );
    await run.turn(key, 'a fresh start');
  });

  it('starts a new session after a restart where the agent cannot resume', async () => {
    const { core, recorder, key } = await startWith(plainDemo);
    await core.invoke('session:prompt', { key, text: '/crash' });
    await recorder.status(key, 'exited');
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    expect(systemLines(recorder, key)).toContain(
      `Restarted Plain Demo in a new session. ${LOST_SESSION}`,
    );
  });
});

describe('a long session of the demo agent', () => {
  it('replays up to its bound, then says the rest was too long to keep', async () => {
    const run = await start();
    const { core, recorder } = run;
    // 2.5 MB each way takes seconds, more on a loaded machine: the waits get the test's time.
    recorder.deadlineMs = 25_000;
    const key = await run.ready();
    // 2.5 MB of reply: more than the 2 MB the demo keeps of one session.
    await run.turn(key, '/long 2500');
    await core.dispose();

    const next = await run.again();
    next.recorder.deadlineMs = 25_000;
    const { tabs } = await next.call('session:listSaved', {});
    const { keys } = await next.call('session:reopenSaved', { id: tabs[0]!.id });
    await next.recorder.status(keys[0]!, 'ready');
    const replayed = next.recorder.text(keys[0]!, 'agent');
    expect(replayed.length).toBeGreaterThan(1_900_000);
    expect(replayed.length).toBeLessThan(2_000_000);
    expect(replayed.endsWith('\n\n(The rest of this session was too long to keep.)')).toBe(true);
  }, 60_000);

  it('keeps its session id in the kept tabs when a reopen fails', async () => {
    const run = await start();
    const { core, dir } = run;
    const missing = 'demo_00000000-0000-0000-0000-000000000000';
    const { summary } = await run.reopenFailing(DEMO, missing);
    expect(summary.error).toMatch(/^Could not reopen this session: /);
    await core.dispose();
    const file = JSON.parse(await readFile(join(dir, 'sessions.json'), 'utf8')) as {
      tabs: { acpSessionId?: string }[];
    };
    expect(file.tabs.map((tab) => tab.acpSessionId)).toEqual([missing]);
  });
});

describe('an agent that can resume but not load', () => {
  it('reopens with session/resume, replaying nothing, and says so', async () => {
    const state = await mkdtemp(join(tmpdir(), 'airlock-demo-state-'));
    const resumer: AgentSpec = {
      ...plainDemo,
      name: 'Resume Demo',
      env: { AIRLOCK_DEMO_STATE_DIR: state, AIRLOCK_DEMO_REOPEN: 'resume' },
    };
    const run = await startWith(resumer);
    const { core, dir, key } = run;
    await run.turn(key, 'remember me');
    await core.dispose();

    const next = await run.again();
    const listed = await history(next, resumer.name, dir);
    expect(listed.canReopen).toBe(true);
    const [entry] = listed.entries;
    expect(entry?.title).toBe('remember me');
    const { key: reopened } = await next.call('session:reopen', {
      agentName: resumer.name,
      cwd: dir,
      sessionId: entry!.sessionId,
    });
    await next.recorder.status(reopened, 'ready');
    expect(next.recorder.text(reopened, 'user')).toBe('');
    expect(next.recorder.transcript(reopened)).toContainEqual({
      type: 'system',
      text: 'Resumed this session; Resume Demo does not send back its earlier messages.',
    });
    await next.turn(reopened, 'and now?');
  });
});

describe('session/close', () => {
  it('goes to an agent that advertises it when a tab closes', async () => {
    const run = await start();
    const { core, dir } = run;
    const closing = await titledTab(run, 'Closing this one');
    // A second tab keeps the process running after the first closes.
    await run.ready();
    const [entry] = (await history(run, DEMO, dir)).entries.filter(
      (one) => one.title === 'Closing this one',
    );

    await core.invoke('session:close', { key: closing });
    await agentLogContains(core, DEMO, `demo agent: session/close ${entry!.sessionId}`);
  });

  it('is not sent to an agent that does not advertise it', async () => {
    const run = await start({ agents: [plainDemo] });
    const { core } = run;
    const closing = await run.ready(plainDemo.name);
    const staying = await run.ready(plainDemo.name);

    await core.invoke('session:close', { key: closing });
    // A turn on the other tab after the close: the agent reads its input in order, so a
    // session/close sent before it would be in the log by the turn's end.
    await run.turn(staying, 'hello');
    const { text } = await run.call('agent:readLog', { agentName: plainDemo.name });
    expect(text).not.toContain('session/close');
  });
});

describe('an agent without history', () => {
  it('says it keeps none, and a reopen says it cannot and offers a new session', async () => {
    const run = await start({ agents: [plainDemo] });
    const { core, recorder, dir } = run;
    const listed = await history(run, plainDemo.name, dir);
    expect(listed).toEqual({
      supported: false,
      canReopen: false,
      entries: [],
      note: 'Plain Demo keeps no history of its sessions that Airlock can list.',
    });

    const { key, summary } = await run.reopenFailing(
      plainDemo.name,
      'demo_00000000-0000-0000-0000-000000000000',
    );
    expect(summary.error).toBe(
      `Plain Demo cannot reopen earlier sessions. Restart starts a new session in ${dir}.`,
    );
    expect(summary.errorDetail).toBe('The agent offers neither session/load nor session/resume.');
    // Restart is the new session the tab offers.
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
  });
});

describe('the kept tabs', () => {
  it('lose a tab when it closes, and keep the others across the quit', async () => {
    const run = await start();
    const { core } = run;
    const closed = await run.ready();
    await titledTab(run, 'Kept');
    await core.invoke('session:close', { key: closed });
    await core.dispose();

    const next = await run.again();
    const { tabs } = await next.call('session:listSaved', {});
    expect(tabs.map((tab) => tab.title)).toEqual(['Kept']);
    await next.core.invoke('session:dismissSaved', {});
    expect(await next.core.invoke('session:listSaved', {})).toEqual({ tabs: [] });
  });

  it('all reopen at once, and one taken already is no longer on offer', async () => {
    const run = await start();
    const { core } = run;
    await titledTab(run, 'One');
    await titledTab(run, 'Two');
    await core.dispose();

    const next = await run.again();
    const { tabs } = await next.call('session:listSaved', {});
    const { keys } = await next.call('session:reopenSaved', {});
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      await next.recorder.status(key, 'ready');
    }
    expect(keys.map((key) => next.recorder.summaries.get(key)?.title).sort()).toEqual([
      'One',
      'Two',
    ]);
    await expect(next.core.invoke('session:reopenSaved', { id: tabs[0]!.id })).rejects.toThrow(
      'That session is no longer on offer',
    );
  });

  it('reopen the others when one cannot, and say how many could not', async () => {
    const run = await start();
    const { core } = run;
    const gone = await mkdtemp(join(tmpdir(), 'airlock-gone-'));
    await titledTab(run, 'Gone', gone);
    await titledTab(run, 'Here');
    await core.dispose();
    await rm(gone, { recursive: true, force: true });

    const next = await run.again();
    const error = (await next.core
      .invoke('session:reopenSaved', {})
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^Could not reopen 1 of 2: \S/);
    const opened = [...next.recorder.summaries.values()];
    expect(opened.map((summary) => summary.title)).toEqual(['Here']);
    await next.recorder.status(opened[0]!.key, 'ready');
  });
});
