/**
 * What a person reads, in Chromium through the web host: the settings' Test of the demo agent
 * says in sentences what a session will offer (the raw capability keys under Details) and agrees
 * with a session; a command the user stopped reads "Stopped", not as a failure; a tool call's raw
 * input stays closed under Details; the demo's refusals carry no JSON-RPC code.
 *
 * Screens of the Test report and the stopped command, 1280×800 and 420×800, light and dark, are
 * saved to /tmp/shots-24d/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = process.env.AIRLOCK_SHOTS ?? '/tmp/shots-24d';
mkdirSync(SHOTS, { recursive: true });

const { open, page } = useWebApp({ openEachTest: false });
const { transcript, turnEnded, startSession, send } = appPage(() => page());

const SIZES = [
  { width: 1280, height: 800 },
  { width: 420, height: 800 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * Opens the app in `colorScheme`, 1280 wide; `narrow` sets it to `size` once the test's steps
 * have run there (the narrow layout hides the sidebar the steps start from).
 */
async function openAt(size: (typeof SIZES)[number], colorScheme: (typeof SCHEMES)[number]) {
  const shown = await open({ viewport: SIZES[0], context: { colorScheme } });
  return { shown, narrow: () => shown.setViewportSize(size) };
}

/** Opens the agents' settings and tests the demo agent; resolves with the report's region. */
async function testDemoAgent(shown: Page) {
  await shown.getByRole('button', { name: /Agent settings/ }).click();
  const view = shown.getByRole('main', { name: 'Agents' });
  await view.getByRole('list', { name: 'Agents' }).waitFor();
  await view.getByRole('button', { name: 'Test Demo Agent' }).click();
  const result = view.getByRole('region', { name: 'Test of Demo Agent' });
  await result.getByText('started and answered').waitFor({ timeout: 60_000 });
  return result;
}

/** The text a person sees on the page now (hidden parts, such as closed Details, left out). */
const seen = () => page().locator('body').innerText();

describe("the settings' Test", () => {
  it('says in sentences what a session offers, raw keys under Details, and a session agrees', async () => {
    const { shown } = await openAt(SIZES[0], 'light');
    const result = await testDemoAgent(shown);
    const offers = result.getByRole('region', { name: 'In a session' });
    const sentences = await offers.getByRole('listitem').allInnerTexts();
    expect(sentences).toEqual(
      expect.arrayContaining([
        'Can load past sessions, with their messages',
        'Takes images as attachments',
        'Asks for input with forms and web pages',
        "Runs commands in the session's folder",
      ]),
    );
    // A check mark says yes: no sentence beside one says it again.
    expect(sentences.filter((sentence) => /: (yes|no)$/.test(sentence))).toEqual([]);
    // The session's modes and options by their names; their ids only under Details.
    const facts = result.locator('.agent-test-facts').first();
    await expect(facts.getByText('Ask, Code', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(
      facts.getByText('Reply style, Show thinking, Ask at start', { exact: true }).isVisible(),
    ).resolves.toBe(true);
    const optionIds = result.getByText('style, thinking, ask_at_start', { exact: true });
    await expect(optionIds.isVisible()).resolves.toBe(false);
    // No protocol key where a person reads; the raw rows are there, closed, under Details.
    const visible = await result.innerText();
    expect(visible).not.toMatch(/elicitation\.|promptCapabilities|loadSession|ACP version/);
    const rawUrl = result.getByText('elicitation.url: yes');
    await expect(rawUrl.isVisible()).resolves.toBe(false);
    await result.getByText('Details', { exact: true }).click();
    await rawUrl.waitFor();
    await result.getByText(/^ACP version \d+$/).waitFor();
    await optionIds.waitFor();
    await result.getByText('ask, code', { exact: true }).waitFor();

    // A session offers what Test said: the demo's URL request becomes a consent card.
    await shown.getByRole('button', { name: 'Back to sessions' }).click();
    await startSession();
    await send('/url');
    await shown.getByRole('button', { name: 'Decline' }).waitFor();
    expect(await transcript().innerText()).not.toContain('does not support URL');
  });

  for (const size of SIZES) {
    for (const colorScheme of SCHEMES) {
      it(`looks right at ${size.width}×${size.height}, ${colorScheme}`, async () => {
        const { shown, narrow } = await openAt(size, colorScheme);
        const result = await testDemoAgent(shown);
        await narrow();
        await result.scrollIntoViewIfNeeded();
        await shown.screenshot({
          path: `${SHOTS}/test-report-${size.width}-${colorScheme}.png`,
          fullPage: true,
        });
        await result.getByRole('region', { name: 'In a session' }).waitFor();
      });
    }
  }
});

describe('a command the user stopped', () => {
  for (const size of SIZES) {
    for (const colorScheme of SCHEMES) {
      it(`reads "Stopped", not as a failure (${size.width}, ${colorScheme})`, async () => {
        const { narrow } = await openAt(size, colorScheme);
        await startSession();
        await send('/run sleep 30');
        const long = transcript().getByRole('region', { name: 'Tool call: Run sleep 30' });
        await long.getByRole('status').filter({ hasText: 'Running…' }).waitFor();
        await long.getByRole('button', { name: 'Stop the command (ends its process)' }).click();
        const ended = long.locator('.terminal-footer').getByRole('status');
        await ended.filter({ hasText: /^Stopped$/ }).waitFor();
        // Neutral: the footer's own muted colour, not the colour of a failure.
        const [colour, footer] = await ended.evaluate((element) => [
          getComputedStyle(element).color,
          getComputedStyle(element.closest('.terminal-footer')!).color,
        ]);
        expect(colour).toBe(footer);
        expect(await long.innerText()).not.toMatch(/SIGTERM|SIGKILL/);
        await narrow();
        await long.scrollIntoViewIfNeeded();
        await page().screenshot({
          path: `${SHOTS}/terminal-stopped-${size.width}-${colorScheme}.png`,
        });
      });
    }
  }
});

describe('internals stay under Details', () => {
  it("keeps a tool call's raw input closed until Details is opened", async () => {
    await openAt(SIZES[0], 'light');
    await startSession();
    await send('/permission-run');
    await page().getByRole('button', { name: 'Allow once' }).waitFor();
    const raw = page().getByLabel('Raw input');
    await expect(raw.count()).resolves.toBeGreaterThan(0);
    for (const element of await raw.all()) {
      await expect(element.isVisible()).resolves.toBe(false);
    }
    expect(await seen()).not.toContain('"npm test -- --reporter=dot"');
  });

  it.each(['/form-invalid', '/url-bad-scheme'])(
    'shows no JSON-RPC code for the refusals of %s',
    async (command) => {
      await openAt(SIZES[0], 'light');
      await startSession();
      await send(command);
      await turnEnded('Done');
      const text = await seen();
      expect(text).not.toMatch(/-32\d{3}/);
      expect(text).toContain('Airlock refused it');
    },
  );
});
