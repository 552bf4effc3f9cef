/**
 * The app window: the renderer, served on the app scheme, with the preload bridge.
 *
 * The page runs sandboxed and context-isolated without Node; all it can reach is
 * `window.airlock`. The process-wide defaults in hardening.ts (no navigation, no new windows,
 * no permissions) apply to it as to every contents.
 */
import { app, BrowserWindow, type WebPreferences } from 'electron';
import { APP_URL } from './app-protocol.js';

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

/** The app windows that are open. */
export function appWindows(): BrowserWindow[] {
  return [...windows].filter((window) => !window.isDestroyed());
}

/** Opens an app window on the app's page. */
export function createAppWindow(preloadPath: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 640,
    minHeight: 480,
    title: 'Airlock',
    show: false,
    webPreferences: appWebPreferences(preloadPath),
  });
  windows.add(window);
  window.on('closed', () => windows.delete(window));
  window.once('ready-to-show', () => window.show());
  window
    .loadURL(APP_URL)
    .catch((error: unknown) => console.error('airlock: could not load the app:', error));
  return window;
}

/**
 * Opens the first app window, and another when the dock icon is clicked with none open
 * (macOS); quits when the last window closes, except on macOS.
 */
export function setupWindows(preloadPath: string): void {
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
