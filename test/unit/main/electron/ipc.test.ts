import './use-fake-electron.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  asElectron,
  BrowserWindow,
  FakeWebContents,
  invokeMain,
  ipcHandlers,
  ipcMain,
  resetFakeElectron,
  type FakeFrame,
} from './fake-electron.js';
import {
  calls,
  type EventChannel,
  type EventPayload,
} from '../../../../preload/shared/contract.js';
import { AirlockCore, type CoreListener } from '../../../../main/core/core.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import { APP_URL } from '../../../../main/electron/app-protocol.js';
import { FORBIDDEN, setupIpc, type ContractCore } from '../../../../main/electron/ipc.js';
import type { IpcReply } from '../../../../preload/shared/ipc-reply.js';
import { Recorder, startCore } from '../../../helpers/core-harness.js';

/** A core that records calls and lets the test emit events. */
function spyCore(answer: (channel: unknown, payload: unknown) => Promise<unknown>) {
  let listener: CoreListener | undefined;
  const unsubscribe = vi.fn();
  const core = {
    invoke: vi.fn(answer),
    onEvent: vi.fn((added: CoreListener) => {
      listener = added;
      return unsubscribe;
    }),
  };
  const emit = <E extends EventChannel>(channel: E, payload: EventPayload<E>) =>
    listener?.(channel, payload);
  return { core, emit, unsubscribe };
}

let window: BrowserWindow;

beforeEach(async () => {
  resetFakeElectron();
  window = new BrowserWindow({});
  await window.loadURL(APP_URL);
});

const appContents = () => [asElectron(window.webContents)];

/** Calls a registered handler as Electron would for a message from `frame` of `sender`. */
function call(sender: FakeWebContents, frame: FakeFrame | null, channel: string, payload: unknown) {
  return invokeMain(channel, { sender, senderFrame: frame }, payload);
}

const fromApp = (channel: string, payload: unknown) =>
  call(window.webContents, window.webContents.mainFrame, channel, payload);

describe('setupIpc: channels', () => {
  it('handles exactly the contract calls', () => {
    setupIpc(spyCore(async () => ({})).core as ContractCore, appContents);
    expect([...ipcHandlers.keys()].sort()).toEqual(Object.keys(calls).sort());
  });

  it('removes its handlers and its event subscription when disposed', () => {
    const { core, unsubscribe } = spyCore(async () => ({}));
    const dispose = setupIpc(core as ContractCore, appContents);
    dispose();
    expect(ipcHandlers.size).toBe(0);
    expect(ipcMain.removeHandler).toHaveBeenCalledTimes(Object.keys(calls).length);
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });
});

describe('setupIpc: senders', () => {
  it("passes a call from the app window's main frame to the core", async () => {
    const { core } = spyCore(async () => ({ path: '/home/me' }));
    setupIpc(core as ContractCore, appContents);
    expect(await fromApp('app:pickFolder', {})).toEqual({ ok: true, value: { path: '/home/me' } });
    expect(core.invoke).toHaveBeenCalledWith('app:pickFolder', {});
  });

  const strangers: [string, () => [FakeWebContents, FakeFrame | null]][] = [
    [
      'another contents showing an app URL',
      () => {
        const other = new FakeWebContents();
        other.mainFrame.url = APP_URL;
        return [other, other.mainFrame];
      },
    ],
    [
      'a subframe of the app window',
      () => {
        const { mainFrame } = window.webContents;
        return [window.webContents, { ...mainFrame, routingId: mainFrame.routingId + 1 }];
      },
    ],
    [
      'a frame in another process with the same routing id',
      () => {
        const { mainFrame } = window.webContents;
        return [window.webContents, { ...mainFrame, processId: mainFrame.processId + 1 }];
      },
    ],
    [
      'the app window after it left the app scheme',
      () => {
        window.webContents.mainFrame.url = 'https://evil.example/';
        return [window.webContents, window.webContents.mainFrame];
      },
    ],
    [
      'the app window on another airlock: host',
      () => {
        window.webContents.mainFrame.url = 'airlock://evil/index.html';
        return [window.webContents, window.webContents.mainFrame];
      },
    ],
    ['a frame that is gone', () => [window.webContents, null]],
    [
      'a destroyed app window',
      () => {
        window.webContents.destroyed = true;
        return [window.webContents, window.webContents.mainFrame];
      },
    ],
  ];

  it.each(strangers)('refuses %s, without reaching the core', async (_name, sender) => {
    const { core } = spyCore(async () => ({ path: '/home/me' }));
    setupIpc(core as ContractCore, appContents);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const [contents, frame] = sender();
    expect(await call(contents, frame, 'app:pickFolder', {})).toEqual({
      ok: false,
      error: FORBIDDEN,
    });
    expect(core.invoke).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe('setupIpc: payloads and errors', () => {
  const realCore = () =>
    new AirlockCore({
      settingsPath: join(mkdtempSync(join(tmpdir(), 'airlock-ipc-')), 'settings.json'),
      logsDir: tmpdir(),
      demoAgent: { name: 'Demo Agent', command: 'none', args: [], env: {}, builtIn: true },
      defaultCwd: '/work',
    });

  it('rejects invalid payloads with the core’s message and answers valid ones', async () => {
    setupIpc(realCore(), appContents);
    const extraKey = (await fromApp('app:getState', { sneaky: true })) as {
      ok: boolean;
      error: string;
    };
    expect(extraKey.ok).toBe(false);
    expect(extraKey.error).toMatch(/^Invalid app:getState request/);
    const wrongType = (await fromApp('session:create', { agentName: 'Demo Agent', cwd: 42 })) as {
      ok: boolean;
      error: string;
    };
    expect(wrongType.ok).toBe(false);
    expect(wrongType.error).toMatch(/^Invalid session:create request/);
    const missing = (await fromApp('session:prompt', undefined)) as { ok: boolean };
    expect(missing.ok).toBe(false);
    const state = (await fromApp('app:getState', {})) as {
      ok: boolean;
      value: { defaultCwd: string };
    };
    expect(state).toMatchObject({ ok: true, value: { defaultCwd: '/work', canPickFolder: false } });
  });

  it('shows user-facing messages as they are', async () => {
    const { core } = spyCore(async () => {
      throw new UserFacingError('That session is closed');
    });
    setupIpc(core as ContractCore, appContents);
    expect(await fromApp('session:cancel', { key: 's1' })).toEqual({
      ok: false,
      error: 'That session is closed',
    });
  });

  it('hides every other error behind "Internal error"', async () => {
    const { core } = spyCore(async () => {
      throw new Error('EACCES: /home/me/.ssh/id_ed25519');
    });
    setupIpc(core as ContractCore, appContents);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await fromApp('session:cancel', { key: 's1' })).toEqual({
      ok: false,
      error: 'Internal error',
    });
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('setupIpc: events', () => {
  const appended: EventPayload<'session:onDidAppend'> = {
    key: 's1',
    events: [{ type: 'chunk', role: 'agent', text: 'hello' }],
  };

  it('forwards every core event to the app window', () => {
    const { core, emit } = spyCore(async () => ({}));
    setupIpc(core as ContractCore, appContents);
    emit('session:onDidAppend', appended);
    emit('app:onDidChangeAgents', { agents: [] });
    expect(window.webContents.send.mock.calls).toEqual([
      ['session:onDidAppend', appended],
      ['app:onDidChangeAgents', { agents: [] }],
    ]);
  });

  it('sends nothing to a window that left the app scheme or is destroyed, nor to other contents', () => {
    const { core, emit } = spyCore(async () => ({}));
    const stranger = new FakeWebContents();
    stranger.mainFrame.url = APP_URL;
    const second = new BrowserWindow({});
    setupIpc(core as ContractCore, () => [
      asElectron(window.webContents),
      asElectron(second.webContents),
    ]);
    window.webContents.mainFrame.url = 'https://evil.example/';
    second.webContents.mainFrame.url = APP_URL;
    second.webContents.destroyed = true;
    emit('session:onDidAppend', appended);
    expect(window.webContents.send).not.toHaveBeenCalled();
    expect(second.webContents.send).not.toHaveBeenCalled();
    expect(stranger.send).not.toHaveBeenCalled();
  });
});

describe('setupIpc: what crosses to the page', () => {
  let core: AirlockCore | undefined;
  afterEach(() => core?.dispose());

  it('carries a real session’s answers and events through Electron’s structured clone unchanged', async () => {
    const started = await startCore();
    core = started.core;
    const { dir } = started;
    const emitted: unknown[][] = [];
    core.onEvent((channel, payload) => emitted.push([channel, payload]));
    setupIpc(core, appContents);
    const recorder = new Recorder(core);
    const ask = async (channel: string, payload: unknown) => {
      const reply = (await fromApp(channel, payload)) as IpcReply;
      if (!reply.ok) {
        throw new Error(`${channel} failed: ${reply.error}`);
      }
      return reply.value;
    };
    const { key } = (await ask('session:create', { agentName: 'Demo Agent', cwd: dir })) as {
      key: string;
    };
    await recorder.status(key, 'ready');
    const turn = async (text: string, answer?: () => Promise<void>) => {
      const from = recorder.transcript(key).length;
      await ask('session:prompt', { key, text });
      await answer?.();
      await recorder.event(key, 'turn_end', from);
    };
    await turn('/tool');
    await turn('/plan');
    await turn('/permission', async () => {
      const card = await recorder.event(key, 'permission');
      await ask('permission:respond', {
        key,
        promptKey: card.promptKey,
        outcome: { outcome: 'selected', optionId: card.options[0]!.optionId },
      });
    });
    await turn('/form', async () => {
      const card = await recorder.event(key, 'elicitation');
      await ask('elicitation:respond', { key, cardKey: card.cardKey, action: 'decline' });
    });
    // Answers: what the page receives is what the core returned, prototypes and all.
    expect(await ask('app:getState', {})).toStrictEqual(await core.invoke('app:getState', {}));
    expect(await ask('session:getTranscript', { key })).toStrictEqual(
      await core.invoke('session:getTranscript', { key }),
    );
    // Events: every one the core emitted reached the page, as it was.
    const kinds = new Set(recorder.transcript(key).map((event) => event.type));
    expect([...kinds]).toEqual(
      expect.arrayContaining(['tool_call', 'plan', 'permission', 'elicitation', 'turn_end']),
    );
    expect(window.webContents.send.mock.calls).toStrictEqual(emitted);
  });
});
