import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });

describe('a permission request with no options', () => {
  it('is answered cancelled at once, without a card, and the transcript says so', async () => {
    const agent = fixtureSpec('permission-no-options');
    const { core, recorder, key } = await startWith(agent);

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
