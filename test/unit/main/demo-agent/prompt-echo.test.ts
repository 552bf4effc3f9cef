/** The demo agent's account of a prompt's attachments, and the switch that takes them away. */
import { describe, expect, it } from 'vitest';
import {
  demoPromptCapabilities,
  describeAttachments,
} from '../../../../main/demo-agent/prompt-echo.js';
import { PIXEL_PNG } from '../../../helpers/pixel.js';

const all = { image: true, audio: false, embeddedContext: true };

describe('demoPromptCapabilities', () => {
  it('takes images and embedded context, unless AIRLOCK_DEMO_PLAIN_PROMPTS=1', () => {
    expect(demoPromptCapabilities({})).toEqual(all);
    expect(demoPromptCapabilities({ AIRLOCK_DEMO_PLAIN_PROMPTS: '1' })).toEqual({
      image: false,
      audio: false,
      embeddedContext: false,
    });
  });
});

describe('describeAttachments', () => {
  it('says nothing of a prompt of text only', () => {
    expect(describeAttachments([{ type: 'text', text: 'hi' }], all)).toBeUndefined();
  });

  it('has a line for each block that is not text', () => {
    const said = describeAttachments(
      [
        { type: 'text', text: 'look' },
        { type: 'resource_link', uri: 'file:///w/notes.md', name: 'notes.md', size: 12 },
        { type: 'resource', resource: { uri: 'file:///w/my%20notes.md', text: 'abc' } },
        { type: 'image', mimeType: 'image/png', data: PIXEL_PNG },
      ],
      all,
    );
    expect(said).toBe(
      '- Got resource_link file:///w/notes.md (12 bytes)\n- Got resource my notes.md (3 characters)\n- Got image image/png (68 bytes)\n\n',
    );
  });

  it('calls out a block it did not advertise', () => {
    const said = describeAttachments([{ type: 'image', mimeType: 'image/png', data: PIXEL_PNG }], {
      image: false,
    });
    expect(said).toContain('(which I did not advertise!)');
  });

  it('describes at most 50 blocks and counts the rest', () => {
    const links = Array.from({ length: 60 }, (_, i) => ({
      type: 'resource_link' as const,
      uri: `file:///w/${i}`,
      name: `${i}`,
    }));
    const lines = describeAttachments(links, all)!.trim().split('\n');
    expect(lines).toHaveLength(51);
    expect(lines.at(-1)).toBe('- …and 10 more');
  });
});
