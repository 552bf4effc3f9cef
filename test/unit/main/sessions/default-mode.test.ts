import { describe, expect, it } from 'vitest';
import type { SessionSummary, TranscriptEvent } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS, options: { restartCrashed: false } });

/** The text of each system line, in order. */
const systemLines = (events: TranscriptEvent[]) =>
  events.flatMap((event) => (event.type === 'system' ? [event.text] : []));

const optionValue = (summary: SessionSummary | undefined, id: string) =>
  summary?.configOptions.find((option) => option.id === id)?.currentValue;

/** A core whose settings file has the scripted agent with modes and a model, and `defaults`. */
async function withDefaults(defaults: Record<string, string>) {
  const agent = fixtureSpec('restart-choices', 'Choices');
  const run = await start({
    settings: {
      agent_servers: {
        Choices: { type: 'custom', command: agent.command, args: agent.args, ...defaults },
      },
    },
  });
  const key = await run.ready('Choices');
  return { run, key, summary: run.recorder.summaries.get(key) };
}

describe('default_mode and default_model', () => {
  it('set the mode and the model on each new session before it is ready', async () => {
    const { run, key, summary } = await withDefaults({ default_mode: 'plan', default_model: 'b' });
    expect(summary?.currentModeId).toBe('plan');
    expect(optionValue(summary, 'model')).toBe('b');
    expect(systemLines(run.recorder.transcript(key))).toEqual([]);
    await run.turn(key, 'what did you receive?');
    expect(run.recorder.text(key)).toContain(
      'received: [{"sessionId":"scripted-1","modeId":"plan"},{"sessionId":"scripted-1","configId":"model","value":"b"}]',
    );
    // A second tab's new session gets them too.
    const second = await run.ready('Choices');
    expect(run.recorder.summaries.get(second)?.currentModeId).toBe('plan');
  });

  it('say in the tab, by the agent’s own name, when it offers no such mode or model, and leave its defaults', async () => {
    const { run, key, summary } = await withDefaults({
      default_mode: 'review',
      default_model: 'huge',
    });
    expect(summary?.currentModeId).toBe('code');
    expect(optionValue(summary, 'model')).toBe('a');
    expect(systemLines(run.recorder.transcript(key))).toEqual([
      'Scripted Agent has no mode “review”; the session uses its default mode.',
      'Scripted Agent has no model “huge”; the session uses its default model.',
    ]);
    await run.turn(key, 'what did you receive?');
    expect(run.recorder.text(key)).toContain('received: []');
  });

  it('send nothing when the session already has them', async () => {
    const { run, key } = await withDefaults({ default_mode: 'code', default_model: 'Model A' });
    await run.turn(key, 'what did you receive?');
    expect(run.recorder.text(key)).toContain('received: []');
  });
});
