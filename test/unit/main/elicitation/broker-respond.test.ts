/**
 * The broker's smaller promises, through the core and a real scripted agent: a card tied to a
 * tool call names it, a refusal quotes an unknown session or request id only in part, and an
 * answer to a card that is not waiting is refused as such before anything else is checked.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { answerCheckReady } from '../../../../main/core/elicitation/answer-check.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { branchForm as form } from '../../../helpers/elicitation-requests.js';
import { TEST_TIMEOUTS, useCore, type Recorder } from '../../../helpers/core-harness.js';

const { startWith } = useCore({ timeouts: TEST_TIMEOUTS });

const withAgent = () => startWith(fixtureSpec('elicit'));

/** The agent's answers, once its turn has ended. */
async function answers(recorder: Recorder, key: string): Promise<unknown[]> {
  await recorder.event(key, 'turn_end');
  return JSON.parse(recorder.text(key)) as unknown[];
}

type Card = Extract<TranscriptEvent, { type: 'elicitation' }>;
type UrlCard = Extract<TranscriptEvent, { type: 'url_elicitation' }>;

describe('the elicitation broker', () => {
  it('names the tool call a card is about', async () => {
    const { core, recorder, key } = await withAgent();
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify([{ ...form, toolCallId: 'call-7' }]),
    });
    const card = (await recorder.event(key, 'elicitation')) as Card;
    expect(card).toMatchObject({ scope: 'session', toolCallId: 'call-7' });
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'decline' } }]);
  });

  it('quotes the first 100 characters of a session or request id it does not know', async () => {
    const { core, recorder, key } = await withAgent();
    const sessionId = `s${'x'.repeat(199)}`;
    const requestId = `r${'y'.repeat(199)}`;
    const { sessionId: _unused, ...unscoped } = form;
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify([
        { ...form, sessionId },
        { ...unscoped, requestId },
      ]),
    });
    const said = (await answers(recorder, key)) as { error?: { message?: string } }[];
    expect(said.map((answer) => answer.error?.message)).toEqual([
      `Invalid params: "${sessionId.slice(0, 100)}" is not a session on this connection.`,
      `Invalid params: no request of Airlock's on this connection with id ${JSON.stringify(requestId).slice(0, 100)} is waiting for an answer.`,
    ]);
  });

  it("refuses an answer through another tab, before it checks the answer against the card's form", async () => {
    const { core, recorder, key, agentName, ready } = await withAgent();
    const other = await ready(agentName);
    await core.invoke('session:prompt', { key, text: JSON.stringify([form]) });
    const card = (await recorder.event(key, 'elicitation')) as Card;
    // An answer the form would refuse: through the wrong tab, it is not looked at.
    await expect(
      core.invoke('elicitation:respond', {
        key: other,
        cardKey: card.cardKey,
        action: 'accept',
        content: { branch: 7 },
      }),
    ).rejects.toThrow('That request is no longer waiting for an answer');
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'decline' } }]);
  });

  it('takes a decline of a URL card whatever comes with it, and tells the agent only that', async () => {
    const agent = fixtureSpec('elicit');
    const started = await startWith(agent, { options: { openUrl: vi.fn(async () => undefined) } });
    const { core, key } = started;
    const { sessionId, mode, message } = { ...form, mode: 'url', message: 'Please sign in.' };
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify([
        { sessionId, mode, message, elicitationId: 'e-1', url: 'https://github.com/login' },
      ]),
    });
    const card = (await started.recorder.event(key, 'url_elicitation')) as UrlCard;
    // Only an accepted URL card refuses content (the page, not a form, took the answers).
    await core.invoke('elicitation:respond', {
      key,
      cardKey: card.cardKey,
      action: 'decline',
      content: { code: '1234' },
    });
    expect(await answers(started.recorder, key)).toEqual([{ result: { action: 'decline' } }]);
  });

  it('refuses an answer to a card that is not waiting before it reads the answer', async () => {
    const { core, key } = await withAgent();
    await expect(
      core.invoke('elicitation:respond', {
        key,
        cardKey: 'e999',
        action: 'accept',
        content: { branch: 'main' },
      }),
    ).rejects.toThrow('That request is no longer waiting for an answer');
  });

  it('compiles no answer check for a card that ended before its check would have been ready', async () => {
    const { core, recorder, key } = await withAgent();
    await core.invoke('session:prompt', { key, text: JSON.stringify([form]) });
    const card = (await recorder.event(key, 'elicitation')) as Card;
    // Declined before the broker's timer (set before the card went out) fires: by then the
    // card is gone, so the check is never needed and its compile would be wasted work.
    expect(answerCheckReady(card.form)).toBe(false);
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(answerCheckReady(card.form)).toBe(false);
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'decline' } }]);
  });
});
