/**
 * What the demo agent takes in a prompt besides text, and its account of what it got: one line
 * per attached block, so a test (or a curious user) sees exactly which blocks Airlock sent.
 *
 * It advertises images and embedded context, unless `AIRLOCK_DEMO_PLAIN_PROMPTS=1` is set, for
 * tests of a client facing an agent that takes neither. A block it did not advertise is called
 * out: the client must never send one.
 */
import type * as acp from '@agentclientprotocol/sdk';

/** The most blocks described in one reply; the rest are counted. */
const MAX_DESCRIBED = 50;

/** The demo agent's `promptCapabilities`. */
export function demoPromptCapabilities(
  env: NodeJS.ProcessEnv = process.env,
): acp.PromptCapabilities {
  const plain = env.AIRLOCK_DEMO_PLAIN_PROMPTS === '1';
  return { image: !plain, audio: false, embeddedContext: !plain };
}

/** The last name of a URI's path, for a short line. */
function lastName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1)) || uri;
}

/** One line about a block, or `undefined` for text (which the reply answers itself). */
function describe(block: acp.ContentBlock, accepts: acp.PromptCapabilities): string | undefined {
  const unasked = (what: keyof acp.PromptCapabilities) =>
    accepts[what] ? '' : ' (which I did not advertise!)';
  switch (block.type) {
    case 'text':
      return undefined;
    case 'resource_link':
      return `Got resource_link ${block.uri}${block.size == null ? '' : ` (${block.size} bytes)`}`;
    case 'resource': {
      const { resource } = block;
      const size =
        'text' in resource
          ? `${resource.text.length} characters`
          : `${resource.blob.length} base64 characters`;
      return `Got resource ${lastName(resource.uri)} (${size})${unasked('embeddedContext')}`;
    }
    case 'image': {
      const bytes = Buffer.from(block.data, 'base64').length;
      return `Got image ${block.mimeType} (${bytes} bytes)${unasked('image')}`;
    }
    case 'audio':
      return `Got audio ${block.mimeType}${unasked('audio')}`;
  }
}

/**
 * The reply's account of a prompt's non-text blocks, a line each; `undefined` when it has none.
 */
export function describeAttachments(
  prompt: readonly acp.ContentBlock[],
  accepts: acp.PromptCapabilities = demoPromptCapabilities(),
): string | undefined {
  const lines = prompt.flatMap((block) => describe(block, accepts) ?? []);
  if (lines.length === 0) {
    return undefined;
  }
  const more = lines.length - MAX_DESCRIBED;
  const shown = lines.slice(0, MAX_DESCRIBED);
  // A Markdown list: one item a block, each on its own line in the transcript.
  const items = [...shown, ...(more > 0 ? [`…and ${more} more`] : [])];
  return `${items.map((line) => `- ${line}`).join('\n')}\n\n`;
}
