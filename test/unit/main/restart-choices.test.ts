import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary, TranscriptEvent } from '../../../preload/contract.js';
import type { AirlockCore } from '../../../main/core/core.js';
import { fixtureSpec } from '../../helpers/agents.js';
import { readySession, startCore } from '../../helpers/core-harness.js';

const timeouts = { requestMs: 10_000, cancelGraceMs: 500 };

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

/** The text of each system line, in order. */
const systemLines = (events: TranscriptEvent[]) =>
  events.flatMap((event) => (event.type === 'system' ? [event.text] : []));

const optionValue = (summary: SessionSummary | undefined, id: string) =>
  summary?.configOptions.find((option) => option.id === id)?.currentValue;

describe('session:restart', () => {
  it('sets the mode and options the user chose again before the tab is ready', async () => {
    const agent = fixtureSpec('restart-choices');
    const started = await startCore([agent], timeouts);
    core = started.core;
    const { recorder } = started;
    const key = await readySession(core, recorder, agent.name, started.dir);
    await core.invoke('session:setMode', { key, modeId: 'plan' });
    for (const [configId, value] of [
      ['model', 'b'],
      ['effort', 'high'],
      ['verbose', true],
      ['sandbox', false],
    ] as const) {
      await core.invoke('session:setConfigOption', { key, configId, value });
    }
    await core.invoke('session:prompt', { key, text: 'crash' });
    await recorder.status(key, 'exited');

    // Every summary from the restart on, to see what the tab showed when it became ready.
    const seen: SessionSummary[] = [];
    core.onEvent((channel, payload) => {
      if (channel === 'session:onDidChange' && (payload as SessionSummary).key === key) {
        seen.push(payload as SessionSummary);
      }
    });
    const before = recorder.transcript(key).length;
    await core.invoke('session:restart', { key });
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
        text: `Restarted ${agent.name} with your choices: Mode: Plan; Verbose: on.`,
      },
    ]);

    // The new process received them.
    await core.invoke('session:prompt', { key, text: 'what did you receive?' });
    await recorder.event(key, 'turn_end', before);
    expect(recorder.text(key)).toContain(
      'received: [{"sessionId":"scripted-1","modeId":"plan"},' +
        '{"sessionId":"scripted-1","configId":"verbose","type":"boolean","value":true},' +
        '{"sessionId":"scripted-1","configId":"sandbox","type":"boolean","value":false}]',
    );
  });

  it('sends nothing for a choice the new session has already', async () => {
    const agent = fixtureSpec('restart-choices');
    const started = await startCore([agent], timeouts);
    core = started.core;
    const { recorder } = started;
    const key = await readySession(core, recorder, agent.name, started.dir);
    // What the agent starts with anyway: its mode, and a toggle's value.
    await core.invoke('session:setMode', { key, modeId: 'code' });
    await core.invoke('session:setConfigOption', { key, configId: 'verbose', value: false });
    await core.invoke('session:prompt', { key, text: 'crash' });
    await recorder.status(key, 'exited');
    const before = recorder.transcript(key).length;
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    await recorder.until(
      () => recorder.transcript(key).length >= before + 2,
      'the restart line to be resolved',
    );
    expect(systemLines(recorder.transcript(key).slice(before))).toEqual([
      `Restarting ${agent.name}…`,
      `Restarted ${agent.name} with your choices: Mode: Code; Verbose: off.`,
    ]);
    await core.invoke('session:prompt', { key, text: 'what did you receive?' });
    await recorder.event(key, 'turn_end', before);
    expect(recorder.text(key)).toBe('received: []');
  });

  it('forgets the choices a new process no longer offers, saying so once', async () => {
    const agent = { ...fixtureSpec('restart-choices'), env: { SCRIPTED_LATER_MODES: 'code' } };
    const started = await startCore([agent], timeouts);
    core = started.core;
    const { recorder } = started;
    const key = await readySession(core, recorder, agent.name, started.dir);
    await core.invoke('session:setMode', { key, modeId: 'plan' });
    await core.invoke('session:setConfigOption', { key, configId: 'model', value: 'b' });
    // A value the agent takes without listing it is named by itself.
    await core.invoke('session:setConfigOption', { key, configId: 'effort', value: 'turbo' });
    await core.invoke('session:setConfigOption', { key, configId: 'verbose', value: true });
    await core.invoke('session:prompt', { key, text: 'what did you receive?' });
    await recorder.event(key, 'turn_end');
    // A choice's value goes as it is, marked boolean only when it is one.
    expect(recorder.text(key)).toContain(
      '{"sessionId":"scripted-1","configId":"model","value":"b"},' +
        '{"sessionId":"scripted-1","configId":"effort","value":"turbo"},' +
        '{"sessionId":"scripted-1","configId":"verbose","type":"boolean","value":true}',
    );
    const restart = async () => {
      await core!.invoke('session:prompt', { key, text: 'crash' });
      await recorder.status(key, 'exited');
      const before = recorder.transcript(key).length;
      await core!.invoke('session:restart', { key });
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
      `Restarted ${agent.name} with your choices: Verbose: on.`,
    ]);
    // The next restart has only what it could set back.
    expect(await restart()).toEqual([
      `Restarting ${agent.name}…`,
      `Restarted ${agent.name} with your choices: Verbose: on.`,
    ]);
  });

  it('sets back what a new process still offers, and says why it refused the rest', async () => {
    const agent = { ...fixtureSpec('restart-choices'), env: { SCRIPTED_LATER_MODES: 'refuse' } };
    const started = await startCore([agent], timeouts);
    core = started.core;
    const { recorder } = started;
    const key = await readySession(core, recorder, agent.name, started.dir);
    await core.invoke('session:setMode', { key, modeId: 'plan' });
    await core.invoke('session:setConfigOption', { key, configId: 'effort', value: 'medium' });
    await core.invoke('session:prompt', { key, text: 'crash' });
    await recorder.status(key, 'exited');
    const before = recorder.transcript(key).length;
    await core.invoke('session:restart', { key });
    const ready = await recorder.status(key, 'ready');
    await recorder.until(
      () => recorder.transcript(key).length >= before + 3,
      'the restart line to be resolved',
    );
    const [, refused, outcome] = systemLines(recorder.transcript(key).slice(before));
    // Within the contract's bound, which the agent's reason is not.
    expect(refused).toHaveLength(10_000);
    expect(refused).toMatch(
      new RegExp(`^Could not set Mode back to Plan: ${agent.name}: Modes are locked\\. x+$`),
    );
    expect(outcome).toBe(`Restarted ${agent.name} with your choices: Effort: Medium.`);
    expect(ready.currentModeId).toBe('code');
    expect(optionValue(ready, 'effort')).toBe('medium');
    expect(recorder.dropped).toEqual([]);
    await core.invoke('session:prompt', { key, text: 'what did you receive?' });
    await recorder.event(key, 'turn_end', before);
    expect(recorder.text(key)).toBe(
      'received: [{"sessionId":"scripted-1","modeId":"plan"},' +
        '{"sessionId":"scripted-1","configId":"effort","value":"medium"}]',
    );
  });

  it('says just "Restarted" when the user chose nothing', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const started = await startCore([agent], timeouts);
    core = started.core;
    const { recorder } = started;
    const key = await readySession(core, recorder, agent.name, started.dir);
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.status(key, 'exited');
    const before = recorder.transcript(key).length;
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'ready');
    await recorder.until(
      () => recorder.transcript(key).length >= before + 2,
      'the restart line to be resolved',
    );
    expect(
      recorder
        .transcript(key)
        .slice(before)
        .map((event) => event.type === 'system' && event.text),
    ).toEqual([`Restarting ${agent.name}…`, `Restarted ${agent.name}.`]);
  });

  it('ends the "Restarting…" line with the error when the agent cannot start again', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const started = await startCore([agent], timeouts);
    core = started.core;
    const { recorder } = started;
    const key = await readySession(core, recorder, agent.name, started.dir);
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.status(key, 'exited');
    // The restart reads the settings again: the agent's command is gone now.
    await writeFile(
      started.settingsPath,
      JSON.stringify({
        agent_servers: { [agent.name]: { command: '/nonexistent/agent-binary', args: [] } },
      }),
    );
    const before = recorder.transcript(key).length;
    await core.invoke('session:restart', { key });
    const failed = await recorder.status(key, 'failed');
    await recorder.until(
      () => recorder.transcript(key).length >= before + 2,
      'the restart line to be resolved',
    );
    const [restarting, outcome] = recorder.transcript(key).slice(before);
    expect(outcome).toEqual({
      type: 'system',
      id: restarting?.type === 'system' ? restarting.id : 'missing',
      text: `${agent.name} could not restart: ${failed.error}`,
    });
    expect(failed.error).toMatch(/could not be started/);
  });
});
