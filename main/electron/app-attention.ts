/**
 * Cards waiting on the user, told while the app is in the background: a desktop notification
 * for each card as it opens, and their count on the dock or taskbar badge.
 *
 * What waits and what a notification says are the core's (main/core/attention.ts); this module
 * only shows it, and brings the window forward on the card when a notification is clicked.
 */
import { app, BrowserWindow, Notification } from 'electron';
import { notificationBody } from '../core/attention.js';
import type { AirlockCore } from '../core/core.js';

/** What this module does with an app window. */
type AppWindow = Pick<BrowserWindow, 'isDestroyed' | 'isMinimized' | 'restore' | 'show' | 'focus'>;

/**
 * Shows a notification for each card that opens while no app window has the focus, and keeps
 * the badge at the number of cards waiting. Returns the unsubscribe function.
 */
export function setupAttention(
  core: Pick<AirlockCore, 'onAttention' | 'hostCommand'>,
  windows: {
    /** The app windows that are open. */
    open(): AppWindow[];
    /** Opens a window that shows the card waiting in session `key` once its page has loaded. */
    create(key: string): void;
  },
  platform: NodeJS.Platform = process.platform,
): () => void {
  // Held until the card ends, then closed: a notification object that is garbage-collected is
  // taken down, and its click lost (Electron's `Notification.getHistory` docs). Not dropped on
  // 'close' either: on Windows that fires when the toast moves to the Action Center, where
  // it can still be clicked, and removed by `close()`.
  const shown = new Map<string, Notification>();
  let badge = 0;
  return core.onAttention(({ waiting, opened, ended }) => {
    if (ended !== undefined) {
      shown.get(ended)?.close();
      shown.delete(ended);
    }
    // The user looking at the app sees the card there; a system without a notification
    // server (or with them turned off) gets none, and no error.
    if (opened && BrowserWindow.getFocusedWindow() === null && Notification.isSupported()) {
      const notification = new Notification({
        title: opened.title,
        body: notificationBody(opened.body, platform),
      });
      notification.on('click', () => {
        const window = windows.open().find((each) => !each.isDestroyed());
        if (!window) {
          // macOS runs on with every window closed: a command now would reach no page.
          windows.create(opened.sessionKey);
          return;
        }
        bringForward(window);
        core.hostCommand({ command: 'showWaiting', key: opened.sessionKey });
      });
      shown.set(opened.cardKey, notification);
      notification.show();
    }
    if (waiting !== badge) {
      badge = waiting;
      // macOS: the number on the Dock icon (0 hides it; needs the user's permission for
      // notifications). Linux: on docks and task bars that implement the LauncherEntry D-Bus
      // API (KDE Plasma, Ubuntu Dock), matched to the app by its .desktop file (`desktopName`);
      // nothing elsewhere. Windows: Electron offers no badge there and the call does nothing
      // (a taskbar overlay icon would need an image per number).
      app.setBadgeCount(waiting);
    }
  });
}

/** Shows the window, out of minimized, and gives it the focus. */
function bringForward(window: AppWindow): void {
  if (window.isMinimized()) {
    window.restore();
  }
  window.show();
  window.focus();
}
