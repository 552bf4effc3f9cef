/**
 * What waits on the user, as the core tells hosts (`onAttention`): real scripted agents ask
 * for permissions and elicitations over stdio, and each card's notice and end, and the count
 * across sessions, are checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  Attention,
  NOTICE_CHARS,
  notificationBody,
  type AttentionChange,
} from '../../../../main/core/attention.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { ask, form, type Card } from '../../../helpers/elicitation-requests.js';
import {
  answerPermission,
  readySession,
  type Recorder,
  startCore,
} from '../../../helpers/core-harness.js';

const timeouts = { requestMs: 10_000, cancelGraceMs: 500 };

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

/** A core with the scripted agents of `scenarios`, recording every attention change. */
async function withAgents(...scenarios: string[]) {
  const agents = scenarios.map((scenario) => fixtureSpec(scenario));
  const started = await startCore(agents, timeouts);
  core = started.core;
  const changes: AttentionChange[] = [];
  const unsubscribe = started.core.onAttention((change) => changes.push(change));
  const open = (scenario: string) =>
    readySession(started.core, started.recorder, `fixture-${scenario}`, started.dir);
  return { ...started, changes, unsubscribe, open };
}

/** Resolves once `count` changes have come (the attention listener runs before the recorder's). */
function changesCome(recorder: Recorder, changes: AttentionChange[], count: number) {
  return recorder.until(
    () => changes.length >= count,
    () => `${count} attention changes; came: ${JSON.stringify(changes).slice(0, 2000)}`,
  );
}

/** Sends a raw `session/request_permission` about a tool call titled `title` (`elicit-raw`). */
function askPermission(running: AirlockCore, key: string, title: string) {
  const line = JSON.stringify({
    jsonrpc: '2.0',
    id: 'perm-1',
    method: 'session/request_permission',
    params: {
      sessionId: '$SESSION',
      toolCall: { toolCallId: 'call-1', title },
      options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }],
    },
  });
  return running.invoke('session:prompt', {
    key,
    text: JSON.stringify({ lines: [line], await: ['perm-1'] }),
  });
}

describe('a permission card', () => {
  it('is announced with the agent’s name and the tool call’s title, and its end with it', async () => {
    const { core, recorder, changes, open } = await withAgents('permission');
    const key = await open('permission');
    await core.invoke('session:prompt', { key, text: 'go' });
    const card = await recorder.event(key, 'permission');
    await changesCome(recorder, changes, 1);
    expect(changes).toEqual([
      {
        waiting: 1,
        opened: {
          sessionKey: key,
          cardKey: card.promptKey,
          agentName: 'fixture-permission',
          title: 'fixture-permission asks for permission',
          body: 'Delete build/',
        },
      },
    ]);
    await answerPermission(core, key, card, { outcome: 'selected', optionId: 'yes' });
    await changesCome(recorder, changes, 2);
    expect(changes[1]).toEqual({ waiting: 0, ended: card.promptKey });
  });

  it('stops telling a listener that unsubscribed', async () => {
    const { core, recorder, changes, unsubscribe, open } = await withAgents('permission');
    const key = await open('permission');
    unsubscribe();
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'permission');
    expect(changes).toEqual([]);
  });

  it('says a title that is markup as the text it is, escaped where the body is read as markup', async () => {
    const { core, recorder, changes, open } = await withAgents('elicit-raw');
    const key = await open('elicit-raw');
    const title = 'Run <b>rm</b> & <a href="https://evil.example/x">see</a> <img src="/x.png"/>';
    await askPermission(core, key, title);
    await changesCome(recorder, changes, 1);
    const body = changes[0]?.opened?.body ?? '';
    expect(body).toBe(title);
    expect(notificationBody(body, 'linux')).toBe(
      'Run &lt;b&gt;rm&lt;/b&gt; &amp; &lt;a href="https://evil.example/x"&gt;see&lt;/a&gt; &lt;img src="/x.png"/&gt;',
    );
    // Windows escapes the toast's XML itself, and macOS shows plain text.
    expect(notificationBody(body, 'win32')).toBe(title);
    expect(notificationBody(body, 'darwin')).toBe(title);
  });
});

describe('an elicitation card', () => {
  it('says a form’s message, never a field’s value or default', async () => {
    const { core, recorder, changes, open } = await withAgents('elicit');
    const key = await open('elicit');
    await ask(
      core,
      key,
      form('Which project?', {
        project: { type: 'string', title: 'Project', default: 'default-Kestrel-41' },
        token: { type: 'string', title: 'Token' },
        size: { type: 'string', enum: ['option-Larch-7'], default: 'option-Larch-7' },
      }),
    );
    const card = (await recorder.event(key, 'elicitation')) as Card;
    await core.invoke('elicitation:respond', {
      key,
      cardKey: card.cardKey,
      action: 'accept',
      content: { project: 'typed-Osprey-99', token: 'typed-Heron-12', size: 'option-Larch-7' },
    });
    await changesCome(recorder, changes, 2);
    expect(changes).toEqual([
      {
        waiting: 1,
        opened: {
          sessionKey: key,
          cardKey: card.cardKey,
          agentName: 'fixture-elicit',
          title: 'fixture-elicit asks for information',
          body: 'Which project?',
        },
      },
      { waiting: 0, ended: card.cardKey },
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/Kestrel|Larch|Osprey|Heron/);
  });

  it('says only that the agent asks to open a web page: no part of the URL, not even in its message', async () => {
    const { core, recorder, changes, open } = await withAgents('elicit');
    const key = await open('elicit');
    const url =
      'https://login.idp-sample.net:8443/oauth/authorize?client_id=cid-Wren-5&state=st-Ibis-3';
    await ask(core, key, {
      sessionId: '$SESSION',
      mode: 'url',
      elicitationId: 'sign-in-1',
      url,
      message: `Sign in at ${url}`,
    });
    const card = (await recorder.event(key, 'url_elicitation')) as Card;
    await changesCome(recorder, changes, 1);
    expect(changes[0]?.opened).toEqual({
      sessionKey: key,
      cardKey: card.cardKey,
      agentName: 'fixture-elicit',
      title: 'fixture-elicit asks to open a web page',
      body: 'Review the address in Airlock before anything opens.',
    });
    const said = JSON.stringify(changes[0]);
    for (const part of [
      'https',
      'login',
      'idp-sample',
      '8443',
      'oauth',
      'authorize',
      'Wren',
      'Ibis',
    ]) {
      expect(said).not.toContain(part);
    }
    await core.invoke('elicitation:respond', { key, cardKey: card.cardKey, action: 'cancel' });
    await changesCome(recorder, changes, 2);
    expect(changes[1]).toEqual({ waiting: 0, ended: card.cardKey });
  });

  it('puts the agent’s text on one bounded line without control characters', async () => {
    const { core, recorder, changes, open } = await withAgents('elicit');
    const key = await open('elicit');
    await ask(core, key, form(`First\u0000\u001b[31m line\n\u202esecond ${'word '.repeat(100)}`));
    await changesCome(recorder, changes, 1);
    const body = changes[0]?.opened?.body ?? '';
    expect(body.startsWith('First [31m line second word word')).toBe(true);
    expect(Array.from(body)).toHaveLength(NOTICE_CHARS);
    expect(body.endsWith('…')).toBe(true);
    expect(body).not.toMatch(/[\p{Cc}\u202e]/u);
  });
});

describe('the count of waiting cards', () => {
  it('counts the cards of every session, up and down to 0', async () => {
    const { core, recorder, changes, open } = await withAgents('elicit');
    const first = await open('elicit');
    const second = await open('elicit');
    await ask(core, first, form('One?'), form('Two?'));
    await changesCome(recorder, changes, 2);
    await ask(core, second, form('Three?'));
    await changesCome(recorder, changes, 3);
    expect(changes.map((change) => change.waiting)).toEqual([1, 2, 3]);
    expect(changes.map((change) => change.opened?.sessionKey)).toEqual([first, first, second]);
    const cards = [first, first, second].map((key, index) => ({
      key,
      cardKey: changes[index]!.opened!.cardKey,
    }));
    for (const { key, cardKey } of cards) {
      await core.invoke('elicitation:respond', { key, cardKey, action: 'decline' });
    }
    await changesCome(recorder, changes, 6);
    expect(changes.slice(3)).toEqual(
      cards.map(({ cardKey }, index) => ({ waiting: 2 - index, ended: cardKey })),
    );
  });

  it('goes down when the agent withdraws a card, exits, or the tab closes', async () => {
    const { core, recorder, changes, open } = await withAgents(
      'elicit-withdraw',
      'elicit-crash',
      'permission',
    );
    const withdrawn = await open('elicit-withdraw');
    await core.invoke('session:prompt', { key: withdrawn, text: 'go' });
    await changesCome(recorder, changes, 2);
    const crashed = await open('elicit-crash');
    await core.invoke('session:prompt', { key: crashed, text: 'go' });
    await changesCome(recorder, changes, 4);
    const closed = await open('permission');
    await core.invoke('session:prompt', { key: closed, text: 'go' });
    await changesCome(recorder, changes, 5);
    await core.invoke('session:close', { key: closed });
    await changesCome(recorder, changes, 6);
    expect(changes.map((change) => [change.waiting, change.opened?.sessionKey ?? 'ended'])).toEqual(
      [
        [1, withdrawn],
        [0, 'ended'],
        [1, crashed],
        [0, 'ended'],
        [1, closed],
        [0, 'ended'],
      ],
    );
    for (const [index, change] of changes.entries()) {
      if (change.ended) {
        expect(change.ended).toBe(changes[index - 1]?.opened?.cardKey);
      }
    }
  });
});

describe('Attention, fed a batch by hand', () => {
  const permission = (promptKey: string, title?: string, toolTitle?: string): TranscriptEvent => ({
    type: 'permission',
    promptKey,
    agent: { configName: 'Agent', protocolVersion: 1, commandLine: 'agent' },
    toolCallId: 'call-1',
    title,
    options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }],
    ...(toolTitle === undefined ? {} : { tool: { title: toolTitle } }),
  });

  it('does not announce a card that opened and ended in the same batch', () => {
    const attention = new Attention(() => 'Agent');
    const changes: AttentionChange[] = [];
    attention.subscribe((change) => changes.push(change));
    attention.appended({
      key: 's1',
      events: [
        permission('p1'),
        {
          type: 'permission_resolved',
          promptKey: 'p1',
          outcome: { outcome: 'cancelled' },
          ended: 'tab_closed',
        },
      ],
    });
    expect(changes).toEqual([]);
  });

  const elicitation = (cardKey: string, message: string): TranscriptEvent => ({
    type: 'elicitation',
    cardKey,
    agent: { configName: 'Agent', protocolVersion: 1, commandLine: 'agent' },
    scope: 'session',
    message,
    mode: 'form',
    form: { fields: [] },
  });

  /** An Attention named `agentName`, and the changes it tells. */
  function follow(agentName: string | undefined = 'Agent') {
    const attention = new Attention(() => agentName);
    const changes: AttentionChange[] = [];
    attention.subscribe((change) => changes.push(change));
    return { attention, changes };
  }

  it('announces a card once and ends it once, however often its events come', () => {
    const { attention, changes } = follow();
    attention.appended({ key: 's1', events: [permission('p1', 'Edit')] });
    attention.appended({ key: 's1', events: [permission('p1', 'Edit')] });
    const resolved: TranscriptEvent = {
      type: 'permission_resolved',
      promptKey: 'p1',
      outcome: { outcome: 'cancelled' },
      ended: 'tab_closed',
    };
    attention.appended({ key: 's1', events: [resolved] });
    attention.appended({ key: 's1', events: [resolved] });
    expect(changes.map(({ waiting, opened, ended }) => [waiting, opened?.cardKey, ended])).toEqual([
      [1, 'p1', undefined],
      [0, undefined, 'p1'],
    ]);
  });

  it('says the tool call’s own title when the request gives none, or what it is for', () => {
    const { attention, changes } = follow();
    attention.appended({
      key: 's1',
      events: [permission('p1', undefined, 'Edit main.ts'), permission('p2')],
    });
    expect(changes.map((change) => change.opened?.body)).toEqual([
      'Edit main.ts',
      'To run a tool.',
    ]);
  });

  it('says that a form is asked for when its message says nothing', () => {
    const { attention, changes } = follow();
    attention.appended({ key: 's1', events: [elicitation('c1', ' \n ')] });
    expect(changes[0]?.opened).toMatchObject({
      title: 'Agent asks for information',
      body: 'A form.',
    });
  });

  it('names the agent on one bounded line in the title', () => {
    const { attention, changes } = follow(`My\nagent ${'x'.repeat(200)}`);
    attention.appended({ key: 's1', events: [permission('p1', 'Edit')] });
    const title = changes[0]?.opened?.title ?? '';
    expect(title).toMatch(/^My agent x+… asks for permission$/);
    expect(Array.from(title.replace(' asks for permission', ''))).toHaveLength(100);
    // The agent's name as the settings hold it, for the host to match a session by.
    expect(changes[0]?.opened?.agentName).toBe(`My\nagent ${'x'.repeat(200)}`);
  });

  it('says what it can of a card the agent left untitled, on a tab already gone', () => {
    const attention = new Attention(() => undefined);
    const changes: AttentionChange[] = [];
    attention.subscribe((change) => changes.push(change));
    attention.appended({ key: 's1', events: [permission('p1', ' \u0007 ')] });
    expect(changes).toEqual([
      {
        waiting: 1,
        opened: {
          sessionKey: 's1',
          cardKey: 'p1',
          agentName: 'An agent',
          title: 'An agent asks for permission',
          body: 'To run a tool.',
        },
      },
    ]);
  });
});
