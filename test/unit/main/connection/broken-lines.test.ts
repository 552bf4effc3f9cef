import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

// Generous: these tests are not about timeouts, and agents start slowly on a busy machine.
// What an exit leaves behind, and the user's Restart: no restart by itself.
const { startWith } = useCore({ timeouts: TEST_TIMEOUTS, options: { restartCrashed: false } });

/** A ready tab of the fixture agent playing `scenario`, after the turn "go" has ended. */
async function afterGo(scenario: string) {
  const started = await startWith(fixtureSpec(scenario));
  await started.core.invoke('session:prompt', { key: started.key, text: 'go' });
  const end = await started.recorder.event(started.key, 'turn_end');
  return { ...started, end };
}

describe('an agent that writes broken lines', () => {
  it('answers each with a protocol error and carries on with the valid messages', async () => {
    const { end, key, ...started } = await afterGo('malformed-lines');
    expect(end.stopReason).toBe('end_turn');
    // Non-JSON lines get -32700, arrays (batches) and non-objects -32600; the stray response and
    // the blank line get nothing. The agent reports what it was answered.
    expect(started.recorder.text(key)).toBe(
      'one two | client answered: -32600,-32600,-32600,-32700,-32700,-32700',
    );
    expect(started.recorder.summaries.get(key)?.status).toBe('ready');
  });
});

describe('an agent that calls methods Airlock does not implement', () => {
  it('gets -32601 for each (and -32602 for bad params) and the turn goes on', async () => {
    const { end, key, core, ...started } = await afterGo('unknown-methods');
    expect(end.stopReason).toBe('end_turn');
    expect(started.recorder.text(key)).toBe(
      'fs/delete_file=-32601 terminal/write=-32601 _x/foo=-32601 session/request_permission(bad)=-32602',
    );
    // Nothing of it reached the transcript as a card.
    expect(started.recorder.transcript(key).some((event) => event.type === 'permission')).toBe(
      false,
    );

    // The connection is still good for another turn.
    const before = started.recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: 'again' });
    expect((await started.recorder.event(key, 'turn_end', before)).stopReason).toBe('end_turn');
  });
});

describe('an agent that sends a message over the size limit', () => {
  it('ends the turn with an error naming the limit, stops the agent, and can be restarted', async () => {
    const agent = fixtureSpec('oversized');
    const started = await startWith(agent, { options: { maxMessageBytes: 64 * 1024 } });
    const { core, key } = started;

    await core.invoke('session:prompt', { key, text: 'go' });
    const exited = await started.recorder.status(key, 'exited');
    expect(started.recorder.text(key)).toBe('before the big one');
    expect(exited.exit?.reason).toContain('sent a message larger than 64 KB');
    const exit = await started.recorder.event(key, 'agent_exit');
    expect(exit.exit.reason).toContain('sent a message larger than 64 KB');

    await core.invoke('session:restart', { key });
    await started.recorder.status(key, 'ready');
  });
});
