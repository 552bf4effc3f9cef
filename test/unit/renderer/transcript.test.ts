import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/contract.js';
import {
  applyEvents,
  cardWaits,
  emptyTranscript,
  MAX_SEGMENT_CHARS,
  SEGMENT_CHARS,
  segmentCut,
  type Row,
} from '../../../renderer/src/state/transcript.js';

const chunk = (text: string, role: 'agent' | 'user' | 'thought' = 'agent'): TranscriptEvent => ({
  type: 'chunk',
  role,
  text,
});
const textOf = (rows: Row[]) =>
  rows.flatMap((row) => (row.kind === 'text' ? [row.text] : [])).join('');

describe('applyEvents', () => {
  it('joins streamed chunks into one message and starts a new one after a prompt', () => {
    const t = applyEvents(emptyTranscript(), [
      { type: 'prompt', text: 'hi' },
      chunk('Hel'),
      chunk('lo'),
      { type: 'turn_end', stopReason: 'end_turn' },
      { type: 'prompt', text: 'again' },
      chunk('Bye'),
    ]);
    expect(t.rows.map((row) => row.kind)).toEqual(['prompt', 'text', 'turn_end', 'prompt', 'text']);
    expect(t.rows[1]).toMatchObject({ kind: 'text', text: 'Hello', first: true });
    expect(t.rows[4]).toMatchObject({ kind: 'text', text: 'Bye' });
  });

  it('keeps thoughts apart from the reply', () => {
    const t = applyEvents(emptyTranscript(), [
      chunk('think ', 'thought'),
      chunk('more', 'thought'),
      chunk('answer'),
    ]);
    expect(t.rows).toMatchObject([
      { kind: 'thought', text: 'think more' },
      { kind: 'text', text: 'answer' },
    ]);
  });

  it('updates a tool call in place, keeping fields an update leaves out', () => {
    const t = applyEvents(emptyTranscript(), [
      {
        type: 'tool_call',
        toolCallId: 'c1',
        fields: { title: 'Edit', kind: 'edit', status: 'pending' },
      },
      chunk('between'),
      { type: 'tool_call_update', toolCallId: 'c1', fields: { status: 'completed' } },
    ]);
    expect(t.rows[0]).toMatchObject({
      kind: 'tool',
      fields: { title: 'Edit', kind: 'edit', status: 'completed' },
    });
    expect(t.rows).toHaveLength(2);
  });

  it('shows an update for an unknown tool call as a call of its own', () => {
    const t = applyEvents(emptyTranscript(), [
      { type: 'tool_call_update', toolCallId: 'ghost', fields: { status: 'failed' } },
    ]);
    expect(t.rows[0]).toMatchObject({
      kind: 'tool',
      toolCallId: 'ghost',
      fields: { title: 'ghost', status: 'failed' },
    });
  });

  it('replaces the plan within a turn and starts a new one in the next turn', () => {
    const entry = (status: 'pending' | 'completed') => ({
      content: 'step',
      priority: 'high' as const,
      status,
    });
    const t = applyEvents(emptyTranscript(), [
      { type: 'plan', entries: [entry('pending')] },
      { type: 'plan', entries: [entry('completed')] },
      { type: 'prompt', text: 'next' },
      { type: 'plan', entries: [entry('pending')] },
    ]);
    expect(t.rows.filter((row) => row.kind === 'plan')).toMatchObject([
      { entries: [{ status: 'completed' }] },
      { entries: [{ status: 'pending' }] },
    ]);
  });

  it('records the outcome on the permission card it answers', () => {
    const t = applyEvents(emptyTranscript(), [
      {
        type: 'permission',
        promptKey: 'p1',
        toolCallId: 'c1',
        title: 'Run',
        options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }],
      },
      { type: 'permission_resolved', promptKey: 'p1', outcome: { outcome: 'cancelled' } },
    ]);
    expect(t.rows[0]).toMatchObject({ kind: 'permission', outcome: { outcome: 'cancelled' } });
  });

  it('does not change rows it did not touch (so they need not re-render)', () => {
    const before = applyEvents(emptyTranscript(), [{ type: 'prompt', text: 'a' }, chunk('x')]);
    const after = applyEvents(before, [chunk('y')]);
    expect(after.rows[0]).toBe(before.rows[0]);
    expect(after.rows[1]).not.toBe(before.rows[1]);
    expect(before.rows[1]).toMatchObject({ text: 'x' });
  });

  it('cuts a long reply into segments without losing or reordering text', () => {
    const paragraph = `${'word '.repeat(90)}\n\n`;
    const reply = paragraph.repeat(400);
    const events: TranscriptEvent[] = [];
    for (let i = 0; i < reply.length; i += 100) {
      events.push(chunk(reply.slice(i, i + 100)));
    }
    const t = applyEvents(emptyTranscript(), events);
    expect(textOf(t.rows)).toBe(reply);
    const segments = t.rows.filter((row) => row.kind === 'text');
    expect(segments.length).toBeGreaterThan(50);
    expect(Math.max(...segments.map((row) => row.text.length))).toBeLessThan(SEGMENT_CHARS + 600);
    expect(segments.filter((row) => row.kind === 'text' && row.first)).toHaveLength(1);
  });
});

describe('segmentCut', () => {
  it('does not cut short text', () => {
    expect(segmentCut('a\n\nb')).toBeUndefined();
  });

  it('cuts after the last paragraph break once long enough', () => {
    const text = `${'a'.repeat(SEGMENT_CHARS)}\n\nrest`;
    expect(segmentCut(text)).toBe(SEGMENT_CHARS + 2);
  });

  it('does not cut inside a code fence', () => {
    const text = `\`\`\`\n${'code\n'.repeat(SEGMENT_CHARS / 5)}\n\nmore code`;
    expect(segmentCut(text)).toBeUndefined();
  });

  it('cuts text with no break at the maximum length', () => {
    expect(segmentCut('x'.repeat(MAX_SEGMENT_CHARS + 10))).toBe(MAX_SEGMENT_CHARS);
  });
});

describe('URL elicitation cards', () => {
  const agent = { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' };
  const url = {
    href: 'https://github.com/login',
    original: 'https://github.com/login',
    normalised: false,
    scheme: 'https' as const,
    host: 'github.com',
    hostUnicode: 'github.com',
    registrableDomain: 'github.com',
    registrableDomainUnicode: 'github.com',
    port: null,
    path: '/login',
    highlight: { start: 8, end: 18 },
    warnings: [],
  };
  const card: TranscriptEvent = {
    type: 'url_elicitation',
    cardKey: 'e1',
    agent,
    scope: 'session',
    message: 'Sign in',
    url,
  };
  const row = (events: TranscriptEvent[]) => {
    const found = applyEvents(emptyTranscript(), events).rows[0];
    if (found?.kind !== 'url_elicitation') {
      throw new Error(`no URL card row: ${found?.kind}`);
    }
    return found;
  };

  it('waits for consent, then, once accepted, for the page; then it is done', () => {
    expect(cardWaits(row([card]))).toBe(true);
    const accepted: TranscriptEvent = {
      type: 'elicitation_resolved',
      cardKey: 'e1',
      action: 'accept',
    };
    expect(row([card, accepted]).resolved).toEqual({ action: 'accept', ended: undefined });
    expect(cardWaits(row([card, accepted]))).toBe(true);
    const done: TranscriptEvent = { type: 'url_elicitation_done', cardKey: 'e1', how: 'completed' };
    expect(row([card, accepted, done]).done).toBe('completed');
    expect(cardWaits(row([card, accepted, done]))).toBe(false);
    // The first way it ended stays.
    const again: TranscriptEvent = {
      type: 'url_elicitation_done',
      cardKey: 'e1',
      how: 'dismissed',
    };
    expect(row([card, accepted, done, again]).done).toBe('completed');
  });

  it('stops waiting when declined, or when it ended without an answer', () => {
    for (const resolved of [
      { type: 'elicitation_resolved', cardKey: 'e1', action: 'decline' },
      { type: 'elicitation_resolved', cardKey: 'e1', action: 'cancel', ended: 'turn_cancelled' },
    ] as TranscriptEvent[]) {
      expect(cardWaits(row([card, resolved]))).toBe(false);
    }
  });
});
