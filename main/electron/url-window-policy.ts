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

// Documents a frame inside the page may hold besides web pages: an empty or inline frame,
// and content the page made itself. None can replace the page the strip names.
const INERT_FRAME = /^(?:about:(?:blank|srcdoc)(?:[?#]|$)|data:|blob:)/i;

/**
 * Whether a frame of the isolated page may show an address: the page itself only what
 * {@link isAllowedUrl} allows; a frame inside it also `about:blank`, `about:srcdoc`, `data:`
 * and `blob:`, which sign-in pages use for widgets and which cannot leave the page.
 */
export function isAllowedFrameUrl(text: string, mainFrame: boolean): boolean {
  return isAllowedUrl(text) || (!mainFrame && INERT_FRAME.test(text));
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
