/**
 * The set-up every end-to-end test of the web host shares: a host and a Chromium, a fresh page
 * for each test, what the page showed when a test failed, and everything closed afterwards.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { appPage } from './app-page.js';
import {
  echoPageErrors,
  launchChromium,
  reportFailure,
  startWebApp,
  type WebApp,
} from './web-app.js';

/** How a page of the app is opened: set for a whole file, or for one page with `open()`. */
export type PageOptions = {
  /** The window's size; 1200×900 when not given. */
  viewport?: { width: number; height: number };
  /** Options of the page's own browser context (`bypassCSP`, `colorScheme`, `permissions`…). */
  context?: BrowserContextOptions;
  /** Console errors the test expects, which are not passed on to its output. */
  ignoreErrors?: (text: string) => boolean;
  /** Runs on the new page before it loads the app: routes, listeners. */
  beforeLoad?: (page: Page) => unknown;
  /** Starts a session with the demo agent once the app has loaded, and waits until it is ready. */
  startSession?: boolean;
  /** The address to load instead of the host's own (another host's, say). */
  url?: string;
};

/** What `useWebApp` sets up; the page options are the defaults of every page it opens. */
export type WebAppOptions = PageOptions & {
  /** `'file'` (the default): one host for all the file's tests; `'test'`: one for each test. */
  host?: 'file' | 'test';
  /** The host's `settings.json`: an object is written as JSON, a string as it is. */
  settings?: unknown;
  /** Opens a page before each test (the default); false when the tests open theirs with `open()`. */
  openEachTest?: boolean;
};

/**
 * Registers the hooks of a file of end-to-end tests and returns what its tests use. After each
 * test, its page is reported when the test failed, then every context the test opened is closed,
 * then its host is stopped when it had one of its own.
 */
export function useWebApp(options: WebAppOptions = {}) {
  const { host = 'file', settings, openEachTest = true, ...defaults } = options;
  let app: WebApp | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  /** The contexts opened during the current test, first first. */
  let contexts: BrowserContext[] = [];

  const current = () => {
    if (!page) {
      throw new Error('no page is open: call open() first');
    }
    return page;
  };
  const { startSession } = appPage(current);

  /** Opens the app in a new page, in a browser context of its own; it becomes the test's page. */
  async function open(own: PageOptions = {}): Promise<Page> {
    const merged = { ...defaults, ...own, context: { ...defaults.context, ...own.context } };
    const context = await browser!.newContext({
      viewport: merged.viewport ?? { width: 1200, height: 900 },
      ...merged.context,
    });
    contexts.push(context);
    page = await context.newPage();
    echoPageErrors(page, merged.ignoreErrors);
    await merged.beforeLoad?.(page);
    await page.goto(merged.url ?? (await app!.newLink()));
    // Let in: the host has traded the link for the page's key, so a reload from here on (as
    // some tests make, with the host looking down) comes back with the key.
    await page.waitForFunction(() => sessionStorage.getItem('airlock.pageKey') !== null);
    // Loaded: the app, or why it could not load. Keys pressed before then reach no shortcut.
    await page.locator('#sidebar, .load-failed').first().waitFor({ state: 'attached' });
    if (merged.startSession) {
      await startSession();
    }
    return page;
  }

  if (host === 'file') {
    beforeAll(async () => {
      [app, browser] = await Promise.all([startWebApp(settings), launchChromium()]);
    });
  } else {
    beforeAll(async () => {
      browser = await launchChromium();
    });
  }
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });
  beforeEach(async () => {
    page = undefined;
    contexts = [];
    if (host === 'test') {
      app = await startWebApp(settings);
    }
    if (openEachTest) {
      await open();
    }
  });
  afterEach(async ({ task }) => {
    if (page && !page.isClosed()) {
      await reportFailure(page, task);
    }
    for (const context of contexts) {
      await context.close();
    }
    if (host === 'test') {
      await app?.stop();
      app = undefined;
    }
  });

  return {
    /** The web host the test's pages load. */
    app: () => app!,
    /** The Chromium the pages are opened in. */
    browser: () => browser!,
    /** The test's page: the one opened last, or the one given to `setPage`. */
    page: current,
    open,
    /** Closes the test's page with its context, and opens a new one as `open` does. */
    async reopen(own: PageOptions = {}): Promise<Page> {
      await current().context().close();
      return open(own);
    },
    /** Makes `other`, a page the test opened before, the test's page again. */
    setPage(other: Page): void {
      page = other;
    },
  };
}
