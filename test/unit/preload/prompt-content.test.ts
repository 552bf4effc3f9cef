/**
 * The contract's part about attachments (preload/shared/prompt-content.ts) on its own: what a page may
 * attach to a prompt. test/unit/main/turns/prompt-content.test.ts checks what the core sends of it.
 */
import { describe, expect, it } from 'vitest';
import {
  FileCompletion,
  ImageAttachment,
  MAX_ATTACHED_FILES,
  MAX_ATTACHED_IMAGES,
  MAX_COMPLETIONS,
  MAX_PROMPT_IMAGE_BYTES,
  PromptAttachments,
  PromptCapabilitiesView,
} from '../../../preload/shared/prompt-content.js';

/** The first problem zod finds, or null when the value is accepted. */
const problem = (
  schema: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues[0]?.message ?? null;

describe('ImageAttachment', () => {
  it.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])('takes %s', (mimeType) => {
    expect(problem(ImageAttachment, { mimeType, data: 'iVBORw0KGgo=' })).toBeNull();
  });

  it('takes base64 with no padding, one or two padding characters, and every letter of it', () => {
    for (const data of ['QUJD', 'QUI=', 'QQ==', 'ABCXYZabcxyz0189+/']) {
      expect(problem(ImageAttachment, { mimeType: 'image/png', data }), data).toBeNull();
    }
  });

  it.each([
    ['three padding characters', 'Q==='],
    ['padding in the middle', 'QQ==QQ=='],
    ['a space', 'QU JD'],
    ['a line break at the end', 'QUJD\n'],
    ['a URL-safe character', 'QU-_'],
    ['padding alone', '=='],
  ])('says the data must be base64 with %s', (_name, data) => {
    expect(problem(ImageAttachment, { mimeType: 'image/png', data })).toBe(
      'Image data must be base64',
    );
  });

  it(`takes the base64 of ${MAX_PROMPT_IMAGE_BYTES} bytes and no more`, () => {
    const longest = Math.ceil(MAX_PROMPT_IMAGE_BYTES / 3) * 4;
    expect(longest).toBe(3_333_336);
    expect(
      problem(ImageAttachment, { mimeType: 'image/png', data: 'A'.repeat(longest) }),
    ).toBeNull();
    expect(
      problem(ImageAttachment, { mimeType: 'image/png', data: 'A'.repeat(longest + 1) }),
    ).not.toBeNull();
  });

  it('refuses another type, empty data and extra keys', () => {
    expect(problem(ImageAttachment, { mimeType: 'image/svg+xml', data: 'QUJD' })).not.toBeNull();
    expect(problem(ImageAttachment, { mimeType: 'image/png', data: '' })).not.toBeNull();
    expect(
      problem(ImageAttachment, { mimeType: 'image/png', data: 'QUJD', uri: 'file:///etc' }),
    ).not.toBeNull();
  });
});

describe('PromptAttachments and FileCompletion', () => {
  const image = { mimeType: 'image/png', data: 'QUJD' };

  it('bounds the files and images of one prompt', () => {
    const files = (count: number) => Array.from({ length: count }, (_, i) => `f${i}.txt`);
    expect(problem(PromptAttachments, { files: files(MAX_ATTACHED_FILES) })).toBeNull();
    expect(problem(PromptAttachments, { files: files(MAX_ATTACHED_FILES + 1) })).not.toBeNull();
    const images = (count: number) => Array.from({ length: count }, () => image);
    expect(problem(PromptAttachments, { images: images(MAX_ATTACHED_IMAGES) })).toBeNull();
    expect(problem(PromptAttachments, { images: images(MAX_ATTACHED_IMAGES + 1) })).not.toBeNull();
  });

  it('refuses an empty path and a key it does not know', () => {
    expect(problem(PromptAttachments, { files: [''] })).not.toBeNull();
    expect(problem(PromptAttachments, { folders: ['src'] })).not.toBeNull();
    expect(problem(PromptAttachments, {})).toBeNull();
  });

  it('bounds a completion', () => {
    const paths = (count: number) => Array.from({ length: count }, (_, i) => `f${i}`);
    expect(problem(FileCompletion, { paths: paths(MAX_COMPLETIONS), partial: false })).toBeNull();
    expect(
      problem(FileCompletion, { paths: paths(MAX_COMPLETIONS + 1), partial: false }),
    ).not.toBeNull();
  });
});

describe('PromptCapabilitiesView', () => {
  it('keeps both capabilities, and needs each', () => {
    const view = { image: true, embeddedContext: false };
    expect(PromptCapabilitiesView.parse(view)).toEqual(view);
    expect(problem(PromptCapabilitiesView, { image: true })).not.toBeNull();
  });
});
