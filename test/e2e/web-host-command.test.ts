/**
 * The host's commands (the desktop app's menu, a notification's click) in Chromium, through the
 * web host: the page runs for each what its keyboard shortcut runs.
 *
 * The built web host (`out/main/web.js`) never sends a host command, and a test cannot reach
 * its core; so each test runs the same server (main/web/server.ts) in this process with a core
 * of its own and calls `core.hostCommand`, as the Electron host's menu does. The page is the
 * built renderer (`out/renderer`). The help overlay, with the agent log's shortcut, is saved to
 * /tmp/airlock-shots/menu/, light and dark, to be looked at.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HostCommand } from '../../preload/shared/contract.js';
import type { AirlockCore } from '../../main/core/core.js';
import { startWebHost, type WebHost } from '../../main/web/server.js';
import { appPage, focusedIn, newSessionDialog } from '../helpers/app-page.js';
import { startCore } from '../helpers/core-harness.js';
import { echoPageErrors, launchChromium, reportFailure } from '../helpers/web-app.js';

const SHOTS = '/tmp/airlock-shots/menu';
const staticDir = fileURLToPath(new URL('../../out/renderer', import.meta.url));

let browser: Browser;
let core: AirlockCore;
let host: WebHost;
let page: Page | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
});
afterAll(() => browser.close());

// A core and a host for each test: sessions live in the core, and the tests count them.
beforeEach(async () => {
  ({ core } = await startCore());
  host = await startWebHost(core, { staticDir });
  page = undefined;
});
afterEach(async ({ task }) => {
  if (page && !page.isClosed()) {
    await reportFailure(page, task);
    await page.context().close();
  }
  await Promise.all([host.close(), core.dispose()]);
});

/** Opens the app in a browser context of its own. */
async function open(context: BrowserContextOptions = {}): Promise<Page> {
  const opened = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...context });
  page = await opened.newPage();
  echoPageErrors(page);
  await page.goto(host.newLink());
  await page.getByRole('button', { name: 'New session' }).first().waitFor();
  return page;
}

const current = () => page!;
const { startSession, send, composer } = appPage(current);
const tabs = () => current().getByRole('tab');
const shownTab = () => current().getByRole('tab', { selected: true });
const command = (sent: HostCommand) => core.hostCommand(sent);

/**
 * Opens a tab whose permission card waits, then one whose form waits, then a third, shown;
 * resolves with the form's session.
 */
async function cardsWaiting(): Promise<string> {
  await startSession();
  await send('/permission');
  await current().getByRole('button', { name: 'Allow once', exact: true }).waitFor();
  await startSession();
  await send('/form');
  await current().getByRole('textbox', { name: 'Name' }).waitFor();
  const named = (await shownTab().getAttribute('data-session'))!;
  await startSession();
  return named;
}

/** What has the focus: its role or tag, and its label or text. */
const focused = () => focusedIn(current());

/** Whether the focus is in the new-session dialog. */
const inNewSessionDialog = () =>
  current().evaluate(() => document.activeElement?.closest('.new-session-dialog') != null);

/**
 * Sends newSession, waits until it has put the focus in the new-session dialog, and closes it:
 * commands arrive in order, so by then the page has run every command sent before it.
 */
async function handled(): Promise<void> {
  await current().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  command({ command: 'newSession' });
  await expect.poll(inNewSessionDialog).toBe(true);
  await current().keyboard.press('Escape');
  await newSessionDialog(current()).waitFor({ state: 'detached' });
}

describe('the page runs each host command as its shortcut', () => {
  it('newSession opens the new-session dialog with the focus in it, sidebar hidden or not', async () => {
    await open();
    await startSession();
    await current().getByRole('button', { name: 'Sessions sidebar', expanded: true }).click();
    await current().getByRole('navigation', { name: 'Sessions' }).waitFor({ state: 'hidden' });
    await composer().focus();

    command({ command: 'newSession' });
    await newSessionDialog(current()).waitFor();
    // A loaded machine needs more than the poll's default second.
    await expect.poll(inNewSessionDialog, { timeout: 10_000 }).toBe(true);
    // Esc closes it, starts nothing, and gives the focus back.
    await current().keyboard.press('Escape');
    await newSessionDialog(current()).waitFor({ state: 'detached' });
    // The sidebar is hidden, its tabs with it: count them in the page.
    await expect(current().locator('[role=tab]').count()).resolves.toBe(1);
    await expect(
      composer().evaluate((element) => element === document.activeElement),
    ).resolves.toBe(true);
  });

  it('agentSettings opens the agents’ settings in place of the session', async () => {
    await open();
    await startSession();
    command({ command: 'agentSettings' });
    const settings = current().getByRole('main', { name: 'Agents' });
    await settings.waitFor();
    await expect.poll(focused).toBe('h2: Agents');
    await expect(composer().count()).resolves.toBe(0);
  });

  it('agentLog shows the shown session’s agent log, and does nothing with no session shown', async () => {
    await open();
    command({ command: 'agentLog' });
    // Commands arrive in order: once the next one has acted, the page has had this one.
    await handled();
    await expect(current().getByRole('region', { name: 'Agent log' }).count()).resolves.toBe(0);

    await startSession();
    command({ command: 'agentLog' });
    const log = current().getByRole('region', { name: 'Agent log' });
    await log.getByText('Log file:').waitFor();
    await expect.poll(focused).toBe('section: Agent log');
    // Its keys do the same.
    await current().keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });
    await current().keyboard.press('Alt+L');
    await log.getByText('Log file:').waitFor();
    await expect.poll(focused).toBe('section: Agent log');
  });

  it('closeSession closes the shown session, and with none shown does nothing', async () => {
    await open();
    command({ command: 'closeSession' });
    await handled();
    await startSession();
    await startSession();
    await expect.poll(() => tabs().count()).toBe(2);
    const shown = await shownTab().getAttribute('data-session');

    command({ command: 'closeSession' });
    await expect.poll(() => tabs().count()).toBe(1);
    await expect(current().locator(`[role=tab][data-session="${shown}"]`).count()).resolves.toBe(0);
  });

  it('showWaiting shows the session it names and focuses the card that waits there', async () => {
    await open();
    const named = await cardsWaiting();
    await composer().focus();

    // The form's session, not the next that waits (Alt+J would go round to the permission).
    command({ command: 'showWaiting', key: named });
    await current().locator(`[role=tab][aria-selected=true][data-session="${named}"]`).waitFor();
    await expect.poll(focused).toBe('input: Name');
    await expect(
      current().evaluate(() => document.activeElement?.closest('.dock.has-card') != null),
    ).resolves.toBe(true);
  });

  it('a page opened to show a waiting card (its address names the session) shows it', async () => {
    await open();
    // A page opens on the first tab, which has a card of its own.
    const named = await cardsWaiting();
    await page!.context().close();

    // The window the desktop app opens when a notification is clicked with none open.
    const opened = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await opened.newPage();
    echoPageErrors(page);
    await page.goto(`${host.newLink()}&waiting=${named}`);
    await current().locator(`[role=tab][aria-selected=true][data-session="${named}"]`).waitFor();
    await expect.poll(focused).toBe('input: Name');
    // Once shown, the address no longer names it: a reload shows the page as it was left.
    await expect(current().evaluate(() => window.location.hash)).resolves.toBe('');
  });

  it('waits on an open dialog as the keys do: a command then is dropped', async () => {
    await open();
    await startSession();
    await current().keyboard.press('F1');
    const help = current().getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    command({ command: 'closeSession' });
    command({ command: 'agentSettings' });
    // Events arrive in order: once the tab's new name shows, the page has had both commands.
    const key = (await shownTab().getAttribute('data-session'))!;
    await core.invoke('session:rename', { key, title: 'Renamed after the commands' });
    await tabs().filter({ hasText: 'Renamed after the commands' }).waitFor();
    await current().keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await expect(tabs().count()).resolves.toBe(1);
    await expect(current().getByRole('main', { name: 'Agents' }).count()).resolves.toBe(0);
    // Without the dialog, the same command acts.
    command({ command: 'agentSettings' });
    await current().getByRole('main', { name: 'Agents' }).waitFor();
  });
});

describe('the help overlay', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`lists Alt+L for the agent log (${colorScheme})`, async () => {
      await open({ colorScheme });
      await startSession();
      await current().keyboard.press('F1');
      const help = current().getByRole('dialog', { name: 'Keyboard shortcuts' });
      const row = help
        .getByRole('row')
        .filter({ hasText: 'Show the agent log of the shown session' });
      // The overlay is a part loaded on first use: its rows come when it has.
      await row.waitFor();
      await expect(row.locator('kbd').allTextContents()).resolves.toEqual(['Alt', 'L']);
      await current().screenshot({ path: `${SHOTS}/help-${colorScheme}.png` });
    });
  }
});
