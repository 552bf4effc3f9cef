import { describe, expect, it } from 'vitest';
import { attachmentText } from '../../../renderer/src/components/rows.js';

describe('attachmentText', () => {
  it('names a file the user attached by its name, and an image by its type', () => {
    expect(
      attachmentText({ type: 'resource_link', uri: 'file:///w/notes.md', name: 'notes.md' }),
    ).toBe('Attached notes.md');
    expect(attachmentText({ type: 'resource', uri: 'file:///w/my%20plan.md?x#y' })).toBe(
      'Attached my plan.md, its text included',
    );
    expect(attachmentText({ type: 'image', mimeType: 'image/png' })).toBe(
      'Attached an image (image/png)',
    );
  });

  it('keeps a name that is not valid percent-encoding as it is, and leaves text alone', () => {
    expect(attachmentText({ type: 'resource', uri: 'file:///w/100%.txt' })).toBe(
      'Attached 100%.txt, its text included',
    );
    expect(attachmentText({ type: 'resource', uri: 'notes' })).toBe(
      'Attached notes, its text included',
    );
    expect(attachmentText({ type: 'text', text: 'hello' })).toBeUndefined();
  });
});
