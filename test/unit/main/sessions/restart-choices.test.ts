import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import type { SessionSummary, TranscriptEvent } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore, type CoreRun } from '../../../helpers/core-harness.js';
import { LOST_SESSION } from '../../../../main/core/sessions/start.js';

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start } = useCore({ timeouts: TEST_TIMEOUTS, options: { restartCrashed: false } });

/** The text of each system line, in order. */
const systemLines = (events: TranscriptEvent[]) =>
  events.flatMap((event) => (event.type === 'system' ? [event.text] : []));

const optionValue = (summary: SessionSummary | undefined, id: string) =>
  summary?.configOptions.find((option) => option.id === id)?.currentValue;

/** Starts a core with `agent` and a ready session of it. */
async function readyWith(agent: AgentSpec): Promise<CoreRun & { key: string }> {
  const run = await start({ agents: [agent] });
  return { ...run, key: await run.ready(agent.name) };
}

/** Sends `text`, which ends the agent's process, and waits for the tab to say so. */
async function crash(run: CoreRun, key: string, text = 'crash'): Promise<number> {
  await run.call('session:prompt', { key, text });
  await run.recorder.status(key, 'exited');
  return run.recorder.transcript(key).length;
}

/** Asks the agent what it received, and waits for a turn's end from event `from` on. */
async function askReceived(run: CoreRun, key: string, from = 0): Promise<void> {
  await run.call('session:prompt', { key, text: 'what did you receive?' });
  await run.recorder.event(key, 'turn_end', from);
}

/**
 * Restarts the tab, waits for `status`, then for `lines` events from `before` on (the restart
 * line and what follows it).
 */
async function restartTo(
  run: CoreRun,
  key: string,
  before: number,
  status: SessionSummary['status'],
  lines: number,
): Promise<SessionSummary> {
  await run.call('session:restart', { key });
  const summary = await run.recorder.status(key, status);
  await run.recorder.until(
    () => run.recorder.transcript(key).length >= before + lines,
    'the restart line to be resolved',
  );
  return summary;
}

describe('session:restart', () => {
  it('sets the mode and options the user chose again before the tab is ready', async () => {
    const agent = fixtureSpec('restart-choices');
    const run = await readyWith(agent);
    const { core, recorder, key } = run;
    await run.call('session:setMode', { key, modeId: 'plan' });
    for (const [configId, value] of [
      ['model', 'b'],
      ['effort', 'high'],
      ['verbose', true],
      ['sandbox', false],
    ] as const) {
      await run.call('session:setConfigOption', { key, configId, value });
    }
    await crash(run, key);

    // Every summary from the restart on, to see what the tab showed when it became ready.
    const seen: SessionSummary[] = [];
    core.onEvent((channel, payload) => {
      if (channel === 'session:onDidChange' && (payload as SessionSummary).key === key) {
        seen.push(payload as SessionSummary);
      }
    });
    const before = recorder.transcript(key).length;
    await run.call('session:restart', { key });
    const ready = await recorder.status(key, 'ready');

    // Ready only once the choices are back on the new session.
    const firstReady = seen.find((summary) => summary.status === 'ready');
    expect(firstReady?.currentModeId).toBe('plan');
    expect(optionValue(firstReady, 'verbose')).toBe(true);
    expect(ready.currentModeId).toBe('plan');
    // What the new process no longer offers or refuses stays as it says.
    expect(optionValue(ready, 'model')).toBeUndefined();
    expect(optionValue(ready, 'effort')).toBe('low');
    expect(optionValue(ready, 'sandbox')).toBe(true);

    // One "Restarting…" line that becomes its outcome, and a line for each choice lost.
    const added = recorder.transcript(key).slice(before);
    const line = added[0];
    expect(line).toEqual({
      type: 'system',
      id: expect.stringMatching(/^restart-/),
      text: `Restarting ${agent.name}…`,
    });
    expect(added.slice(1)).toEqual([
      {
        type: 'system',
        text: `Could not set Model back to Model B: ${agent.name} no longer offers this option.`,
      },
      {
        type: 'system',
        text: `Could not set Effort back to High: ${agent.name} no longer offers that value.`,
      },
      {
        type: 'system',
        text: expect.stringMatching(/^Could not set Sandbox back to off: .*The sandbox is locked/),
      },
      {
        type: 'system',
        id: line?.type === 'system' ? line.id : 'missing',
        text: `Restarted ${agent.name} in a new session with your choices: Mode: Plan; Verbose: on. ${LOST_SESSION}`,
      },
    ]);

    // The new process received them.
    await askReceived(run, key, before);
    expect(recorder.text(key)).toContain(
      'received: [{"sessionId":"scripted-1","modeId":"plan"},' +
        '{"sessionId":"scripted-1","configId":"verbose","type":"boolean","value":true},' +
        '{"sessionId":"scripted-1","configId":"sandbox","type":"boolean","value":false}]',
    );
  });

  it('sends nothing for a choice the new session has already', async () => {
    const agent = fixtureSpec('restart-choices');
    const run = await readyWith(agent);
    const { recorder, key } = run;
    // What the agent starts with anyway: its mode, and a toggle's value.
    await run.call('session:setMode', { key, modeId: 'code' });
    await run.call('session:setConfigOption', { key, configId: 'verbose', value: false });
    const before = await crash(run, key);
    await restartTo(run, key, before, 'ready', 2);
    expect(systemLines(recorder.transcript(key).slice(before))).toEqual([
      `Restarting ${agent.name}…`,
      `Restarted ${agent.name} in a new session with your choices: Mode: Code; Verbose: off. ${LOST_SESSION}`,
    ]);
    await askReceived(run, key, before);
    expect(recorder.text(key)).toBe('received: []');
  });

  it('forgets the choices a new process no longer offers, saying so once', async () => {
    const agent = { ...fixtureSpec('restart-choices'), env: { SCRIPTED_LATER_MODES: 'code' } };
    const run = await readyWith(agent);
    const { recorder, key } = run;
    await run.call('session:setMode', { key, modeId: 'plan' });
    await run.call('session:setConfigOption', { key, configId: 'model', value: 'b' });
    // A value the agent takes without listing it is named by itself.
    await run.call('session:setConfigOption', { key, configId: 'effort', value: 'turbo' });
    await run.call('session:setConfigOption', { key, configId: 'verbose', value: true });
    await askReceived(run, key);
    // A choice's value goes as it is, marked boolean only when it is one.
    expect(recorder.text(key)).toContain(
      '{"sessionId":"scripted-1","configId":"model","value":"b"},' +
        '{"sessionId":"scripted-1","configId":"effort","value":"turbo"},' +
        '{"sessionId":"scripted-1","configId":"verbose","type":"boolean","value":true}',
    );
    const restart = async () => {
      const before = await crash(run, key);
      await run.call('session:restart', { key });
      await recorder.status(key, 'ready');
      await recorder.until(
        () =>
          systemLines(recorder.transcript(key).slice(before)).at(-1)?.startsWith('Restarted') ===
          true,
        'the restart line to be resolved',
      );
      return systemLines(recorder.transcript(key).slice(before));
    };
    expect(await restart()).toEqual([
      `Restarting ${agent.name}…`,
      `Could not set Mode back to Plan: ${agent.name} no longer offers it.`,
      `Could not set Model back to Model B: ${agent.name} no longer offers this option.`,
      `Could not set Effort back to turbo: ${agent.name} no longer offers that value.`,
      `Restarted ${agent.name} in a new session with your choices: Verbose: on. ${LOST_SESSION}`,
    ]);
    // The next restart has only what it could set back.
    expect(await restart()).toEqual([
      `Restarting ${agent.name}…`,
      `Restarted ${agent.name} in a new session with your choices: Verbose: on. ${LOST_SESSION}`,
    ]);
  });

  it('sets back what a new process still offers, and says why it refused the rest', async () => {
    const agent = { ...fixtureSpec('restart-choices'), env: { SCRIPTED_LATER_MODES: 'refuse' } };
    const run = await readyWith(agent);
    const { recorder, key } = run;
    await run.call('session:setMode', { key, modeId: 'plan' });
    await run.call('session:setConfigOption', { key, configId: 'effort', value: 'medium' });
    const before = await crash(run, key);
    const ready = await restartTo(run, key, before, 'ready', 3);
    const [, refused, outcome] = systemLines(recorder.transcript(key).slice(before));
    // Within the contract's bound, which the agent's reason is not.
    expect(refused).toHaveLength(10_000);
    expect(refused).toMatch(
      new RegExp(`^Could not set Mode back to Plan: ${agent.name}: Modes are locked\\. x+$`),
    );
    expect(outcome).toBe(
      `Restarted ${agent.name} in a new session with your choices: Effort: Medium. ${LOST_SESSION}`,
    );
    expect(ready.currentModeId).toBe('code');
    expect(optionValue(ready, 'effort')).toBe('medium');
    expect(recorder.dropped).toEqual([]);
    await askReceived(run, key, before);
    expect(recorder.text(key)).toBe(
      'received: [{"sessionId":"scripted-1","modeId":"plan"},' +
        '{"sessionId":"scripted-1","configId":"effort","value":"medium"}]',
    );
  });

  it('says just "Restarted" when the user chose nothing', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const run = await readyWith(agent);
    const { recorder, key } = run;
    const before = await crash(run, key, 'go');
    await restartTo(run, key, before, 'ready', 2);
    expect(
      recorder
        .transcript(key)
        .slice(before)
        .map((event) => event.type === 'system' && event.text),
    ).toEqual([
      `Restarting ${agent.name}…`,
      `Restarted ${agent.name} in a new session. ${LOST_SESSION}`,
    ]);
  });

  it('ends the "Restarting…" line with the error when the agent cannot start again', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const run = await readyWith(agent);
    const { recorder, key } = run;
    await crash(run, key, 'go');
    // The restart reads the settings again: the agent's command is gone now.
    await writeFile(
      run.settingsPath,
      JSON.stringify({
        agent_servers: { [agent.name]: { command: '/nonexistent/agent-binary', args: [] } },
      }),
    );
    const before = recorder.transcript(key).length;
    const failed = await restartTo(run, key, before, 'failed', 2);
    const [restarting, outcome] = recorder.transcript(key).slice(before);
    expect(outcome).toEqual({
      type: 'system',
      id: restarting?.type === 'system' ? restarting.id : 'missing',
      text: `${agent.name} could not restart: ${failed.error}`,
    });
    expect(failed.error).toMatch(/could not be started/);
  });
});
