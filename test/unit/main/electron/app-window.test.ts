import './use-fake-electron.js';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open as openFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  app,
  asElectron,
  BrowserWindow,
  fakeDisplay,
  fakeOf,
  resetFakeElectron,
  screen,
} from './fake-electron.js';
import {
  APP_WINDOW_LIMITS,
  appWindows,
  createAppWindow,
  setupWindows,
  STATE_WRITE_DEADLINE_MS,
} from '../../../../main/electron/app-window.js';
import {
  readWindowState,
  SAVE_DELAY_MS,
  type WindowState,
} from '../../../../main/electron/window-state.js';
import { setupHardening } from '../../../../main/electron/hardening.js';
import { tempFolder } from '../../../helpers/temp-folder.js';

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

  it('opened for a waiting card, names its session in the page address fragment', () => {
    const window = createAppWindow(PRELOAD, 's1f');
    expect(window.loadURL).toHaveBeenCalledWith('airlock://app/index.html#waiting=s1f');
    // Only a session key: nothing else reaches the page's address.
    expect(() => createAppWindow(PRELOAD, 'x#y')).toThrow();
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

/** The file's folders, removed after its last test. */
const folders = tempFolder('airlock-app-window-');

/** A state file path in a fresh folder. */
async function statePath(): Promise<string> {
  return join(await mkdtemp(join(folders, 'state-')), 'window-state.json');
}

describe('setupWindows', () => {
  it('opens one window, and another on activate only when none is open', async () => {
    await setupWindows(PRELOAD, await statePath());
    expect(BrowserWindow.created).toHaveLength(1);
    app.emit('activate');
    expect(BrowserWindow.created).toHaveLength(1);
    BrowserWindow.created[0]?.emit('closed');
    app.emit('activate');
    expect(BrowserWindow.created).toHaveLength(2);
  });
});

describe('the window state', () => {
  const LEFT = { x: 0, y: 0, width: 1920, height: 1080 };
  const RIGHT = { x: 1920, y: 0, width: 2560, height: 1440 };
  const twoDisplays = () => [fakeDisplay(1, LEFT), fakeDisplay(2, RIGHT)];
  const state = (x: number, y: number, maximized = false): WindowState => ({
    version: 1,
    bounds: { x, y, width: 1000, height: 700 },
    maximized,
  });
  let path: string;
  beforeEach(async () => {
    path = await statePath();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Opens the app with the displays and state file as they are; its first window. */
  async function launch(): Promise<BrowserWindow> {
    await setupWindows(PRELOAD, path);
    return fakeOf(BrowserWindow, appWindows().at(-1));
  }

  it('reopens the window where it was, on the second display, maximized as it was', async () => {
    screen.displays = twoDisplays();
    await writeFile(path, JSON.stringify(state(2500, 300, true)));
    const window = await launch();
    expect(window.options).toMatchObject({ x: 2500, y: 300, width: 1000, height: 700 });
    expect(window.options).toMatchObject({ minWidth: 640, minHeight: 480 });
    expect(window.maximize).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.maximized).toBe(true);
    expect(window.maximize.mock.invocationCallOrder[0]).toBeLessThan(
      window.show.mock.invocationCallOrder[0] ?? 0,
    );
  });

  it('reopens it on the primary display when its display has been unplugged', async () => {
    screen.displays = [fakeDisplay(1, LEFT)];
    await writeFile(path, JSON.stringify(state(2500, 300)));
    const window = await launch();
    expect(window.options).toMatchObject({ x: 460, y: 190, width: 1000, height: 700 });
  });

  it('opens at the default size, centred, when the file is damaged', async () => {
    await writeFile(path, '{"version": 1, "bounds": {"x": "far"');
    const window = await launch();
    const { width, height } = APP_WINDOW_LIMITS;
    // The default display: 1920×1048 below a 32-pixel panel.
    expect(window.options).toMatchObject({ x: 360, y: 156, width, height });
  });

  it('saves where the user puts it, once it has stayed there a moment', async () => {
    screen.displays = twoDisplays();
    const window = await launch();
    for (let x = 100; x <= 2000; x += 100) {
      window.userSetsBounds({ x, y: 120, width: 1100, height: 750 });
      await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS / 5);
    }
    expect(await readWindowState(path)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    await vi.waitFor(async () =>
      expect(await readWindowState(path)).toEqual({
        version: 1,
        bounds: { x: 2000, y: 120, width: 1100, height: 750 },
        maximized: false,
      }),
    );
    // And the next window opens there.
    window.userCloses();
    app.emit('activate');
    expect(BrowserWindow.created.at(-1)?.options).toMatchObject({ x: 2000, y: 120 });
  });

  it('saves the bounds to return to when maximized, and nothing while minimized or full screen', async () => {
    const window = await launch();
    window.userSetsBounds({ x: 200, y: 100, width: 900, height: 600 });
    window.maximize();
    // Windows moves a minimized window far off screen; nothing of that is kept.
    window.minimize();
    window.userSetsBounds({ x: -32000, y: -32000, width: 160, height: 28 });
    window.minimized = false;
    window.fullScreen = true;
    window.userSetsBounds({ x: 0, y: 0, width: 1920, height: 1080 });
    window.userCloses();
    // Quitting waits for the write, so once it goes on, the file is final.
    app.emit('will-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
    expect(await readWindowState(path)).toEqual({
      version: 1,
      bounds: { x: 200, y: 100, width: 900, height: 600 },
      maximized: true,
    });
  });

  it('writes at once when the window closes, and quitting waits for that write', async () => {
    const window = await launch();
    window.userSetsBounds({ x: 300, y: 200, width: 900, height: 600 });
    expect(vi.getTimerCount()).toBe(1);
    // A last change no event reported: the bounds are read again at close.
    window.bounds = { x: 300, y: 200, width: 950, height: 650 };
    window.userCloses();
    // The write is under way: not left to the timer.
    expect(vi.getTimerCount()).toBe(0);
    const preventDefault = vi.fn();
    app.emit('will-quit', { preventDefault });
    expect(preventDefault).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(await readWindowState(path)).toMatchObject({
      bounds: { x: 300, y: 200, width: 950, height: 650 },
    });
    // The quit asked for again goes through.
    const again = vi.fn();
    app.emit('will-quit', { preventDefault: again });
    expect(again).not.toHaveBeenCalled();
  });

  it('does not hold the quit when nothing is left to write', async () => {
    await launch();
    const preventDefault = vi.fn();
    app.emit('will-quit', { preventDefault });
    expect(preventDefault).not.toHaveBeenCalled();
  });

  it('does not hold the quit past the deadline when the write hangs', async () => {
    // A named pipe in the file's place: reading it (as the writer does first) waits for a
    // writer to open it, as a hung network file system would.
    execFileSync('mkfifo', [path]);
    const window = await launch();
    window.userSetsBounds({ x: 300, y: 200, width: 900, height: 600 });
    window.userCloses();
    const preventDefault = vi.fn();
    app.emit('will-quit', { preventDefault });
    expect(preventDefault).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(STATE_WRITE_DEADLINE_MS - 1);
    expect(app.quit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(app.quit).toHaveBeenCalledTimes(1);
    // Held once only: the quit asked for again goes through though the write still waits.
    const again = vi.fn();
    app.emit('will-quit', { preventDefault: again });
    expect(again).not.toHaveBeenCalled();
    // Let the read end, so no thread stays blocked after the test. The writer reads the file
    // once more before replacing it: let that read end too, and the write finish, so nothing
    // writes into the test's folder once it is removed.
    await (await openFile(path, 'w')).close();
    await vi.waitFor(async () => {
      const writer = await openFile(path, constants.O_WRONLY | constants.O_NONBLOCK).catch(
        () => undefined, // ENXIO: nothing is reading the pipe at this moment
      );
      await writer?.close();
      expect(await readWindowState(path)).toMatchObject({
        bounds: { x: 300, y: 200, width: 900, height: 600 },
      });
    });
  });
});
