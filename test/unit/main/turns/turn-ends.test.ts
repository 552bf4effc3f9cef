/**
 * How a turn ends when things happen out of order: a second cancel, an agent that answers a turn
 * the grace period already ended, a permission request after the cancel, a tab closed while its
 * turn runs, a card answered `cancelled` by the user.
 */
import { describe, expect, it } from 'vitest';
import type { ConnectionTimeouts } from '../../../../main/core/agent-connection.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { answerPermission, useCore } from '../../../helpers/core-harness.js';

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start, startWith } = useCore({ options: { restartCrashed: false } });

async function stubbornSession(timeouts: ConnectionTimeouts, env: Record<string, string> = {}) {
  const agent = { ...fixtureSpec('stubborn'), env };
  const started = await startWith(agent, { timeouts });
  const { key } = started;
  return { ...started, agent, key };
}

/** A stubborn agent's tab, prompted with `text` and working on it (its first chunk has come). */
async function working(
  text: string,
  timeouts: ConnectionTimeouts,
  env: Record<string, string> = {},
) {
  const started = await stubbornSession(timeouts, env);
  await started.core.invoke('session:prompt', { key: started.key, text });
  await started.recorder.event(started.key, 'chunk');
  return started;
}

describe('cancelling a turn the agent does not confirm', () => {
  it('sends session/cancel once however often the user cancels, and ignores the late answer', async () => {
    const { core, recorder, key } = await working('go', {
      requestMs: 10_000,
      cancelGraceMs: 300,
    });

    await core.invoke('session:cancel', { key });
    await core.invoke('session:cancel', { key });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('cancelled');
    await recorder.status(key, 'ready');

    // The agent answers the ended turn (as cancelled) just before it takes the next prompt: that
    // answer ends nothing, and the next turn runs to its own end.
    const before = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: 'cancels?' });
    await recorder.event(key, 'turn_end', before + 1);
    expect(recorder.transcript(key)).toEqual([
      { type: 'prompt', text: 'go' },
      { type: 'chunk', role: 'agent', text: 'working on it' },
      { type: 'turn_end', stopReason: 'cancelled' },
      {
        type: 'system',
        text: 'The agent did not confirm the cancel in time; the turn was ended.',
      },
      { type: 'prompt', text: 'cancels?' },
      { type: 'chunk', role: 'agent', text: 'cancels: 1' },
      { type: 'turn_end', stopReason: 'end_turn' },
    ]);
    expect(recorder.summaries.get(key)?.status).toBe('ready');
  });

  it('shows no card for a permission request that comes after the cancel, and answers it cancelled', async () => {
    // The grace period outlasts the test's waits: the agent's own answer must end the turn.
    const { core, recorder, key } = await working('ask', {
      requestMs: 10_000,
      cancelGraceMs: 8_000,
    });

    await core.invoke('session:cancel', { key });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('cancelled');
    expect(recorder.transcript(key)).toEqual([
      { type: 'prompt', text: 'ask' },
      { type: 'chunk', role: 'agent', text: 'working on it' },
      { type: 'chunk', role: 'agent', text: 'permission: {"outcome":{"outcome":"cancelled"}}' },
      { type: 'turn_end', stopReason: 'cancelled' },
    ]);
    expect((await recorder.status(key, 'ready')).pendingCards).toBe(0);
  });
});

describe('a turn whose tab is gone', () => {
  it('ends quietly when its agent exits after the tab was closed', async () => {
    // The grace period is far longer than the agent takes to exit, so the exit ends the closed
    // tab's turn first. A second agent's turn, cancelled later with the same grace period, ends
    // after the closed tab's timer would have: by then anything the closed tab said is seen.
    const agent = fixtureSpec('stubborn');
    const other = fixtureSpec('stubborn', 'fixture-stubborn-too');
    const started = await start({
      agents: [agent, other],
      timeouts: { requestMs: 10_000, cancelGraceMs: 1_500 },
    });
    const { core, recorder, ready } = started;
    const [closed, sibling, witness] = await Promise.all([
      ready(agent.name),
      ready(agent.name),
      ready(other.name),
    ]);
    await core.invoke('session:prompt', { key: closed, text: 'go' });
    await core.invoke('session:prompt', { key: witness, text: 'go' });
    await recorder.event(closed, 'chunk');
    await recorder.event(witness, 'chunk');

    // The process stays up for the other tab; then that tab makes it exit.
    await core.invoke('session:close', { key: closed });
    await core.invoke('session:prompt', { key: sibling, text: 'crash' });
    expect((await recorder.status(sibling, 'exited')).exit?.code).toBe(7);

    await core.invoke('session:cancel', { key: witness });
    await recorder.event(witness, 'system');
    // No error, no "did not confirm the cancel" line: the exit ended the turn without a word.
    expect(recorder.transcript(closed)).toEqual([
      { type: 'prompt', text: 'go' },
      { type: 'chunk', role: 'agent', text: 'working on it' },
    ]);
  });

  it('leaves the tab closed when the grace period ends its turn while Airlock quits', async () => {
    // An agent that outlives SIGTERM (until SIGKILL) and its closed input: the grace period
    // ends the turn of its tab, closed by `dispose`, before the agent is gone.
    const { core, recorder, key } = await working(
      'go',
      { requestMs: 10_000, cancelGraceMs: 300 },
      { SCRIPTED_IGNORE_TERM: '1', SCRIPTED_LINGER: '1' },
    );

    const disposed = core.dispose();
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('cancelled');
    expect(recorder.summaries.get(key)?.status).toBe('closed');
    await disposed;
    // Its agent has gone (SIGKILL); what was queued goes out in the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    // Not reported on the tab it closed.
    expect(recorder.summaries.get(key)?.status).toBe('closed');
  });
});

describe('a permission card when its agent exits', () => {
  it('ends, saying the agent exited', async () => {
    const { core, recorder, key } = await stubbornSession({
      requestMs: 10_000,
      cancelGraceMs: 20_000,
    });
    await core.invoke('session:prompt', { key, text: 'ask, then crash' });
    const card = await recorder.event(key, 'permission');
    expect((await recorder.status(key, 'exited')).pendingCards).toBe(0);
    expect(recorder.transcript(key)).toContainEqual({
      type: 'permission_resolved',
      promptKey: card.promptKey,
      outcome: { outcome: 'cancelled' },
      ended: 'agent_exited',
    });
    expect(recorder.dropped).toEqual([]);
  });
});

describe('the user answering a permission card', () => {
  it('may answer cancelled, which the agent gets', async () => {
    const agent = fixtureSpec('permission');
    const { core, recorder, key } = await startWith(agent, {
      timeouts: { requestMs: 10_000, cancelGraceMs: 20_000 },
    });
    await core.invoke('session:prompt', { key, text: 'clean up' });
    const card = await recorder.event(key, 'permission');

    await answerPermission(core, key, card, { outcome: 'cancelled' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.text(key)).toBe('permission: cancelled');
    expect(recorder.transcript(key)).toContainEqual({
      type: 'permission_resolved',
      promptKey: card.promptKey,
      outcome: { outcome: 'cancelled' },
    });
  });
});
