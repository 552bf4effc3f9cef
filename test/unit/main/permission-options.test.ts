import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../../helpers/agents.js';
import { useCore } from '../../helpers/core-harness.js';

const { start } = useCore();

describe('a permission request with no options', () => {
  it('is answered cancelled at once, without a card, and the transcript says so', async () => {
    const agent = fixtureSpec('permission-no-options');
    const started = await start({
      agents: [agent],
      timeouts: { requestMs: 10_000, cancelGraceMs: 500 },
    });
    const { core, recorder } = started;
    const key = await started.ready(agent.name);

    await core.invoke('session:prompt', { key, text: 'clean up' });
    await recorder.until(
      () =>
        recorder.transcript(key).some((event) => event.type === 'turn_end') ||
        (recorder.summaries.get(key)?.pendingCards ?? 0) > 0,
      'the turn to end or a card to open',
    );
    expect(recorder.transcript(key)).toEqual([
      { type: 'prompt', text: 'clean up' },
      {
        type: 'system',
        text: 'The agent asked for permission without any options; Airlock answered cancelled.',
      },
      { type: 'chunk', role: 'agent', text: 'answer: {"outcome":{"outcome":"cancelled"}}' },
      { type: 'turn_end', stopReason: 'end_turn' },
    ]);
    expect(recorder.summaries.get(key)?.pendingCards).toBe(0);
    expect(recorder.dropped).toEqual([]);
  });
});
