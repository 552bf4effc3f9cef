import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LongTextRow, sizeText } from '../../../renderer/src/components/long-text.js';
import { MessageText } from '../../../renderer/src/components/message-copy.js';

describe('sizeText', () => {
  it('says a size as a reader takes it', () => {
    expect([1, 812, 1024, 65_536, 1_048_576, 9_934_464, 52_428_800].map(sizeText)).toEqual([
      '1 character',
      '812 characters',
      '1 KB',
      '64 KB',
      '1.0 MB',
      '9.5 MB',
      '50 MB',
    ]);
  });
});

describe('LongTextRow', () => {
  it('says how much is held back and offers Show all and Copy, drawing none of the text', () => {
    const text = 'z'.repeat(10_000_000);
    const html = renderToStaticMarkup(
      createElement(
        MessageText.Provider,
        { value: () => text },
        createElement(LongTextRow, {
          row: { kind: 'overflow', id: 7, role: 'agent', text, cause: 'line' },
        }),
      ),
    );
    expect(html).toContain('The rest of this line (9.5 MB) is too long to show here.');
    expect(html).toMatch(/<button[^>]*aria-expanded="false"[^>]*>Show all<\/button>/);
    expect(html).toContain('Copy<span class="visually-hidden"> message</span>');
    expect(html.length).toBeLessThan(2_000);
  });

  it('names a held-back message as a message', () => {
    const html = renderToStaticMarkup(
      createElement(LongTextRow, {
        row: { kind: 'overflow', id: 8, role: 'agent', text: 'abc', cause: 'message' },
      }),
    );
    expect(html).toContain('The rest of this message (3 characters) is too long to show here.');
  });
});
