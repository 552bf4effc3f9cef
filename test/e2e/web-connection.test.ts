/**
 * Losing the WebSocket to the web host: a readable banner in the layout, every session's status
 * unknown rather than "ready", no sending, and a reconnect that attaches to the core again.
 *
 * The page's socket goes through Playwright's WebSocket route, so the test can drop it and keep
 * new ones from connecting, deterministically, while the web host (and its core) runs on.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, WebSocketRoute } from 'playwright-core';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

/** While true, a new socket from the page is refused at once (the host looks down). */
let down = false;
/** The page's sockets that reached the host, latest last. */
let sockets: WebSocketRoute[] = [];

// A host of its own for each test, so each starts with no tabs.
const { app, browser, page } = useWebApp({
  host: 'test',
  viewport: { width: 1200, height: 800 },
  beforeLoad: (target) => {
    down = false;
    sockets = [];
    return target.routeWebSocket(/\/ws$/, (ws) => {
      if (down) {
        ws.close({ code: 1013, reason: 'host down' });
        return;
      }
      ws.connectToServer();
      sockets.push(ws);
    });
  },
});

const { status, composer, transcript, startSession, send, turnEnded } = appPage(page);

/** Drops the page's live socket and keeps new ones out until the test sets `down` back. */
async function dropConnection(): Promise<void> {
  down = true;
  sockets.at(-1)!.close({ code: 1001, reason: 'gone' });
  await page()
    .getByRole('alert')
    .filter({ hasText: /connection to Airlock/ })
    .waitFor();
}

/** The WCAG contrast ratio of an element's text against the background behind it. */
function contrast(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const parse = (value: string): number[] => {
      const numbers = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 1];
      // `color(srgb r g b)` holds fractions; `rgb()` holds 0-255.
      const rgb = value.startsWith('color(')
        ? numbers.slice(0, 3).map((n) => n * 255)
        : numbers.slice(0, 3);
      return [...rgb, numbers[3] ?? 1];
    };
    let background: number[] | undefined;
    for (let node: Element | null = element; node; node = node.parentElement) {
      const candidate = parse(getComputedStyle(node).backgroundColor);
      if (candidate[3]! > 0.5) {
        background = candidate;
        break;
      }
    }
    background ??= [255, 255, 255, 1];
    const luminance = ([r, g, b]: number[]) => {
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    const a = luminance(parse(getComputedStyle(element).color));
    const b = luminance(background);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}

describe('losing the connection to the core', () => {
  it('shows a readable banner that covers nothing, and marks every session as unknown', async () => {
    await startSession();
    await startSession();
    await dropConnection();

    const banner = page()
      .getByRole('alert')
      .filter({ hasText: /connection to Airlock/ });
    const reconnect = banner.getByRole('button', { name: 'Reconnect' });
    for (const scheme of ['light', 'dark'] as const) {
      // Without motion, so the colours read are the theme's, not a transition's midway.
      await page().emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      expect(await contrast(banner)).toBeGreaterThanOrEqual(4.5);
      expect(await contrast(reconnect)).toBeGreaterThanOrEqual(4.5);
    }
    // In the layout's flow: the session header sits below it, not under it.
    const bannerBox = (await banner.boundingBox())!;
    const headerBox = (await page().locator('#session-panel .session-header').boundingBox())!;
    expect(headerBox.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height - 0.5);
    await expect(
      banner.evaluate((element) => getComputedStyle(element).position),
    ).resolves.not.toMatch(/fixed|absolute/);

    // No tab claims to be ready: the core's state is unknown while the link is down.
    const tabStatuses = await page().getByRole('tab').locator('.tab-status').allTextContents();
    expect(tabStatuses).toHaveLength(2);
    for (const text of tabStatuses) {
      expect(text).toMatch(/disconnected/i);
    }
    await expect(status().textContent()).resolves.toBe('Disconnected');
  });

  it('keeps the draft but sends nothing while disconnected', async () => {
    await startSession();
    await dropConnection();
    await composer().fill('typed while the link was down');
    await expect(page().getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
    await composer().press('Enter');
    await page().getByRole('alert').filter({ hasText: 'Not connected to Airlock' }).waitFor();
    await expect(composer().inputValue()).resolves.toBe('typed while the link was down');
    await expect(transcript().getByLabel('Your prompt').count()).resolves.toBe(0);
  });

  it('reconnects on a new socket, attaches again to what changed meanwhile, and sends', async () => {
    await startSession();
    await send('before the drop');
    await turnEnded('Done');
    await dropConnection();
    await composer().fill('after the drop');

    // Meanwhile, another window starts a session on the same core.
    const other = await browser().newPage();
    await other.goto(await app().newLink());
    await appPage(() => other).startSession();
    await other.close();

    down = false;
    await page().getByRole('button', { name: 'Reconnect' }).click();
    await page()
      .getByRole('alert')
      .filter({ hasText: /connection to Airlock/ })
      .waitFor({
        state: 'detached',
      });
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    // Both tabs are there, each with the core's real status again.
    await expect(page().getByRole('tab').count()).resolves.toBe(2);
    const tabStatuses = await page().getByRole('tab').locator('.tab-status').allTextContents();
    expect(tabStatuses.map((text) => text.toLowerCase())).toEqual(['ready', 'ready']);
    await status().filter({ hasText: 'Ready' }).waitFor();
    // The draft survived, the earlier transcript is there, and sending works on the new socket.
    await expect(composer().inputValue()).resolves.toBe('after the drop');
    await transcript().getByText('You said: "before the drop"', { exact: false }).waitFor();
    await composer().press('Enter');
    await transcript().getByText('You said: "after the drop"', { exact: false }).waitFor();
  });

  it('reconnects by itself once the host answers again', async () => {
    await startSession();
    await dropConnection();
    down = false;
    // No click: the page keeps trying on its own.
    await page()
      .getByRole('alert')
      .filter({ hasText: /connection to Airlock/ })
      .waitFor({ state: 'detached', timeout: 20_000 });
    await status().filter({ hasText: 'Ready' }).waitFor();
  });
});

describe('a first load that fails', () => {
  /** The page's sockets that were refused, as the host looked down. */
  let refused = 0;
  const failure = () => page().getByRole('main', { name: 'Airlock could not load your sessions' });

  /** Loads the page again with the host looking down, so its first load fails. */
  async function loadWhileDown(): Promise<void> {
    down = true;
    refused = 0;
    await page().unrouteAll();
    await page().routeWebSocket(/\/ws$/, (ws) => {
      if (down) {
        refused += 1;
        ws.close({ code: 1013, reason: 'host down' });
        return;
      }
      ws.connectToServer();
      sockets.push(ws);
    });
    await page().reload();
    await failure().waitFor();
    // A mark that only this document holds: gone, had the page been loaded again.
    await page().evaluate(() => document.documentElement.setAttribute('data-first-document', ''));
  }
  const sameDocument = () =>
    page().evaluate(() => document.documentElement.hasAttribute('data-first-document'));

  it('says what failed and what to do, with Retry focused', async () => {
    await loadWhileDown();
    // Announced: what failed, and why in the bridge's words.
    const alert = failure().getByRole('alert');
    await alert.getByRole('heading', { name: 'Airlock could not load your sessions' }).waitFor();
    await expect(alert.locator('.load-failed-error').textContent()).resolves.toMatch(
      /connect|connection/,
    );
    await expect(failure().textContent()).resolves.toContain('tries again by itself');
    await expect(failure().textContent()).resolves.toContain('npm run web');
    await expect(page().evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Retry now',
    );
  });

  it('recovers by itself once the host answers, without loading the page again', async () => {
    await loadWhileDown();
    // It keeps trying while the host is down.
    const before = refused;
    await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThan(before);
    await failure().waitFor();
    down = false;
    await page().getByRole('button', { name: 'New session' }).first().waitFor({ timeout: 20_000 });
    await expect(failure().count()).resolves.toBe(0);
    await expect(sameDocument()).resolves.toBe(true);
    await startSession();
    await send('after the failed start');
    await turnEnded('Done');
  });

  it('tries at once on Retry, from the keyboard', async () => {
    await loadWhileDown();
    // After five refusals the page waits 8 s between tries by itself (RECONNECT_DELAYS_MS)...
    await expect.poll(() => refused, { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
    down = false;
    await page().keyboard.press('Enter');
    // ...so being back well within that is Retry's doing.
    await page().getByRole('button', { name: 'New session' }).first().waitFor({ timeout: 5_000 });
    await expect(sameDocument()).resolves.toBe(true);
    // The app takes the keyboard from there: nothing is left on a button that went away.
    await startSession();
  });
});
