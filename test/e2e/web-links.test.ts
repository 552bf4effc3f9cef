/**
 * Links and code in an agent's reply, in Chromium through the web host: a link is text until it
 * is clicked; the click shows the same analysis and consent as URL mode (the full URL, the
 * registrable domain highlighted, the warnings) and opens nothing until the user says so, then a
 * tab the app cannot reach. Refused addresses say why and open nothing. Code blocks and agent
 * messages copy their raw text.
 */
import type { Page, Request } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { LINKS_TEXT } from '../../main/demo-agent/script.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp, type PageOptions } from '../helpers/e2e.js';

/** Every request the browser context made that did not go to the web host. */
let outside: string[];

const SPEC = 'https://agentclientprotocol.com/protocol/overview';

const { app, page, open } = useWebApp({
  openEachTest: false,
  beforeLoad: (target) => {
    outside = [];
    target.context().on('request', (request: Request) => {
      if (!request.url().startsWith(app().origin)) {
        outside.push(request.url());
      }
    });
    // Nothing leaves this machine: a page the user consents to is answered here.
    return target
      .context()
      .route('https://agentclientprotocol.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>ACP</title><p>The spec</p>' }),
      );
  },
  startSession: true,
});
beforeEach(async () => {
  await openApp();
});

/** Opens the app in a fresh context, starts a session and has the demo agent send its links. */
async function openApp(options: PageOptions = {}) {
  await open(options);
  await send('/links');
  await turnEnded('Done');
}

const { transcript, turnEnded, send } = appPage(page);
const link = (name: string) => transcript().getByRole('button', { name, exact: true });
const dialog = () => page().getByRole('dialog');
const primary = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((element) => element.classList.contains('primary'));
const focused = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((element) => element === document.activeElement);

describe('a link in a reply', () => {
  it('is text that opens nothing by itself: no href anywhere, no request', async () => {
    await expect(transcript().locator('a, [href]').count()).resolves.toBe(0);
    await expect(link('The ACP specification').getAttribute('aria-haspopup')).resolves.toBe(
      'dialog',
    );
    // The address is shown beside the text.
    await expect(transcript().textContent()).resolves.toContain(`(${SPEC})`);
    expect(outside).toEqual([]);
    expect(page().context().pages()).toHaveLength(1);
  });

  it('shows where it leads on a click, and opens it in a tab the app cannot reach only on consent', async () => {
    await link('The ACP specification').click();
    await dialog().getByRole('heading', { name: 'Open this link?' }).waitFor();
    // The same view as a URL card: the full URL, its domain highlighted, the site.
    await expect(dialog().locator('code.url-full').textContent()).resolves.toBe(SPEC);
    await expect(dialog().locator('mark.url-domain').textContent()).resolves.toBe(
      'agentclientprotocol.com',
    );
    // https says nothing about who runs a site: nothing calls it encrypted or safe.
    await expect(
      dialog().getByRole('region', { name: 'Where this leads' }).textContent(),
    ).resolves.not.toMatch(/encrypt/i);
    await expect(dialog().textContent()).resolves.toContain('labels it “The ACP specification”');
    await expect(primary(dialog().getByRole('button', { name: 'Open in browser' }))).resolves.toBe(
      true,
    );
    // The way back has the focus: a held Enter cannot open it.
    await expect(focused(dialog().getByRole('button', { name: 'Cancel' }))).resolves.toBe(true);
    expect(outside).toEqual([]);
    expect(page().context().pages()).toHaveLength(1);

    const [tab] = await Promise.all([
      page().context().waitForEvent('page'),
      dialog().getByRole('button', { name: 'Open in browser' }).click(),
    ]);
    await tab.waitForLoadState('domcontentloaded');
    expect(tab.url()).toBe(SPEC);
    // `noopener`: the page has no handle on the app.
    await expect(tab.evaluate(() => window.opener)).resolves.toBeNull();
    expect(outside).toEqual([SPEC]);
    await dialog().waitFor({ state: 'hidden' });
    await page().bringToFront();
    await expect(focused(link('The ACP specification'))).resolves.toBe(true);
  });

  it('warns about a borrowed name and a look-alike, and Open is not the way forward', async () => {
    await link('PayPal').click();
    const warnings = dialog().getByRole('list', { name: 'About this address' });
    await warnings.waitFor();
    await expect(warnings.locator('[data-code="borrowed-name"]').count()).resolves.toBe(1);
    await expect(dialog().locator('mark.url-domain').textContent()).resolves.toBe(
      'account-check.example',
    );
    // Opening takes a second step: no Open button at first, and the way back is the primary.
    await expect(dialog().getByRole('button', { name: 'Open in browser' }).count()).resolves.toBe(
      0,
    );
    await expect(primary(dialog().getByRole('button', { name: 'Cancel' }))).resolves.toBe(true);
    await page().keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await expect(focused(link('PayPal'))).resolves.toBe(true);

    await link('Apple sign-in').click();
    await dialog().getByRole('list', { name: 'About this address' }).waitFor();
    await expect(
      dialog().locator('[data-code="whole-script-confusable"], [data-code="lookalike"]').count(),
    ).resolves.toBeGreaterThan(0);
    // The host is shown as it opens (punycode), never the disguise.
    await expect(dialog().locator('code.url-full').textContent()).resolves.toContain('xn--');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });
    expect(outside).toEqual([]);
    expect(page().context().pages()).toHaveLength(1);
  });

  it('says why a refused address cannot open, and offers nothing to open it with', async () => {
    for (const [name, why] of [
      ['A script', 'The URL scheme "javascript" cannot be opened'],
      ['a local file', 'The URL scheme "file" cannot be opened'],
    ] as const) {
      await link(name).click();
      await dialog().getByRole('heading', { name: 'This link cannot be opened' }).waitFor();
      await expect(dialog().getByRole('alert').textContent()).resolves.toContain(why);
      await expect(dialog().getByRole('button', { name: 'Open in browser' }).count()).resolves.toBe(
        0,
      );
      await dialog().getByRole('button', { name: 'Close' }).click();
      await dialog().waitFor({ state: 'hidden' });
      await expect(focused(link(name))).resolves.toBe(true);
    }
    expect(outside).toEqual([]);
    expect(page().context().pages()).toHaveLength(1);
    await expect(page().evaluate(() => document.title)).resolves.toBe('Airlock');
  });
});

describe('copying', () => {
  it('copies a code block and a whole message as their raw text, and says so', async () => {
    await page().context().close();
    await openApp({ context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    const code = transcript().getByRole('figure', { name: 'Code, ts' });
    await code.getByRole('button', { name: 'Copy code' }).click();
    await code.getByRole('button', { name: 'Copied code' }).waitFor();
    await expect(page().evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      "const greeting = 'Hello from the demo agent';\nconsole.log(greeting);",
    );
    await expect(
      page().getByRole('status').filter({ hasText: 'Copied the code to the clipboard' }).count(),
    ).resolves.toBe(1);

    await transcript().getByRole('button', { name: 'Copy message' }).last().click();
    await expect.poll(() => page().evaluate(() => navigator.clipboard.readText())).toBe(LINKS_TEXT);
  });

  it('copies a message cut into several rows whole', async () => {
    await page().context().close();
    await openApp({ context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    await send('/long 5');
    await turnEnded('Done');
    const rows = transcript().locator('.row.text.role-agent');
    // Cut into segments: one Copy button, on the first.
    // The list may draw the last segments a frame after the turn's end.
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    const buttons = transcript().getByRole('button', { name: 'Copy message' });
    await buttons.last().click();
    const copied = await page().evaluate(() => navigator.clipboard.readText());
    expect(copied).toHaveLength(5000);
    expect(copied.startsWith('1. Airlock streams this text')).toBe(true);
  });
});
