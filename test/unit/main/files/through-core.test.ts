/** The agent's file requests through the core, with the demo agent's `/read`, `/write`, `/outside`. */
import * as acp from '@agentclientprotocol/sdk';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AirlockCore } from '../../../../main/core/core.js';
import { clientCapabilities } from '../../../../main/core/agent-connection.js';
import { FileService } from '../../../../main/core/files/service.js';
import { DEMO_WRITE_TEXT } from '../../../../main/demo-agent/files.js';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import {
  answerPermission,
  readySession,
  type Recorder,
  startCore,
} from '../../../helpers/core-harness.js';

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

/** Sends a prompt and resolves with the agent text of that turn, once it ended. */
async function turn(recorder: Recorder, key: string, text: string): Promise<string> {
  const before = recorder.text(key).length;
  const from = recorder.transcript(key).length;
  await core!.invoke('session:prompt', { key, text });
  await recorder.event(key, 'turn_end', from);
  return recorder.text(key).slice(before);
}

async function demoIn(settings: object = {}) {
  const started = await startCore();
  core = started.core;
  if (Object.keys(settings).length > 0) {
    await writeFile(started.settingsPath, JSON.stringify(settings));
    await core.init();
  }
  const project = await realpath(path.join(started.dir));
  const folder = path.join(project, 'project');
  mkdirSync(folder);
  const key = await readySession(core, started.recorder, 'Demo Agent', folder);
  return { ...started, folder, key };
}

function writes(events: TranscriptEvent[]) {
  return events.flatMap((event) =>
    event.type === 'tool_call' && event.toolCallId.startsWith('airlock-write-') ? [event] : [],
  );
}

describe('file requests through the core', () => {
  it('advertises both fs methods', () => {
    expect(clientCapabilities({ form: true, url: false }).fs).toEqual({
      readTextFile: true,
      writeTextFile: true,
    });
  });

  it('serves /read inside the folder, with the file’s text', async () => {
    const { recorder, folder, key } = await demoIn();
    writeFileSync(path.join(folder, 'notes.txt'), 'first line\nsecond line\n');
    const said = await turn(recorder, key, '/read notes.txt');
    expect(said).toContain(`I read ${path.join(folder, 'notes.txt')} (2 lines)`);
    expect(said).toContain('first line\nsecond line\n');
  });

  it('serves /write atomically and shows it as a diff against what was there', async () => {
    const { recorder, folder, key } = await demoIn();
    const said = await turn(recorder, key, '/write docs/new.md');
    const file = path.join(folder, 'docs', 'new.md');
    expect(said).toContain(`I wrote ${DEMO_WRITE_TEXT.length} characters to ${file}`);
    expect(readFileSync(file, 'utf8')).toBe(DEMO_WRITE_TEXT);
    writeFileSync(file, 'what was there\n');
    await turn(recorder, key, '/write docs/new.md');
    const shown = writes(recorder.transcript(key));
    expect(shown.map((event) => event.fields.content)).toEqual([
      [{ type: 'diff', path: file, oldText: null, newText: DEMO_WRITE_TEXT }],
      [{ type: 'diff', path: file, oldText: 'what was there\n', newText: DEMO_WRITE_TEXT }],
    ]);
    expect(shown[0]!.fields).toMatchObject({
      title: `Airlock wrote ${file}`,
      kind: 'edit',
      status: 'completed',
    });
    expect(recorder.dropped).toEqual([]);
  });

  it('refuses /read and /write through a symlink in the folder that leads out of it', async () => {
    const { recorder, folder, key } = await demoIn();
    const secret = path.join(path.dirname(folder), 'secret.txt');
    writeFileSync(secret, 'not for the agent\n');
    symlinkSync(secret, path.join(folder, 'link.txt'));
    const read = await turn(recorder, key, '/read link.txt');
    expect(read).toContain(`is outside the session's folder ${folder} (it leads to ${secret})`);
    expect(read).not.toContain('not for the agent');
    const wrote = await turn(recorder, key, '/write link.txt');
    expect(wrote).toContain('I could not write');
    expect(readFileSync(secret, 'utf8')).toBe('not for the agent\n');
  });

  it('refuses /outside with clear errors, shown in the transcript, and touches nothing', async () => {
    const { recorder, folder, key } = await demoIn();
    const said = await turn(recorder, key, '/outside');
    const outside = path.join(path.dirname(folder), 'outside.txt');
    expect(said).toContain(
      `read /etc/hostname: refused, error -32602: Invalid params: /etc/hostname is outside the session's folder ${folder}`,
    );
    expect(said).toContain(
      `write ${outside}: refused, error -32602: Invalid params: ${outside} is outside the session's folder`,
    );
    expect(said).toContain('read ../outside.txt (a relative path): refused, error -32602');
    expect(said).toContain('is not an absolute path');
    expect(said).not.toContain('it was allowed');
    expect(existsSync(outside)).toBe(false);
    const lines = recorder
      .transcript(key)
      .flatMap((event) => (event.type === 'system' ? [event.text] : []))
      // `/outside` also tries a terminal elsewhere; its refusal is the terminals' to test.
      .filter((text) => text.startsWith('Airlock refused the agent'));
    expect(lines).toEqual([
      `Airlock refused the agent's request to read a file: /etc/hostname is outside the session's folder ${folder}`,
      `Airlock refused the agent's request to write a file: ${outside} is outside the session's folder ${folder}`,
      "Airlock refused the agent's request to read a file: ../outside.txt is not an absolute path; the protocol requires one",
    ]);
  });

  it('answers a request for an unknown session with "session not found"', async () => {
    const files = new FileService({
      find: () => undefined,
      askBeforeWrites: () => false,
      nextPromptKey: () => 'p0',
      tab: () => {
        throw new Error('no tab is open');
      },
      // Never made: no session is found, so nothing is written or kept.
      undoDir: '/nonexistent/airlock-undo',
    });
    const error = await files
      .read(undefined, { sessionId: 'nope', path: '/tmp/x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(acp.RequestError);
    expect((error as acp.RequestError).code).toBe(-32002);
    expect((error as acp.RequestError).message).toContain('nope');
  });

  describe('with ask_before_writes', () => {
    it('writes only once the user allows it on a card showing the diff', async () => {
      const { recorder, folder, key } = await demoIn({ ask_before_writes: true });
      const file = path.join(folder, 'a.md');
      writeFileSync(file, 'before\n');
      await core!.invoke('session:prompt', { key, text: '/write a.md' });
      const card = await recorder.event(key, 'permission');
      expect(card.tool?.content).toEqual([
        { type: 'diff', path: file, oldText: 'before\n', newText: DEMO_WRITE_TEXT },
      ]);
      expect(card.options.map((option) => option.name)).toEqual(['Write the file', 'Do not write']);
      // Nothing is written while the card waits.
      expect(readFileSync(file, 'utf8')).toBe('before\n');
      await answerPermission(core!, key, card, { outcome: 'selected', optionId: 'write' });
      await recorder.event(key, 'turn_end');
      expect(readFileSync(file, 'utf8')).toBe(DEMO_WRITE_TEXT);
      expect(writes(recorder.transcript(key)).at(-1)?.fields.status).toBe('completed');
    });

    it('leaves the file as it was when the user declines, and tells the agent', async () => {
      const { recorder, folder, key } = await demoIn({ ask_before_writes: true });
      const file = path.join(folder, 'a.md');
      writeFileSync(file, 'before\n');
      const from = recorder.transcript(key).length;
      await core!.invoke('session:prompt', { key, text: '/write a.md' });
      const card = await recorder.event(key, 'permission');
      await answerPermission(core!, key, card, { outcome: 'selected', optionId: 'skip' });
      await recorder.event(key, 'turn_end', from);
      expect(readFileSync(file, 'utf8')).toBe('before\n');
      expect(recorder.text(key)).toContain(
        `I could not write ${file}: error -32600: ${file} was not written: the user declined`,
      );
    });
  });
});
