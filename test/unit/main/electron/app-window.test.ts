import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, asElectron, BrowserWindow, fakeOf, resetFakeElectron } from './fake-electron.js';
import { appWindows, createAppWindow, setupWindows } from '../../../../main/electron/app-window.js';
import { setupHardening } from '../../../../main/electron/hardening.js';

vi.mock('electron', () => import('./fake-electron.js'));

beforeEach(() => {
  // The module keeps its open windows across tests: close the last test's.
  for (const window of BrowserWindow.created) {
    window.emit('closed');
  }
  resetFakeElectron();
});

const PRELOAD = '/app/out/preload/index.cjs';

describe('createAppWindow', () => {
  it('runs the page sandboxed and isolated, without Node, with web security and no webview', () => {
    createAppWindow(PRELOAD);
    const [window] = BrowserWindow.created;
    const prefs = window?.options.webPreferences;
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
    expect(prefs?.preload).toBe(PRELOAD);
    // Nothing that would loosen the above may be set at all.
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('additionalArguments');
    expect(prefs).not.toHaveProperty('partition');
  });

  it('loads the app page over the app scheme, never file://', () => {
    const window = createAppWindow(PRELOAD);
    expect(window.loadURL).toHaveBeenCalledWith('airlock://app/index.html');
    expect(window.loadURL).toHaveBeenCalledTimes(1);
  });

  it('is hardened like every contents: no navigation, no window.open, no permissions', () => {
    setupHardening();
    const window = fakeOf(BrowserWindow, createAppWindow(PRELOAD));
    const contents = window.webContents;
    expect(contents.attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.requestWindow('https://evil.example/')).toEqual({ action: 'deny' });
    const callback = vi.fn();
    contents.session.permissionRequestHandler?.(asElectron(contents), 'media', callback, {
      isMainFrame: true,
      requestingUrl: 'airlock://app/index.html',
    });
    expect(callback).toHaveBeenCalledWith(false);
  });

  it('keeps track of open windows only', () => {
    const first = fakeOf(BrowserWindow, createAppWindow(PRELOAD));
    const second = fakeOf(BrowserWindow, createAppWindow(PRELOAD));
    expect(appWindows()).toEqual([first, second]);
    first.emit('closed');
    second.destroyed = true;
    expect(appWindows()).toEqual([]);
  });
});

describe('setupWindows', () => {
  it('opens one window, and another on activate only when none is open', () => {
    setupWindows(PRELOAD);
    expect(BrowserWindow.created).toHaveLength(1);
    app.emit('activate');
    expect(BrowserWindow.created).toHaveLength(1);
    BrowserWindow.created[0]?.emit('closed');
    app.emit('activate');
    expect(BrowserWindow.created).toHaveLength(2);
  });
});
