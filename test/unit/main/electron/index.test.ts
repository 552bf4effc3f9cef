import './use-fake-electron.js';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  app,
  BrowserWindow,
  dialog,
  invokeMain,
  ipcHandlers,
  makeReady,
  Menu,
  protocol,
} from './fake-electron.js';
import { calls } from '../../../../preload/shared/contract.js';
import { STRIP_CHANNELS } from '../../../../preload/shared/strip-contract.js';
import { AirlockCore } from '../../../../main/core/core.js';
import { profileDir } from '../../../../main/electron/app-profile.js';
import { useConfigDir } from '../../../helpers/temp-folder.js';

const configDir = useConfigDir('airlock-electron-');
// The user's login shell, as the app asks it for PATH at start (main/core/shell-env.ts): a
// script that exports a known PATH and runs its `-c` command.
const previous = { SHELL: process.env.SHELL, PATH: process.env.PATH };
const loginShell = join(configDir, 'login-shell');
writeFileSync(
  loginShell,
  '#!/bin/sh\nPATH=/opt/login-shell/bin:$PATH; export PATH\nfor last; do :; done\neval "$last"\n',
);
chmodSync(loginShell, 0o755);
process.env.SHELL = loginShell;
afterAll(() => {
  process.env.SHELL = previous.SHELL;
  process.env.PATH = previous.PATH;
});

const dispose = vi.spyOn(AirlockCore.prototype, 'dispose');

describe('the Electron entry point', () => {
  it('sets the profile folder, the scheme and the hardening before the app is ready, and nothing else', async () => {
    await import('../../../../main/electron/index.js');
    expect(app.setPath).toHaveBeenCalledExactlyOnceWith('userData', profileDir());
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledTimes(1);
    expect(app.enableSandbox).toHaveBeenCalledTimes(1);
    expect(app.listenerCount('web-contents-created')).toBe(1);
    expect(protocol.handle).not.toHaveBeenCalled();
    expect(ipcHandlers.size).toBe(0);
    expect(BrowserWindow.created).toHaveLength(0);
  });

  it('once ready, serves the app, wires IPC to the core and the URL windows’ strips, and opens the window', async () => {
    // The application menu is set before the first window exists: none has Electron's default.
    let menuAtFirstWindow: unknown;
    app.once('web-contents-created', () => (menuAtFirstWindow = Menu.application));
    makeReady();
    await vi.waitFor(() => expect(BrowserWindow.created).toHaveLength(1));
    expect(Menu.setApplicationMenu).toHaveBeenCalledTimes(1);
    expect(menuAtFirstWindow).toBe(Menu.application);
    expect(menuAtFirstWindow).not.toBeNull();
    expect(protocol.handle).toHaveBeenCalledWith('airlock', expect.any(Function));
    expect([...ipcHandlers.keys()].sort()).toEqual(
      [...Object.keys(calls), STRIP_CHANNELS.close, STRIP_CHANNELS.openInBrowser].sort(),
    );
    const [window] = BrowserWindow.created;
    const prefs = window?.options.webPreferences;
    expect(prefs?.preload).toMatch(/[/\\]preload[/\\]index\.cjs$/);
    expect(prefs?.sandbox).toBe(true);
    expect(window?.loadURL).toHaveBeenCalledWith('airlock://app/index.html');
    // Agents start with the login shell's PATH, taken at start (the window does not wait).
    await vi.waitFor(() => expect(process.env.PATH?.split(':')[0]).toBe('/opt/login-shell/bin'), {
      timeout: 10_000,
    });
  });

  it('answers the window through the core, with the demo agent and the folder picker', async () => {
    const [window] = BrowserWindow.created;
    const contents = window!.webContents;
    const call = (channel: string) =>
      invokeMain(channel, { sender: contents, senderFrame: contents.mainFrame }, {});
    const state = (await call('app:getState')) as {
      ok: true;
      value: { canPickFolder: boolean; agents: { name: string; commandLine: string }[] };
    };
    expect(state.ok).toBe(true);
    expect(state.value.canPickFolder).toBe(true);
    // The host opens consented URLs itself (url-opener.ts), not the page.
    expect(state.value).toMatchObject({ urlElicitation: { opener: 'host' } });
    expect(state.value.agents[0]?.name).toBe('Demo Agent');
    expect(state.value.agents[0]?.commandLine).toMatch(/demo-agent\.js$/);

    dialog.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/home/me/project'] });
    expect(await call('app:pickFolder')).toEqual({ ok: true, value: { path: '/home/me/project' } });
    dialog.showOpenDialog.mockResolvedValue({ canceled: true, filePaths: [] });
    expect(await call('app:pickFolder')).toEqual({ ok: true, value: { path: null } });
    const [options] = dialog.showOpenDialog.mock.calls[0] as [{ properties: string[] }];
    expect(options.properties).toContain('openDirectory');
  });

  it('stops the agents when the app quits, holding the quit until they have', async () => {
    expect(dispose).not.toHaveBeenCalled();
    const preventDefault = vi.fn();
    app.emit('before-quit', { preventDefault });
    expect(preventDefault).toHaveBeenCalledTimes(1);
    expect(dispose).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
  });
});
