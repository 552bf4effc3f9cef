/**
 * One Airlock at a time: a second launch brings the running window to the front and ends.
 *
 * Two instances would each start the core and its agents over the same settings, secrets and
 * logs, and fight over Chromium's profile folder. Electron's lock is Chromium's process
 * singleton: a lock file (Linux, macOS) or a mutex and message window (Windows) in the
 * `userData` folder as it is when the lock is asked for. So the lock is asked for right after
 * app-profile.ts has set that folder, and before anything else runs.
 *
 * The lock holds in packaged builds and in development alike. Since it lives in the profile
 * folder, which lives in the settings folder, two development copies (or a development copy
 * and the installed app) are one instance when they share a settings folder: the second one
 * started only focuses the first, whatever its code. To run them side by side, give each its
 * own settings folder with `AIRLOCK_CONFIG_DIR` (its own settings, logs and profile too).
 */
import { app, type BrowserWindow } from 'electron';

/**
 * Asks for the single-instance lock. Returns true in the first instance. In a second one it
 * asks the app to quit and returns false: the caller must then start nothing (no core, no
 * agent, no window); the first instance has been told already, with 'second-instance'.
 */
export function takeSingleInstanceLock(): boolean {
  if (app.requestSingleInstanceLock()) {
    return true;
  }
  app.quit();
  return false;
}

/** What bringing the app forward needs: its open windows, and a way to open one. */
export type AppWindows = {
  open(): BrowserWindow[];
  create(): BrowserWindow;
};

/**
 * Brings the app window to the front: out of the dock or taskbar if minimized, shown, focused.
 * Opens one when none is open (macOS keeps running with every window closed); a new window
 * shows and takes the focus itself once its page is ready.
 */
export function bringToFront(windows: AppWindows): void {
  const [window] = windows.open();
  if (!window) {
    windows.create();
    return;
  }
  if (window.isMinimized()) {
    window.restore();
  }
  window.show();
  window.focus();
}

/**
 * Answers a second launch by bringing the app window to the front. Set up once the first
 * window is open: a launch before then is answered by that window appearing.
 */
export function setupSecondInstance(windows: AppWindows): void {
  app.on('second-instance', () => bringToFront(windows));
}
