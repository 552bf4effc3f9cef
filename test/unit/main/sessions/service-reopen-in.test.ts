/**
 * What a reopened tab ends up with, through a real core and the real demo agent: the session's
 * modes and options as `session/load` answers them, a line for each MCP server the agent is not
 * given (as after `session/new`), nothing about resuming; a tab whose agent cannot start says
 * why, and one stopped while its agent starts says only that.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { DEMO, deadline, useCore, type Recorder } from '../../../helpers/core-harness.js';

const { start } = useCore({ bounded: true });

/** The tab's system lines, as the user reads them. */
function systemLines(recorder: Recorder, key: string): string[] {
  return recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));
}

describe('a session reopened with session/load', () => {
  it('gets its modes and options, a line for each MCP server left out, and no word of resuming', async () => {
    const run = await start();
    const { core, recorder, dir } = run;
    // An HTTP server, which the demo agent does not advertise: left out, with a line saying so.
    const settings = JSON.parse(await readFile(run.settingsPath, 'utf8')) as object;
    await writeFile(
      run.settingsPath,
      JSON.stringify({
        ...settings,
        context_servers: { docs: { url: 'https://mcp.example/mcp' } },
      }),
    );
    await deadline(core.init(), 'the core to start');
    const key = await run.ready();
    const note = `MCP server “docs” was not given to ${DEMO}: it is reached over HTTP, and ${DEMO} does not say it can use HTTP MCP servers.`;
    expect(systemLines(recorder, key)).toEqual([note]);
    const from = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: '/title Reopened with its options' });
    await recorder.event(key, 'turn_end', from);
    await recorder.status(key, 'ready');
    const opened = recorder.summaries.get(key)!;
    await core.dispose();

    const next = await run.again();
    const nextRecorder = next.recorder;
    const listed = await next.call('session:history', {
      agentName: DEMO,
      cwd: dir,
    });
    const { key: reopened } = await next.call('session:reopen', {
      agentName: DEMO,
      cwd: dir,
      sessionId: listed.entries[0]!.sessionId,
    });
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
    const run = await start({ agents: [missing] });
    const { summary } = await run.reopenFailing(missing.name, 'kept_1');
    expect(summary.error).toBe(
      'Missing could not be started: /nonexistent/agent-binary does not exist',
    );
  });
});

describe('a reopen stopped while its agent starts', () => {
  it('says it was stopped, not how the start it stopped then failed', async () => {
    // Never answers initialize: the reopen waits on the connection until it is stopped.
    const agent = fixtureSpec('never-answer', 'Never Answers');
    const run = await start({ agents: [agent] });
    const { core, recorder, dir } = run;
    const { key } = await run.call('session:reopen', {
      agentName: agent.name,
      cwd: dir,
      sessionId: 'kept_1',
    });
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
    const run = await start();
    const { core, recorder, dir } = run;
    for (const title of ['/title Stopped', '/title Going on']) {
      const key = await run.ready();
      const from = recorder.transcript(key).length;
      await core.invoke('session:prompt', { key, text: title });
      await recorder.event(key, 'turn_end', from);
    }
    await core.dispose();

    const next = await run.again();
    const nextRecorder = next.recorder;
    const { keys } = await next.call('session:reopenSaved', {});
    await nextRecorder.until(() => keys.every((key) => nextRecorder.summaries.has(key)));
    const titled = (title: string) =>
      keys.find((key) => nextRecorder.summaries.get(key)?.title === title)!;
    const stopped = titled('Stopped');
    const going = titled('Going on');
    // Both wait on one process starting: stopping one leaves it to the other.
    await next.call('session:stopStart', { key: stopped });
    await nextRecorder.status(going, 'ready');
    expect(nextRecorder.summaries.get(stopped)?.status).toBe('failed');

    const listed = await next.call('session:history', {
      agentName: DEMO,
      cwd: dir,
    });
    const stoppedId = listed.entries.find((entry) => entry.title === 'Stopped')!.sessionId;
    await next.call('session:close', { key: stopped });
    // A turn on the other tab after the close: the agent reads its input in order, so a
    // session/close sent before it would be in the log by the turn's end.
    const from = nextRecorder.transcript(going).length;
    await next.call('session:prompt', { key: going, text: 'hello' });
    await nextRecorder.event(going, 'turn_end', from);
    const { text } = await next.call('agent:readLog', { agentName: DEMO });
    expect(text).not.toContain(`session/close ${stoppedId}`);
  });
});
