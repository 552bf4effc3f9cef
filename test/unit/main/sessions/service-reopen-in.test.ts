/**
 * What a reopened tab ends up with, through a real core and the real demo agent: the session's
 * modes and options as `session/load` answers them, a line for each MCP server the agent is not
 * given (as after `session/new`), nothing about resuming; a tab whose agent cannot start says
 * why, and one stopped while its agent starts says only that.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/settings/catalog.js';
import type { HistoryView } from '../../../../preload/lasting-sessions.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import { demoAgentSpec, fixtureSpec } from '../../../helpers/agents.js';
import {
  boundedCore,
  deadline,
  readySession,
  Recorder,
  startCore,
} from '../../../helpers/core-harness.js';

const DEMO = demoAgentSpec().name;

const cores: AirlockCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});

async function started(extra: AgentSpec[] = []) {
  const run = await startCore(extra);
  cores.push(boundedCore(run.core));
  return run;
}

/** The tab's system lines, as the user reads them. */
function systemLines(recorder: Recorder, key: string): string[] {
  return recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));
}

describe('a session reopened with session/load', () => {
  it('gets its modes and options, a line for each MCP server left out, and no word of resuming', async () => {
    const { core, recorder, dir, settingsPath } = await started();
    // An HTTP server, which the demo agent does not advertise: left out, with a line saying so.
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as object;
    await writeFile(
      settingsPath,
      JSON.stringify({
        ...settings,
        context_servers: { docs: { url: 'https://mcp.example/mcp' } },
      }),
    );
    await deadline(core.init(), 'the core to start');
    const key = await readySession(core, recorder, DEMO, dir);
    const note = `MCP server “docs” was not given to ${DEMO}: it is reached over HTTP, and ${DEMO} does not advertise HTTP MCP servers (mcpCapabilities.http).`;
    expect(systemLines(recorder, key)).toEqual([note]);
    const from = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: '/title Reopened with its options' });
    await recorder.event(key, 'turn_end', from);
    await recorder.status(key, 'ready');
    const opened = recorder.summaries.get(key)!;
    await core.dispose();

    const next = new AirlockCore({
      settingsPath,
      logsDir: join(dir, 'logs'),
      demoAgent: demoAgentSpec(),
      defaultCwd: dir,
    });
    await deadline(next.init(), 'the core to start');
    cores.push(boundedCore(next));
    const nextRecorder = new Recorder(next);
    const listed = (await next.invoke('session:history', {
      agentName: DEMO,
      cwd: dir,
    })) as HistoryView;
    const { key: reopened } = (await next.invoke('session:reopen', {
      agentName: DEMO,
      cwd: dir,
      sessionId: listed.entries[0]!.sessionId,
    })) as { key: string };
    const summary = await nextRecorder.status(reopened, 'ready', 'failed');
    expect(summary.status).toBe('ready');
    expect(summary.modes.map((mode) => mode.id)).toEqual(['ask', 'code']);
    expect(summary.currentModeId).toBe('code');
    expect(summary.configOptions).toEqual(opened.configOptions);
    expect(summary.configOptions.map((option) => option.id)).toEqual([
      'style',
      'thinking',
      'ask_at_start',
    ]);
    expect(systemLines(nextRecorder, reopened)).toEqual([note]);
  });
});

describe('a session reopened where its agent cannot start', () => {
  it('fails the tab with the reason', async () => {
    const missing: AgentSpec = {
      name: 'Missing',
      command: join('/nonexistent', 'agent-binary'),
      args: [],
      env: {},
      builtIn: false,
    };
    const { core, recorder, dir } = await started([missing]);
    const { key } = (await core.invoke('session:reopen', {
      agentName: missing.name,
      cwd: dir,
      sessionId: 'kept_1',
    })) as { key: string };
    const summary = await recorder.status(key, 'failed');
    expect(summary.error).toBe(
      'Missing could not be started: /nonexistent/agent-binary does not exist',
    );
  });
});

describe('a reopen stopped while its agent starts', () => {
  it('says it was stopped, not how the start it stopped then failed', async () => {
    // Never answers initialize: the reopen waits on the connection until it is stopped.
    const agent = fixtureSpec('never-answer', 'Never Answers');
    const { core, recorder, dir } = await started([agent]);
    const { key } = (await core.invoke('session:reopen', {
      agentName: agent.name,
      cwd: dir,
      sessionId: 'kept_1',
    })) as { key: string };
    await recorder.status(key, 'starting');
    await core.invoke('session:stopStart', { key });
    // The stopped start fails once the process has gone: the log's last line says so first.
    await agentLogContains(core, agent.name, 'was stopped by SIGTERM');
    expect(recorder.summaries.get(key)).toMatchObject({
      status: 'failed',
      error: 'You stopped Never Answers while it was starting.',
    });
  });
});

describe('one of two reopens stopped while their agent starts', () => {
  it('leaves that tab with no session to close when the start goes on for the other', async () => {
    const { core, recorder, dir, settingsPath } = await started();
    for (const title of ['/title Stopped', '/title Going on']) {
      const key = await readySession(core, recorder, DEMO, dir);
      const from = recorder.transcript(key).length;
      await core.invoke('session:prompt', { key, text: title });
      await recorder.event(key, 'turn_end', from);
    }
    await core.dispose();

    const next = new AirlockCore({
      settingsPath,
      logsDir: join(dir, 'logs'),
      demoAgent: demoAgentSpec(),
      defaultCwd: dir,
    });
    await deadline(next.init(), 'the core to start');
    cores.push(boundedCore(next));
    const nextRecorder = new Recorder(next);
    const { keys } = (await next.invoke('session:reopenSaved', {})) as { keys: string[] };
    await nextRecorder.until(() => keys.every((key) => nextRecorder.summaries.has(key)));
    const titled = (title: string) =>
      keys.find((key) => nextRecorder.summaries.get(key)?.title === title)!;
    const stopped = titled('Stopped');
    const going = titled('Going on');
    // Both wait on one process starting: stopping one leaves it to the other.
    await next.invoke('session:stopStart', { key: stopped });
    await nextRecorder.status(going, 'ready');
    expect(nextRecorder.summaries.get(stopped)?.status).toBe('failed');

    const listed = (await next.invoke('session:history', {
      agentName: DEMO,
      cwd: dir,
    })) as HistoryView;
    const stoppedId = listed.entries.find((entry) => entry.title === 'Stopped')!.sessionId;
    await next.invoke('session:close', { key: stopped });
    // A turn on the other tab after the close: the agent reads its input in order, so a
    // session/close sent before it would be in the log by the turn's end.
    const from = nextRecorder.transcript(going).length;
    await next.invoke('session:prompt', { key: going, text: 'hello' });
    await nextRecorder.event(going, 'turn_end', from);
    const { text } = (await next.invoke('agent:readLog', { agentName: DEMO })) as { text: string };
    expect(text).not.toContain(`session/close ${stoppedId}`);
  });
});
