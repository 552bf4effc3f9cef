import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../../helpers/agents.js';
import { useCore } from '../../helpers/core-harness.js';

const { start } = useCore();

describe('session:setMode', () => {
  it('sends session/set_mode with the mode id and shows the new mode', async () => {
    const agent = fixtureSpec('modes-echo');
    const started = await start({
      agents: [agent],
      timeouts: { requestMs: 10_000, cancelGraceMs: 500 },
    });
    const { core, recorder } = started;
    const key = await started.ready(agent.name);
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
