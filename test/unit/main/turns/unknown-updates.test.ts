/**
 * Updates Airlock does not show. The SDK refuses a variant it does not know before Airlock
 * sees it, but passes the ones it knows that Airlock does not display (compaction, today);
 * those must leave no trace.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { mapUpdate } from '../../../../main/core/updates.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });

/** Variants of the SDK's `SessionUpdate` that Airlock does not display. */
const undisplayed: acp.SessionUpdate[] = [
  {
    sessionUpdate: 'compaction_update',
    compactionId: 'compaction-1',
    status: 'completed',
    summary: [{ type: 'text', text: 'The story so far' }],
  },
  {
    sessionUpdate: 'compaction_summary_chunk',
    compactionId: 'compaction-1',
    content: { type: 'text', text: ', and then some' },
  },
];

describe('mapUpdate', () => {
  it.each(undisplayed)('maps $sessionUpdate to no effect', (update) => {
    expect(mapUpdate(update)).toEqual({ events: [] });
  });
});

describe('an update Airlock does not display, from a real agent', () => {
  it('reaches the core and leaves the transcript and summary as they were', async () => {
    const agent = fixtureSpec('compaction');
    const { core, recorder, key } = await startWith(agent);
    const before = recorder.summaries.get(key);

    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'turn_end');
    // The update between the two pieces of text leaves nothing between them.
    expect(recorder.shown(key)).toEqual([
      { type: 'prompt', text: 'go' },
      { type: 'chunk', role: 'agent', text: 'before after' },
      { type: 'turn_end', stopReason: 'end_turn' },
    ]);
    expect(recorder.summaries.get(key)).toEqual({ ...before, firstPrompt: 'go', status: 'ready' });
    expect(recorder.dropped).toEqual([]);
  });
});
