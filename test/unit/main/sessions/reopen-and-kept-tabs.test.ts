/**
 * The calls the core hands the kept sessions (sessions/service.ts) in its constructor, seen
 * through `session:reopen`: a tab only for an agent in the settings, under a key no other tab
 * has, whichever way the tabs were opened, given the MCP servers of its own agent. And the
 * listener that keeps the kept tabs up to date, which must let a closed tab's summary on to the
 * UI, and hand the kept tabs summaries only (never a transcript append or another event).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import {
  deadline,
  DEFAULT_DEADLINE_MS,
  DEMO,
  readySession,
  useCore,
  type Recorder,
} from '../../../helpers/core-harness.js';

/** The tab's system lines, as the user reads them. */
function systemLines(recorder: Recorder, key: string): string[] {
  return recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));
}

/**
 * Cores with the demo agent. Their waits are long: the agent compiles as it starts, which takes
 * more than the usual 10 s on a loaded machine, and nothing here ends by a timeout.
 */
const { start } = useCore({ deadlineMs: 25_000 });

describe('reopening a session from the history', () => {
  it('is refused for an agent not in the settings, opening no tab', async () => {
    const run = await start();
    const { core } = run;
    // (`toHaveProperty`, not `toThrow`: a rejection with no error at all passes `toThrow`.)
    await expect(
      core.invoke('session:reopen', { agentName: 'Nobody', cwd: run.dir, sessionId: 'x_1' }),
    ).rejects.toHaveProperty('message', 'No agent named "Nobody"');
    // The demo agent is in the settings: only the name that is not refuses.
    expect((await run.call('app:getState', {})).sessions).toEqual([]);
  });

  it('opens a tab under a key of its own, between tabs opened the usual way', async () => {
    const run = await start();
    const first = await run.ready();
    // An id the agent does not know: the tab is opened (and fails to reopen) all the same.
    const { key: reopened } = await run.reopenFailing(DEMO, 'demo_unknown');
    const last = await run.ready();

    expect(new Set([first, reopened, last]).size).toBe(3);
    const { sessions } = await run.call('app:getState', {});
    expect(sessions.map((summary) => summary.key)).toEqual([first, reopened, last]);
  });

  // Two starts of the agent and a turn: longer than the usual limit on a loaded machine.
  it('gives the session the MCP servers as its own agent gets them, not the first agent in the settings', async () => {
    // The demo agent as a user's own, keeping its sessions: listed after the built-in one.
    const kept: AgentSpec = {
      ...demoAgentSpec(),
      name: 'Kept Demo',
      builtIn: false,
      env: { AIRLOCK_DEMO_STATE_DIR: await mkdtemp(join(tmpdir(), 'airlock-kept-demo-')) },
    };
    const run = await start({ agents: [kept] });
    const { core, recorder, dir, settingsPath } = run;
    // An HTTP server, which the demo agent does not advertise: left out, with a line naming it.
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as object;
    await writeFile(
      settingsPath,
      JSON.stringify({
        ...settings,
        context_servers: { docs: { url: 'https://mcp.example/mcp' } },
      }),
    );
    await core.init();
    const key = await readySession(core, recorder, kept.name, dir);
    const from = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: '/title Mine' });
    await recorder.event(key, 'turn_end', from);
    await core.invoke('session:close', { key });
    const listed = await run.call('session:history', {
      agentName: kept.name,
      cwd: dir,
    });
    expect(listed.entries.map((entry) => entry.title)).toEqual(['Mine']);

    const { key: reopened } = await run.call('session:reopen', {
      agentName: kept.name,
      cwd: dir,
      sessionId: listed.entries[0]!.sessionId,
    });
    expect((await recorder.status(reopened, 'ready', 'failed')).status).toBe('ready');
    expect(systemLines(recorder, reopened)).toEqual([
      `MCP server “docs” was not given to Kept Demo: it is reached over HTTP, and Kept Demo does not say it can use HTTP MCP servers.`,
    ]);
  }, 60_000);
});

describe('the listener that keeps the kept tabs up to date', () => {
  it('lets the summary of a tab closed on to the UI, which hears it after the kept tabs', async () => {
    const run = await start();
    const { core, recorder } = run;
    const first = await run.ready();
    const second = await run.ready();
    // Both close in one batch of summaries: the tabs are gone from the core when it goes out.
    await Promise.all([
      core.invoke('session:close', { key: first }),
      core.invoke('session:close', { key: second }),
    ]);
    // No agent to wait on now: the usual limit, so that a summary that never comes fails fast.
    recorder.deadlineMs = DEFAULT_DEADLINE_MS;
    await recorder.status(first, 'closed');
    await recorder.status(second, 'closed');
    expect((await run.call('app:getState', {})).sessions).toEqual([]);
  });
});

describe('the kept tabs, told only of summary changes', () => {
  /** What the config folder keeps of the tabs, as the next start reads it. */
  async function keptTabs(dir: string): Promise<unknown[]> {
    const file = JSON.parse(await readFile(join(dir, 'sessions.json'), 'utf8')) as {
      tabs: unknown[];
    };
    return file.tabs;
  }

  it('keep a tab as its summary says when the app quits while its reply streams', async () => {
    const run = await start();
    const { core, recorder, dir } = run;
    const key = await run.ready();
    await core.invoke('session:prompt', { key, text: '/long 2000' });
    // Text is arriving: the core's last batches hold appends and no change of the summary.
    await recorder.until(() => recorder.text(key).length > 20_000, 'some of the reply');
    await core.dispose();

    expect(await keptTabs(dir)).toEqual([
      {
        agentName: DEMO,
        cwd: dir,
        acpSessionId: expect.stringMatching(/^demo_/),
        // A first prompt that runs a slash command names the tab by the command's description.
        title: 'Stream N kilobytes of text',
        lastActivity: expect.any(Number),
      },
    ]);
  });

  it('keep a change of a tab made just before the app quits, not yet sent on to the UI', async () => {
    const run = await start();
    const { core, dir } = run;
    const key = await run.ready();
    // The rename's change of the summary waits for the end of this macrotask to go out; the
    // quit comes first.
    await core.invoke('session:rename', { key, title: 'Release notes' });
    await core.dispose();

    expect(await keptTabs(dir)).toEqual([
      expect.objectContaining({ agentName: DEMO, userTitle: 'Release notes' }),
    ]);
  });

  it('keep no entry for what is not a tab, such as the agents changing', async () => {
    const run = await start();
    const { core, dir, settingsPath } = run;
    await run.ready();
    // The UI is told the agents changed (one more in the settings); the kept tabs are not.
    const told = new Promise<void>((resolve) => {
      core.onEvent((channel) => {
        if (channel === 'app:onDidChangeAgents') {
          resolve();
        }
      });
    });
    await writeFile(
      settingsPath,
      JSON.stringify({ agent_servers: { Other: { command: 'other-agent' } } }),
    );
    // (The watcher reads it again: `init` would load it without telling.)
    await deadline(told, 'the agents to change');
    await core.dispose();

    expect(await keptTabs(dir)).toEqual([expect.objectContaining({ agentName: DEMO, cwd: dir })]);
  });
});
