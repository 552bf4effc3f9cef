/**
 * URL elicitation end to end: the demo agent asks to open a URL, the consent card in Chromium
 * (through the web host) shows exactly where it leads, opens it only on consent in a new tab the
 * app cannot reach, and waits for the page until the agent (or the user) says it is finished.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots';
const ASKER = 'Airlock Demo Agent 0.1.0';

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
});
const { page, reopen } = useWebApp({ viewport: { width: 1200, height: 1000 }, startSession: true });

const { transcript, turnEnded, startSession, send } = appPage(page);
const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
const card = () => dock().getByRole('group', { name: `${ASKER} asks you to open a web page` });
/** The transcript record of the latest URL request. */
const record = () =>
  transcript()
    .getByRole('group', { name: `Request from ${ASKER} to open a web page` })
    .last();
const button = (name: string) => card().getByRole('button', { name, exact: true });
const fullUrl = () => card().locator('code.url-full');
/** Every finding, in view or under Details, most serious first. */
const findings = () => card().locator('.url-finding');
/** Pages open in the test's browser context: the app, and any tab the card opened. */
const pages = () => page().context().pages().length;

async function ask(command: string): Promise<void> {
  await send(command);
  await card().waitFor();
}

/** Clicks a button of the card that opens the URL, and returns the tab it opened. */
async function openFrom(name: 'Open' | 'Open again'): Promise<Page> {
  const [popup] = await Promise.all([page().context().waitForEvent('page'), button(name).click()]);
  return popup;
}

describe('the URL card', () => {
  it('shows the full URL and the domain, opens it only on Open, and completes from the page', async () => {
    await ask('/url');
    const href = await fullUrl().textContent();
    expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/consent\/[\w-]+$/);
    // 127.0.0.1 has no registrable domain: the whole host is highlighted.
    await expect(fullUrl().locator('mark').textContent()).resolves.toBe('127.0.0.1');
    // Plain text, never a link.
    await expect(card().locator('a').count()).resolves.toBe(0);
    await expect(card().textContent()).resolves.toContain(
      'Connect the demo agent to the Demo Service: authorize it on its page.',
    );
    await expect(card().textContent()).resolves.toContain('Connect to the Demo Service');
    await expect(card().locator('[data-code="http"][data-level="note"]').count()).resolves.toBe(1);

    // Focus is on the card, not on Open: a stray Enter opens nothing.
    await expect(page().evaluate(() => document.activeElement?.className)).resolves.toContain(
      'url-card',
    );
    await page().keyboard.press('Enter');
    await expect(page().evaluate(() => document.title)).resolves.toBeTruthy();
    expect(pages()).toBe(1);

    const popup = await openFrom('Open');
    await popup.waitForLoadState();
    expect(popup.url()).toBe(href);
    // noopener, noreferrer: the page cannot reach the app, nor learn where it came from.
    await expect(popup.evaluate(() => window.opener === null)).resolves.toBe(true);
    await expect(popup.evaluate(() => document.referrer)).resolves.toBe('');

    await card().getByText('Waiting for you to finish on 127.0.0.1…').waitFor();
    await transcript().getByText('I am waiting for you on the Demo Service page').waitFor();
    // Answered: the tool call waits on the page now, not on the user's answer.
    const tool = transcript().getByRole('region', {
      name: 'Tool call: Connect to the Demo Service',
    });
    await expect(tool.getByText('Waiting for your answer').count()).resolves.toBe(0);
    await popup.getByRole('button', { name: 'Authorize' }).click();
    await popup.getByText('You authorized the demo agent').waitFor();

    await record().getByText('The agent marked this step done').waitFor();
    await transcript().getByText('The Demo Service is connected.').waitFor();
    await expect(card().count()).resolves.toBe(0);
    await expect(dock().getByRole('status').first().textContent()).resolves.toContain(
      'The agent marked this step done.',
    );
    await turnEnded('Done');
  });

  it('declines with Decline, opening nothing', async () => {
    await ask('/url');
    await button('Decline').click();
    await record().getByText('Declined').waitFor();
    await transcript().getByText('You answered: decline.').waitFor();
    await expect(card().count()).resolves.toBe(0);
    expect(pages()).toBe(1);
  });

  it('cancels with Cancel', async () => {
    await ask('/url');
    await button('Cancel').click();
    await record().getByText('Cancelled').waitFor();
    await transcript().getByText('You answered: cancel.').waitFor();
    expect(pages()).toBe(1);
  });

  it('cancels the card with Esc, and only the card: the turn goes on', async () => {
    await ask('/url');
    await page().keyboard.press('Escape');
    await transcript().getByText('You answered: cancel.').waitFor();
    await turnEnded('Done');
    await expect(record().getByText('Cancelled').count()).resolves.toBe(1);
  });

  it('copies the URL with Copy URL', async () => {
    await reopen({ context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    await ask('/url');
    await button('Copy URL').click();
    await button('Copied').waitFor();
    const copied = await page().evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await fullUrl().textContent());
    expect(pages()).toBe(1);
    await button('Cancel').click();
    await transcript().getByText('You answered: cancel.').waitFor();
  });

  it('warns about a look-alike domain, most serious first', async () => {
    await ask('/url-lookalike');
    const codes = await findings().evaluateAll((items) =>
      items.map((item) => item.getAttribute('data-code')),
    );
    expect(codes[0]).toBe('lookalike');
    expect(codes).toContain('whole-script-confusable');
    const first = await findings().first().textContent();
    expect(first?.length).toBeGreaterThan(20);
    // The disguise itself (Cyrillic "аррӏе") is never shown, only the punycode host.
    await expect(card().textContent()).resolves.not.toContain('\u0430\u0440\u0440\u04cf\u0435');
    // The URL opened is the punycode one, shown in full.
    await expect(fullUrl().textContent()).resolves.toMatch(/^https:\/\/xn--[\w-]+\.com\/signin$/);
    await button('Decline').click();
    await transcript().getByText('You answered: decline.').waitFor();
  });

  it('never opens anything for a refused scheme, and the agent prints the refusals', async () => {
    await send('/url-bad-scheme');
    await turnEnded('Done');
    const text = await transcript().textContent();
    expect(text?.match(/Airlock refused it: /g)).toHaveLength(3);
    expect(text).not.toMatch(/-32\d{3}/);
    await expect(card().count()).resolves.toBe(0);
    await expect(record().count()).resolves.toBe(0);
    expect(pages()).toBe(1);
  });

  it('waits after Open until Done, and opens again meanwhile', async () => {
    await ask('/url-never-completes');
    const first = await openFrom('Open');
    expect(first.url() === 'about:blank' || first.url().length > 0).toBe(true);
    await transcript().getByText('You answered: accept, with {}').waitFor();
    await turnEnded('Done');
    // accept is consent, not completion: the card stays, waiting.
    await card().getByText('Waiting for you to finish on example.com…').waitFor();
    await record()
      .getByText(/^Opened; waiting for you to finish on example\.com/)
      .waitFor();
    await openFrom('Open again');
    expect(pages()).toBe(3);
    await button('Done').click();
    await record().getByText('Done: you said you finished on the page').waitFor();
    await expect(card().count()).resolves.toBe(0);
  });

  it('dismisses the wait with Cancel (and with Esc)', async () => {
    await ask('/url-never-completes');
    await openFrom('Open');
    await card().getByText('Waiting for you to finish on example.com…').waitFor();
    await button('Cancel').click();
    await record().getByText('Dismissed: you stopped waiting for the page').waitFor();
    await ask('/url-never-completes');
    await openFrom('Open');
    await card().getByText('Waiting for you to finish on example.com…').waitFor();
    await page().keyboard.press('Escape');
    await record().getByText('Dismissed: you stopped waiting for the page').waitFor();
    await expect(card().count()).resolves.toBe(0);
  });

  it('shows one card for two requests with the same id', async () => {
    await ask('/url-duplicate-id');
    await transcript()
      .getByText(/"same-id" is already outstanding/)
      .waitFor();
    await expect(fullUrl().textContent()).resolves.toBe('https://example.com/first');
    await expect(dock().locator('.url-card').count()).resolves.toBe(1);
    await button('Decline').click();
    await turnEnded('Done');
    const text = await transcript().textContent();
    expect(text?.match(/You answered: decline\./g)).toHaveLength(1);
  });

  it('closes the consent card when the turn is cancelled', async () => {
    await ask('/url');
    await page()
      .locator('#session-panel .composer')
      .getByRole('button', { name: 'Cancel' })
      .click();
    await record().getByText('Closed: the turn was cancelled').waitFor();
    await turnEnded('Cancelled');
    await expect(card().count()).resolves.toBe(0);
    expect(pages()).toBe(1);
  });
});

describe('accessibility and looks', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violations with a URL card open (${colorScheme})`, async () => {
      // axe is injected as a script, which the app's CSP refuses.
      await reopen({ context: { bypassCSP: true, colorScheme } });
      await ask('/url-lookalike');
      const violations = () =>
        seriousViolations(new AxeBuilder({ page: page() }), `URL card, ${colorScheme}`);
      await expect(violations()).resolves.toEqual([]);
      await page().screenshot({ path: `${SHOTS}/url-lookalike-${colorScheme}.png` });
      await button('Cancel').click();
      await transcript().getByText('You answered: cancel.').waitFor();

      await ask('/url');
      await page().screenshot({ path: `${SHOTS}/url-consent-${colorScheme}.png` });
      const popup = await openFrom('Open');
      await card().getByText('Waiting for you to finish on 127.0.0.1…').waitFor();
      await page().bringToFront();
      await expect(violations()).resolves.toEqual([]);
      await page().screenshot({ path: `${SHOTS}/url-waiting-${colorScheme}.png` });
      await popup.getByRole('button', { name: 'Authorize' }).click();
      await transcript().getByText('The Demo Service is connected.').waitFor();
      await page().screenshot({ path: `${SHOTS}/url-completed-${colorScheme}.png` });
    });
  }
});

describe('the agent exiting', () => {
  // Last: the agent process is gone afterwards (a later session would start a new one).
  it('closes a card waiting for consent and one waiting for the page', async () => {
    await ask('/url-never-completes');
    await openFrom('Open');
    await card().getByText('Waiting for you to finish on example.com…').waitFor();
    const waitingTab = (await page().getByRole('tab').count()) - 1;
    await startSession();
    await ask('/url');
    const consentTab = waitingTab + 1;
    // The same agent process serves every tab; crash it from a third.
    await startSession();
    await send('/crash');
    await transcript().getByText('The agent exited with code 3.').waitFor();
    await page().getByRole('tab').nth(consentTab).click();
    await record().getByText('Closed: the agent exited').waitFor();
    await expect(card().count()).resolves.toBe(0);
    await page().getByRole('tab').nth(waitingTab).click();
    await record().getByText('Closed while waiting for the page: the agent exited').waitFor();
    await expect(card().count()).resolves.toBe(0);
  });
});
