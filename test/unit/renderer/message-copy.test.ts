import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/shared/contract.js';
import { messageText } from '../../../renderer/src/components/message-copy.js';
import { nodeText } from '../../../renderer/src/components/markdown.js';
import {
  applyEvents,
  emptyTranscript,
  SEGMENT_CHARS,
} from '../../../renderer/src/state/transcript.js';

const chunk = (text: string, role: 'agent' | 'user' = 'agent'): TranscriptEvent => ({
  type: 'chunk',
  role,
  text,
});

describe('messageText', () => {
  it('gives every segment of a message cut into rows, from any of its rows', () => {
    const paragraph = `${'word '.repeat(SEGMENT_CHARS / 5)}\n\n`;
    const long = paragraph.repeat(4);
    const { rows } = applyEvents(emptyTranscript(), [
      { type: 'prompt', text: 'hi' },
      chunk(long.slice(0, 3000)),
      chunk(long.slice(3000)),
      { type: 'turn_end', stopReason: 'end_turn' },
    ]);
    const segments = rows.filter((row) => row.kind === 'text');
    expect(segments.length).toBeGreaterThan(2);
    for (const row of segments) {
      expect(messageText(rows, row.id)).toBe(long);
    }
  });

  it('stops at the next message, a tool call between them or another role', () => {
    const { rows } = applyEvents(emptyTranscript(), [
      chunk('first'),
      { type: 'tool_call', toolCallId: 't1', fields: { title: 'Read' } },
      chunk('second'),
      chunk(' part'),
      chunk('from the user', 'user'),
      { type: 'prompt', text: 'again' },
      chunk('third'),
    ]);
    const texts = rows.filter((row) => row.kind === 'text');
    expect(texts.map((row) => messageText(rows, row.id))).toEqual([
      'first',
      'second part',
      'from the user',
      'third',
    ]);
  });

  it('is empty for a row that is gone or is not text', () => {
    const { rows } = applyEvents(emptyTranscript(), [{ type: 'prompt', text: 'hi' }]);
    expect(messageText(rows, rows[0]!.id)).toBe('');
    expect(messageText(rows, 999)).toBe('');
  });
});

describe('nodeText', () => {
  it('joins the text of a code block as written', () => {
    expect(
      nodeText({
        type: 'element',
        tagName: 'pre',
        children: [
          {
            type: 'element',
            tagName: 'code',
            children: [
              { type: 'text', value: 'a <b>\n' },
              { type: 'element', tagName: 'span', children: [{ type: 'text', value: '  c' }] },
            ],
          },
        ],
      }),
    ).toBe('a <b>\n  c');
    expect(nodeText(undefined)).toBe('');
  });
});
