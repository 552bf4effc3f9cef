/**
 * A turn ends after everything the agent sent before it answered `session/prompt`: the SDK
 * settles the answer before it has handled the updates that arrived with it, so the core waits
 * for those before it appends the turn's end.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });

/** What "N" makes the agent say: "0 " to "N-1 ". */
function counted(count: number): string {
  return Array.from({ length: count }, (_unused, n) => `${n} `).join('');
}

describe('a turn whose last updates arrive with its answer', () => {
  it('ends after all of them, turn after turn', async () => {
    const { core, recorder, key } = await startWith(fixtureSpec('burst-then-answer'));

    for (const count of [1, 50, 500]) {
      const from = recorder.transcript(key).length;
      await core.invoke('session:prompt', { key, text: String(count) });
      await recorder.event(key, 'turn_end', from);
      // Checked as the end arrives: nothing of the turn may come after it.
      const turn = recorder.transcript(key).slice(from);
      expect(turn.at(-1)).toEqual({ type: 'turn_end', stopReason: 'end_turn' });
      expect(turn[0]).toEqual({ type: 'prompt', text: String(count) });
      expect(joined(turn.slice(1, -1))).toBe(counted(count));
    }
  });

  it('ends with its error after all of them', async () => {
    const agent = fixtureSpec('burst-then-answer');
    const { core, recorder, key } = await startWith(agent);

    await core.invoke('session:prompt', { key, text: 'fail 500' });
    const error = await recorder.event(key, 'turn_error');
    expect(error.message).toContain('the burst failed');
    const turn = recorder.transcript(key);
    expect(turn.at(-1)).toBe(error);
    expect(joined(turn.slice(1, -1))).toBe(counted(500));
  });
});

/** The text of a run of agent chunks; fails on any other event. */
function joined(events: TranscriptEvent[]): string {
  return events
    .map((event) => {
      if (event.type !== 'chunk' || event.role !== 'agent') {
        throw new Error(`expected only agent text, got ${JSON.stringify(event)}`);
      }
      return event.text;
    })
    .join('');
}
