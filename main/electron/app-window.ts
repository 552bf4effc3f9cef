/**
 * The app window: the renderer, served on the app scheme, with the preload bridge.
 *
 * The page runs sandboxed and context-isolated without Node; all it can reach is
 * `window.airlock`. The process-wide defaults in hardening.ts (no navigation, no new windows,
 * no permissions) apply to it as to every contents.
 *
 * It opens where it was last time, when that is still on a display (window-state.ts), and
 * remembers where it is as the user moves, resizes, maximizes and closes it.
 */
import { app, BrowserWindow, screen, type WebPreferences } from 'electron';
import { waitingFragment } from '../../preload/shared/contract.js';
import { APP_URL } from './app-protocol.js';
import {
  restoredState,
  windowStatePath,
  WindowStateStore,
  type WindowLimits,
} from './window-state.js';

/** The app window's size when nothing is saved, and its minimum. */
export const APP_WINDOW_LIMITS: WindowLimits = {
  width: 1200,
  height: 800,
  minWidth: 640,
  minHeight: 480,
};

/** Past this, quitting no longer waits for the window state to be written. */
export const STATE_WRITE_DEADLINE_MS = 2000;

/**
 * The web preferences of the app window; every security-relevant flag is spelled out. A
 * packaged app has no developer tools: their console could call the bridge by hand.
 */
export function appWebPreferences(
  preloadPath: string,
  packaged: boolean = app.isPackaged,
): WebPreferences {
  return {
    preload: preloadPath,
    devTools: !packaged,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

const windows = new Set<BrowserWindow>();
let store: WindowStateStore | undefined;

/** The app windows that are open. */
export function appWindows(): BrowserWindow[] {
  return [...windows].filter((window) => !window.isDestroyed());
}

/**
 * Remembers the window's state whenever it changes. Minimized and full-screen are not states
 * to reopen in, so while the window is in one, the state from before stays.
 */
function rememberState(window: BrowserWindow, states: WindowStateStore): void {
  const remember = () => {
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) {
      return;
    }
    // The normal bounds: what un-maximizing returns to, which a maximized window's are not.
    states.remember({
      version: 1,
      bounds: window.getNormalBounds(),
      maximized: window.isMaximized(),
    });
  };
  window.on('move', remember);
  window.on('resize', remember);
  window.on('maximize', remember);
  window.on('unmaximize', remember);
  window.on('close', () => {
    remember();
    void states.flush();
  });
}

/**
 * Opens an app window on the app's page, where the last one was when that is on a display.
 * `showWaiting` names a session whose waiting card the page shows once it has loaded (a
 * notification clicked while no window was open): a command sent now would reach no page.
 */
export function createAppWindow(preloadPath: string, showWaiting?: string): BrowserWindow {
  const { minWidth, minHeight } = APP_WINDOW_LIMITS;
  const state = restoredState(
    store?.current,
    screen.getAllDisplays().map((display) => display.workArea),
    screen.getPrimaryDisplay().workArea,
    APP_WINDOW_LIMITS,
  );
  const window = new BrowserWindow({
    ...state.bounds,
    minWidth,
    minHeight,
    title: 'Airlock',
    show: false,
    webPreferences: appWebPreferences(preloadPath),
  });
  windows.add(window);
  window.on('closed', () => windows.delete(window));
  window.once('ready-to-show', () => {
    if (state.maximized) {
      window.maximize();
    }
    window.show();
  });
  if (store) {
    rememberState(window, store);
  }
  window
    .loadURL(showWaiting === undefined ? APP_URL : `${APP_URL}#${waitingFragment(showWaiting)}`)
    .catch((error: unknown) => console.error('airlock: could not load the app:', error));
  return window;
}

/**
 * Reads the saved window state and opens the first app window, and another when the dock icon
 * is clicked with none open (macOS); quits when the last window closes, except on macOS.
 * Quitting waits (briefly) for the window state to be written.
 */
export async function setupWindows(
  preloadPath: string,
  statePath: string = windowStatePath(),
): Promise<void> {
  store = new WindowStateStore(statePath);
  const states = store;
  await states.load();
  let held = false;
  app.on('will-quit', (event) => {
    // The last window's close started a write; the process must not end under it. Once only:
    // a write that hangs past the deadline does not keep the app open.
    if (held || !states.pending) {
      return;
    }
    held = true;
    event.preventDefault();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise(
      (resolve) => (timer = setTimeout(resolve, STATE_WRITE_DEADLINE_MS)),
    );
    void Promise.race([states.flush(), deadline]).then(() => {
      clearTimeout(timer);
      app.quit();
    });
  });
  createAppWindow(preloadPath);
  app.on('activate', () => {
    if (appWindows().length === 0) {
      createAppWindow(preloadPath);
    }
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') {
      app.quit();
    }
  });
}
