import './use-fake-electron.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  app,
  BrowserWindow,
  fakeOf,
  ipcHandlers,
  makeReady,
  protocol,
  resetFakeElectron,
} from './fake-electron.js';
import {
  bringToFront,
  setupSecondInstance,
  takeSingleInstanceLock,
} from '../../../../main/electron/app-instance.js';
import { profileDir } from '../../../../main/electron/app-profile.js';
import { appWindows, createAppWindow } from '../../../../main/electron/app-window.js';
import { useConfigDir } from '../../../helpers/temp-folder.js';

useConfigDir('airlock-instance-');

beforeEach(() => {
  for (const window of appWindows()) {
    window.emit('closed');
  }
  resetFakeElectron();
});

const PRELOAD = '/app/out/preload/index.cjs';
/** The app's windows as the entry point hands them over. */
const windows = { open: appWindows, create: vi.fn(() => createAppWindow(PRELOAD)) };

describe('takeSingleInstanceLock', () => {
  it('lets the first instance run', () => {
    expect(takeSingleInstanceLock()).toBe(true);
    expect(app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
  });

  it('quits a second instance', () => {
    app.requestSingleInstanceLock.mockReturnValue(false);
    expect(takeSingleInstanceLock()).toBe(false);
    expect(app.quit).toHaveBeenCalledTimes(1);
  });
});

describe('bringToFront', () => {
  it('restores a minimized window, then shows and focuses it', () => {
    const window = fakeOf(BrowserWindow, createAppWindow(PRELOAD));
    window.minimize();
    bringToFront(windows);
    expect(window.minimized).toBe(false);
    expect(window.restore).toHaveBeenCalledTimes(1);
    expect(window.show).toHaveBeenCalledTimes(1);
    expect(BrowserWindow.focused).toBe(window);
    expect(window.restore.mock.invocationCallOrder[0]).toBeLessThan(
      window.focus.mock.invocationCallOrder[0] ?? 0,
    );
    expect(windows.create).not.toHaveBeenCalled();
  });

  it('leaves a window that is not minimized as it is (a maximized one stays maximized)', () => {
    const window = fakeOf(BrowserWindow, createAppWindow(PRELOAD));
    window.maximize();
    bringToFront(windows);
    expect(window.restore).not.toHaveBeenCalled();
    expect(window.maximized).toBe(true);
    expect(BrowserWindow.focused).toBe(window);
  });

  it('opens a window when none is open (macOS, every window closed)', () => {
    const closed = fakeOf(BrowserWindow, createAppWindow(PRELOAD));
    closed.userCloses();
    bringToFront(windows);
    expect(windows.create).toHaveBeenCalledTimes(1);
    expect(appWindows()).toHaveLength(1);
    expect(appWindows()[0]).not.toBe(closed);
  });
});

describe('setupSecondInstance', () => {
  it('brings the running window to the front when the app is launched again', () => {
    setupSecondInstance(windows);
    const window = fakeOf(BrowserWindow, createAppWindow(PRELOAD));
    window.minimize();
    app.emit('second-instance', {}, ['airlock'], '/home/me', {});
    expect(window.minimized).toBe(false);
    expect(window.show).toHaveBeenCalled();
    expect(BrowserWindow.focused).toBe(window);
    expect(BrowserWindow.created).toHaveLength(1);
  });
});

describe('the entry point in a second instance', () => {
  it('quits at once, having started nothing: no scheme, no hardening, no core, no window', async () => {
    app.requestSingleInstanceLock.mockReturnValue(false);
    await import('../../../../main/electron/index.js');
    // The lock is Chromium's, in the profile folder: that folder is set first, then the lock.
    expect(app.setPath).toHaveBeenCalledExactlyOnceWith('userData', profileDir());
    expect(app.setPath.mock.invocationCallOrder[0]).toBeLessThan(
      app.requestSingleInstanceLock.mock.invocationCallOrder[0] ?? 0,
    );
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(protocol.registerSchemesAsPrivileged).not.toHaveBeenCalled();
    expect(app.enableSandbox).not.toHaveBeenCalled();
    expect(app.whenReady).not.toHaveBeenCalled();
    // Even should Electron get ready before it has quit.
    makeReady();
    await new Promise((resolve) => setImmediate(resolve));
    expect(protocol.handle).not.toHaveBeenCalled();
    expect(ipcHandlers.size).toBe(0);
    expect(BrowserWindow.created).toHaveLength(0);
  });
});

describe('the entry point in the first instance', () => {
  it('brings its window to the front when the app is launched again', async () => {
    // A fresh entry point (the test above ran one); `electron` stays this file's fake.
    vi.resetModules();
    await import('../../../../main/electron/index.js');
    expect(app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    makeReady();
    await vi.waitFor(() => expect(app.listenerCount('second-instance')).toBe(1), {
      timeout: 20_000,
    });
    const window = fakeOf(BrowserWindow, BrowserWindow.created[0]);
    window.minimize();
    app.emit('second-instance', {}, ['airlock'], '/home/me', {});
    expect(window.minimized).toBe(false);
    expect(BrowserWindow.focused).toBe(window);
    expect(BrowserWindow.created).toHaveLength(1);
  });
});
