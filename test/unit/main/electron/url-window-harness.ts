/**
 * Opens isolated URL windows against the fake `electron`, for the url-window tests.
 *
 * Each test file still puts the fake in place of `electron` itself, by importing
 * `use-fake-electron.ts` first.
 */
import {
  BaseWindow,
  type FakeSession,
  type FakeWebContents,
  type WebContentsView,
  resetFakeElectron,
} from './fake-electron.js';
import { setupHardening } from '../../../../main/electron/hardening.js';
import { analyseUrl } from '../../../../main/core/elicitation/url-analysis.js';
import {
  openUrlWindow,
  setupUrlWindows,
  type UrlWindow,
} from '../../../../main/electron/url-window.js';

/** Where the strip's preload would be built. */
export const STRIP_PRELOAD = '/app/out/preload/strip.cjs';

/** An open window with its parts as the fake recorded them. */
export type Opened = {
  handle: UrlWindow;
  window: BaseWindow;
  strip: WebContentsView;
  page: WebContentsView;
  /** The page's contents. */
  contents: FakeWebContents;
  session: FakeSession;
};

let disposeSetup: (() => void) | undefined;

/** A fresh fake Electron with the hardening and the URL windows set up. */
export function freshHost(): void {
  // Windows left open by the last test would stay in the module's list of strips.
  for (const window of BaseWindow.created) {
    window.close();
  }
  disposeSetup?.();
  resetFakeElectron();
  setupHardening();
  disposeSetup = setupUrlWindows({ stripPreload: STRIP_PRELOAD });
}

/** Opens `url` as if the user consented to it on a card that showed its analysis. */
export function openWindow(url = 'https://accounts.example.com/login?next=%2F'): Opened {
  const result = analyseUrl(url);
  if (!result.ok) {
    throw new Error(`the analysis refused the URL: ${result.reason}`);
  }
  const handle = openUrlWindow({ url, analysis: result.analysis });
  const window = BaseWindow.created.at(-1)!;
  const [strip, page] = window.contentView.children as [WebContentsView, WebContentsView];
  return {
    handle,
    window,
    strip,
    page,
    contents: page.webContents,
    session: page.webContents.session,
  };
}

/** Lets the strip's page finish loading, as Electron would announce it. */
export function loadStrip(opened: Opened): void {
  opened.strip.webContents.emit('did-finish-load');
}
