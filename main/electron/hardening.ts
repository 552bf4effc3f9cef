/**
 * Defaults that hold for every web contents and session the app creates.
 *
 * Every contents, whoever created it: no navigation (unless the module that owns it granted a
 * rule with {@link permitNavigation}), no redirects elsewhere, no new windows, no `<webview>`.
 * Every session: every permission request and check denied, no downloads.
 */
import { app, type Session, type WebContents } from 'electron';

/** Decides whether a contents may navigate a frame to a URL: its main frame, or one inside. */
export type NavigationRule = (url: string, mainFrame: boolean) => boolean;

const navigationRules = new WeakMap<WebContents, NavigationRule>();
const hardenedSessions = new WeakSet<Session>();

/**
 * Lets `contents` navigate where `rule` allows. Without a rule, every navigation is refused.
 *
 * For the module that owns a contents which must navigate (the isolated URL window).
 */
export function permitNavigation(contents: WebContents, rule: NavigationRule): void {
  navigationRules.set(contents, rule);
}

/** Whether `contents` may navigate its main frame (or a frame inside it) to `url`. */
export function navigationAllowed(contents: WebContents, url: string, mainFrame = true): boolean {
  return navigationRules.get(contents)?.(url, mainFrame) ?? false;
}

/** Applies the defaults to one contents and its session. */
export function hardenContents(contents: WebContents): void {
  const refuseUnlessPermitted = (event: {
    url: string;
    isMainFrame?: boolean;
    preventDefault(): void;
  }) => {
    // Only a frame that says it is not the main one is judged as a frame inside the page.
    if (!navigationAllowed(contents, event.url, event.isMainFrame !== false)) {
      event.preventDefault();
    }
  };
  contents.on('will-navigate', refuseUnlessPermitted);
  contents.on('will-frame-navigate', refuseUnlessPermitted);
  contents.on('will-redirect', refuseUnlessPermitted);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  hardenSession(contents.session);
}

/** Denies every permission and download in a session. Idempotent. */
export function hardenSession(session: Session): void {
  if (hardenedSessions.has(session)) {
    return;
  }
  hardenedSessions.add(session);
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
}

/**
 * Turns on the sandbox for every renderer and hardens every contents as it is created.
 *
 * Call before the app is ready, so no contents exists unhardened.
 */
export function setupHardening(): void {
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}
