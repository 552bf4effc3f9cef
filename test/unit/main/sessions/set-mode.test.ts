import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });

describe('session:setMode', () => {
  it('sends session/set_mode with the mode id and shows the new mode', async () => {
    const agent = fixtureSpec('modes-echo');
    const { core, recorder, key } = await startWith(agent);
    expect(recorder.summaries.get(key)?.currentModeId).toBe('code');

    await core.invoke('session:setMode', { key, modeId: 'plan' });
    await recorder.until(
      () => recorder.summaries.get(key)?.currentModeId === 'plan',
      'the summary to show the mode "plan"',
    );

    // The agent says what it received.
    await core.invoke('session:prompt', { key, text: 'which mode?' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toBe(
      'set_mode received: [{"sessionId":"scripted-1","modeId":"plan"}]',
    );
  });
});

describe('session:setConfigOption', () => {
  it('refuses a value of the wrong kind for the option, sending nothing to the agent', async () => {
    const { core, recorder, key, turn } = await startWith(fixtureSpec('restart-choices'));
    await expect(
      core.invoke('session:setConfigOption', { key, configId: 'verbose', value: 'on' }),
    ).rejects.toThrow('"Verbose" takes on or off');
    await expect(
      core.invoke('session:setConfigOption', { key, configId: 'effort', value: true }),
    ).rejects.toThrow('"Effort" takes one of its choices');
    // The agent says what it received: nothing.
    await turn(key, 'what did you receive?');
    expect(recorder.text(key)).toBe('received: []');
  });
});
