/**
 * Reopening, through a real core and the real demo agent, in the cases lasting-core.test.ts does
 * not reach: a session open in a tab that is not the agent's first, a session id another agent's
 * tab holds, the title a reopen from the history gives its tab, and a kept tab that never had a
 * session.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/settings/catalog.js';
import type { HistoryView, SavedTabView } from '../../../../preload/lasting-sessions.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import {
  boundedCore,
  deadline,
  readySession,
  Recorder,
  startCore,
} from '../../../helpers/core-harness.js';

const DEMO = demoAgentSpec().name;
/** The demo agent as a user's own agent: no folder to keep sessions in, so it cannot reopen. */
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

async function turn(core: AirlockCore, recorder: Recorder, key: string, text: string) {
  const from = recorder.transcript(key).length;
  await core.invoke('session:prompt', { key, text });
  await recorder.event(key, 'turn_end', from);
  await recorder.status(key, 'ready');
}

/** The session id of the tab's session, as the folder's history lists it under its title. */
async function sessionIdOf(core: AirlockCore, cwd: string, title: string): Promise<string> {
  const listed = (await core.invoke('session:history', { agentName: DEMO, cwd })) as HistoryView;
  const entry = listed.entries.find((one) => one.title === title);
  expect(entry).toBeDefined();
  return entry!.sessionId;
}

describe('reopening a session from the history', () => {
  it('shows a session open in a tab there, when an earlier tab of the agent has another', async () => {
    const { core, recorder, dir } = await started();
    const first = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, first, '/title First one');
    const second = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, second, '/title Second one');

    // The first tab comes first in the core's tabs: a match on the agent alone would be it.
    const { key } = (await core.invoke('session:reopen', {
      agentName: DEMO,
      cwd: dir,
      sessionId: await sessionIdOf(core, dir, 'Second one'),
    })) as { key: string };
    expect(key).toBe(second);
    expect(recorder.summaries.size).toBe(2);
  });

  it('opens a new tab, under the title given, for a session id only another agent’s tab holds', async () => {
    const { core, recorder, dir } = await started([plainDemo]);
    const demoTab = await readySession(core, recorder, DEMO, dir);
    await turn(core, recorder, demoTab, '/title Held by the demo');
    const sessionId = await sessionIdOf(core, dir, 'Held by the demo');

    const { key } = (await core.invoke('session:reopen', {
      agentName: plainDemo.name,
      cwd: dir,
      sessionId,
      title: 'Asked of the plain one',
    })) as { key: string };
    expect(key).not.toBe(demoTab);
    // Plain Demo cannot reopen it; the tab says so under the title it was opened with.
    const summary = await recorder.status(key, 'failed');
    expect(summary).toMatchObject({
      agentName: plainDemo.name,
      title: 'Asked of the plain one',
    });
    expect(summary.error).toMatch(/^Plain Demo cannot reopen earlier sessions/);
  });
});

describe('a kept tab that never started a session', () => {
  it('reopens with a new session in its folder', async () => {
    const { core, dir, settingsPath } = await started();
    await core.dispose();
    // What a quit leaves of a tab whose agent had not answered session/new yet: no session id.
    await writeFile(
      join(dir, 'sessions.json'),
      JSON.stringify({
        version: 1,
        tabs: [{ agentName: DEMO, cwd: dir, title: 'Never started', lastActivity: Date.now() }],
      }),
    );

    const next = new AirlockCore({
      settingsPath,
      logsDir: join(dir, 'logs'),
      demoAgent: demoAgentSpec(),
      defaultCwd: dir,
    });
    await deadline(next.init(), 'the core to start');
    cores.push(boundedCore(next));
    const recorder = new Recorder(next);
    const { tabs } = (await next.invoke('session:listSaved', {})) as {
      tabs: SavedTabView[];
    };
    expect(tabs).toEqual([
      expect.objectContaining({ agentName: DEMO, title: 'Never started', reopenable: false }),
    ]);
    const { keys } = (await next.invoke('session:reopenSaved', { id: tabs[0]!.id })) as {
      keys: string[];
    };
    const summary = await recorder.status(keys[0]!, 'ready', 'failed');
    expect(summary).toMatchObject({ status: 'ready', title: 'Never started', cwd: dir });
    // Nothing replayed: a fresh session, which takes a turn.
    expect(recorder.text(keys[0]!, 'agent')).toBe('');
    await turn(next, recorder, keys[0]!, 'a first prompt at last');
    expect(recorder.text(keys[0]!, 'agent')).not.toBe('');
  });
});
