/**
 * What the broker keeps while a card waits, and lets go of when it ends, through the core and a
 * real scripted agent: the connection's count of waiting cards (its limit), and the
 * `elicitationId` of a URL card, which stays outstanding only while the card does.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import { MAX_PENDING_ELICITATIONS_PER_CONNECTION } from '../../../../main/core/elicitation/limits.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { branchForm as form, signIn } from '../../../helpers/elicitation-requests.js';
import { TEST_TIMEOUTS, useCore, type Recorder } from '../../../helpers/core-harness.js';

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });

const full = `Invalid params: this connection already has ${MAX_PENDING_ELICITATIONS_PER_CONNECTION} elicitations waiting on the user.`;

const withAgent = (scenario: string) =>
  startWith(fixtureSpec(scenario), { options: { openUrl: vi.fn(async () => undefined) } });

type Card = Extract<TranscriptEvent, { type: 'elicitation' | 'url_elicitation' }>;

/**
 * Sends `first`, then `second` once the client has taken in `first` (the scripted agent's
 * batches), as one turn; once the agent has had every answer to `second`, or every request
 * shows a card, declines every card; resolves with what the agent heard, in the order asked.
 * Declining only then keeps each request from finding a place a decline just freed.
 */
async function ask(
  running: AirlockCore,
  recorder: Recorder,
  key: string,
  first: unknown[],
  second: unknown[] = [],
): Promise<unknown[]> {
  const from = recorder.transcript(key).length;
  await running.invoke('session:prompt', {
    key,
    text: JSON.stringify({ batches: [first, second] }),
  });
  const since = () => recorder.transcript(key).slice(from);
  const textOf = (role: 'agent' | 'thought') =>
    since()
      .flatMap((event) => (event.type === 'chunk' && event.role === role ? [event.text] : []))
      .join('');
  const cards = () =>
    since().filter(
      (event): event is Card => event.type === 'elicitation' || event.type === 'url_elicitation',
    );
  await recorder.until(
    () =>
      textOf('thought') === 'batch 2 answered' || cards().length === first.length + second.length,
    `the second batch answered, or a card for each request, in ${key}`,
  );
  for (const card of cards()) {
    await running.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
  }
  await recorder.event(key, 'turn_end', from);
  return JSON.parse(textOf('agent')) as unknown[];
}

const declined = { result: { action: 'decline' } };
const refused = (message: string) => ({
  error: expect.objectContaining({ code: -32602, message }),
});

describe('the count of cards waiting on one connection', () => {
  it('frees a place under the limit as each card ends, across the tabs of the connection', async () => {
    const { core, recorder, key, agentName, ready } = await withAgent('elicit');
    const other = await ready(agentName);
    const limit = MAX_PENDING_ELICITATIONS_PER_CONNECTION;
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify(Array.from({ length: limit }, () => form)),
    });
    await recorder.until(() => recorder.summaries.get(key)?.pendingCards === limit, 'a full tab');
    const first = recorder.transcript(key).filter((event) => event.type === 'elicitation');
    // One place freed: the other tab gets it, and its second card is one too many again.
    await core.invoke('elicitation:respond', {
      key,
      cardKey: (first[0] as Card).cardKey,
      action: 'decline',
    });
    expect(await ask(core, recorder, other, [form], [form])).toEqual([declined, refused(full)]);
    for (const card of first.slice(1)) {
      await core.invoke('elicitation:respond', {
        key,
        cardKey: (card as Card).cardKey,
        action: 'decline',
      });
    }
    await recorder.event(key, 'turn_end');
    // With every card ended, the whole limit is free again.
    const again = await ask(
      core,
      recorder,
      other,
      Array.from({ length: limit - 1 }, () => form),
      [form],
    );
    expect(again).toEqual(Array.from({ length: limit }, () => declined));
  });
});

describe('the elicitationId of a URL card', () => {
  it('quotes the first 100 characters of a duplicate, and is free again once its card is declined', async () => {
    const { core, recorder, key } = await withAgent('elicit');
    const id = `i${'d'.repeat(199)}`;
    expect(await ask(core, recorder, key, [signIn(id)], [signIn(id)])).toEqual([
      declined,
      refused(
        `Invalid params: elicitationId ${JSON.stringify(id.slice(0, 100))} is already outstanding on this connection.`,
      ),
    ]);
    expect(await ask(core, recorder, key, [signIn(id)])).toEqual([declined]);
  });

  it('is free again once the agent has withdrawn its card', async () => {
    const { core, recorder, key } = await withAgent('elicit-raw');
    const create = (id: string) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'elicitation/create', params: signIn('sso') });
    const cancel = (id: string) =>
      JSON.stringify({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: id } });
    // The request and its withdrawal in one write.
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify({ lines: [create('w1'), cancel('w1')], await: ['w1'] }),
    });
    await recorder.event(key, 'turn_end');
    expect(JSON.parse(recorder.text(key))).toEqual({
      responses: [{ jsonrpc: '2.0', id: 'w1', error: expect.objectContaining({ code: -32800 }) }],
    });
    // The same id asked again is a new card, not a duplicate of the withdrawn one.
    const from = recorder.transcript(key).length;
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify({ lines: [create('w2')], await: ['w2'] }),
    });
    const card = await recorder.event(key, 'url_elicitation', from);
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    await recorder.event(key, 'turn_end', from);
    const said = recorder
      .transcript(key)
      .slice(from)
      .flatMap((event) => (event.type === 'chunk' && event.role === 'agent' ? [event.text] : []));
    expect(JSON.parse(said.join(''))).toEqual({
      responses: [{ jsonrpc: '2.0', id: 'w2', result: { action: 'decline' } }],
    });
  });
});
