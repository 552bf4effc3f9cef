/**
 * The layout in Chromium through the web host: a sidebar that collapses (and says so, from the
 * keyboard too, and remembers it), no sideways overflow on a phone-sized window (the sidebar then
 * lies over the session), one centred column for the transcript and the composer on a wide
 * window, and an agent log that opens below the header and closes with Esc.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPage, newSessionDialog } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { startWebApp } from '../helpers/web-app.js';

const { page } = useWebApp({ viewport: { width: 1280, height: 800 } });

const { transcript, composer, turnEnded, startSession, send } = appPage(page);
const toggle = () => page().getByRole('button', { name: 'Sessions sidebar' });
const sidebar = () => page().getByRole('navigation', { name: 'Sessions' });
const session = () => page().locator('#session-panel');

async function box(locator: ReturnType<Page['locator']>) {
  const found = await locator.boundingBox();
  if (!found) {
    throw new Error('the element is not shown');
  }
  return found;
}

/** Starts a session on a wide window, where the sidebar shows, then runs `/links` and `/tool`. */
async function sessionWithContent(): Promise<void> {
  await startSession();
  await send('/links');
  await turnEnded('Done');
  await send('/tool');
  await transcript()
    .getByRole('figure', { name: /Diff of/ })
    .waitFor();
  await turnEnded('Done');
}

/**
 * Elements that stick out of the window sideways, ignoring those inside something that scrolls
 * sideways within the window (a code block, the row of commands) or is hidden.
 */
function overflowing(): Promise<string[]> {
  return page().evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element: Element): boolean => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const { overflowX } = getComputedStyle(parent);
        if (overflowX !== 'visible') {
          const right = parent.getBoundingClientRect().right;
          return right <= width + 1;
        }
      }
      return false;
    };
    const out: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= width + 1 || clipped(element)) {
        continue;
      }
      out.push(`${element.tagName.toLowerCase()}.${element.className} right=${rect.right}`);
    }
    if (document.documentElement.scrollWidth > width) {
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    }
    return out;
  });
}

describe('the sidebar', () => {
  it('collapses and expands from a button that says which, by keyboard too, and remembers it', async () => {
    await startSession();
    await expect(toggle().getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(toggle().getAttribute('aria-controls')).resolves.toBe('sidebar');
    const before = await box(session());

    await toggle().focus();
    await page().keyboard.press('Enter');
    await expect(toggle().getAttribute('aria-expanded')).resolves.toBe('false');
    await sidebar().waitFor({ state: 'hidden' });
    // The session takes the whole window.
    const after = await box(session());
    expect(after.x).toBe(0);
    expect(after.width).toBeGreaterThan(before.width + 200);
    // The button stays in reach, and keeps the focus.
    await expect(toggle().evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );

    await page().reload();
    await toggle().waitFor();
    await expect(toggle().getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(sidebar().isVisible()).resolves.toBe(false);

    await page().keyboard.press('Tab');
    await expect(toggle().evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    await page().keyboard.press('Space');
    await sidebar().waitFor();
    await expect(toggle().getAttribute('aria-expanded')).resolves.toBe('true');
    await page().reload();
    await sidebar().waitFor();
    await expect(toggle().getAttribute('aria-expanded')).resolves.toBe('true');
  });
});

describe('a narrow window', () => {
  it('never scrolls sideways from 360 to 600 px, and the sidebar lies over the session', async () => {
    // Less motion asked for: the sidebar appears in place, without sliding in.
    await page().emulateMedia({ reducedMotion: 'reduce' });
    await sessionWithContent();
    for (const width of [600, 480, 400, 360]) {
      await page().setViewportSize({ width, height: 800 });
      await expect(overflowing(), `at ${width} px`).resolves.toEqual([]);
      // The session has the width, the sidebar is put away and its button stays.
      await sidebar().waitFor({ state: 'hidden' });
      await expect(toggle().getAttribute('aria-expanded')).resolves.toBe('false');
      const main = await box(session());
      expect(main.x).toBe(0);
      expect(main.width).toBe(width);
      const send = await box(page().getByRole('button', { name: 'Send' }));
      expect(send.x + send.width).toBeLessThanOrEqual(width);

      await toggle().click();
      await sidebar().waitFor();
      await expect(
        sidebar().evaluate((element) =>
          element.getAnimations().filter((animation) => animation.playState === 'running'),
        ),
      ).resolves.toEqual([]);
      await expect(overflowing(), `at ${width} px, the sidebar shown`).resolves.toEqual([]);
      // Over the session, which stays where it was, and waits behind it.
      expect((await box(session())).x).toBe(0);
      const nav = await box(sidebar());
      expect(nav.x).toBe(0);
      expect(nav.width).toBeLessThan(width);
      await expect(
        session().evaluate((element) => element.closest('[inert]') !== null),
      ).resolves.toBe(true);
      await page().keyboard.press('Escape');
      await sidebar().waitFor({ state: 'hidden' });
      await expect(
        toggle().evaluate((element) => element === document.activeElement),
      ).resolves.toBe(true);
    }

    // Picking a session puts the sidebar away and shows that session.
    await toggle().click();
    await page().getByRole('tab', { selected: true }).click();
    await sidebar().waitFor({ state: 'hidden' });
    await composer().waitFor();
  });

  it('shows the welcome at first when no session is open, and starts one from it', async () => {
    const fresh = await startWebApp();
    try {
      await page().setViewportSize({ width: 400, height: 800 });
      await page().goto(fresh.url);
      const welcome = page().getByRole('main', { name: 'Start a session' });
      await welcome.waitFor();
      await expect(sidebar().count()).resolves.toBe(0);
      await expect(overflowing()).resolves.toEqual([]);
      await welcome.getByRole('button', { name: 'New session' }).click();
      const dialog = newSessionDialog(page());
      await dialog.waitFor();
      await expect(overflowing()).resolves.toEqual([]);
      await dialog.getByRole('button', { name: 'Start session' }).click();
      await page()
        .getByRole('status', { name: 'Session status' })
        .filter({ hasText: 'Ready' })
        .waitFor();
      await expect(sidebar().count()).resolves.toBe(0);
      await expect(overflowing()).resolves.toEqual([]);
    } finally {
      await page().goto('about:blank');
      await fresh.stop();
    }
  });
});

describe('a wide window', () => {
  it('centres the transcript and the composer in one column of the same width', async () => {
    await page().setViewportSize({ width: 1920, height: 900 });
    await sessionWithContent();
    const main = await box(session());
    const prompt = await box(transcript().getByLabel('Your prompt').last().locator('p'));
    const reply = await box(transcript().getByRole('figure', { name: /Diff of/ }));
    const textarea = await box(composer());
    const send = await box(page().getByRole('button', { name: 'Send' }));
    const column = { left: textarea.x, right: send.x + send.width };

    // The transcript's column and the composer's line up, edge to edge.
    expect(Math.abs(prompt.x - column.left)).toBeLessThanOrEqual(1);
    expect(Math.abs(prompt.x + prompt.width - column.right)).toBeLessThanOrEqual(1);
    expect(reply.x).toBeGreaterThanOrEqual(column.left - 1);
    expect(reply.x + reply.width).toBeLessThanOrEqual(column.right + 1);
    // A comfortable measure, not the whole window, centred in the session's width.
    expect(column.right - column.left).toBeLessThan(900);
    const leftMargin = column.left - main.x;
    const rightMargin = main.x + main.width - column.right;
    expect(Math.abs(leftMargin - rightMargin)).toBeLessThanOrEqual(2);
  });
});

describe('the agent log', () => {
  it('opens below the header without covering it, and Esc closes it and returns the focus', async () => {
    await startSession();
    const header = page().locator('#session-panel .session-header');
    const show = page().getByRole('button', { name: 'Show agent log' });
    await expect(show.getAttribute('aria-expanded')).resolves.toBe('false');
    await show.click();
    const log = page().getByRole('region', { name: 'Agent log' });
    await log.getByText('Log file:').waitFor();
    await expect(
      page().getByRole('button', { name: 'Hide agent log' }).getAttribute('aria-expanded'),
    ).resolves.toBe('true');
    // The focus is in the log, so it is read out and the keyboard reaches it.
    await expect(log.evaluate((element) => element.contains(document.activeElement))).resolves.toBe(
      true,
    );

    const headerBox = await box(header);
    const logBox = await box(log);
    expect(logBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
    // Everything in the header stays visible and clickable.
    const status = page().getByRole('status', { name: 'Session status' });
    const statusBox = await box(status);
    await expect(
      page().evaluate(
        ([x, y]) =>
          document.elementFromPoint(x!, y!)?.closest('[aria-label="Session status"]') !== null,
        [statusBox.x + statusBox.width / 2, statusBox.y + statusBox.height / 2],
      ),
    ).resolves.toBe(true);

    await page().keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });
    await expect(show.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );

    // Esc from the log never cancels a running turn.
    await show.click();
    await log.getByText('Log file:').waitFor();
    await send('/long 2000');
    await page()
      .getByRole('status', { name: 'Session status' })
      .filter({ hasText: 'Working' })
      .waitFor();
    await log.focus();
    await page().keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });
    await expect(
      page().getByRole('status', { name: 'Session status' }).textContent(),
    ).resolves.toBe('Working…');
    await page().keyboard.press('Escape');
    await turnEnded('Cancelled');
  });

  it('closes on a click elsewhere, with its close button, and with its button again', async () => {
    await startSession();
    const show = page().getByRole('button', { name: 'Show agent log' });
    const log = page().getByRole('region', { name: 'Agent log' });
    await show.click();
    await log.waitFor();
    await transcript().click({ position: { x: 20, y: 20 } });
    await log.waitFor({ state: 'detached' });

    await show.click();
    await log.getByRole('button', { name: 'Close agent log' }).click();
    await log.waitFor({ state: 'detached' });
    await expect(show.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );

    await show.click();
    await page().getByRole('button', { name: 'Hide agent log' }).click();
    await log.waitFor({ state: 'detached' });
  });
});
