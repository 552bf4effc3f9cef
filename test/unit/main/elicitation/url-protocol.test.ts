/**
 * URL-mode elicitation in the core: a real scripted agent sends raw requests and completions;
 * the host's opener is recorded. The agent only ever learns the action.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import type { CoreOptions } from '../../../../main/core/options.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { signIn } from '../../../helpers/elicitation-requests.js';
import { TEST_TIMEOUTS, useCore, type Recorder } from '../../../helpers/core-harness.js';

const { start, startWith } = useCore({ timeouts: TEST_TIMEOUTS });

type UrlCard = Extract<TranscriptEvent, { type: 'url_elicitation' }>;

const withAgent = (scenario: string, options: Partial<CoreOptions> = {}, settings = {}) =>
  startWith(fixtureSpec(scenario), { options, settings });

async function answers(recorder: Recorder, key: string): Promise<unknown[]> {
  await recorder.event(key, 'turn_end');
  return JSON.parse(recorder.text(key)) as unknown[];
}

describe('a URL elicitation on the desktop host', () => {
  it('shows the analysed URL, opens it only on consent, and tells the agent only "accept"', async () => {
    const openUrl = vi.fn(async () => undefined);
    const { core, recorder, key } = await withAgent('elicit', { openUrl });
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify([signIn('gh-1', 'https://GitHub.com/login/oauth/authorize?x=1')]),
    });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    expect(card.url).toMatchObject({
      href: 'https://github.com/login/oauth/authorize?x=1',
      normalised: true,
      registrableDomain: 'github.com',
    });
    // Nothing is opened, or fetched, before consent; no page to be done with yet.
    expect(openUrl).not.toHaveBeenCalled();
    await expect(
      core.invoke('elicitation:finishUrl', { key, cardKey: card.cardKey, how: 'done' }),
    ).rejects.toThrow('That page is no longer waiting');
    await core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' });
    expect(openUrl).toHaveBeenCalledWith('https://github.com/login/oauth/authorize?x=1', 'window');
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'accept' } }]);
    // The card waits for the page; "Open again" opens the same URL, and no second answer goes.
    await core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'browser' });
    expect(openUrl).toHaveBeenLastCalledWith(
      'https://github.com/login/oauth/authorize?x=1',
      'browser',
    );
    await core.invoke('elicitation:finishUrl', { key, cardKey: card.cardKey, how: 'done' });
    expect(await recorder.event(key, 'url_elicitation_done')).toEqual({
      type: 'url_elicitation_done',
      cardKey: card.cardKey,
      how: 'done',
    });
    await expect(
      core.invoke('elicitation:finishUrl', { key, cardKey: card.cardKey, how: 'done' }),
    ).rejects.toThrow('That page is no longer waiting');
    await expect(
      core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' }),
    ).rejects.toThrow('That request is no longer waiting for an answer');
    expect(openUrl).toHaveBeenCalledTimes(2);
  });

  it('keeps the card when the host cannot open the URL, and says why', async () => {
    const openUrl = vi.fn(async () => {
      throw new (await import('../../../../main/core/errors.js')).UserFacingError(
        'The isolated window needs the sandbox',
      );
    });
    const { core, recorder, key } = await withAgent('elicit', { openUrl });
    await core.invoke('session:prompt', { key, text: JSON.stringify([signIn('gh-1')]) });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    await expect(
      core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' }),
    ).rejects.toThrow('The isolated window needs the sandbox');
    expect(recorder.summaries.get(key)?.pendingCards).toBe(1);
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'decline' } }]);
  });

  it('opens the URL of a tab closed meanwhile without an error, and answers nothing more', async () => {
    let close: () => Promise<unknown> = async () => undefined;
    const openUrl = vi.fn(async () => void (await close()));
    const { core, recorder, key } = await withAgent('elicit', { openUrl });
    close = () => core.invoke('session:close', { key });
    await core.invoke('session:prompt', { key, text: JSON.stringify([signIn('gone-1')]) });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    await core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' });
    expect(openUrl).toHaveBeenCalledTimes(1);
    expect(await recorder.event(key, 'elicitation_resolved')).toMatchObject({ action: 'cancel' });
  });

  it('refuses a duplicate outstanding id and keeps the first; refuses URLs it will not open', async () => {
    const openUrl = vi.fn(async () => undefined);
    const { core, recorder, key } = await withAgent('elicit', { openUrl });
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify({
        batches: [
          [signIn('dup')],
          [
            signIn('dup', 'https://example.com/'),
            signIn('js', 'javascript:alert(1)'),
            signIn('file', 'file:///etc/passwd'),
            signIn('plain', 'http://evil.example/'),
            signIn('data', 'data:text/html,<h1>hi</h1>'),
          ],
        ],
      }),
    });
    await recorder.until(() => recorder.text(key, 'thought') === 'batch 2 answered');
    const cards = recorder
      .transcript(key)
      .filter((event): event is UrlCard => event.type === 'url_elicitation');
    expect(cards).toHaveLength(1);
    await core.invoke('elicitation:respond', { key, cardKey: cards[0]!.cardKey, action: 'cancel' });
    const got = (await answers(recorder, key)) as {
      result?: unknown;
      error?: { code: number; message: string };
    }[];
    expect(got[0]).toEqual({ result: { action: 'cancel' } });
    expect(got.slice(1).map((answer) => answer.error?.code)).toEqual(Array(5).fill(-32602));
    expect(got[1]?.error?.message).toBe(
      'Invalid params: elicitationId "dup" is already outstanding on this connection.',
    );
    expect(openUrl).not.toHaveBeenCalled();
  });

  it('ends the wait on elicitation/complete for its id, ignoring unknown and repeated ids', async () => {
    const openUrl = vi.fn(async () => undefined);
    const { core, recorder, key } = await withAgent('url-flow', { openUrl });
    await core.invoke('session:prompt', { key, text: 'https://auth.example.com/consent' });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    await core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' });
    await recorder.event(key, 'turn_end');
    expect(JSON.parse(recorder.text(key))).toEqual({ result: { action: 'accept' } });
    const done = recorder.transcript(key).filter((event) => event.type === 'url_elicitation_done');
    expect(done).toEqual([
      { type: 'url_elicitation_done', cardKey: card.cardKey, how: 'completed' },
    ]);
    expect(recorder.summaries.get(key)?.status).toBe('ready');
  });

  it('ends the wait when the agent exits', async () => {
    const openUrl = vi.fn(async () => undefined);
    const { core, recorder, key } = await withAgent('url-flow', { openUrl });
    await core.invoke('session:prompt', { key, text: 'https://auth.example.com/consent exit' });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    await core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'browser' });
    expect(await recorder.event(key, 'url_elicitation_done')).toEqual({
      type: 'url_elicitation_done',
      cardKey: card.cardKey,
      how: 'agent_exited',
    });
  });
});

describe('URL elicitations of two agents', () => {
  it('keep ids per connection: the same id on two agents, and each completion ends only its own', async () => {
    const openUrl = vi.fn(async () => undefined);
    const first = fixtureSpec('url-flow', 'agent-one');
    const second = fixtureSpec('url-flow', 'agent-two');
    const started = await start({ agents: [first, second], options: { openUrl } });
    const { core, recorder } = started;
    const one = await started.ready(first.name);
    const two = await started.ready(second.name);
    // Both agents use the id "flow-1": allowed, since ids are unique per connection.
    await core.invoke('session:prompt', { key: one, text: 'https://one.example.com/' });
    await core.invoke('session:prompt', { key: two, text: 'https://two.example.com/' });
    const cardOne = (await recorder.event(one, 'url_elicitation')) as UrlCard;
    const cardTwo = (await recorder.event(two, 'url_elicitation')) as UrlCard;
    await core.invoke('elicitation:openUrl', {
      key: one,
      cardKey: cardOne.cardKey,
      where: 'window',
    });
    // Agent one completes "flow-1": its own card ends; agent two's card, same id, waits on.
    expect(await recorder.event(one, 'url_elicitation_done')).toMatchObject({ how: 'completed' });
    await recorder.event(one, 'turn_end');
    expect(recorder.summaries.get(two)?.pendingCards).toBe(1);
    expect(recorder.transcript(two).some((event) => event.type === 'url_elicitation_done')).toBe(
      false,
    );
    await core.invoke('elicitation:respond', {
      key: two,
      cardKey: cardTwo.cardKey,
      action: 'decline',
    });
    await recorder.event(two, 'turn_end');
  });
});

describe('the domains the user listed for an agent (url_domains)', () => {
  it('warn on a URL card of that agent leading elsewhere, and only on its cards', async () => {
    const openUrl = vi.fn(async () => undefined);
    const listed = {
      ...fixtureSpec('url-flow', 'listed'),
      urlDomains: ['openai.com', 'https://chatgpt.com/'],
    };
    const unlisted = fixtureSpec('url-flow', 'unlisted');
    const started = await start({ agents: [listed, unlisted], options: { openUrl } });
    const { core, recorder } = started;
    const one = await started.ready(listed.name);
    const two = await started.ready(unlisted.name);
    await core.invoke('session:prompt', { key: one, text: 'https://auth.example.com/consent' });
    await core.invoke('session:prompt', { key: two, text: 'https://auth.example.com/consent' });
    const listedCard = (await recorder.event(one, 'url_elicitation')) as UrlCard;
    const unlistedCard = (await recorder.event(two, 'url_elicitation')) as UrlCard;
    expect(listedCard.url.warnings).toEqual([
      {
        code: 'domain-mismatch',
        level: 'danger',
        message:
          'The URL leads to example.com, not to openai.com or chatgpt.com, the domains set for this agent.',
      },
    ]);
    expect(unlistedCard.url.warnings).toEqual([]);
    for (const [key, card] of [
      [one, listedCard],
      [two, unlistedCard],
    ] as const) {
      await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
      await recorder.event(key, 'turn_end');
    }
    // A URL on one of the listed domains, a subdomain here, carries no warning.
    const from = recorder.transcript(one).length;
    await core.invoke('session:prompt', { key: one, text: 'https://auth.openai.com/authorize' });
    const onList = (await recorder.event(one, 'url_elicitation', from)) as UrlCard;
    expect(onList.url.registrableDomain).toBe('openai.com');
    expect(onList.url.warnings).toEqual([]);
    await core.invoke('elicitation:respond', {
      key: one,
      cardKey: onList.cardKey,
      action: 'cancel',
    });
    await recorder.event(one, 'turn_end', from);
  });
});

describe('a URL elicitation on the web host', () => {
  it('takes the page\u2019s consent as accept, with no content, and opens nothing itself', async () => {
    const { core, recorder, key, call } = await withAgent('elicit');
    const state = await call('app:getState', {});
    expect(state.urlElicitation).toEqual({ default: 'isolated_window', opener: 'page' });
    await core.invoke('session:prompt', { key, text: JSON.stringify([signIn('w-1')]) });
    const card = (await recorder.event(key, 'url_elicitation')) as UrlCard;
    await expect(
      core.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' }),
    ).rejects.toThrow('This host opens URLs from the page');
    await expect(
      core.invoke('elicitation:respond', {
        key,
        cardKey: card.cardKey,
        action: 'accept',
        content: { token: 'x' },
      }),
    ).rejects.toThrow('A URL request takes no answers');
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'accept' });
    expect(await answers(recorder, key)).toEqual([{ result: { action: 'accept' } }]);
    await core.invoke('session:close', { key });
    expect(await recorder.event(key, 'url_elicitation_done')).toEqual({
      type: 'url_elicitation_done',
      cardKey: card.cardKey,
      how: 'tab_closed',
    });
  });
});

describe('URL mode turned off in the settings', () => {
  it('is not advertised, and a URL request is -32602', async () => {
    const { core, recorder, key, call } = await withAgent('elicit', {}, { url_elicitation: 'off' });
    const state = await call('app:getState', {});
    expect(state.urlElicitation.default).toBe('off');
    await core.invoke('session:prompt', { key, text: JSON.stringify([signIn('off-1')]) });
    expect(await answers(recorder, key)).toEqual([
      {
        error: expect.objectContaining({
          code: -32602,
          message: 'Invalid params: Airlock did not advertise url mode on this connection.',
        }),
      },
    ]);
  });
});

describe('elicitation/complete before the user consented', () => {
  it('closes only that card, answers it "cancel", and opens nothing', async () => {
    const openUrl = vi.fn(async () => undefined);
    const { core, recorder, key } = await withAgent('elicit-raw', { openUrl });
    const create = (id: string, elicitationId: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'elicitation/create',
        params: { ...signIn(elicitationId), sessionId: '$SESSION' },
      });
    const completing = (params?: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', method: 'elicitation/complete', params });
    const complete = completing({ elicitationId: 'early' });
    // Completions without params, or of no outstanding id, are ignored quietly (the SDK logs a
    // throw from a notification handler as "Error handling notification").
    const odd = [completing(), completing(null), completing({ elicitationId: 'nobody' })];
    const logged = vi.spyOn(console, 'error');
    // Two outstanding on one connection; "early" is completed (twice) before any consent.
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify({
        lines: [create('u1', 'other'), create('u2', 'early'), ...odd, complete, complete],
        await: ['u1', 'u2'],
      }),
    });
    const done = await recorder.event(key, 'url_elicitation_done');
    const cards = recorder
      .transcript(key)
      .filter((event): event is UrlCard => event.type === 'url_elicitation');
    expect(cards).toHaveLength(2);
    const [other, early] = cards as [UrlCard, UrlCard];
    expect(done).toEqual({
      type: 'url_elicitation_done',
      cardKey: early.cardKey,
      how: 'completed',
    });
    // The other card waits on for the user: nothing ended it.
    expect(recorder.summaries.get(key)?.pendingCards).toBe(1);
    await expect(
      core.invoke('elicitation:openUrl', { key, cardKey: early.cardKey, where: 'window' }),
    ).rejects.toThrow('That request is no longer waiting for an answer');
    await core.invoke('elicitation:respond', { key, cardKey: other.cardKey, action: 'decline' });
    await recorder.event(key, 'turn_end');
    const said = JSON.parse(recorder.text(key)) as { responses: { id: string }[] };
    expect(said.responses.toSorted((a, b) => a.id.localeCompare(b.id))).toEqual([
      { jsonrpc: '2.0', id: 'u1', result: { action: 'decline' } },
      { jsonrpc: '2.0', id: 'u2', result: { action: 'cancel' } },
    ]);
    expect(
      recorder.transcript(key).filter((event) => event.type === 'url_elicitation_done'),
    ).toEqual([done]);
    expect(recorder.transcript(key)).toContainEqual({
      type: 'elicitation_resolved',
      cardKey: early.cardKey,
      action: 'cancel',
    });
    expect(openUrl).not.toHaveBeenCalled();
    expect(logged).not.toHaveBeenCalledWith('Error handling notification', expect.anything());
    logged.mockRestore();
  });
});

describe('the end of the waits of an agent or a tab', () => {
  async function twoAgents() {
    const openUrl = vi.fn(async () => undefined);
    const first = fixtureSpec('url-flow', 'agent-exits');
    const second = fixtureSpec('elicit', 'agent-stays');
    const started = await start({ agents: [first, second], options: { openUrl } });
    const { core, recorder } = started;
    const one = await started.ready(first.name);
    const two = await started.ready(second.name);
    // Agent two's card is opened, so it waits for the page, and its turn ends.
    await core.invoke('session:prompt', { key: two, text: JSON.stringify([signIn('flow-1')]) });
    const cardTwo = (await recorder.event(two, 'url_elicitation')) as UrlCard;
    await core.invoke('elicitation:openUrl', {
      key: two,
      cardKey: cardTwo.cardKey,
      where: 'window',
    });
    await recorder.event(two, 'turn_end');
    return { core, recorder, one, two, cardTwo };
  }

  it('an agent that exits ends only its own waiting cards', async () => {
    const { core, recorder, one, two, cardTwo } = await twoAgents();
    // Another tab's card is not this tab's to open or finish.
    await expect(
      core.invoke('elicitation:openUrl', { key: one, cardKey: cardTwo.cardKey, where: 'window' }),
    ).rejects.toThrow('That request is no longer waiting for an answer');
    await expect(
      core.invoke('elicitation:finishUrl', { key: one, cardKey: cardTwo.cardKey, how: 'done' }),
    ).rejects.toThrow('That page is no longer waiting');
    await core.invoke('session:prompt', { key: one, text: 'https://one.example.com/ exit' });
    const cardOne = (await recorder.event(one, 'url_elicitation')) as UrlCard;
    await core.invoke('elicitation:openUrl', {
      key: one,
      cardKey: cardOne.cardKey,
      where: 'window',
    });
    expect(await recorder.event(one, 'url_elicitation_done')).toMatchObject({
      how: 'agent_exited',
    });
    // Agent two's card, with the same id, still waits for its page.
    expect(recorder.transcript(two).some((event) => event.type === 'url_elicitation_done')).toBe(
      false,
    );
    await core.invoke('elicitation:finishUrl', { key: two, cardKey: cardTwo.cardKey, how: 'done' });
    expect(await recorder.event(two, 'url_elicitation_done')).toMatchObject({ how: 'done' });
  });

  it('closing a tab ends only that tab\u2019s waiting cards, not a card still asking consent', async () => {
    const { core, recorder, one, two, cardTwo } = await twoAgents();
    await core.invoke('session:prompt', { key: one, text: 'https://one.example.com/' });
    const cardOne = (await recorder.event(one, 'url_elicitation')) as UrlCard;
    await core.invoke('session:close', { key: one });
    // The consent card ends with its tab as a cancelled card; no page was waited for.
    await recorder.event(one, 'elicitation_resolved');
    expect(
      recorder.transcript(one).filter((event) => event.type === 'url_elicitation_done'),
    ).toEqual([]);
    expect(recorder.transcript(one)).toContainEqual(
      expect.objectContaining({ type: 'elicitation_resolved', cardKey: cardOne.cardKey }),
    );
    expect(recorder.transcript(two).some((event) => event.type === 'url_elicitation_done')).toBe(
      false,
    );
    await core.invoke('elicitation:finishUrl', { key: two, cardKey: cardTwo.cardKey, how: 'done' });
    expect(await recorder.event(two, 'url_elicitation_done')).toMatchObject({ how: 'done' });
  });
});
