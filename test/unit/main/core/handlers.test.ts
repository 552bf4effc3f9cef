/**
 * The core's plain calls, each on its own: what `app:getState` tells the UI of the host, the
 * checks `session:create`, `session:prompt` and `session:stopStart` make before they act, and
 * that `files:complete` and `session:cancel` reach what they serve (each check is one the UI
 * relies on to say why nothing happened); and `dispose`, which the hosts call as they quit.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AirlockCore } from '../../../../main/core/core.js';
import { NO_SECRET_STORE, type SecretStore } from '../../../../main/core/secrets.js';
import { demoAgentSpec, fixtureSpec } from '../../../helpers/agents.js';
import { readySession, useCore } from '../../../helpers/core-harness.js';

// Far longer than any wait below, except the cancel's grace period: nothing else ends by a timeout.
const timeouts = { requestMs: 60_000, cancelGraceMs: 300 };

const { start, startWith } = useCore({ timeouts });

describe('app:getState', () => {
  it('says the host has no folder picker, no keychain and no URL opener when it gives none', async () => {
    const basic = fixtureSpec('basic');
    const started = await start({ agents: [basic] });
    const { core } = started;
    const state = await started.call('app:getState', {});
    expect(state).toMatchObject({
      settingsPath: started.settingsPath,
      defaultCwd: started.dir,
      canPickFolder: false,
      secretStorage: { available: false, description: NO_SECRET_STORE.description },
      urlElicitation: { default: 'isolated_window', opener: 'page' },
      sessions: [],
    });
    await expect(core.invoke('app:pickFolder', {})).resolves.toEqual({ path: null });

    // A tab is listed with its summary, so a window opened later shows it.
    const key = await started.ready(basic.name);
    const later = await started.call('app:getState', {});
    expect(later.sessions).toEqual([started.recorder.summaries.get(key)]);
    await expect(core.invoke('app:getRecentFolders', {})).resolves.toEqual({
      folders: [started.dir],
    });
  });

  it('says what the host offers when it gives a picker, a keychain and a URL opener', async () => {
    const secrets: SecretStore = {
      ...NO_SECRET_STORE,
      available: true,
      description: 'Kept in the test keychain.',
    };
    const { core } = await start({
      options: {
        pickFolder: async () => '/picked/folder',
        openUrl: async () => undefined,
        secrets,
      },
    });
    await expect(core.invoke('app:getState', {})).resolves.toMatchObject({
      canPickFolder: true,
      secretStorage: { available: true, description: 'Kept in the test keychain.' },
      urlElicitation: { default: 'isolated_window', opener: 'host' },
    });
    await expect(core.invoke('app:pickFolder', {})).resolves.toEqual({ path: '/picked/folder' });
  });
});

describe('session:create', () => {
  it('refuses an agent the settings do not name, with no tab', async () => {
    const started = await start({ agents: [fixtureSpec('basic')] });
    const { core } = started;
    await expect(
      core.invoke('session:create', { agentName: 'nobody', cwd: started.dir }),
    ).rejects.toThrow('No agent named "nobody"');
    expect(started.recorder.summaries.size).toBe(0);
    await expect(core.invoke('app:getState', {})).resolves.toMatchObject({ sessions: [] });
  });

  it('gives a tab opened while a permission card waits a key of its own', async () => {
    // The card takes the next id too: a key counted the wrong way would repeat the first tab's.
    const agent = fixtureSpec('permission');
    const started = await start({ agents: [agent] });
    const { core } = started;
    const first = await started.ready(agent.name);
    await core.invoke('session:prompt', { key: first, text: 'go' });
    await started.recorder.event(first, 'permission');
    const second = await started.ready(agent.name);
    expect(second).not.toBe(first);
    const state = await started.call('app:getState', {});
    expect(state.sessions.map((session) => session.key)).toEqual([first, second]);
  });
});

describe('session:prompt', () => {
  it('refuses a tab still starting', async () => {
    const agent = fixtureSpec('never-answer-new');
    const started = await start({ agents: [agent] });
    const { core } = started;
    const { key } = await started.call('session:create', {
      agentName: agent.name,
      cwd: started.dir,
    });
    // Refused before its attachments are read: an image it cannot know the agent takes would be
    // refused for that, and a wrong reason given. (`toHaveProperty`, not `toThrow`: a rejection
    // with no error at all passes `toThrow` with a message.)
    const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    for (const attachments of [undefined, { images: [image] }]) {
      await expect(
        core.invoke('session:prompt', { key, text: 'hello', attachments }),
      ).rejects.toHaveProperty('message', 'The session is not ready');
    }
    expect(started.recorder.transcript(key)).toEqual([]);
  });

  it('checks again after reading the attachments: a turn that began meanwhile refuses it', async () => {
    const agent = fixtureSpec('never-answer-prompt');
    const started = await start({ agents: [agent] });
    const { core, recorder, dir, ready } = started;
    await writeFile(join(dir, 'notes.txt'), 'some notes');
    const key = await ready(agent.name);
    // The first reads its file (a disk read); the second has nothing to read and starts its
    // turn first.
    const withFile = core.invoke('session:prompt', {
      key,
      text: 'with the file',
      attachments: { files: ['notes.txt'] },
    });
    await core.invoke('session:prompt', { key, text: 'without' });
    await expect(withFile).rejects.toHaveProperty(
      'message',
      'The agent is still answering; cancel the turn first',
    );
    expect(recorder.transcript(key).filter((event) => event.type === 'prompt')).toEqual([
      { type: 'prompt', text: 'without' },
    ]);

    // The agent never ends its turn: cancelling ends it (after the grace period).
    await recorder.event(key, 'chunk');
    await core.invoke('session:cancel', { key });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('cancelled');
    await recorder.status(key, 'ready');

    // Once ready, the file goes with the prompt, read from the tab's folder.
    await core.invoke('session:prompt', {
      key,
      text: 'with the file',
      attachments: { files: ['notes.txt'] },
    });
    await recorder.until(
      () => recorder.transcript(key).some((event) => event.type === 'content'),
      'the attached file in the transcript',
    );
    expect(recorder.transcript(key).find((event) => event.type === 'content')).toEqual({
      type: 'content',
      role: 'user',
      content: { type: 'resource', uri: `file://${join(dir, 'notes.txt')}` },
    });
  });
});

describe('files:complete', () => {
  it("completes paths in the tab's folder", async () => {
    const agent = fixtureSpec('basic');
    const started = await start({ agents: [agent] });
    const { core } = started;
    const folder = join(started.dir, 'work');
    await mkdir(folder);
    await writeFile(join(folder, 'readme.md'), '# hi');
    const key = await readySession(core, started.recorder, agent.name, folder);
    await expect(core.invoke('files:complete', { key, query: 'read' })).resolves.toMatchObject({
      paths: ['readme.md'],
    });
  });
});

describe('session:stopStart', () => {
  it('refuses a tab that is not starting, and stops one that is, saying so', async () => {
    const agent = fixtureSpec('never-answer-new');
    const basic = fixtureSpec('basic');
    const started = await start({ agents: [agent, basic] });
    const { core } = started;
    const ready = await started.ready(basic.name);
    await expect(core.invoke('session:stopStart', { key: ready })).rejects.toThrow(
      'The session is not starting',
    );
    expect(started.recorder.summaries.get(ready)?.status).toBe('ready');

    const { key } = await started.call('session:create', {
      agentName: agent.name,
      cwd: started.dir,
    });
    await core.invoke('session:stopStart', { key });
    const stopped = await started.recorder.status(key, 'failed');
    expect(stopped.error).toBe(`You stopped ${agent.name} while it was starting.`);
  });
});

describe('dispose', () => {
  it('closes every tab first, so the UI hears each one closed', async () => {
    const agent = fixtureSpec('basic');
    const started = await startWith(agent);
    const { key } = started;
    const statuses: string[] = [];
    started.core.onEvent((channel, payload) => {
      if (channel === 'session:onDidChange') {
        statuses.push((payload as { status: string }).status);
      }
    });
    await started.core.dispose();
    // Its process has ended; what was queued goes out in the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    // Closed, and only that: the end of its process is not reported on a closed tab.
    expect(statuses).toEqual(['closed']);
    await expect(started.core.invoke('session:getTranscript', { key })).rejects.toHaveProperty(
      'message',
      'That session is closed',
    );
  });

  it('is safe before init, as when the app quits while it still reads the settings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-test-'));
    const early = new AirlockCore({
      settingsPath: join(dir, 'settings.json'),
      logsDir: join(dir, 'logs'),
      demoAgent: demoAgentSpec(),
      defaultCwd: dir,
    });
    await expect(early.dispose()).resolves.toBeUndefined();
  });
});

// The UI's calls and the host's commands are untrusted until checked: each refusal says what
// was wrong, in the words of the contract's check.
describe('what reaches the core unchecked', () => {
  it('refuses a call of no known channel, and a request of the wrong shape, saying why', async () => {
    const { core } = await start();
    await expect(core.invoke('app:quit', {})).rejects.toHaveProperty('message', 'Unknown call');
    await expect(core.invoke('session:rename', { key: 5 })).rejects.toHaveProperty(
      'message',
      'Invalid session:rename request: Invalid input: expected string, received number',
    );
  });

  it('refuses a host command that is no object, with no field to name', async () => {
    const started = await start();
    expect(() => started.core.hostCommand(null as never)).toThrow(
      new Error('Invalid host command: Invalid input: expected object, received null'),
    );
  });
});
