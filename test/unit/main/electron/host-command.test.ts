/**
 * The host's commands to the window (`AirlockCore.hostCommand`, the `app:onCommand` event):
 * checked in the core, sent on the path of every core event, and checked again where they
 * arrive. Through the web host, test/e2e/web-host-command.test.ts proves the page acts on them.
 */
import './use-fake-electron.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  asElectron,
  BrowserWindow,
  contextBridge,
  ipcRenderer,
  resetFakeElectron,
} from './fake-electron.js';
import {
  waitingFragment,
  waitingInFragment,
  type AirlockApi,
  type EventChannel,
  type HostCommand,
} from '../../../../preload/shared/contract.js';
import { AirlockCore } from '../../../../main/core/core.js';
import { APP_URL } from '../../../../main/electron/app-protocol.js';
import { setupIpc } from '../../../../main/electron/ipc.js';
import { createWebBridge } from '../../../../renderer/src/bridge/web-bridge.js';

// Loading the preload is what exposes the page's API; capture it before any reset.
await import('../../../../preload/index.js');
const pageApi = contextBridge.exposeInMainWorld.mock.calls[0]?.[1] as AirlockApi;

const COMMANDS: HostCommand[] = [
  { command: 'newSession' },
  { command: 'closeSession' },
  { command: 'agentSettings' },
  { command: 'agentLog' },
  { command: 'showWaiting', key: 's1a' },
];

let core: AirlockCore;
let emitted: [EventChannel, unknown][];

beforeEach(() => {
  resetFakeElectron();
  const dir = mkdtempSync(join(tmpdir(), 'airlock-host-command-'));
  core = new AirlockCore({
    settingsPath: join(dir, 'settings.json'),
    logsDir: join(dir, 'logs'),
    demoAgent: { name: 'Demo Agent', command: 'none', args: [], env: {}, builtIn: true },
    defaultCwd: dir,
  });
  emitted = [];
  core.onEvent((channel, payload) => emitted.push([channel, payload]));
});

afterEach(() => core.dispose());

describe('AirlockCore.hostCommand', () => {
  it('emits each command as the app:onCommand event, as given', () => {
    for (const command of COMMANDS) {
      core.hostCommand(command);
    }
    expect(emitted).toEqual(COMMANDS.map((command) => ['app:onCommand', command]));
  });

  it.each([
    ['an unknown command', { command: 'quit' }, /Invalid host command \(command\)/],
    ['showWaiting without its session', { command: 'showWaiting' }, /\(key\)/],
    [
      'showWaiting with a key that is no session key',
      { command: 'showWaiting', key: '<b>' },
      /\(key\)/,
    ],
    ['a field the command does not have', { command: 'newSession', key: 's1' }, /key/],
    ['no command at all', null, /Invalid host command/],
  ])('refuses %s, saying what is wrong, and sends nothing', (_name, command, message) => {
    expect(() => core.hostCommand(command as HostCommand)).toThrow(message);
    expect(emitted).toEqual([]);
  });
});

describe('a host command on the Electron host', () => {
  it('reaches the app window, and the page gets it validated', async () => {
    const window = new BrowserWindow({});
    await window.loadURL(APP_URL);
    setupIpc(core, () => [asElectron(window.webContents)]);
    const listener = vi.fn();
    pageApi.on('app:onCommand', listener);

    core.hostCommand({ command: 'showWaiting', key: 's7' });
    expect(window.webContents.send.mock.calls).toEqual([
      ['app:onCommand', { command: 'showWaiting', key: 's7' }],
    ]);
    // What main sent, as the preload receives it.
    const [channel, payload] = window.webContents.send.mock.calls[0]!;
    ipcRenderer.emit(channel, {}, payload);
    expect(listener.mock.calls).toEqual([[{ command: 'showWaiting', key: 's7' }]]);
  });

  it('the page never gets a command that is not in the contract', () => {
    const listener = vi.fn();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    pageApi.on('app:onCommand', listener);
    ipcRenderer.emit('app:onCommand', {}, { command: 'runScript', code: 'alert(1)' });
    ipcRenderer.emit('app:onCommand', {}, { command: 'showWaiting', key: '../s1' });
    expect(listener).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
  });
});

describe('a host command on the web host', () => {
  /** The page's socket: the test opens it and sends what the host would. */
  class FakeSocket extends EventTarget {
    static latest: FakeSocket | undefined;
    constructor(readonly url: string) {
      super();
      FakeSocket.latest = this;
    }
    send(): void {}
    close(): void {}
    receive(message: unknown): void {
      this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
    }
  }

  afterEach(() => vi.unstubAllGlobals());

  it('the bridge passes on a valid command and drops one outside the contract', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const bridge = createWebBridge(
      { link: 'link', key: () => undefined, keep: () => undefined },
      'ws://127.0.0.1:1/ws',
    );
    FakeSocket.latest!.dispatchEvent(new Event('open'));
    FakeSocket.latest!.receive({ t: 'welcome', key: 'key', nonce: 'nonce' });
    await bridge.ready;
    const listener = vi.fn();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    bridge.on('app:onCommand', listener);
    // As server.ts frames every core event.
    const event = (payload: unknown) => ({ t: 'event', channel: 'app:onCommand', payload });
    FakeSocket.latest!.receive(event({ command: 'runScript', code: 'alert(1)' }));
    FakeSocket.latest!.receive(event({ command: 'showWaiting' }));
    FakeSocket.latest!.receive(event({ command: 'agentLog' }));
    expect(listener.mock.calls).toEqual([[{ command: 'agentLog' }]]);
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
  });
});

describe('the address fragment of a window opened to show a waiting card', () => {
  it('names the session, and a page reads back exactly a session key from it', () => {
    expect(waitingFragment('s1a')).toBe('waiting=s1a');
    expect(waitingInFragment(`#${waitingFragment('s1a')}`)).toBe('s1a');
    expect(waitingInFragment('waiting=s9')).toBe('s9');
    for (const hash of ['', '#', '#waiting=', '#waiting=s1&x=1', '#waiting=S1', '#other=s1']) {
      expect(waitingInFragment(hash), hash).toBeUndefined();
    }
    expect(() => waitingFragment('s1#x')).toThrow();
  });
});
