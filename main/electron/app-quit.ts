/**
 * Quitting: every agent is stopped, and its process has ended, before the app does.
 *
 * - `before-quit` and `will-quit` are held once (`preventDefault`) while the core stops its
 *   agents; `core.dispose()` resolves once every agent process has exited (SIGTERM, then
 *   SIGKILL after the grace period). Then the quit is asked for again and goes through.
 * - Something that hangs cannot keep the app open: past the deadline it exits regardless.
 * - System shutdown (`powerMonitor` 'shutdown', Linux and macOS) is delayed the same way.
 * - Windows sends neither `before-quit` nor `will-quit` at log-off or shutdown, only a
 *   window's `session-end`, and may end the app as soon as that handler returns. Stopping
 *   starts there: each agent's `kill` (on Windows a termination, not a request) runs in the
 *   microtasks that follow the handler, before control goes back to Electron. Windows ends the
 *   user's remaining processes at log-off itself.
 */
import { app, powerMonitor, type BrowserWindow } from 'electron';
import { STOP_GRACE_MS } from '../core/agent-connection.js';

/** What quitting needs of the core. */
export type Disposable = { dispose(): Promise<void> };

/** Past this, the app exits even if stopping the agents has not finished. */
export const QUIT_DEADLINE_MS = STOP_GRACE_MS * 2 + 2000;

type Preventable = { preventDefault(): void };

/** Stops every agent when the app quits, and quits only once they have ended. */
export function setupQuit(core: Disposable, deadlineMs = QUIT_DEADLINE_MS): void {
  let stopping: Promise<void> | undefined;
  let stopped = false;

  const stop = (): Promise<void> => {
    stopping ??= new Promise<void>((resolve) => {
      let exited = false;
      const timer = setTimeout(() => {
        console.error(`airlock: the agents did not stop within ${deadlineMs} ms; exiting`);
        exited = true;
        app.exit(0);
        resolve();
      }, deadlineMs);
      core
        .dispose()
        .catch((error: unknown) => console.error('airlock: stopping the agents failed:', error))
        .finally(() => {
          clearTimeout(timer);
          stopped = true;
          resolve();
          if (!exited) {
            app.quit();
          }
        });
    });
    return stopping;
  };

  const hold = (event: Preventable): void => {
    if (stopped) {
      return;
    }
    event.preventDefault();
    void stop();
  };
  app.on('before-quit', hold);
  app.on('will-quit', hold);
  // Electron passes the event (its typings say no argument; its documentation says one).
  powerMonitor.on('shutdown', (...args: unknown[]) => hold(args[0] as Preventable));
  app.on('browser-window-created', (_event: unknown, window: BrowserWindow) => {
    window.on('session-end', () => void stop());
  });
}
