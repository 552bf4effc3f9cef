/**
 * Attachments through the core to the real demo agent: each arrives as the block its
 * capabilities allow, and nothing it did not advertise is sent.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AirlockCore } from '../../../../main/core/core.js';
import type { PromptAttachments } from '../../../../preload/shared/prompt-content.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { readySession, startCore, type Recorder } from '../../../helpers/core-harness.js';
import { PIXEL_PNG } from '../../../helpers/pixel.js';

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

/** The demo agent, advertising neither images nor embedded context. */
const PLAIN = {
  ...demoAgentSpec(),
  name: 'Plain Demo',
  builtIn: false,
  env: { AIRLOCK_DEMO_PLAIN_PROMPTS: '1' },
};

async function demoIn(agentName: 'Demo Agent' | 'Plain Demo') {
  const started = await startCore([PLAIN]);
  core = started.core;
  const folder = path.join(realpathSync(started.dir), 'project');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'notes.md'), '# Notes\n');
  const key = await readySession(core, started.recorder, agentName, folder);
  return { ...started, folder, key };
}

/** Sends the prompt "look" with `attachments`; resolves as the call does. */
const lookWith = (key: string, attachments: PromptAttachments) =>
  core!.invoke('session:prompt', { key, text: 'look', attachments });

/** Sends a prompt and resolves with the agent's text of that turn, once it ended. */
async function turn(
  recorder: Recorder,
  key: string,
  attachments: PromptAttachments,
): Promise<string> {
  const before = recorder.text(key).length;
  const from = recorder.transcript(key).length;
  await lookWith(key, attachments);
  await recorder.event(key, 'turn_end', from);
  return recorder.text(key).slice(before);
}

describe('attachments to the demo agent', () => {
  it('tells the UI what the agent accepts', async () => {
    const demo = await demoIn('Demo Agent');
    expect(demo.recorder.summaries.get(demo.key)?.promptCapabilities).toEqual({
      image: true,
      embeddedContext: true,
    });
    await demo.core.dispose();
    const plain = await demoIn('Plain Demo');
    expect(plain.recorder.summaries.get(plain.key)?.promptCapabilities).toEqual({
      image: false,
      embeddedContext: false,
    });
  });

  it('embeds a file and sends an image to an agent that takes both, and shows them', async () => {
    const { recorder, key } = await demoIn('Demo Agent');
    const from = recorder.transcript(key).length;
    const said = await turn(recorder, key, {
      files: ['notes.md'],
      images: [{ mimeType: 'image/png', data: PIXEL_PNG }],
    });
    expect(said).toContain(
      '- Got resource notes.md (8 characters)\n- Got image image/png (68 bytes)\n',
    );
    expect(said).not.toContain('did not advertise');
    expect(recorder.transcript(key).slice(from, from + 3)).toMatchObject([
      { type: 'prompt', text: 'look' },
      { type: 'content', role: 'user', content: { type: 'resource' } },
      { type: 'content', role: 'user', content: { type: 'image', mimeType: 'image/png' } },
    ]);
    expect(recorder.dropped).toEqual([]);
  });

  it('links to the file when the agent does not take embedded context', async () => {
    const { recorder, key, folder } = await demoIn('Plain Demo');
    const said = await turn(recorder, key, { files: ['notes.md'] });
    expect(said).toContain(
      `Got resource_link ${pathToFileURL(path.join(folder, 'notes.md')).href} (8 bytes)`,
    );
  });

  it('refuses an image to an agent that does not take images: no turn starts', async () => {
    const { recorder, key } = await demoIn('Plain Demo');
    const from = recorder.transcript(key).length;
    await expect(
      lookWith(key, { images: [{ mimeType: 'image/png', data: PIXEL_PNG }] }),
    ).rejects.toThrow('Plain Demo does not accept images. Nothing was sent.');
    expect(recorder.transcript(key).slice(from)).toEqual([]);
    expect(recorder.summaries.get(key)?.status).toBe('ready');
  });

  it('refuses a file outside the folder: no turn starts', async () => {
    const { recorder, key } = await demoIn('Demo Agent');
    const from = recorder.transcript(key).length;
    await expect(lookWith(key, { files: ['../settings.json'] })).rejects.toThrow(
      /outside the session's folder/,
    );
    expect(recorder.transcript(key).slice(from)).toEqual([]);
  });

  it('completes the folder’s files', async () => {
    const { key, folder } = await demoIn('Demo Agent');
    writeFileSync(path.join(folder, 'other.txt'), '');
    expect(await core!.invoke('files:complete', { key, query: 'note' })).toEqual({
      paths: ['notes.md'],
      partial: false,
    });
  });
});
