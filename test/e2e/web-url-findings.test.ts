/**
 * URL findings by level, in Chromium through the web host: danger looks like danger, and only
 * danger. A page on this computer (the demo's `/url`) shows notes, no warning; a look-alike
 * leads with one plain sentence, Decline has the focus and opening takes a second step; a link
 * in a reply is shown the same way. Nothing anywhere calls a site "encrypted".
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const ASKER = 'Airlock Demo Agent 0.1.0';
/** Where the demo's look-alike (Cyrillic "аррӏе.com") leads, as it opens. */
const LOOKALIKE = 'https://xn--80ak6aa92e.com/signin';

const { page, reopen } = useWebApp({
  viewport: { width: 1280, height: 800 },
  startSession: true,
  // Nothing leaves this machine: the look-alike's page, once the user insists, is answered here.
  beforeLoad: (target) =>
    target
      .context()
      .route('https://xn--80ak6aa92e.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>Not Apple</title>' }),
      ),
});

const { transcript, turnEnded, send } = appPage(page);
const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
const card = () => dock().getByRole('group', { name: `${ASKER} asks you to open a web page` });
const button = (within: Locator, name: string) => within.getByRole('button', { name, exact: true });
const dialog = () => page().getByRole('dialog');
/** The findings in view, each as `code:level`. */
const shownFindings = (within: Locator) =>
  within
    .getByRole('list', { name: 'About this address' })
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => `${item.getAttribute('data-code')}:${item.getAttribute('data-level')}`),
    );
/** Findings a person reads as warnings (amber or red), in view or under Details. */
const warningsShown = (within: Locator) =>
  within
    .locator('[data-level="danger"], [data-level="caution"], .url-warning, .url-scheme.scheme-http')
    .count();
const isPrimary = (locator: Locator) =>
  locator.evaluate((element) => element.classList.contains('primary'));
const hasRole = (locator: Locator, role: 'primary' | 'secondary' | 'danger') =>
  locator.evaluate((element, name) => element.classList.contains(name), role);
const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement);
const looks = (locator: Locator) =>
  locator.evaluate((element) => {
    const style = getComputedStyle(element);
    return `${style.backgroundColor} ${style.color} ${style.borderColor}`;
  });
const pages = () => page().context().pages().length;

async function ask(command: string): Promise<void> {
  await send(command);
  await card().waitFor();
}

describe('a page on this computer (the demo’s /url)', () => {
  it('shows notes, not warnings: one line at first, the rest under Details', async () => {
    await ask('/url');
    await expect(warningsShown(card())).resolves.toBe(0);
    await expect(shownFindings(card())).resolves.toEqual(['ip-literal:note']);
    await expect(card().getByRole('listitem').first().textContent()).resolves.toContain(
      'this computer',
    );
    const details = card().locator('details.url-more');
    await details.locator('summary').click();
    await expect(
      details
        .getByRole('listitem')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-code'))),
    ).resolves.toEqual(['http', 'port']);
    await expect(card().locator('.url-headline').count()).resolves.toBe(0);
    await expect(card().textContent()).resolves.not.toMatch(/encrypt/i);
    // The full URL stays, its host highlighted.
    await expect(card().locator('code.url-full mark').textContent()).resolves.toBe('127.0.0.1');
    await button(card(), 'Decline').click();
    await transcript().getByText('You answered: decline.').waitFor();
  });

  it('gives each button its role: Open primary, Decline and Cancel secondary', async () => {
    await ask('/url');
    const open = button(card(), 'Open');
    const decline = button(card(), 'Decline');
    await expect(isPrimary(open)).resolves.toBe(true);
    await expect(hasRole(decline, 'secondary')).resolves.toBe(true);
    await expect(hasRole(button(card(), 'Cancel'), 'secondary')).resolves.toBe(true);
    expect(await looks(open)).not.toBe(await looks(decline));
    await button(card(), 'Cancel').click();
    await transcript().getByText('You answered: cancel.').waitFor();
  });
});

describe('a look-alike (the demo’s /url-lookalike)', () => {
  it('leads with the danger sentence, before the agent’s words, and says nothing of encryption', async () => {
    await ask('/url-lookalike');
    const headline = card().locator('.url-headline');
    await expect(headline.textContent()).resolves.toBe('This is not apple.com.');
    // First after the card's head: before the agent's message and the URL.
    const order = await card().evaluate((element) => {
      const at = (selector: string) =>
        [...element.querySelectorAll('*')].indexOf(element.querySelector(selector)!);
      return [at('.url-headline'), at('.agent-words'), at('code.url-full')];
    });
    expect(order[0]).toBeLessThan(order[1]!);
    expect(order[1]).toBeLessThan(order[2]!);
    await expect(card().getAttribute('aria-describedby')).resolves.toBe(
      await headline.getAttribute('id'),
    );
    await expect(shownFindings(card())).resolves.toEqual(['lookalike:danger', 'punycode:caution']);
    await expect(page().locator('body').textContent()).resolves.not.toMatch(/encrypt/i);
    // The full URL, as it opens.
    await expect(card().locator('code.url-full').textContent()).resolves.toBe(LOOKALIKE);
    await button(card(), 'Cancel').click();
    await transcript().getByText('You answered: cancel.').waitFor();
  });

  it('gives Decline the focus and the primary look: a stray Enter declines', async () => {
    await ask('/url-lookalike');
    const decline = button(card(), 'Decline');
    await expect.poll(() => isFocused(decline)).toBe(true);
    await expect(isPrimary(decline)).resolves.toBe(true);
    // Opening looks like danger: like neither Decline nor Cancel.
    const anyway = button(card(), 'Open anyway…');
    await expect(hasRole(anyway, 'danger')).resolves.toBe(true);
    expect(await looks(anyway)).not.toBe(await looks(decline));
    expect(await looks(anyway)).not.toBe(await looks(button(card(), 'Cancel')));
    await page().keyboard.press('Enter');
    await transcript().getByText('You answered: decline.').waitFor();
    expect(pages()).toBe(1);
  });

  it('opens only after "Open anyway…" and a confirmation', async () => {
    await ask('/url-lookalike');
    await expect(button(card(), 'Open').count()).resolves.toBe(0);
    await button(card(), 'Open anyway…').click();
    const confirm = card().getByRole('group', { name: 'Open anyway?' });
    await expect(isFocused(confirm)).resolves.toBe(true);
    await expect(confirm.textContent()).resolves.toContain(
      'This is not apple.com. Open xn--80ak6aa92e.com anyway?',
    );
    expect(pages()).toBe(1);
    // Back steps back, opening nothing; the focus returns to the first step.
    await button(confirm, 'Back').click();
    await expect(isFocused(button(card(), 'Open anyway…'))).resolves.toBe(true);
    expect(pages()).toBe(1);

    await button(card(), 'Open anyway…').click();
    const [tab] = await Promise.all([
      page().context().waitForEvent('page'),
      button(card().getByRole('group', { name: 'Open anyway?' }), 'Open anyway').click(),
    ]);
    await tab.waitForLoadState('domcontentloaded');
    expect(tab.url()).toBe(LOOKALIKE);
    await expect(tab.evaluate(() => window.opener)).resolves.toBeNull();
    await page().bringToFront();
    await card()
      .getByText(/^Waiting for you to finish on xn--80ak6aa92e\.com/)
      .waitFor();
    await button(card(), 'Done').click();
    await card().waitFor({ state: 'detached' });
  });
});

describe('a link in a reply', () => {
  async function links(): Promise<void> {
    await send('/links');
    await turnEnded('Done');
  }
  const link = (name: string) => transcript().getByRole('button', { name, exact: true });

  it('is shown the same way: a danger leads, Cancel has the focus, opening takes two steps', async () => {
    await links();
    await link('Apple sign-in').click();
    await dialog().locator('code.url-full').waitFor();
    await expect(dialog().locator('.url-headline').textContent()).resolves.toBe(
      'This is not apple.com.',
    );
    await expect(shownFindings(dialog())).resolves.toEqual([
      'lookalike:danger',
      'punycode:caution',
    ]);
    const cancel = button(dialog(), 'Cancel');
    await expect(isFocused(cancel)).resolves.toBe(true);
    await expect(isPrimary(cancel)).resolves.toBe(true);
    await expect(button(dialog(), 'Open in browser').count()).resolves.toBe(0);
    await expect(dialog().textContent()).resolves.not.toMatch(/encrypt/i);

    await button(dialog(), 'Open anyway…').click();
    const confirm = dialog().getByRole('group', { name: 'Open anyway?' });
    await expect(isFocused(confirm)).resolves.toBe(true);
    expect(pages()).toBe(1);
    const [tab] = await Promise.all([
      page().context().waitForEvent('page'),
      button(confirm, 'Open in browser anyway').click(),
    ]);
    await tab.waitForLoadState('domcontentloaded');
    expect(tab.url()).toBe(LOOKALIKE);
    await dialog().waitFor({ state: 'hidden' });
  });

  it('shows a borrowed name as a danger, and a plain https link with no word about encryption', async () => {
    await links();
    await link('PayPal').click();
    await expect(dialog().locator('.url-headline').textContent()).resolves.toBe(
      'This is not paypal.com.',
    );
    await page().keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });

    await link('The ACP specification').click();
    await dialog().locator('code.url-full').waitFor();
    await expect(dialog().locator('.url-headline').count()).resolves.toBe(0);
    await expect(warningsShown(dialog())).resolves.toBe(0);
    await expect(dialog().textContent()).resolves.not.toMatch(/encrypt/i);
    await expect(isPrimary(button(dialog(), 'Open in browser'))).resolves.toBe(true);
    await expect(isPrimary(button(dialog(), 'Cancel'))).resolves.toBe(false);
    await page().keyboard.press('Escape');
    expect(pages()).toBe(1);
  });
});

describe('accessibility of the danger state', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violations on a look-alike's card and link (${colorScheme})`, async () => {
      // axe is injected as a script, which the app's CSP refuses.
      // No transitions: axe reads colours as they are, not halfway through a change.
      await reopen({ context: { bypassCSP: true, colorScheme, reducedMotion: 'reduce' } });
      const violations = (target: Page) =>
        seriousViolations(new AxeBuilder({ page: target }), 'URL findings');
      await ask('/url-lookalike');
      await expect(violations(page())).resolves.toEqual([]);
      await button(card(), 'Open anyway…').click();
      await card().getByRole('group', { name: 'Open anyway?' }).waitFor();
      await expect(violations(page())).resolves.toEqual([]);
      await button(card(), 'Decline').click();
      await transcript().getByText('You answered: decline.').waitFor();
      await turnEnded('Done');

      await send('/links');
      await turnEnded('Done');
      await transcript().getByRole('button', { name: 'Apple sign-in', exact: true }).click();
      await dialog().locator('.url-headline').waitFor();
      await expect(violations(page())).resolves.toEqual([]);
    });
  }
});
