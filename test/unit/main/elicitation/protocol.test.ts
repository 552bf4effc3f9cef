/**
 * Form-mode elicitation end to end in the core: a real scripted agent sends raw
 * `elicitation/create` requests over stdio, and every way a card can end is answered.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { clientCapabilities } from '../../../../main/core/agent-connection.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import { answerCheckReady } from '../../../../main/core/elicitation/answer-check.js';
import { MAX_PENDING_ELICITATIONS_PER_CONNECTION } from '../../../../main/core/elicitation/limits.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore, type Recorder } from '../../../helpers/core-harness.js';

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start, startWith } = useCore({
  timeouts: TEST_TIMEOUTS,
  options: { restartCrashed: false },
});

const nameForm = {
  sessionId: '$SESSION',
  mode: 'form',
  message: 'What is your name?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2 },
      age: { type: 'integer', title: 'Age', minimum: 0 },
    },
    required: ['name'],
  },
};

const withAgent = (scenario = 'elicit') => startWith(fixtureSpec(scenario));

/** Sends raw params for `elicitation/create` through the scripted agent's prompt. */
async function ask(running: AirlockCore, key: string, ...params: unknown[]) {
  await running.invoke('session:prompt', { key, text: JSON.stringify(params) });
}

/** The agent's answers, once its turn has ended. */
async function answers(recorder: Recorder, key: string): Promise<unknown[]> {
  await recorder.event(key, 'turn_end');
  return JSON.parse(recorder.text(key)) as unknown[];
}

type Card = Extract<TranscriptEvent, { type: 'elicitation' }>;

describe('what Airlock advertises', () => {
  it('advertises exactly the modes the host honours, and no mode it does not', () => {
    expect(clientCapabilities({ form: true, url: false }).elicitation).toEqual({ form: {} });
    expect(clientCapabilities({ form: true, url: true }).elicitation).toEqual({
      form: {},
      url: {},
    });
    expect(clientCapabilities({ form: false, url: false }).elicitation).toEqual({});
  });
});

describe('a form elicitation in a session', () => {
  it('shows a card with the normalised form and who asks, and sends the accepted answer', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(core, key, nameForm);
    const card = (await recorder.event(key, 'elicitation')) as Card;
    expect(card).toMatchObject({
      scope: 'session',
      message: 'What is your name?',
      mode: 'form',
      agent: { title: 'Scripted Agent', version: '9.9.9' },
    });
    expect(card.form.fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['name', 'string', true],
      ['age', 'integer', false],
    ]);
    expect(recorder.summaries.get(key)?.pendingCards).toBe(1);
    await core.invoke('elicitation:respond', {
      key,
      cardKey: card.cardKey,
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    });
    expect(await answers(recorder, key)).toEqual([
      { result: { action: 'accept', content: { name: 'Ada', age: 36 } } },
    ]);
    expect(recorder.transcript(key)).toContainEqual({
      type: 'elicitation_resolved',
      cardKey: card.cardKey,
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    });
    expect(recorder.summaries.get(key)?.pendingCards).toBe(0);
  });

  it('compiles the answer check while the card waits, not after Accept', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(core, key, nameForm);
    const card = (await recorder.event(key, 'elicitation')) as Card;
    expect(answerCheckReady(card.form)).toBe(false);
    // The broker set its timer before the card went out, so it fires before this one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(answerCheckReady(card.form)).toBe(true);
  });

  it('refuses an answer that fails the schema, sends nothing, and keeps the card open', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(core, key, nameForm);
    const card = (await recorder.event(key, 'elicitation')) as Card;
    await expect(
      core.invoke('elicitation:respond', {
        key,
        cardKey: card.cardKey,
        action: 'accept',
        content: { name: 'A', age: 1.5 },
      }),
    ).rejects.toThrow(/^Nothing was sent\. Name: .*; Age: /);
    await expect(
      core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'accept' }),
    ).rejects.toThrow('Nothing was sent. Name:');
    expect(recorder.transcript(key).some((event) => event.type === 'elicitation_resolved')).toBe(
      false,
    );
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'decline' } }]);
  });

  it('sends cancel when the user dismisses it, and refuses a second answer', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(core, key, nameForm);
    const card = (await recorder.event(key, 'elicitation')) as Card;
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'cancel' });
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'cancel' } }]);
    await expect(
      core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' }),
    ).rejects.toThrow('That request is no longer waiting for an answer');
  });

  it('queues several cards in order, counts them, and answers each', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(
      core,
      key,
      { ...nameForm, message: 'one' },
      { ...nameForm, message: 'two' },
      { ...nameForm, message: 'three' },
    );
    await recorder.until(() => recorder.summaries.get(key)?.pendingCards === 3);
    const cards = recorder
      .transcript(key)
      .filter((event): event is Card => event.type === 'elicitation');
    expect(cards.map((card) => card.message)).toEqual(['one', 'two', 'three']);
    for (const [index, card] of cards.entries()) {
      await core.invoke('elicitation:respond', {
        key,
        cardKey: card.cardKey,
        action: 'accept',
        content: { name: `N${index}` },
      });
    }
    expect(await answers(recorder, key)).toEqual(
      ['N0', 'N1', 'N2'].map((name) => ({ result: { action: 'accept', content: { name } } })),
    );
  });
});

describe('every way a card ends without an answer', () => {
  it('the agent withdraws it: the card closes and the agent gets the cancelled error', async () => {
    const { core, recorder, key } = await withAgent('elicit-withdraw');
    await core.invoke('session:prompt', { key, text: 'go' });
    const card = (await recorder.event(key, 'elicitation')) as Card;
    const resolved = await recorder.event(key, 'elicitation_resolved');
    expect(resolved).toEqual({
      type: 'elicitation_resolved',
      cardKey: card.cardKey,
      action: 'cancel',
      ended: 'withdrawn',
    });
    await recorder.event(key, 'turn_end');
    expect(JSON.parse(recorder.text(key))).toMatchObject({ error: { code: -32800 } });
  });

  it('the user cancels the turn: the card closes and the agent gets cancel', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(core, key, nameForm);
    await recorder.event(key, 'elicitation');
    await core.invoke('session:cancel', { key });
    expect((await recorder.event(key, 'elicitation_resolved')).ended).toBe('turn_cancelled');
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'cancel' } }]);
  });

  it('the agent exits: the card closes and says so, and the tab shows the exit', async () => {
    const { core, recorder, key } = await withAgent('elicit-crash');
    await core.invoke('session:prompt', { key, text: 'go' });
    const card = (await recorder.event(key, 'elicitation')) as Card;
    expect(await recorder.event(key, 'elicitation_resolved')).toEqual({
      type: 'elicitation_resolved',
      cardKey: card.cardKey,
      action: 'cancel',
      ended: 'agent_exited',
    });
    await recorder.status(key, 'exited');
    expect(recorder.summaries.get(key)?.pendingCards).toBe(0);
    await expect(
      core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'cancel' }),
    ).rejects.toThrow('That request is no longer waiting for an answer');
  });

  it('the tab closes: the card closes and says so', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(core, key, nameForm);
    await recorder.event(key, 'elicitation');
    await core.invoke('session:close', { key });
    expect((await recorder.event(key, 'elicitation_resolved')).ended).toBe('tab_closed');
  });
});

describe('requests Airlock refuses with -32602', () => {
  it('names what is wrong with each, and the session goes on', async () => {
    const { core, recorder, key } = await withAgent();
    await ask(
      core,
      key,
      { sessionId: '$SESSION', message: 'no mode', requestedSchema: { type: 'object' } },
      { ...nameForm, mode: 'telepathy' },
      {
        sessionId: '$SESSION',
        mode: 'url',
        message: 'x',
        elicitationId: 'a',
        url: 'javascript:alert(1)',
      },
      { ...nameForm, sessionId: undefined },
      { ...nameForm, requestId: 5 },
      { ...nameForm, sessionId: 'someone-else' },
      { ...nameForm, requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } },
      { ...nameForm, requestId: undefined, sessionId: undefined, message: 5 },
      'not an object',
    );
    const got = (await answers(recorder, key)) as { error?: { code: number; message: string } }[];
    expect(got.map((answer) => answer.error?.code)).toEqual(Array(9).fill(-32602));
    const messages = got.map((answer) => answer.error?.message);
    expect(messages.slice(0, 6)).toEqual([
      'Invalid params: "mode" is required ("form" or "url").',
      'Invalid params: unknown mode "telepathy"; the modes are "form" and "url".',
      'Invalid params: The URL scheme "javascript" cannot be opened; only https can (and http to this computer).',
      'Invalid params: a scope is required: "sessionId" or "requestId".',
      'Invalid params: give either "sessionId" or "requestId", not both.',
      'Invalid params: "someone-else" is not a session on this connection.',
    ]);
    expect(messages[6]).toMatch(/^Invalid params: .*\ba\b/);
    expect(messages[8]).toBe('Invalid params: the params must be an object.');
    expect(recorder.transcript(key).some((event) => event.type === 'elicitation')).toBe(false);
    expect(recorder.summaries.get(key)?.status).toBe('ready');
  });

  it(`holds at most ${MAX_PENDING_ELICITATIONS_PER_CONNECTION} cards per connection`, async () => {
    const { core, recorder, key } = await withAgent();
    const many = Array.from({ length: MAX_PENDING_ELICITATIONS_PER_CONNECTION }, () => nameForm);
    // The one past the limit comes after the client has taken in the others.
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify({ batches: [many, [nameForm]] }),
    });
    await recorder.until(() => recorder.text(key, 'thought') === 'batch 2 answered');
    expect(recorder.summaries.get(key)?.pendingCards).toBe(MAX_PENDING_ELICITATIONS_PER_CONNECTION);
    await core.invoke('session:cancel', { key });
    const got = (await answers(recorder, key)) as { error?: { message: string } }[];
    expect(got.filter((answer) => answer.error)).toEqual([
      {
        error: expect.objectContaining({
          code: -32602,
          message: `Invalid params: this connection already has ${MAX_PENDING_ELICITATIONS_PER_CONNECTION} elicitations waiting on the user.`,
        }),
      },
    ]);
  });
});

describe('a request-scoped elicitation', () => {
  it('shows on the tab whose session/new it is about, and refuses ids that are not Airlock\u2019s', async () => {
    const agent = fixtureSpec('elicit-at-start');
    const started = await start({ agents: [agent] });
    const { core, recorder } = started;
    const { key } = await started.call('session:create', {
      agentName: agent.name,
      cwd: started.dir,
    });
    const card = (await recorder.event(key, 'elicitation')) as Card;
    expect(card.scope).toBe('request');
    expect(recorder.summaries.get(key)?.status).toBe('starting');
    await core.invoke('elicitation:respond', {
      key,
      cardKey: card.cardKey,
      action: 'accept',
      content: { project: 'airlock' },
    });
    await recorder.status(key, 'ready');
    await recorder.until(() => recorder.text(key).length > 0);
    const told = JSON.parse(recorder.text(key)) as {
      stranger: { error: { code: number; message: string } };
      mine: unknown;
    };
    expect(told.stranger.error.code).toBe(-32602);
    expect(told.stranger.error.message).toContain('no request of Airlock');
    expect(told.mine).toEqual({ result: { action: 'accept', content: { project: 'airlock' } } });
  });
});
