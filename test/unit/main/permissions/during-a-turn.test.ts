import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../../../helpers/agents.js';
import { answerPermission, useCore } from '../../../helpers/core-harness.js';

// A long grace period: where the agent confirms a cancel, the turn must end by its answer.
const timeouts = { requestMs: 10_000, cancelGraceMs: 20_000 };

const { startWith } = useCore({ timeouts });

/** A ready tab of the fixture agent playing `scenario`. */
const sessionWith = (scenario: string) => startWith(fixtureSpec(scenario));

/** A tab of `scenario` prompted to clean up, and the permission card its turn shows. */
async function cardIn(scenario: string) {
  const started = await sessionWith(scenario);
  await started.core.invoke('session:prompt', { key: started.key, text: 'clean up' });
  const card = await started.recorder.event(started.key, 'permission');
  return { ...started, card };
}

describe('a permission request during a turn', () => {
  it('shows a card with the options and sends the one the user picks', async () => {
    const { core, recorder, key, card } = await cardIn('permission');
    expect(card).toMatchObject({ toolCallId: 'call-1', title: 'Delete build/' });
    // It names who asks, as the agent said when it started: the identity the tab shows.
    expect(card.agent).toEqual(recorder.summaries.get(key)?.agent);
    expect(card.agent).toMatchObject({ configName: 'fixture-permission', protocolVersion: 1 });
    expect(card.options).toEqual([
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ]);
    expect(recorder.summaries.get(key)?.status).toBe('prompting');

    await answerPermission(core, key, card, { outcome: 'selected', optionId: 'no' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.text(key)).toBe('permission: selected no');
    expect(recorder.transcript(key)).toContainEqual({
      type: 'permission_resolved',
      promptKey: card.promptKey,
      outcome: { outcome: 'selected', optionId: 'no' },
    });
    // A card answers once.
    await expect(answerPermission(core, key, card, { outcome: 'cancelled' })).rejects.toThrow(
      'That permission request is no longer pending',
    );
  });

  it('answers cancelled when the user cancels the turn, and the agent ends the turn as cancelled', async () => {
    const { core, recorder, key, card } = await cardIn('permission');

    await core.invoke('session:cancel', { key });
    const resolved = await recorder.event(key, 'permission_resolved');
    expect(resolved).toEqual({
      type: 'permission_resolved',
      promptKey: card.promptKey,
      outcome: { outcome: 'cancelled' },
      ended: 'turn_cancelled',
    });
    // The agent got `cancelled` and confirmed the cancel itself, long before the grace period.
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('cancelled');
    expect(recorder.transcript(key).some((event) => event.type === 'system')).toBe(false);
    expect(recorder.transcript(key)).toContainEqual({
      type: 'tool_call_update',
      toolCallId: 'call-1',
      fields: { status: 'failed' },
    });
    expect((await recorder.status(key, 'ready')).status).toBe('ready');
  });

  it('answers cancelled when the tab is closed', async () => {
    const { core, recorder, key, card } = await cardIn('permission');
    await core.invoke('session:close', { key });
    const resolved = await recorder.event(key, 'permission_resolved');
    expect(resolved.outcome).toEqual({ outcome: 'cancelled' });
    expect(resolved.promptKey).toBe(card.promptKey);
    expect((await recorder.status(key, 'closed')).status).toBe('closed');
  });
});

describe('an agent that withdraws its permission request ($/cancel_request)', () => {
  it('closes the card and answers cancelled', async () => {
    const { core, recorder, key, card } = await cardIn('permission-revoke');
    const resolved = await recorder.event(key, 'permission_resolved');
    expect(resolved).toEqual({
      type: 'permission_resolved',
      promptKey: card.promptKey,
      outcome: { outcome: 'cancelled' },
      ended: 'withdrawn',
    });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.text(key)).toBe('permission: cancelled');
    await expect(
      answerPermission(core, key, card, { outcome: 'selected', optionId: 'yes' }),
    ).rejects.toThrow('no longer pending');
  });

  it('answers cancelled even when the withdrawal arrives with the request', async () => {
    const { core, recorder, key } = await sessionWith('permission-revoke-now');
    await core.invoke('session:prompt', { key, text: 'clean up' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.text(key)).toBe('permission: cancelled');
    // No card is left open.
    const cards = recorder.transcript(key).filter((event) => event.type === 'permission');
    const resolved = recorder
      .transcript(key)
      .filter((event) => event.type === 'permission_resolved');
    expect(resolved).toHaveLength(cards.length);
  });
});
