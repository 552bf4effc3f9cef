/** A prompt's attachments as ACP blocks: per capability, within limits, inside the folder. */
import type * as acp from '@agentclientprotocol/sdk';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  attachedContent,
  MAX_EMBEDDED_BYTES,
  promptAccepts,
  type AttachContext,
} from '../../../../main/core/prompt-content.js';
import { calls } from '../../../../preload/shared/contract.js';
import { MAX_PROMPT_IMAGE_BYTES } from '../../../../preload/shared/prompt-content.js';
import { PIXEL_PNG } from '../../../helpers/pixel.js';

let folder: string;
const all = { image: true, embeddedContext: true };
const none = { image: false, embeddedContext: false };
const context = (accepts = all): AttachContext => ({ cwd: folder, accepts, agentName: 'Agent' });
const uriOf = (relative: string) => pathToFileURL(path.join(folder, relative)).href;

beforeEach(() => {
  folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'airlock-attach-')));
  mkdirSync(path.join(folder, 'docs'));
  writeFileSync(path.join(folder, 'docs', 'notes.md'), '# Notes\nhello\n');
  writeFileSync(path.join(folder, 'blob.bin'), Buffer.from([1, 0, 2, 3]));
});

describe('promptAccepts', () => {
  it('counts only a literal true, as the capabilities come unchecked from the agent', () => {
    expect(promptAccepts({ promptCapabilities: { image: true, embeddedContext: true } })).toEqual(
      all,
    );
    expect(promptAccepts({ promptCapabilities: { image: 'yes', embeddedContext: 1 } })).toEqual(
      none,
    );
    expect(promptAccepts(undefined)).toEqual(none);
    expect(promptAccepts({})).toEqual(none);
  });
});

describe('attachedContent: files', () => {
  it('embeds a text file with its text when the agent takes embedded context', async () => {
    const { blocks, views } = await attachedContent({ files: ['docs/notes.md'] }, context());
    expect(blocks).toEqual([
      {
        type: 'resource',
        resource: {
          uri: uriOf('docs/notes.md'),
          text: '# Notes\nhello\n',
          mimeType: 'text/markdown',
        },
      },
    ]);
    // The transcript names it; the text itself stays out of the user's row.
    expect(views).toEqual([{ type: 'resource', uri: uriOf('docs/notes.md') }]);
  });

  it('links to the file when the agent does not take embedded context', async () => {
    const { blocks, views } = await attachedContent({ files: ['docs/notes.md'] }, context(none));
    expect(blocks).toEqual([
      {
        type: 'resource_link',
        uri: uriOf('docs/notes.md'),
        name: 'docs/notes.md',
        mimeType: 'text/markdown',
        size: 14,
      },
    ]);
    expect(views).toEqual([
      { type: 'resource_link', uri: uriOf('docs/notes.md'), name: 'docs/notes.md' },
    ]);
  });

  it('links to a binary file or one too large to embed, even when embedding is offered', async () => {
    writeFileSync(path.join(folder, 'big.txt'), 'x'.repeat(MAX_EMBEDDED_BYTES + 1));
    writeFileSync(path.join(folder, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const { blocks } = await attachedContent(
      { files: ['blob.bin', 'big.txt', 'latin1.txt'] },
      context(),
    );
    expect(blocks.map((block) => block.type)).toEqual([
      'resource_link',
      'resource_link',
      'resource_link',
    ]);
    const exact = await attachedContent({ files: ['big.txt'] }, context());
    expect(exact.blocks[0]!.type).toBe('resource_link');
    writeFileSync(path.join(folder, 'big.txt'), 'x'.repeat(MAX_EMBEDDED_BYTES));
    const fits = await attachedContent({ files: ['big.txt'] }, context());
    expect(fits.blocks[0]!.type).toBe('resource');
  });

  it('sends one file named twice once', async () => {
    const { blocks } = await attachedContent(
      { files: ['docs/notes.md', 'docs/../docs/notes.md'] },
      context(none),
    );
    expect(blocks).toHaveLength(1);
  });

  it('refuses a path outside the folder: `..`, absolute, or a symlink that leads out', async () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'airlock-outside-')));
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(folder, 'link.txt'));
    await expect(attachedContent({ files: ['../x.txt'] }, context())).rejects.toThrow(
      /outside the session's folder/,
    );
    await expect(
      attachedContent({ files: [path.join(outside, 'secret.txt')] }, context()),
    ).rejects.toThrow(/not a path inside the session's folder/);
    await expect(attachedContent({ files: ['link.txt'] }, context())).rejects.toThrow(
      /outside the session's folder .*leads to/,
    );
  });

  it('follows a symlink that stays inside, and sends the file it leads to', async () => {
    symlinkSync(path.join(folder, 'docs', 'notes.md'), path.join(folder, 'alias.md'));
    const { blocks } = await attachedContent({ files: ['alias.md'] }, context(none));
    expect(blocks[0]).toMatchObject({ type: 'resource_link', uri: uriOf('docs/notes.md') });
  });

  it('tells the agent the type of common files, by their extension in any case', async () => {
    const types: Record<string, string> = {
      'a.md': 'text/markdown',
      'a.txt': 'text/plain',
      'a.json': 'application/json',
      'a.html': 'text/html',
      'a.css': 'text/css',
      'a.csv': 'text/csv',
      'a.js': 'text/javascript',
      'a.ts': 'text/x-typescript',
      'a.py': 'text/x-python',
      'a.pdf': 'application/pdf',
      'a.png': 'image/png',
      'a.jpg': 'image/jpeg',
      'A.JPEG': 'image/jpeg',
      'a.gif': 'image/gif',
      'a.webp': 'image/webp',
      'a.svg': 'image/svg+xml',
    };
    const names = Object.keys(types);
    for (const name of [...names, 'a.rs']) {
      writeFileSync(path.join(folder, name), 'x');
    }
    const { blocks } = await attachedContent({ files: [...names, 'a.rs'] }, context(none));
    expect(
      blocks.map((block) => [
        (block as acp.ResourceLink).name,
        (block as acp.ResourceLink).mimeType,
      ]),
    ).toEqual([...Object.entries(types), ['a.rs', undefined]]);
    expect(blocks.at(-1)).not.toHaveProperty('mimeType');
  });

  it('sends nothing for a prompt without attachments', async () => {
    expect(await attachedContent(undefined, context())).toEqual({ blocks: [], views: [] });
    expect(await attachedContent({}, context(none))).toEqual({ blocks: [], views: [] });
  });

  it('refuses a folder or a file that does not exist', async () => {
    await expect(attachedContent({ files: ['docs'] }, context())).rejects.toThrow(
      'Cannot attach docs: it is not a file.',
    );
    await expect(attachedContent({ files: ['gone.md'] }, context())).rejects.toThrow(
      'it is not a file',
    );
  });
});

describe('attachedContent: images', () => {
  it('sends an image block when the agent takes images', async () => {
    const { blocks, views } = await attachedContent(
      { images: [{ mimeType: 'image/png', data: PIXEL_PNG }] },
      context({ image: true, embeddedContext: false }),
    );
    expect(blocks).toEqual([{ type: 'image', mimeType: 'image/png', data: PIXEL_PNG }]);
    expect(views).toEqual([{ type: 'image', mimeType: 'image/png' }]);
  });

  it('refuses images, and sends nothing, when the agent does not take them', async () => {
    await expect(
      attachedContent(
        { files: ['docs/notes.md'], images: [{ mimeType: 'image/png', data: PIXEL_PNG }] },
        context({ image: false, embeddedContext: true }),
      ),
    ).rejects.toThrow('Agent does not accept images. Nothing was sent.');
  });

  it('refuses an image whose bytes are not the type it claims', async () => {
    await expect(
      attachedContent({ images: [{ mimeType: 'image/jpeg', data: PIXEL_PNG }] }, context()),
    ).rejects.toThrow('not the image/jpeg it claims to be');
  });

  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(
      parts.map((part) =>
        typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
      ),
    ).toString('base64');
  const padding = new Array<number>(8).fill(0);

  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], padding)],
    ['image/gif', bytes('GIF87a', padding)],
    ['image/gif', bytes('GIF89a', padding)],
    ['image/webp', bytes('RIFF', [1, 2, 3, 4], 'WEBP', padding)],
  ] as const)('takes an image of type %s with its bytes', async (mimeType, data) => {
    const { blocks } = await attachedContent({ images: [{ mimeType, data }] }, context());
    expect(blocks).toEqual([{ type: 'image', mimeType, data }]);
  });

  it.each([
    ['image/jpeg', bytes([0x00, 0xd8, 0xff, 0xe0], padding)],
    ['image/jpeg', bytes([0xff, 0x00, 0xff, 0xe0], padding)],
    ['image/jpeg', bytes([0xff, 0xd8, 0x00, 0xe0], padding)],
    ['image/gif', bytes('GIF80a', padding)],
    ['image/gif', bytes('xGIF89a', padding)],
    ['image/webp', bytes('RIFX', [1, 2, 3, 4], 'WEBP', padding)],
    ['image/webp', bytes('RIFF', [1, 2, 3, 4], 'WAVE', padding)],
  ] as const)('refuses an image claimed as %s whose bytes are not one', async (mimeType, data) => {
    await expect(attachedContent({ images: [{ mimeType, data }] }, context())).rejects.toThrow(
      `not the ${mimeType} it claims to be`,
    );
  });

  it('refuses images larger together than the limit', async () => {
    const half = Buffer.alloc(MAX_PROMPT_IMAGE_BYTES / 2 + 1);
    Buffer.from(PIXEL_PNG, 'base64').copy(half);
    const data = half.toString('base64');
    await expect(
      attachedContent({ images: [{ mimeType: 'image/png', data }] }, context()),
    ).resolves.toBeDefined();
    await expect(
      attachedContent(
        {
          images: [
            { mimeType: 'image/png', data },
            { mimeType: 'image/png', data },
          ],
        },
        context(),
      ),
    ).rejects.toThrow('at most 2.5 MB together');
  });

  it('takes images of exactly the limit together', async () => {
    const half = Buffer.alloc(MAX_PROMPT_IMAGE_BYTES / 2);
    Buffer.from(PIXEL_PNG, 'base64').copy(half);
    const image = { mimeType: 'image/png' as const, data: half.toString('base64') };
    const { blocks } = await attachedContent({ images: [image, image] }, context());
    expect(blocks).toHaveLength(2);
  });
});

describe('the session:prompt contract', () => {
  const request = calls['session:prompt'].request;
  it('takes files and images, and refuses other types, non-base64 data, and too many', () => {
    const key = 's1';
    expect(
      request.safeParse({
        key,
        text: 'hi',
        attachments: { files: ['a.md'], images: [{ mimeType: 'image/png', data: PIXEL_PNG }] },
      }).success,
    ).toBe(true);
    const refused = [
      { images: [{ mimeType: 'image/svg+xml', data: PIXEL_PNG }] },
      { images: [{ mimeType: 'image/png', data: '<svg/>' }] },
      { images: Array.from({ length: 5 }, () => ({ mimeType: 'image/png', data: PIXEL_PNG })) },
      { files: Array.from({ length: 21 }, () => 'a.md') },
      { files: [''] },
      { other: 1 },
    ];
    for (const attachments of refused) {
      expect(
        request.safeParse({ key, text: 'hi', attachments }).success,
        JSON.stringify(attachments).slice(0, 80),
      ).toBe(false);
    }
  });
});
