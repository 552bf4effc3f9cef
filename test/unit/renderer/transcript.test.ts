import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/shared/contract.js';
import {
  applyEvents,
  cardWaits,
  emptyTranscript,
  MAX_SEGMENT_CHARS,
  SEGMENT_CHARS,
  segmentCut,
  type Row,
} from '../../../renderer/src/state/transcript.js';
import { opened } from '../../helpers/url-analysis.js';

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
        agent: { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' },
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

describe('a long reply that comes in large pieces', () => {
  it('is cut into segments as small as when it streams in small pieces', () => {
    const paragraph = `${'word '.repeat(90)}\n\n`;
    const reply = paragraph.repeat(400);
    // As an outbox batch or a stored transcript brings it: 64 KiB at a time, or all at once.
    for (const size of [64 * 1024, reply.length]) {
      const events: TranscriptEvent[] = [];
      for (let i = 0; i < reply.length; i += size) {
        events.push(chunk(reply.slice(i, i + size)));
      }
      const rows = applyEvents(emptyTranscript(), events).rows;
      expect(textOf(rows)).toBe(reply);
      const segments = rows.filter((row) => row.kind === 'text');
      expect(segments.length).toBeGreaterThan(50);
      expect(Math.max(...segments.map((row) => row.text.length))).toBeLessThan(SEGMENT_CHARS + 600);
    }
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

  it('cuts at the last break up to the segment length, or else at the first after', () => {
    const early = `${'a'.repeat(1_200)}\n\n${'b'.repeat(600)}\n\n${'c'.repeat(5_000)}\n\nd`;
    expect(segmentCut(early)).toBe(1_200 + 2 + 600 + 2);
    const late = `${'a'.repeat(900)}\n\n${'b'.repeat(3_000)}\n\n${'c'.repeat(3_000)}\n\nd`;
    expect(segmentCut(late)).toBe(900 + 2 + 3_000 + 2);
    // No break from half the segment length to its end: the first one after.
    const later = `${'a'.repeat(900)}\n\n${'b'.repeat(4_000)}\n\n${'c'.repeat(3_000)}\n\nd`;
    expect(segmentCut(later)).toBe(900 + 2 + 4_000 + 2);
    // A break that ends exactly at the segment length is still taken; one past it is not.
    const ends = (at: number) => `${'a'.repeat(1_200)}\n\n${'b'.repeat(at - 1_204)}\n\nrest`;
    expect(segmentCut(ends(SEGMENT_CHARS))).toBe(SEGMENT_CHARS);
    expect(segmentCut(ends(SEGMENT_CHARS + 1))).toBe(1_202);
    expect(segmentCut(ends(SEGMENT_CHARS + 2))).toBe(1_202);
  });

  it('cuts hard at the maximum rather than at a break past it', () => {
    const past = `${'x'.repeat(MAX_SEGMENT_CHARS + 100)}\n\nrest`;
    expect(segmentCut(past)).toBe(MAX_SEGMENT_CHARS);
    // A break right at the maximum: cut after its first line break, as with no break.
    const at = `${'x'.repeat(MAX_SEGMENT_CHARS)}\n\nrest`;
    expect(segmentCut(at)).toBe(MAX_SEGMENT_CHARS + 1);
  });

  it('cuts only after a code fence closes, not inside it', () => {
    const fenced = `${'a'.repeat(500)}\n\n\`\`\`\n${'code\n\n'.repeat(300)}\`\`\`\n\nafter\n\nmore`;
    expect(segmentCut(fenced)).toBe(fenced.indexOf('after'));
  });

  it('cuts text with no break at the maximum length', () => {
    expect(segmentCut('x'.repeat(MAX_SEGMENT_CHARS + 10))).toBe(MAX_SEGMENT_CHARS);
  });
});

describe('URL elicitation cards', () => {
  const agent = { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' };
  const url = opened('https://github.com/login');
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

describe('rows of every kind', () => {
  const rowsOf = (events: TranscriptEvent[]) => applyEvents(emptyTranscript(), events).rows;
  const kinds = (rows: Row[]) => rows.map((row) => row.kind);

  it('shows content, a notice, a turn error and an agent exit as rows, each ending the message before', () => {
    const exit = { code: 1, signal: null, reason: 'exited with code 1', stderrTail: ['boom'] };
    const rows = rowsOf([
      chunk('a'),
      { type: 'content', role: 'agent', content: { type: 'image', mimeType: 'image/png' } },
      chunk('b'),
      { type: 'notice', severity: 'warning', title: 'Slow', description: 'the agent is slow' },
      chunk('c'),
      { type: 'turn_error', message: 'Internal error' },
      chunk('d'),
      { type: 'agent_exit', exit },
      chunk('e'),
    ]);
    expect(rows).toMatchObject([
      { kind: 'text', text: 'a', first: true },
      { kind: 'content', role: 'agent', content: { type: 'image', mimeType: 'image/png' } },
      { kind: 'text', text: 'b', first: true },
      { kind: 'notice', severity: 'warning', title: 'Slow', description: 'the agent is slow' },
      { kind: 'text', text: 'c', first: true },
      { kind: 'turn_error', message: 'Internal error' },
      { kind: 'text', text: 'd', first: true },
      { kind: 'exit', exit },
      { kind: 'text', text: 'e', first: true },
    ]);
  });

  it('keeps what lies behind a turn error apart from its sentence, for Details', () => {
    const detail = 'JSON-RPC error -32603 answering session/prompt';
    const rows = rowsOf([
      { type: 'turn_error', message: 'Demo: Internal error', detail },
      { type: 'turn_error', message: 'Demo: no answer' },
    ]);
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
      { kind: 'turn_error', message: 'Demo: Internal error', detail },
      { kind: 'turn_error', message: 'Demo: no answer' },
    ]);
  });

  it('replaces a system line by a later one with its id, and adds the others', () => {
    const rows = rowsOf([
      { type: 'prompt', text: 'hi' },
      { type: 'system', text: 'A note' },
      { type: 'system', text: 'Another note' },
      { type: 'system', text: 'Restarting…', id: 'restart' },
      { type: 'system', text: 'Signed in', id: 'auth' },
      chunk('text'),
      { type: 'system', text: 'Restarted', id: 'restart' },
    ]);
    expect(kinds(rows)).toEqual(['prompt', 'system', 'system', 'system', 'system', 'text']);
    expect(rows.slice(1, 5)).toMatchObject([
      { text: 'A note' },
      { text: 'Another note' },
      { text: 'Restarted', lineId: 'restart' },
      { text: 'Signed in', lineId: 'auth' },
    ]);
    // A line ends the message before it: what follows is a new one.
    const after = applyEvents(applyEvents(emptyTranscript(), [chunk('one ')]), [
      { type: 'system', text: 'x', id: 'l' },
      chunk('two'),
    ]).rows;
    expect(after).toMatchObject([
      { text: 'one ' },
      { kind: 'system' },
      { text: 'two', first: true },
    ]);
  });

  it('takes a repeated tool call as an update of the first, keeping a call with no title without one', () => {
    const rows = rowsOf([
      { type: 'tool_call', toolCallId: 'c1', fields: { kind: 'read', status: 'pending' } },
      chunk('reading'),
      { type: 'tool_call', toolCallId: 'c1', fields: { status: 'completed' } },
      chunk('done'),
    ]);
    expect(kinds(rows)).toEqual(['tool', 'text', 'text']);
    expect(rows[0]).toMatchObject({ fields: { kind: 'read', status: 'completed' } });
    expect(rows[0]?.kind === 'tool' && rows[0].fields.title).toBeUndefined();
    // The call's update ends the message: what follows is a new one.
    expect(rows[2]).toMatchObject({ text: 'done', first: true });
  });

  it('shows a terminal on its tool call only once it has output', () => {
    const rows = rowsOf([
      {
        type: 'tool_call',
        toolCallId: 'c1',
        fields: { title: 'Run', content: [{ type: 'terminal', terminalId: 't9' }] },
      },
    ]);
    expect(rows[0]?.kind === 'tool' && rows[0].terminals).toBeUndefined();
  });
});

describe('answers to cards', () => {
  const agent = { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' };
  const form: TranscriptEvent = {
    type: 'elicitation',
    cardKey: 'f1',
    agent,
    scope: 'session',
    message: 'Your name?',
    mode: 'form',
    form: { fields: [] },
  };

  it('records a form card’s answer, and then it no longer waits', () => {
    const t = applyEvents(emptyTranscript(), [
      form,
      {
        type: 'elicitation_resolved',
        cardKey: 'f1',
        action: 'accept',
        content: { name: 'Ada' },
      },
    ]);
    const row = t.rows[0];
    expect(row).toMatchObject({
      kind: 'elicitation',
      resolved: { action: 'accept', content: { name: 'Ada' } },
    });
    expect(row?.kind === 'elicitation' && cardWaits(row)).toBe(false);
  });

  it('takes no page outcome for a form card, and changes nothing for a card it never saw', () => {
    const before = applyEvents(emptyTranscript(), [form]);
    const after = applyEvents(before, [
      { type: 'url_elicitation_done', cardKey: 'f1', how: 'completed' },
      { type: 'url_elicitation_done', cardKey: 'nope', how: 'completed' },
      { type: 'elicitation_resolved', cardKey: 'nope', action: 'decline' },
      { type: 'permission_resolved', promptKey: 'nope', outcome: { outcome: 'cancelled' } },
    ]);
    expect(after.rows[0]).toBe(before.rows[0]);
    // No row added, not even under a key that is no index.
    expect(Object.keys(after.rows)).toEqual(['0']);
  });
});

describe('a list cut across rows, streamed', () => {
  /** An item longer than a segment: its break, at its end, is the first one to cut at. */
  const longItem = (n: number) => `${n}. ${'word '.repeat(420).trim()}\n\n`;
  const texts = (rows: Row[]) => rows.filter((row) => row.kind === 'text');

  it('waits for the next row’s first line, however it arrives, before it decides', () => {
    // The first chunk ends at a paragraph break past the segment length: cut right there.
    const rows = texts(
      applyEvents(emptyTranscript(), [
        chunk(longItem(1)),
        chunk('6'),
        chunk('. the sixth'),
        { type: 'turn_end', stopReason: 'end_turn' },
      ]).rows,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ listAfter: true, more: true });
    expect(rows[1]).toMatchObject({ text: '6. the sixth', listBefore: true });
  });

  it('settles a pending cut when the next row is itself cut in the same chunk', () => {
    const rows = texts(
      applyEvents(emptyTranscript(), [
        chunk(longItem(1)),
        chunk(`${longItem(6)}A paragraph after the list.`),
      ]).rows,
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ listAfter: true });
    expect(rows[1]).toMatchObject({ listBefore: true });
  });

  it('marks nothing at a cut outside a list', () => {
    const paragraphs = `${'word '.repeat(90)}\n\n`.repeat(10);
    const events = [
      ...paragraphs.match(/[^]{1,100}/g)!.map((text) => chunk(text)),
      { type: 'turn_end', stopReason: 'end_turn' } as const,
    ];
    const rows = texts(applyEvents(emptyTranscript(), events).rows);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) {
      expect([row.listBefore, row.listAfter]).toEqual([undefined, undefined]);
    }
  });
});

describe('segmentCut at its edges', () => {
  const filler = (length: number) => 'a'.repeat(length);

  it('cuts from exactly the segment length, at a break from half of it', () => {
    const half = SEGMENT_CHARS / 2;
    expect(segmentCut(`${filler(half + 200)}\n\n${filler(100)}`)).toBeUndefined();
    const exact = `${filler(half)}\n\n${filler(SEGMENT_CHARS - half - 2)}`;
    expect(exact).toHaveLength(SEGMENT_CHARS);
    expect(segmentCut(exact)).toBe(half + 2);
    expect(segmentCut(`${filler(half - 1)}\n\n${filler(SEGMENT_CHARS)}`)).toBeUndefined();
  });

  it('counts only fences at a line’s start before the break, indented or not', () => {
    const closed = `\`\`\`\ncode\n\`\`\`\n${filler(SEGMENT_CHARS)}\n\nrest`;
    expect(segmentCut(closed)).toBe(closed.indexOf('\n\nrest') + 2);
    const inline = `use \`\`\` to open a fence\n${filler(SEGMENT_CHARS)}\n\nrest`;
    expect(segmentCut(inline)).toBe(inline.indexOf('\n\nrest') + 2);
    const indented = `  \`\`\`\n${filler(SEGMENT_CHARS)}\n\nrest`;
    expect(segmentCut(indented)).toBeUndefined();
    const opensAfter = `${filler(SEGMENT_CHARS)}\n\n\`\`\`\ncode`;
    expect(segmentCut(opensAfter)).toBe(SEGMENT_CHARS + 2);
  });

  it('cuts hard from exactly the maximum, at the last line break past half of it', () => {
    expect(segmentCut(filler(MAX_SEGMENT_CHARS))).toBe(MAX_SEGMENT_CHARS);
    expect(segmentCut(filler(MAX_SEGMENT_CHARS - 1))).toBeUndefined();
    const lines = `${filler(12_000)}\n${filler(MAX_SEGMENT_CHARS)}`;
    expect(segmentCut(lines)).toBe(12_001);
    const atHalf = `${filler(MAX_SEGMENT_CHARS / 2)}\n${filler(MAX_SEGMENT_CHARS)}`;
    expect(segmentCut(atHalf)).toBe(MAX_SEGMENT_CHARS);
  });
});
