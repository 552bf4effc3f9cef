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

/** A raw `session/request_permission` line offering `options`, for the `elicit-raw` agent. */
function rawRequest(options: { optionId: string; name: string; kind: string }[]): string {
  const line = JSON.stringify({
    jsonrpc: '2.0',
    id: 'perm-1',
    method: 'session/request_permission',
    params: { sessionId: '$SESSION', toolCall: { toolCallId: 'call-1', title: 'Tidy' }, options },
  });
  return JSON.stringify({ lines: [line], await: ['perm-1'] });
}

describe('a permission card the user dismisses (Esc)', () => {
  it('answers its reject choice, ends that card only, and the turn goes on', async () => {
    const { core, recorder, key, card } = await cardIn('permission');
    await answerPermission(core, key, card, { outcome: 'dismissed' });
    expect(await recorder.event(key, 'permission_resolved')).toEqual({
      type: 'permission_resolved',
      promptKey: card.promptKey,
      outcome: { outcome: 'selected', optionId: 'no' },
    });
    // The agent got the reject choice and finished its turn itself: nothing was cancelled.
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.text(key)).toBe('permission: selected no');
    expect(recorder.transcript(key)).toContainEqual({
      type: 'tool_call_update',
      toolCallId: 'call-1',
      fields: { permission: 'rejected' },
    });
    await expect(answerPermission(core, key, card, { outcome: 'dismissed' })).rejects.toThrow(
      'no longer pending',
    );
  });

  it.each([
    {
      offered: 'reject_once before reject_always',
      options: [
        { optionId: 'always-no', name: 'Never', kind: 'reject_always' },
        { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
        { optionId: 'once-no', name: 'Not now', kind: 'reject_once' },
      ],
      sent: { outcome: 'selected', optionId: 'once-no' },
    },
    {
      offered: 'reject_always alone',
      options: [
        { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
        { optionId: 'always-no', name: 'Never', kind: 'reject_always' },
      ],
      sent: { outcome: 'selected', optionId: 'always-no' },
    },
    {
      offered: 'no reject choice',
      options: [
        { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
        { optionId: 'ever', name: 'Always', kind: 'allow_always' },
      ],
      sent: { outcome: 'cancelled' },
    },
  ])(
    'answers the dismissal as the protocol says when it offers $offered',
    async ({ options, sent }) => {
      const { core, recorder, key } = await sessionWith('elicit-raw');
      await core.invoke('session:prompt', { key, text: rawRequest(options) });
      const card = await recorder.event(key, 'permission');
      await answerPermission(core, key, card, { outcome: 'dismissed' });
      expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
      expect(JSON.parse(recorder.text(key))).toEqual({
        responses: [{ jsonrpc: '2.0', id: 'perm-1', result: { outcome: sent } }],
      });
      expect(recorder.summaries.get(key)?.status).toBe('ready');
    },
  );
});
