/**
 * Reopening, through a real core and the real demo agent, in the cases lasting-core.test.ts does
 * not reach: a session open in a tab that is not the agent's first, a session id another agent's
 * tab holds, the title a reopen from the history gives its tab, and a kept tab that never had a
 * session.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { DEMO, useCore, type CoreRun } from '../../../helpers/core-harness.js';

/** The demo agent as a user's own agent: no folder to keep sessions in, so it cannot reopen. */
const plainDemo: AgentSpec = { ...demoAgentSpec(), name: 'Plain Demo', builtIn: false };

const { start } = useCore({ bounded: true });

/** The session id of the tab's session, as the folder's history lists it under its title. */
async function sessionIdOf(run: CoreRun, cwd: string, title: string): Promise<string> {
  const listed = await run.call('session:history', { agentName: DEMO, cwd });
  const entry = listed.entries.find((one) => one.title === title);
  expect(entry).toBeDefined();
  return entry!.sessionId;
}

describe('reopening a session from the history', () => {
  it('shows a session open in a tab there, when an earlier tab of the agent has another', async () => {
    const run = await start();
    const { recorder, dir } = run;
    const first = await run.ready();
    await run.turn(first, '/title First one');
    const second = await run.ready();
    await run.turn(second, '/title Second one');

    // The first tab comes first in the core's tabs: a match on the agent alone would be it.
    const { key } = await run.call('session:reopen', {
      agentName: DEMO,
      cwd: dir,
      sessionId: await sessionIdOf(run, dir, 'Second one'),
    });
    expect(key).toBe(second);
    expect(recorder.summaries.size).toBe(2);
  });

  it('opens a new tab, under the title given, for a session id only another agent’s tab holds', async () => {
    const run = await start({ agents: [plainDemo] });
    const { dir } = run;
    const demoTab = await run.ready();
    await run.turn(demoTab, '/title Held by the demo');
    const sessionId = await sessionIdOf(run, dir, 'Held by the demo');

    const { key, summary } = await run.reopenFailing(
      plainDemo.name,
      sessionId,
      'Asked of the plain one',
    );
    expect(key).not.toBe(demoTab);
    // Plain Demo cannot reopen it; the tab says so under the title it was opened with.
    expect(summary).toMatchObject({
      agentName: plainDemo.name,
      title: 'Asked of the plain one',
    });
    expect(summary.error).toMatch(/^Plain Demo cannot reopen earlier sessions/);
  });
});

describe('a kept tab that never started a session', () => {
  it('reopens with a new session in its folder', async () => {
    const run = await start();
    const { core, dir } = run;
    await core.dispose();
    // What a quit leaves of a tab whose agent had not answered session/new yet: no session id.
    await writeFile(
      join(dir, 'sessions.json'),
      JSON.stringify({
        version: 1,
        tabs: [{ agentName: DEMO, cwd: dir, title: 'Never started', lastActivity: Date.now() }],
      }),
    );

    const next = await run.again();
    const { recorder } = next;
    const { tabs } = await next.call('session:listSaved', {});
    expect(tabs).toEqual([
      expect.objectContaining({ agentName: DEMO, title: 'Never started', reopenable: false }),
    ]);
    const { keys } = await next.call('session:reopenSaved', { id: tabs[0]!.id });
    const summary = await recorder.status(keys[0]!, 'ready', 'failed');
    expect(summary).toMatchObject({ status: 'ready', title: 'Never started', cwd: dir });
    // Nothing replayed: a fresh session, which takes a turn.
    expect(recorder.text(keys[0]!, 'agent')).toBe('');
    await next.turn(keys[0]!, 'a first prompt at last');
    expect(recorder.text(keys[0]!, 'agent')).not.toBe('');
  });
});
