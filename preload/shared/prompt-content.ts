/**
 * What a prompt may carry besides its text, and what the agent says it accepts: the contract's
 * part about attachments (files of the session's folder, images) and the folder's file
 * completion. Imports only zod, as the contract does.
 */
import { z } from 'zod';
// The limits the UI reads without building a schema.
import {
  IMAGE_MIME_TYPES,
  MAX_ATTACHED_FILES,
  MAX_ATTACHED_IMAGES,
  MAX_PROMPT_IMAGE_BYTES,
} from './contract-plain.js';

export {
  IMAGE_MIME_TYPES,
  MAX_ATTACHED_FILES,
  MAX_ATTACHED_IMAGES,
  MAX_PROMPT_IMAGE_BYTES,
} from './contract-plain.js';
/** The longest relative path an attachment or a completion names, in characters. */
export const MAX_ATTACHED_PATH_CHARS = 4096;
/** The most paths one file completion answers. */
export const MAX_COMPLETIONS = 50;
/** The longest text typed after `@` that the core matches paths against, in characters. */
export const MAX_COMPLETION_QUERY_CHARS = 1000;

/** One of {@link IMAGE_MIME_TYPES}. */
export const ImageMimeType = z.enum(IMAGE_MIME_TYPES);
export type ImageMimeType = z.infer<typeof ImageMimeType>;

/** A path inside the session's folder, relative to it, with `/` or the platform's separator. */
const relativePath = z.string().min(1).max(MAX_ATTACHED_PATH_CHARS);

/** An image pasted, dropped or picked by the user: its type and its bytes as base64. */
export const ImageAttachment = z
  .object({
    mimeType: ImageMimeType,
    data: z
      .string()
      .min(1)
      .max(Math.ceil(MAX_PROMPT_IMAGE_BYTES / 3) * 4)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Image data must be base64'),
  })
  .strict();
export type ImageAttachment = z.infer<typeof ImageAttachment>;

/**
 * What a prompt attaches. The core checks each file is inside the session's folder and sends
 * nothing the agent did not advertise (see main/core/prompt-content.ts).
 */
export const PromptAttachments = z
  .object({
    files: z.array(relativePath).max(MAX_ATTACHED_FILES).optional(),
    images: z.array(ImageAttachment).max(MAX_ATTACHED_IMAGES).optional(),
  })
  .strict();
export type PromptAttachments = z.infer<typeof PromptAttachments>;

/**
 * What the session's agent accepts in a prompt besides text and links to files, from its
 * `promptCapabilities`: `image` blocks, and files embedded with their text (`embeddedContext`).
 */
export const PromptCapabilitiesView = z.object({
  image: z.boolean(),
  embeddedContext: z.boolean(),
});
export type PromptCapabilitiesView = z.infer<typeof PromptCapabilitiesView>;

/** The answer to `files:complete`: files of a session's folder whose path fits what was typed. */
export const FileCompletion = z.object({
  /** Paths relative to the folder, with `/` between names, best first. */
  paths: z.array(z.string().max(MAX_ATTACHED_PATH_CHARS)).max(MAX_COMPLETIONS),
  /** Whether the walk stopped at its budget: a file not listed may still exist. */
  partial: z.boolean(),
});
export type FileCompletion = z.infer<typeof FileCompletion>;
