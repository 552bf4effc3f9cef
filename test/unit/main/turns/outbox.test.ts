/**
 * What the core sends to the UI, and when: events and summary changes wait for the end of the
 * macrotask and go in one batch, and a transcript fetched meanwhile sends what waits first, so a
 * UI that takes the snapshot and then every later event sees each event once.
 */
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../../../main/core/outbox.js';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start, startWith } = useCore({ timeouts: TEST_TIMEOUTS });

describe('a transcript fetched while events wait to be sent', () => {
  it('holds them, and they are not sent again after it', async () => {
    const agent = fixtureSpec('basic');
    const started = await startWith(agent);
    const { core, recorder, key } = started;
    // What reaches a UI that attaches now: the events sent once the snapshot has come.
    let attached = false;
    const later: TranscriptEvent[] = [];
    core.onEvent((channel, payload) => {
      const append = payload as { key: string; events: TranscriptEvent[] };
      if (attached && channel === 'session:onDidAppend' && append.key === key) {
        later.push(...append.events);
      }
    });

    // The prompt is in the transcript, and waits for the end of the macrotask to be sent.
    await core.invoke('session:prompt', { key, text: 'hello' });
    const snapshot = await started.call('session:getTranscript', { key });
    attached = true;
    expect(snapshot.events).toEqual([{ type: 'prompt', text: 'hello' }]);

    await recorder.event(key, 'turn_end');
    expect([...snapshot.events, ...later]).toEqual(recorder.transcript(key));
    expect(later.map((event) => event.type)).toEqual(['chunk', 'turn_end']);
  });
});

describe('a tab that closes', () => {
  it('sends its closed summary once, though the tab is gone when it is sent', async () => {
    const agent = fixtureSpec('basic');
    const started = await startWith(agent);
    const { core, recorder, key, ready } = started;
    const statuses: string[] = [];
    core.onEvent((channel, payload) => {
      const summary = payload as { key: string; status: string };
      if (channel === 'session:onDidChange' && summary.key === key) {
        statuses.push(summary.status);
      }
    });

    await core.invoke('session:close', { key });
    await recorder.status(key, 'closed');
    // A later batch, of another tab, sends nothing more for it.
    const other = await ready(agent.name);
    await core.invoke('session:rename', { key: other, title: 'Other' });
    await recorder.until(() => recorder.summaries.get(other)?.userTitle === 'Other', 'the rename');
    expect(statuses).toEqual(['closed']);
  });
});

describe('a tab closed while its mode change is under way', () => {
  it('sends nothing more for it when the change is answered', async () => {
    // It answers the mode change only when the next prompt comes.
    const agent = { ...fixtureSpec('modes-echo'), env: { SCRIPTED_HOLD_SET_MODE: '1' } };
    const started = await start({ agents: [agent] });
    const { core, recorder, ready } = started;
    // Another tab keeps the process, so the change is answered after the close.
    const other = await ready(agent.name);
    const key = await ready(agent.name);
    const statuses: string[] = [];
    core.onEvent((channel, payload) => {
      const summary = payload as { key: string; status: string } | undefined;
      if (channel === 'session:onDidChange' && summary?.key === key) {
        statuses.push(summary.status);
      }
    });

    const change = core.invoke('session:setMode', { key, modeId: 'plan' });
    await core.invoke('session:close', { key });
    await recorder.status(key, 'closed');
    await core.invoke('session:prompt', { key: other, text: 'go on' });
    await change;
    // Later batches send the other tab's turn, and nothing for the closed one.
    await recorder.event(other, 'turn_end');
    expect(statuses).toEqual(['closed']);
    expect(recorder.dropped).toEqual([]);
  });
});

describe('the outbox itself', () => {
  /** An outbox with no open tab, and what its listener got, in order. */
  function outboxWithListener() {
    const outbox = new Outbox(() => undefined);
    const got: [string, unknown][] = [];
    const unsubscribe = outbox.listen((channel, payload) => got.push([channel, payload]));
    return { outbox, got, unsubscribe };
  }

  it('sends the events a tab appends in one macrotask as one batch, in order', async () => {
    const { outbox, got } = outboxWithListener();
    outbox.sink.append('s1', { type: 'prompt', text: 'one' });
    outbox.sink.append('s1', { type: 'prompt', text: 'two' });
    outbox.sink.append('s2', { type: 'prompt', text: 'other' });
    expect(got).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual([
      [
        'session:onDidAppend',
        {
          key: 's1',
          events: [
            { type: 'prompt', text: 'one' },
            { type: 'prompt', text: 'two' },
          ],
        },
      ],
      ['session:onDidAppend', { key: 's2', events: [{ type: 'prompt', text: 'other' }] }],
    ]);
  });

  it('sends nothing more to a listener that unsubscribed', () => {
    const { outbox, got, unsubscribe } = outboxWithListener();
    outbox.emit('app:onDidChangeAgents', { agents: [] });
    unsubscribe();
    outbox.emit('app:onDidChangeAgents', { agents: [] });
    expect(got).toEqual([['app:onDidChangeAgents', { agents: [] }]]);
  });
});
