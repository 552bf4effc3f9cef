/**
 * `session:show`: a UI names the tab it shows, and the core sends that tab's events first. A tab
 * not shown gets its reply whole and in order, its text merged into few events; a card of a tab
 * not shown still goes out at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AirlockCore } from '../../../../main/core/core.js';
import { SEND_AT } from '../../../../main/core/outbox.js';
import { MAX_CHUNK_CHARS } from '../../../../main/core/updates.js';
import { longText } from '../../../../main/demo-agent/script.js';
import type { EventPayload, TranscriptEvent } from '../../../../preload/shared/contract.js';
import { answerPermission, TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS });

/** The batches the core sends to tab `key`, as they come. */
function batchesOf(core: AirlockCore, key: string): TranscriptEvent[][] {
  const batches: TranscriptEvent[][] = [];
  core.onEvent((channel, payload) => {
    const append = payload as EventPayload<'session:onDidAppend'>;
    if (channel === 'session:onDidAppend' && append.key === key) {
      batches.push(append.events);
    }
  });
  return batches;
}

/** Whether `events` holds two text chunks of one role in a row that would fit in one. */
const unmergedText = (events: TranscriptEvent[]) =>
  events.some((event, i) => {
    const next = events[i + 1];
    return (
      event.type === 'chunk' &&
      next?.type === 'chunk' &&
      next.role === event.role &&
      event.text.length + next.text.length <= MAX_CHUNK_CHARS
    );
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('a tab not shown', () => {
  it('gets its streamed reply whole and in order, held back, while the shown tab’s goes as it comes', async () => {
    const { core, recorder, call, ready, turn } = await start();
    const shown = await ready();
    const hidden = await ready();
    const shownBatches = batchesOf(core, shown);
    const hiddenBatches = batchesOf(core, hidden);
    await call('session:show', { key: shown });
    // The time for what hidden tabs hold never passes: the hidden tab's text waits for its end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    await Promise.all([turn(hidden, '/long 200'), turn(shown, '/long 200')]);
    expect(recorder.text(hidden)).toBe(longText(200_000));
    expect(recorder.text(shown)).toBe(longText(200_000));
    const types = recorder.transcript(hidden).map((event) => event.type);
    expect(types[0]).toBe('prompt');
    expect(types.at(-1)).toBe('turn_end');
    expect(new Set(types.slice(1, -1))).toEqual(new Set(['chunk']));
    // Held back: with no time passing, only a change of the tab's summary sends what it holds,
    // so its reply came in a few batches, its text merged.
    const withText = hiddenBatches.filter((batch) => batch.some(({ type }) => type === 'chunk'));
    expect(withText.length).toBeGreaterThan(0);
    expect(withText.length).toBeLessThanOrEqual(3);
    expect(withText.some(unmergedText)).toBe(false);
    // The shown tab's text went as it came: its 2,000 pieces in batches of at most SEND_AT.
    const shownText = shownBatches.filter((batch) => batch.some(({ type }) => type === 'chunk'));
    expect(shownText.length).toBeGreaterThanOrEqual(Math.ceil(2_000 / SEND_AT));
    expect(shownText[0]!.some(({ type }) => type === 'turn_end')).toBe(false);
  });

  it('is refused when it is not open, in words', async () => {
    const { call } = await start();
    await expect(call('session:show', { key: 's999' })).rejects.toThrow('That session is closed');
  });
});

describe('a card of a tab not shown', () => {
  it('goes out at once, with what came before it: it never waits for the hidden tabs’ timer', async () => {
    const { core, recorder, call, ready } = await start();
    const shown = await ready();
    const hidden = await ready();
    await call('session:show', { key: shown });
    // The time for what hidden tabs hold never passes: only a card can send the card.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    await call('session:prompt', { key: hidden, text: '/permission' });
    const card = await recorder.event(hidden, 'permission');
    // The tool call the card asks about came first, in order.
    const types = recorder.transcript(hidden).map((event) => event.type);
    expect(types.indexOf('tool_call')).toBeGreaterThan(-1);
    expect(types.indexOf('tool_call')).toBeLessThan(types.indexOf('permission'));
    vi.useRealTimers();
    await answerPermission(core, hidden, card, { outcome: 'selected', optionId: 'reject-once' });
    await recorder.event(hidden, 'turn_end');
  });
});
