/**
 * Sessions that last, through a real core and the real demo agent: the tabs kept across a quit
 * and offered again, the history (`session/list`), reopening with `session/load` (the transcript
 * replays) or `session/resume`, `session/close` sent only to an agent that advertises it, and an
 * agent without any of it saying so.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/settings/catalog.js';
import type { HistoryView, SavedTabView } from '../../../../preload/lasting-sessions.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import {
  boundedCore,
  deadline,
  readySession,
  Recorder,
  startCore,
} from '../../../helpers/core-harness.js';

const DEMO = demoAgentSpec().name;
/** The demo agent as a user's own agent: no folder to keep sessions in, so none of it. */
const plainDemo: AgentSpec = { ...demoAgentSpec(), name: 'Plain Demo', builtIn: false };

const cores: AirlockCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});

async function started(extra: AgentSpec[] = []) {
  const run = await startCore(extra);
  cores.push(boundedCore(run.core));
  return run;
}

/** Another run of the app on the same config folder, as after a quit. */
async function restartOn(dir: string, settingsPath: string) {
  const core = new AirlockCore({
    settingsPath,
    logsDir: join(dir, 'logs'),
    demoAgent: demoAgentSpec(),
    defaultCwd: dir,
  });
  await deadline(core.init(), 'the core to start');
  cores.push(boundedCore(core));
  return { core, recorder: new Recorder(core) };
}

async function turn(core: AirlockCore, recorder: Recorder, key: string, text: string) {
  const from = recorder.transcript(key).length;
  await core.invoke('session:prompt', { key, text });
  await recorder.event(key, 'turn_end', from);
  await recorder.status(key, 'ready');
}

/** The tab's system lines, as the user reads them. */
function systemLines(recorder: Recorder, key: string): string[] {
  return recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));
}

async function history(core: AirlockCore, agentName: string, cwd: string) {
  return (await core.invoke('session:history', { agentName, cwd })) as HistoryView;
}

describe('a session of the built-in demo agent, after a quit', () => {
  it('is offered again, and reopening it replays its transcript with session/load', async () => {
    const { core, recorder, dir, settingsPath } = await started();
    const key = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, key, '/title Planning the trip');
    await turn(core, recorder, key, 'hello there');
    const before = recorder.text(key, 'agent');
    await core.dispose();

    // The tab is kept in the config folder.
    const file = JSON.parse(await readFile(join(dir, 'sessions.json'), 'utf8')) as {
      tabs: { agentName: string; acpSessionId?: string; title?: string }[];
    };
    expect(file.tabs).toHaveLength(1);
    expect(file.tabs[0]).toMatchObject({ agentName: DEMO, title: 'Planning the trip' });
    expect(file.tabs[0]!.acpSessionId).toMatch(/^demo_/);

    const next = await restartOn(dir, settingsPath);
    const { tabs } = (await next.core.invoke('session:listSaved', {})) as {
      tabs: SavedTabView[];
    };
    expect(tabs).toEqual([
      expect.objectContaining({ agentName: DEMO, cwd: dir, title: 'Planning the trip' }),
    ]);
    const { keys } = (await next.core.invoke('session:reopenSaved', { id: tabs[0]!.id })) as {
      keys: string[];
    };
    const reopened = keys[0]!;
    await next.recorder.status(reopened, 'ready');
    expect(next.recorder.text(reopened, 'user')).toBe('/title Planning the triphello there');
    expect(next.recorder.text(reopened, 'agent')).toBe(before);
    expect(next.recorder.summaries.get(reopened)?.title).toBe('Planning the trip');
    // Taken from the offer, and the agent knows the session again.
    expect(await next.core.invoke('session:listSaved', {})).toEqual({ tabs: [] });
    await turn(next.core, next.recorder, reopened, 'still here?');
    expect(next.recorder.transcript(reopened).at(-1)).toEqual({
      type: 'turn_end',
      stopReason: 'end_turn',
    });
  });

  it('is listed in the history of its folder, newest first, and reopens from there', async () => {
    const { core, recorder, dir } = await started();
    const first = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, first, '/title First one');
    const second = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, second, '/title Second one');
    const elsewhere = await mkdtemp(join(tmpdir(), 'airlock-elsewhere-'));
    await readySession(core, recorder, DEMO, elsewhere);

    const listed = await history(core, DEMO, dir);
    expect(listed.supported).toBe(true);
    expect(listed.canReopen).toBe(true);
    expect(listed.entries.map((entry) => entry.title)).toEqual(['Second one', 'First one']);
    expect(listed.entries[0]!.updatedAt).toBeGreaterThan(Date.now() - 60_000);
    expect((await history(core, DEMO, elsewhere)).entries).toHaveLength(1);

    // An entry open in a tab already is that tab.
    const { key } = (await core.invoke('session:reopen', {
      agentName: DEMO,
      cwd: dir,
      sessionId: listed.entries[1]!.sessionId,
    })) as { key: string };
    expect(key).toBe(first);
  });
});

describe('a session whose agent exited', () => {
  it('goes on in the same session after a restart, where the agent can resume it', async () => {
    const { core, recorder, dir } = await started();
    const key = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, key, '/title Before the crash');
    await core.invoke('session:prompt', { key, text: '/crash' });
    await recorder.status(key, 'exited');
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    expect(systemLines(recorder, key)).toContain('Restarted Demo Agent, in the same session.');
    await turn(core, recorder, key, 'still there?');
    // One session in the folder's history, not a second one started by the restart.
    const listed = await history(core, DEMO, dir);
    expect(listed.entries.map((entry) => entry.title)).toEqual(['Before the crash']);
  });

  it('starts a new session after a restart where the agent lost it', async () => {
    const { core, recorder, dir, settingsPath } = await started();
    const key = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, key, '/title Lost with its files');
    await core.invoke('session:prompt', { key, text: '/crash' });
    await recorder.status(key, 'exited');
    // The demo agent keeps its sessions here: without them it cannot resume one.
    await rm(join(dirname(settingsPath), 'demo-agent'), { recursive: true, force: true });
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    expect(systemLines(recorder, key)).toContain('Restarted Demo Agent.');
    await turn(core, recorder, key, 'a fresh start');
  });

  it('starts a new session after a restart where the agent cannot resume', async () => {
    const { core, recorder, dir } = await started([plainDemo]);
    const key = await readySession(core, recorder, plainDemo.name, dir);
    await core.invoke('session:prompt', { key, text: '/crash' });
    await recorder.status(key, 'exited');
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    expect(systemLines(recorder, key)).toContain('Restarted Plain Demo.');
  });
});

describe('a long session of the demo agent', () => {
  it('replays up to its bound, then says the rest was too long to keep', async () => {
    const { core, recorder, dir, settingsPath } = await started();
    // 2.5 MB each way takes seconds, more on a loaded machine: the waits get the test's time.
    recorder.deadlineMs = 25_000;
    const key = await readySession(core, recorder, DEMO, dir);
    // 2.5 MB of reply: more than the 2 MB the demo keeps of one session.
    await turn(core, recorder, key, '/long 2500');
    await core.dispose();

    const next = await restartOn(dir, settingsPath);
    next.recorder.deadlineMs = 25_000;
    const { tabs } = (await next.core.invoke('session:listSaved', {})) as {
      tabs: SavedTabView[];
    };
    const { keys } = (await next.core.invoke('session:reopenSaved', { id: tabs[0]!.id })) as {
      keys: string[];
    };
    await next.recorder.status(keys[0]!, 'ready');
    const replayed = next.recorder.text(keys[0]!, 'agent');
    expect(replayed.length).toBeGreaterThan(1_900_000);
    expect(replayed.length).toBeLessThan(2_000_000);
    expect(replayed.endsWith('\n\n(The rest of this session was too long to keep.)')).toBe(true);
  }, 60_000);

  it('keeps its session id in the kept tabs when a reopen fails', async () => {
    const { core, recorder, dir } = await started();
    const missing = 'demo_00000000-0000-0000-0000-000000000000';
    const { key } = (await core.invoke('session:reopen', {
      agentName: DEMO,
      cwd: dir,
      sessionId: missing,
    })) as { key: string };
    const summary = await recorder.status(key, 'failed');
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
    const { core, recorder, dir, settingsPath } = await started([resumer]);
    const key = await readySession(core, recorder, resumer.name, dir);
    await turn(core, recorder, key, 'remember me');
    await core.dispose();

    const next = await restartOn(dir, settingsPath);
    const listed = await history(next.core, resumer.name, dir);
    expect(listed.canReopen).toBe(true);
    const [entry] = listed.entries;
    expect(entry?.title).toBe('remember me');
    const { key: reopened } = (await next.core.invoke('session:reopen', {
      agentName: resumer.name,
      cwd: dir,
      sessionId: entry!.sessionId,
    })) as { key: string };
    await next.recorder.status(reopened, 'ready');
    expect(next.recorder.text(reopened, 'user')).toBe('');
    expect(next.recorder.transcript(reopened)).toContainEqual({
      type: 'system',
      text: 'Resumed this session; Resume Demo does not send back its earlier messages.',
    });
    await turn(next.core, next.recorder, reopened, 'and now?');
  });
});

describe('session/close', () => {
  it('goes to an agent that advertises it when a tab closes', async () => {
    const { core, recorder, dir } = await started();
    const closing = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, closing, '/title Closing this one');
    // A second tab keeps the process running after the first closes.
    await readySession(core, recorder, DEMO, dir);
    const [entry] = (await history(core, DEMO, dir)).entries.filter(
      (one) => one.title === 'Closing this one',
    );

    await core.invoke('session:close', { key: closing });
    await agentLogContains(core, DEMO, `demo agent: session/close ${entry!.sessionId}`);
  });

  it('is not sent to an agent that does not advertise it', async () => {
    const { core, recorder, dir } = await started([plainDemo]);
    const closing = await readySession(core, recorder, plainDemo.name, dir);
    const staying = await readySession(core, recorder, plainDemo.name, dir);

    await core.invoke('session:close', { key: closing });
    // A turn on the other tab after the close: the agent reads its input in order, so a
    // session/close sent before it would be in the log by the turn's end.
    await turn(core, recorder, staying, 'hello');
    const { text } = (await core.invoke('agent:readLog', { agentName: plainDemo.name })) as {
      text: string;
    };
    expect(text).not.toContain('session/close');
  });
});

describe('an agent without history', () => {
  it('says it keeps none, and a reopen says it cannot and offers a new session', async () => {
    const { core, recorder, dir } = await started([plainDemo]);
    const listed = await history(core, plainDemo.name, dir);
    expect(listed).toEqual({
      supported: false,
      canReopen: false,
      entries: [],
      note: 'Plain Demo keeps no history of its sessions that Airlock can list (it does not offer session/list).',
    });

    const { key } = (await core.invoke('session:reopen', {
      agentName: plainDemo.name,
      cwd: dir,
      sessionId: 'demo_00000000-0000-0000-0000-000000000000',
    })) as { key: string };
    const summary = await recorder.status(key, 'failed');
    expect(summary.error).toBe(
      `Plain Demo cannot reopen earlier sessions: it offers neither session/load nor session/resume. Restart starts a new session in ${dir}.`,
    );
    // Restart is the new session the tab offers.
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
  });
});

describe('the kept tabs', () => {
  it('lose a tab when it closes, and keep the others across the quit', async () => {
    const { core, recorder, dir, settingsPath } = await started();
    const closed = await readySession(core, recorder, DEMO, dir);
    const kept = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, kept, '/title Kept');
    await core.invoke('session:close', { key: closed });
    await core.dispose();

    const next = await restartOn(dir, settingsPath);
    const { tabs } = (await next.core.invoke('session:listSaved', {})) as {
      tabs: SavedTabView[];
    };
    expect(tabs.map((tab) => tab.title)).toEqual(['Kept']);
    await next.core.invoke('session:dismissSaved', {});
    expect(await next.core.invoke('session:listSaved', {})).toEqual({ tabs: [] });
  });

  it('all reopen at once, and one taken already is no longer on offer', async () => {
    const { core, recorder, dir, settingsPath } = await started();
    await turn(core, recorder, await readySession(core, recorder, DEMO, dir), '/title One');
    await turn(core, recorder, await readySession(core, recorder, DEMO, dir), '/title Two');
    await core.dispose();

    const next = await restartOn(dir, settingsPath);
    const { tabs } = (await next.core.invoke('session:listSaved', {})) as {
      tabs: SavedTabView[];
    };
    const { keys } = (await next.core.invoke('session:reopenSaved', {})) as { keys: string[] };
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
    const { core, recorder, dir, settingsPath } = await started();
    const gone = await mkdtemp(join(tmpdir(), 'airlock-gone-'));
    await turn(core, recorder, await readySession(core, recorder, DEMO, gone), '/title Gone');
    await turn(core, recorder, await readySession(core, recorder, DEMO, dir), '/title Here');
    await core.dispose();
    await rm(gone, { recursive: true, force: true });

    const next = await restartOn(dir, settingsPath);
    const error = (await next.core
      .invoke('session:reopenSaved', {})
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^Could not reopen 1 of 2: \S/);
    const opened = [...next.recorder.summaries.values()];
    expect(opened.map((summary) => summary.title)).toEqual(['Here']);
    await next.recorder.status(opened[0]!.key, 'ready');
  });
});
