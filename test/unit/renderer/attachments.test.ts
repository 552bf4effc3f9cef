import { describe, expect, it } from 'vitest';
import {
  dropMention,
  formatBytes,
  imageProblem,
  mentionAt,
  NOTHING,
  promptAttachments,
  USE_MENTION,
  withFile,
  type AttachedImage,
} from '../../../renderer/src/state/attachments.js';
import {
  MAX_ATTACHED_FILES,
  MAX_ATTACHED_IMAGES,
  MAX_PROMPT_IMAGE_BYTES,
} from '../../../preload/shared/prompt-content.js';

const agent = { name: 'Agent', acceptsImages: true };
const png = (size: number) => ({ name: 'a.png', type: 'image/png', size });
const image = (id: number, size: number): AttachedImage => ({
  id,
  name: `${id}.png`,
  mimeType: 'image/png',
  data: 'AAAA',
  size,
});

describe('mentionAt', () => {
  it('is the word after an @ at the start or after a space, up to the caret', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('look at @src/no', 15)).toEqual({ start: 8, query: 'src/no' });
    expect(mentionAt('look at @src/no', 12)).toEqual({ start: 8, query: 'src' });
    expect(mentionAt('line\n@x', 7)).toEqual({ start: 5, query: 'x' });
  });

  it('is nothing in an e-mail address, after a space, or before the @', () => {
    expect(mentionAt('me@example.com', 14)).toBeUndefined();
    expect(mentionAt('@src rest', 9)).toBeUndefined();
    expect(mentionAt('@src', 0)).toBeUndefined();
  });
});

describe('dropMention', () => {
  it('takes the mention out, the rest of its word and one space after it, with the caret there', () => {
    expect(dropMention('look at @no please', { start: 8, query: 'no' })).toEqual({
      text: 'look at please',
      caret: 8,
    });
    expect(dropMention('@notes.md', { start: 0, query: 'no' })).toEqual({ text: '', caret: 0 });
    expect(dropMention('end @x', { start: 4, query: 'x' })).toEqual({ text: 'end ', caret: 4 });
    // A bare @ goes too; a space after a mention at the start goes; a line break after it stays.
    expect(dropMention('look @', { start: 5, query: '' })).toEqual({ text: 'look ', caret: 5 });
    expect(dropMention('@x rest', { start: 0, query: 'x' })).toEqual({ text: 'rest', caret: 0 });
    expect(dropMention('a @x\nnext', { start: 2, query: 'x' })).toEqual({
      text: 'a \nnext',
      caret: 2,
    });
  });
});

describe('formatBytes', () => {
  it('gives kilobytes, at least one, below a megabyte, and megabytes from one', () => {
    expect(formatBytes(0)).toBe('1 KB');
    expect(formatBytes(1_499)).toBe('1 KB');
    expect(formatBytes(830_000)).toBe('830 KB');
    expect(formatBytes(999_499)).toBe('999 KB');
    expect(formatBytes(1_000_000)).toBe('1.0 MB');
    expect(formatBytes(1_250_000)).toBe('1.3 MB');
  });
});

describe('withFile', () => {
  it('adds a file once, and refuses more than a message takes', () => {
    const one = withFile(NOTHING, 'a.md');
    expect(one).toEqual({ files: ['a.md'], images: [] });
    expect(withFile(one as typeof NOTHING, 'a.md')).toBe(one);
    const full = {
      files: Array.from({ length: MAX_ATTACHED_FILES }, (_, i) => `${i}`),
      images: [],
    };
    expect(withFile(full, 'more.md')).toBe(
      `A message can attach at most ${MAX_ATTACHED_FILES} files.`,
    );
  });
});

describe('imageProblem', () => {
  it('accepts a supported image within the limits', () => {
    expect(imageProblem(png(1000), NOTHING, agent)).toBeUndefined();
  });

  it('points a file that is not an image at @', () => {
    expect(imageProblem({ name: 'n.md', type: 'text/markdown', size: 1 }, NOTHING, agent)).toBe(
      `n.md is not an image. ${USE_MENTION}`,
    );
  });

  it('names a pasted image that has no name as such, and points at @', () => {
    expect(imageProblem({ name: '', type: 'text/plain', size: 1 }, NOTHING, agent)).toBe(
      `The pasted image is not an image. ${USE_MENTION}`,
    );
    expect(USE_MENTION).toContain('@');
  });

  it('says when the agent does not take images', () => {
    expect(imageProblem(png(1), NOTHING, { name: 'Codex', acceptsImages: false })).toBe(
      'Codex does not accept images.',
    );
  });

  it('refuses an unsupported image type', () => {
    expect(imageProblem({ name: 'x.bmp', type: 'image/bmp', size: 1 }, NOTHING, agent)).toBe(
      'x.bmp is image/bmp; images can be PNG, JPEG, GIF or WebP.',
    );
  });

  it('refuses more images, or more bytes together, than a message takes', () => {
    const many = {
      files: [],
      images: Array.from({ length: MAX_ATTACHED_IMAGES }, (_, i) => image(i, 1)),
    };
    expect(imageProblem(png(1), many, agent)).toBe(
      `A message can attach at most ${MAX_ATTACHED_IMAGES} images.`,
    );
    const half = { files: [], images: [image(1, MAX_PROMPT_IMAGE_BYTES / 2)] };
    expect(imageProblem(png(MAX_PROMPT_IMAGE_BYTES / 2), half, agent)).toBeUndefined();
    expect(imageProblem(png(MAX_PROMPT_IMAGE_BYTES / 2 + 1), half, agent)).toBe(
      'a.png is 1.3 MB; the images of one message can take at most 2.5 MB together.',
    );
  });
});

describe('promptAttachments', () => {
  it('is nothing without attachments, and only the fields the call takes with them', () => {
    expect(promptAttachments(NOTHING)).toBeUndefined();
    expect(promptAttachments({ files: ['a.md'], images: [] })).toEqual({ files: ['a.md'] });
    expect(promptAttachments({ files: [], images: [image(1, 3)] })).toEqual({
      images: [{ mimeType: 'image/png', data: 'AAAA' }],
    });
  });
});
