import { describe, expect, it } from 'vitest';
import { replyFor } from '../../../../main/demo-agent/script.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import { useCore } from '../../../helpers/core-harness.js';

const { start } = useCore();

describe('a session with the demo agent', () => {
  it('identifies the agent and streams a reply that ends the turn', async () => {
    const started = await start();
    const { core } = started;
    const key = await started.ready('Demo Agent');
    const summary = started.recorder.summaries.get(key)!;
    expect(summary.agent).toMatchObject({
      title: 'Airlock Demo Agent',
      version: '0.1.0',
      protocolVersion: 1,
    });
    expect(summary.modes.map((mode) => mode.id)).toEqual(['ask', 'code']);
    expect(summary.configOptions).toEqual([
      {
        id: 'style',
        name: 'Reply style',
        category: 'model',
        currentValue: 'plain',
        choices: [
          { value: 'plain', name: 'Plain' },
          { value: 'detailed', name: 'Detailed' },
        ],
      },
      {
        id: 'thinking',
        name: 'Show thinking',
        category: 'thought_level',
        currentValue: true,
        choices: [],
      },
      {
        id: 'ask_at_start',
        name: 'Ask at start',
        category: undefined,
        currentValue: false,
        choices: [],
      },
    ]);

    await core.invoke('session:prompt', { key, text: 'hello there' });
    const end = await started.recorder.event(key, 'turn_end');
    expect(end.stopReason).toBe('end_turn');
    expect(started.recorder.text(key)).toBe(replyFor('hello there'));
    // The turn ends after its last update.
    expect(started.recorder.transcript(key).at(-1)?.type).toBe('turn_end');
    expect(started.recorder.summaries.get(key)?.status).toBe('ready');
    expect(started.recorder.summaries.get(key)?.usage?.used).toBe(1000);
  });

  it('sets its options: a select and a toggle, each changing what it does', async () => {
    const started = await start();
    const { core, recorder } = started;
    const key = await started.ready('Demo Agent');
    const option = (id: string) =>
      recorder.summaries.get(key)?.configOptions.find((candidate) => candidate.id === id);

    await core.invoke('session:setConfigOption', { key, configId: 'style', value: 'detailed' });
    await core.invoke('session:setConfigOption', { key, configId: 'thinking', value: false });
    // The agent's answer updates the session.
    await recorder.until(
      () =>
        option('style')?.currentValue === 'detailed' && option('thinking')?.currentValue === false,
    );

    await core.invoke('session:prompt', { key, text: 'hello there' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toBe(replyFor('hello there', 'detailed'));
    expect(
      recorder.transcript(key).some((event) => event.type === 'chunk' && event.role === 'thought'),
    ).toBe(false);
  });

  it('refuses an option the agent does not offer, a value of the wrong kind, and one the agent rejects', async () => {
    const started = await start();
    const { core } = started;
    const key = await started.ready('Demo Agent');
    const set = (configId: string, value: string | boolean) =>
      core!.invoke('session:setConfigOption', { key, configId, value });

    await expect(set('colour', 'blue')).rejects.toThrow('The agent offers no option "colour"');
    await expect(set('thinking', 'yes')).rejects.toThrow('"Show thinking" takes on or off');
    await expect(set('style', true)).rejects.toThrow('"Reply style" takes one of its choices');
    const rejected = set('style', 'fancy');
    await expect(rejected).rejects.toBeInstanceOf(UserFacingError);
    await expect(rejected).rejects.toThrow('No option style with value fancy');
    // Nothing changed, and the session still works.
    expect(started.recorder.summaries.get(key)?.configOptions[0]?.currentValue).toBe('plain');
    await core.invoke('session:prompt', { key, text: 'still fine' });
    await expect(started.recorder.event(key, 'turn_end')).resolves.toMatchObject({
      stopReason: 'end_turn',
    });
  });
});
