/**
 * What the isolated URL window allows, as plain data and checks (url-window.ts applies them):
 * which addresses its page may show, its page's web preferences, and why it refuses to open.
 */
import type { Session, WebPreferences } from 'electron';

/** Why a URL window does not open when Chromium's sandbox is off. */
export const NO_SANDBOX_MESSAGE =
  "The isolated window needs Chromium's sandbox, which is off (--no-sandbox). Open the URL in your browser instead.";

/** Why an address does not open, in the isolated window or the system browser. */
export const NOT_ALLOWED_MESSAGE =
  'Airlock opens only https addresses, or http ones on this computer.';

/**
 * Whether the isolated page may show an address: https anywhere, plain http only to this
 * computer (localhost, 127.0.0.0/8, [::1]). Every other scheme is refused.
 */
export function isAllowedUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') {
    return url.hostname !== '';
  }
  // The URL parser has already turned 127.1, 0x7f.0.0.1 and the like into dotted quads.
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The web preferences of the isolated page; every security-relevant flag is spelled out. */
export function isolatedWebPreferences(partitionSession: Session): WebPreferences {
  return {
    session: partitionSession,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    devTools: false,
    spellcheck: false,
    disableDialogs: true,
    safeDialogs: true,
    webviewTag: false,
    navigateOnDragDrop: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
  };
}
