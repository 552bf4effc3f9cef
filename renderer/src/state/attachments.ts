/**
 * What the composer attaches to a message, as plain functions and a per-tab store: the `@`
 * mention being typed, the files and images picked, and the checks a user hears about at once
 * (the core checks again, and is the one that decides: see main/core/prompt-content.ts).
 */
import {
  IMAGE_MIME_TYPES,
  MAX_ATTACHED_FILES,
  MAX_ATTACHED_IMAGES,
  MAX_PROMPT_IMAGE_BYTES,
} from '../../../preload/shared/contract-plain';
import type { ImageMimeType, PromptAttachments } from '../../../preload/shared/prompt-content';

/** An image the user attached, as it goes to the core and as its chip shows it. */
export type AttachedImage = {
  id: number;
  name: string;
  mimeType: ImageMimeType;
  data: string;
  size: number;
};

/** The files and images attached to one tab's message. */
export type Attached = { files: readonly string[]; images: readonly AttachedImage[] };

/** Nothing attached. */
export const NOTHING: Attached = { files: [], images: [] };

/** What the message says when a file dropped from outside cannot be attached. */
export const USE_MENTION = 'Use @ to attach files from the folder.';

/**
 * The `@` mention the caret is in: from an `@` at the start or after a space up to the caret,
 * with no space in it. `start` is where the `@` is.
 */
export function mentionAt(
  text: string,
  caret: number,
): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@(\S*)$/.exec(before);
  if (!match) {
    return undefined;
  }
  const query = match[2]!;
  return { start: caret - query.length - 1, query };
}

/** The text without the mention (and the space after it), and where the caret goes. */
export function dropMention(
  text: string,
  mention: { start: number; query: string },
): { text: string; caret: number } {
  let end = mention.start + mention.query.length + 1;
  // The rest of the word goes too (the caret may be inside it), and one space after it.
  while (end < text.length && !/\s/.test(text[end]!)) {
    end += 1;
  }
  if (text[end] === ' ' && (mention.start === 0 || /\s/.test(text[mention.start - 1]!))) {
    end += 1;
  }
  return { text: text.slice(0, mention.start) + text.slice(end), caret: mention.start };
}

/** Adds a file of the folder, once; a message refuses more than the contract takes. */
export function withFile(attached: Attached, path: string): Attached | string {
  if (attached.files.includes(path)) {
    return attached;
  }
  if (attached.files.length >= MAX_ATTACHED_FILES) {
    return `A message can attach at most ${MAX_ATTACHED_FILES} files.`;
  }
  return { ...attached, files: [...attached.files, path] };
}

/** Sizes as people read them ("1.2 MB", "830 KB"). */
export function formatBytes(bytes: number): string {
  return bytes >= 1_000_000
    ? `${(bytes / 1_000_000).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/**
 * Why a file given as a browser `File` (pasted, dropped, picked) cannot be attached as an image
 * now; `undefined` when it can.
 */
export function imageProblem(
  file: { name: string; type: string; size: number },
  attached: Attached,
  agent: { name: string; acceptsImages: boolean },
): string | undefined {
  const label = file.name || 'The pasted image';
  if (!file.type.startsWith('image/')) {
    return `${label} is not an image. ${USE_MENTION}`;
  }
  if (!agent.acceptsImages) {
    return `${agent.name} does not accept images.`;
  }
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return `${label} is ${file.type}; images can be PNG, JPEG, GIF or WebP.`;
  }
  if (attached.images.length >= MAX_ATTACHED_IMAGES) {
    return `A message can attach at most ${MAX_ATTACHED_IMAGES} images.`;
  }
  const taken = attached.images.reduce((sum, image) => sum + image.size, 0);
  if (taken + file.size > MAX_PROMPT_IMAGE_BYTES) {
    return `${label} is ${formatBytes(file.size)}; the images of one message can take at most ${formatBytes(MAX_PROMPT_IMAGE_BYTES)} together.`;
  }
  return undefined;
}

/** The attachments as the `session:prompt` call takes them; `undefined` when there are none. */
export function promptAttachments(attached: Attached): PromptAttachments | undefined {
  if (attached.files.length === 0 && attached.images.length === 0) {
    return undefined;
  }
  return {
    ...(attached.files.length > 0 ? { files: [...attached.files] } : {}),
    ...(attached.images.length > 0
      ? { images: attached.images.map(({ mimeType, data }) => ({ mimeType, data })) }
      : {}),
  };
}

/** What each tab has attached and not sent yet, kept in memory while the page lives. */
export const attachmentDrafts = new Map<string, Attached>();
