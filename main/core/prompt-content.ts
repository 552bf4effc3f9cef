/**
 * A prompt's attachments as the ACP content blocks the agent gets.
 *
 * The agent says in `initialize` what a prompt may hold besides text and `resource_link`
 * (`promptCapabilities`), and the spec says a client MUST NOT send what it did not advertise.
 * The renderer only collects: here each file is checked to be a file inside the session's
 * folder (containment.ts, the check agents' own file requests pass), each image to be the
 * type it claims, and anything the agent does not accept is refused with the reason, before
 * anything is sent. A file goes as a `resource_link` to it, or embedded with its text when the
 * agent takes `embeddedContext` and the file is text and small enough.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentView } from '../../preload/shared/contract.js';
import {
  MAX_PROMPT_IMAGE_BYTES,
  type ImageAttachment,
  type ImageMimeType,
  type PromptAttachments,
  type PromptCapabilitiesView,
} from '../../preload/shared/prompt-content.js';
import { UserFacingError } from './errors.js';
import { nodeResolver, quotePath, resolveInside, type PathResolver } from './files/containment.js';
import { decode } from './files/read.js';

/** The largest file embedded with its text; a larger one goes as a link. */
export const MAX_EMBEDDED_BYTES = 256 * 1024;

/** The blocks a prompt's attachments make, and how the transcript shows each. */
export type AttachedContent = { blocks: acp.ContentBlock[]; views: ContentView[] };

/** Where the attachments come from and what the agent takes. */
export type AttachContext = {
  /** The session's folder: every file must be inside it. */
  cwd: string;
  accepts: PromptCapabilitiesView;
  /** The agent's name, for the refusals. */
  agentName: string;
  api?: path.PlatformPath;
  fs?: PathResolver;
};

/**
 * What the agent accepts, from its raw `initialize` capabilities: only a literal `true` counts,
 * as the SDK passes the result through unchecked.
 */
export function promptAccepts(capabilities: unknown): PromptCapabilitiesView {
  const prompt = (capabilities as { promptCapabilities?: Record<string, unknown> } | undefined)
    ?.promptCapabilities;
  return { image: prompt?.image === true, embeddedContext: prompt?.embeddedContext === true };
}

/** The types of common files, told to the agent; others go without a type. */
const MIME_TYPES: Record<string, string> = {
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.js': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.py': 'text/x-python',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** The leading bytes each image type starts with. */
const SIGNATURES: Record<ImageMimeType, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/**
 * The blocks for `attachments`, in order: files, then images. Throws a {@link UserFacingError}
 * naming the first one that cannot go, and then nothing is sent.
 */
export async function attachedContent(
  attachments: PromptAttachments | undefined,
  context: AttachContext,
): Promise<AttachedContent> {
  const content: AttachedContent = { blocks: [], views: [] };
  const seen = new Set<string>();
  for (const file of attachments?.files ?? []) {
    const block = await fileBlock(file, context);
    // The same file twice (by two names, say) goes once.
    const uri = block.type === 'resource' ? block.resource.uri : block.uri;
    if (!seen.has(uri)) {
      seen.add(uri);
      content.blocks.push(block);
      content.views.push(
        block.type === 'resource'
          ? { type: 'resource', uri }
          : { type: 'resource_link', uri, name: block.name },
      );
    }
  }
  const images = attachments?.images ?? [];
  if (images.length > 0 && !context.accepts.image) {
    throw new UserFacingError(`${context.agentName} does not accept images. Nothing was sent.`);
  }
  let total = 0;
  for (const image of images) {
    total += checkImage(image);
    if (total > MAX_PROMPT_IMAGE_BYTES) {
      throw new UserFacingError(
        `The images of one message can take at most ${MAX_PROMPT_IMAGE_BYTES / 1_000_000} MB together. Nothing was sent.`,
      );
    }
    content.blocks.push({ type: 'image', mimeType: image.mimeType, data: image.data });
    content.views.push({ type: 'image', mimeType: image.mimeType });
  }
  return content;
}

/** The block for one file of the folder, named relative to it. */
async function fileBlock(
  relative: string,
  { cwd, accepts, api = path, fs = nodeResolver }: AttachContext,
): Promise<Extract<acp.ContentBlock, { type: 'resource' | 'resource_link' }>> {
  if (relative.includes('\0') || api.isAbsolute(relative)) {
    throw new UserFacingError(`${quotePath(relative)} is not a path inside the session's folder.`);
  }
  let real: string;
  try {
    real = await resolveInside(cwd, api.join(cwd, relative), api, fs);
  } catch (error) {
    throw new UserFacingError(
      `Cannot attach ${quotePath(relative)}: ${(error as Error).message}. Nothing was sent.`,
    );
  }
  const info = await stat(real).catch(() => undefined);
  if (!info?.isFile()) {
    throw new UserFacingError(`Cannot attach ${quotePath(relative)}: it is not a file.`);
  }
  const uri = pathToFileURL(real).href;
  const mimeType = MIME_TYPES[api.extname(real).toLowerCase()];
  if (accepts.embeddedContext && info.size <= MAX_EMBEDDED_BYTES) {
    const file = decode(await readFile(real));
    if (file.kind === 'text') {
      return {
        type: 'resource',
        resource: { uri, text: file.text, ...(mimeType ? { mimeType } : {}) },
      };
    }
  }
  const name = relative.split(api.sep).join('/');
  return { type: 'resource_link', uri, name, size: info.size, ...(mimeType ? { mimeType } : {}) };
}

/** The image's size in bytes, once its bytes are checked to be of the type it claims. */
function checkImage(image: ImageAttachment): number {
  const bytes = Buffer.from(image.data, 'base64');
  if (!SIGNATURES[image.mimeType](bytes)) {
    throw new UserFacingError(`An attached image is not the ${image.mimeType} it claims to be.`);
  }
  return bytes.length;
}
