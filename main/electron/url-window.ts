/**
 * The isolated URL window: a page an agent sent (an OAuth sign-in, a payment), opened after the
 * user consented, where neither the app nor any model can read it.
 *
 * A `BaseWindow` with two views: the app's own address strip on top (renderer/strip.html with
 * preload/strip.ts: the full address, its registrable domain, https or not, warnings, Close,
 * Open in system browser), and the page below. The page gets a fresh in-memory session that no
 * other window ever uses; no preload, so no IPC; Chromium's sandbox; no dev tools, dialogs,
 * spellcheck, popups, `<webview>`, permissions, devices, downloads or client certificates; and
 * it navigates only to https (plain http only on this computer). Closing always works, and
 * wipes the session.
 *
 * This module is the only one that holds the page's contents, and it tells the rest of the app
 * only `{ status, host }`. It never reads the page: no script, capture, cookies, title or
 * console, here or anywhere (lint enforces it). The address goes to the strip and nowhere else:
 * not to a log, the transcript or the agent.
 *
 * Navigation is refused by the process-wide hardening (hardening.ts, set up before the app is
 * ready); this module grants the page its rule with {@link permitNavigation}.
 */
import { randomUUID } from 'node:crypto';
import {
  app,
  BaseWindow,
  session as sessions,
  shell,
  WebContentsView,
  type Session,
  type WebContents,
} from 'electron';
import type { StripState } from '../../preload/shared/strip-contract.js';
import { analyseUrl } from '../core/elicitation/url-analysis.js';
import { UserFacingError } from '../core/errors.js';
import { STRIP_URL } from './app-protocol.js';
import { appWebPreferences } from './app-window.js';
import { hardenSession, permitNavigation } from './hardening.js';
import { sendStripState, setupStripIpc, type StripHost } from './ipc.js';
import {
  isAllowedFrameUrl,
  isAllowedUrl,
  isolatedWebPreferences,
  NO_SANDBOX_MESSAGE,
  NOT_ALLOWED_MESSAGE,
} from './url-window-policy.js';
import { stripHeight, stripStateOf, type StripAnalysis } from './url-window-strip.js';

/** What a URL window is doing. `failed`: the page did not load (or its renderer died). */
export type UrlWindowStatus = 'loading' | 'loaded' | 'failed' | 'closed';

/** All a URL window tells the rest of the app: its status and the host of its page. */
export type UrlWindowState = { status: UrlWindowStatus; host: string };

/** An open URL window, as the rest of the app holds it. */
export type UrlWindow = {
  /** Resolves once the window is closed and its session's data is cleared. */
  readonly closed: Promise<void>;
  /** Its status and host: nothing else about the page ever leaves this module. */
  state(): UrlWindowState;
  /** Closes the window; the page cannot hold it open. */
  close(): void;
};

/** What the URL windows need from the host. */
export type UrlWindowSetup = {
  /** The built strip preload (out/preload/strip.cjs). */
  stripPreload: string;
};

/** Chromium's "the navigation was aborted", which a refused navigation also causes. */
const ERR_ABORTED = -3;

let setup: UrlWindowSetup | undefined;
const openWindows = new Set<IsolatedWindow>();

/**
 * Serves the strips' calls and remembers how to build URL windows. Call once the app is ready.
 *
 * Returns a function that removes the strips' IPC handlers.
 */
export function setupUrlWindows(options: UrlWindowSetup): () => void {
  setup = options;
  const disposeIpc = setupStripIpc(() => [...openWindows].map((window) => window.stripHost));
  return () => {
    disposeIpc();
    setup = undefined;
  };
}

/**
 * Opens `url`, which the user consented to, in a new isolated window; `analysis` is the URL
 * analysis the consent card showed.
 *
 * Throws (and opens nothing) when Chromium's sandbox is off or the address is not one the
 * isolated page may show.
 */
export function openUrlWindow({
  url,
  analysis,
}: {
  url: string;
  analysis: StripAnalysis;
}): UrlWindow {
  // Without the sandbox the page would run in a renderer with the user's full rights.
  if (app.commandLine.hasSwitch('no-sandbox')) {
    throw new UserFacingError(NO_SANDBOX_MESSAGE);
  }
  if (!setup) {
    throw new Error('The URL windows are not set up');
  }
  // loadURL raises no will-navigate, so the consented address is checked here.
  if (!isAllowedUrl(url)) {
    throw new UserFacingError(NOT_ALLOWED_MESSAGE);
  }
  const window = new IsolatedWindow(url, analysis, setup);
  return {
    closed: window.closed,
    state: () => window.state(),
    close: () => window.close(),
  };
}

class IsolatedWindow {
  readonly closed: Promise<void>;
  readonly stripHost: StripHost;
  private readonly window: BaseWindow;
  private readonly strip: WebContentsView;
  private readonly page: WebContentsView;
  private readonly session: Session;
  private status: UrlWindowStatus = 'loading';
  /** The page's main-frame address. */
  private current: string;
  private analysis: StripAnalysis | null;
  /** Why the analysis refused the current address, when it did. */
  private unanalysed = '';
  private refused = false;
  private stripReady = false;

  constructor(
    private readonly consented: string,
    analysis: StripAnalysis,
    options: UrlWindowSetup,
  ) {
    this.current = consented;
    this.analysis = analysis;
    // A name never used before and without `persist:`: an in-memory session of its own.
    this.session = sessions.fromPartition(`airlock-url-${randomUUID()}`);
    // Before any contents exists in it: no permission, device or download, ever.
    hardenSession(this.session);
    this.window = new BaseWindow({
      width: 1000,
      height: 780,
      minWidth: 480,
      minHeight: 360,
      title: `Airlock: ${hostOf(consented)}`,
    });
    this.strip = new WebContentsView({ webPreferences: appWebPreferences(options.stripPreload) });
    this.page = new WebContentsView({ webPreferences: isolatedWebPreferences(this.session) });
    this.window.contentView.addChildView(this.strip);
    this.window.contentView.addChildView(this.page);
    this.stripHost = {
      contents: this.strip.webContents,
      close: () => this.close(),
      openInBrowser: () => this.openInBrowser(),
    };
    this.guard(this.page.webContents);
    this.follow(this.page.webContents);
    this.strip.webContents.on('will-prevent-unload', (event) => event.preventDefault());
    this.strip.webContents.on('did-finish-load', () => {
      this.stripReady = true;
      this.pushState();
    });
    this.window.on('resize', () => this.layout());
    this.layout();
    this.closed = new Promise((resolve) => {
      this.window.once('closed', () => resolve(this.dispose()));
    });
    openWindows.add(this);
    // Failures show as the status ('failed'); their details hold the URL, so they stay here.
    this.strip.webContents.loadURL(STRIP_URL).catch(() => undefined);
    this.page.webContents.loadURL(consented).catch(() => undefined);
  }

  state(): UrlWindowState {
    return { status: this.status, host: hostOf(this.current) };
  }

  close(): void {
    if (!this.window.isDestroyed()) {
      this.window.close();
    }
  }

  private async openInBrowser(): Promise<void> {
    // The address the user consented to, not wherever the page has gone since.
    if (!isAllowedUrl(this.consented)) {
      throw new Error(NOT_ALLOWED_MESSAGE);
    }
    await shell.openExternal(new URL(this.consented).href);
  }

  /** Everything the page may not do, beyond what its web preferences and session forbid. */
  private guard(contents: WebContents): void {
    // Before the first load: a redirect of the consented URL is already a navigation.
    permitNavigation(contents, (url, mainFrame) => {
      const allowed = isAllowedFrameUrl(url, mainFrame);
      if (!allowed) {
        this.noteRefusal();
      }
      return allowed;
    });
    // A popup never becomes a window: it opens in this same view, when it may open at all.
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedUrl(url)) {
        contents.loadURL(url).catch(() => undefined);
      } else {
        this.noteRefusal();
      }
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    // preventDefault here means "ignore the beforeunload handler": the page cannot hold the
    // window open.
    contents.on('will-prevent-unload', (event) => event.preventDefault());
    // Electron picks the first certificate unless told otherwise: none, always (`null` is
    // Electron's "continue without a certificate", though its types do not say so).
    contents.on('select-client-certificate', (event, _url, _certificates, callback) => {
      event.preventDefault();
      (callback as unknown as (certificate: null) => void)(null);
    });
  }

  /** Follows the page's status and its main frame's address, and nothing more. */
  private follow(contents: WebContents): void {
    contents.on('did-start-loading', () => this.setStatus('loading'));
    contents.on('did-fail-load', (_event, code, _description, _url, isMainFrame) => {
      if (isMainFrame && code !== ERR_ABORTED) {
        this.setStatus('failed');
      }
    });
    contents.on('did-stop-loading', () => {
      if (this.status === 'loading') {
        this.setStatus('loaded');
      }
    });
    contents.on('render-process-gone', () => this.setStatus('failed'));
    // 'did-navigate' fires for the main frame only; the other two say which frame it was.
    contents.on('did-navigate', (_event, url) => this.navigated(url));
    contents.on('did-navigate-in-page', (_event, url, isMainFrame) => {
      if (isMainFrame) {
        this.navigated(url);
      }
    });
    contents.on('did-redirect-navigation', (details) => {
      if (details.isMainFrame) {
        this.navigated(details.url);
      }
    });
  }

  private navigated(url: string): void {
    this.current = url;
    this.refused = false;
    const verdict = analyseUrl(url);
    this.analysis = verdict.ok ? verdict.analysis : null;
    this.unanalysed = verdict.ok ? '' : verdict.reason;
    this.changed();
  }

  private noteRefusal(): void {
    if (!this.refused) {
      this.refused = true;
      this.changed();
    }
  }

  private setStatus(status: UrlWindowStatus): void {
    if (this.status !== 'closed') {
      this.status = status;
    }
  }

  private changed(): void {
    if (this.status === 'closed') {
      return;
    }
    this.layout();
    this.pushState();
  }

  private pushState(): void {
    if (this.stripReady) {
      sendStripState(this.strip.webContents, this.stripState());
    }
  }

  private stripState(): StripState {
    const { current: url, analysis, unanalysed, refused } = this;
    return stripStateOf({ url, analysis, unanalysed, refused });
  }

  private layout(): void {
    if (this.window.isDestroyed()) {
      return;
    }
    const { width, height } = this.window.getContentBounds();
    const top = stripHeight(this.stripState(), height);
    this.strip.setBounds({ x: 0, y: 0, width, height: top });
    this.page.setBounds({ x: 0, y: top, width, height: height - top });
  }

  /** Closes both views' contents (without running the page's beforeunload) and wipes the session. */
  private async dispose(): Promise<void> {
    this.status = 'closed';
    openWindows.delete(this);
    for (const view of [this.page, this.strip]) {
      if (!view.webContents.isDestroyed()) {
        view.webContents.close();
      }
    }
    await Promise.allSettled([
      this.session.clearStorageData(),
      this.session.clearCache(),
      this.session.clearAuthCache(),
    ]);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
