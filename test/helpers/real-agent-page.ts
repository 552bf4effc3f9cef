/**
 * What the real-agent suites (real-claude, real-codex) do in the page alike: the cards they
 * answer, the test MCP server they configure, the pages beyond 127.0.0.1 they answer locally,
 * and opening a session of the agent in a folder.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { TSX_LOADER } from './agents.js';
import { appPage } from './app-page.js';
import { launchChromium, startWebApp } from './web-app.js';

/** The test MCP server (test/fixtures/mcp-elicit-server.ts) as a `context_servers` entry. */
export const ELICIT_SERVER = {
  elicit: {
    command: process.execPath,
    args: [
      '--import',
      TSX_LOADER,
      fileURLToPath(new URL('../fixtures/mcp-elicit-server.ts', import.meta.url)),
    ],
  },
};

/** The page the test MCP server's `ask_signin` asks the user to open. */
export const SIGNIN_URL =
  'https://auth.example.com/oauth/authorize?client_id=elicit-test&state=xyz';

/** The cards of the dock. */
export const questions = (page: Page) =>
  page.getByRole('region', { name: 'Questions from the agent' });

/** The form card of the agent named `asker` (its name and version). */
export const questionCard = (page: Page, asker: string) =>
  questions(page).getByRole('group', { name: `Question from ${asker}` });

/** The card asking the user to open a web page. */
export const urlCard = (page: Page, asker: string) =>
  questions(page).getByRole('group', { name: `${asker} asks you to open a web page` });

/** A card's own button. */
export const cardButton = (card: Locator, name: 'Accept' | 'Decline' | 'Cancel') =>
  card.getByRole('button', { name, exact: true });

/** Chooses `option` of the single-choice question titled `question`: a radio row or a select. */
export async function choose(card: Locator, question: string, option: string): Promise<void> {
  const radio = card.getByRole('radio', { name: option, exact: true });
  const select = card.getByRole('combobox', { name: question });
  await ((await radio.count()) > 0 ? radio.check() : select.selectOption(option));
}

/**
 * Answers every page the browser asks for beyond 127.0.0.1 (the sign-in page a URL card opens)
 * with a stand-in page, so nothing leaves the host; returns the list of those asked for.
 */
export async function answerOffsite(page: Page): Promise<string[]> {
  const offsite: string[] = [];
  await page.context().route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => {
      offsite.push(route.request().url());
      return route.fulfill({ contentType: 'text/html', body: '<title>Stand-in page</title>' });
    },
  );
  return offsite;
}

/** Starts a session of `agent` in `workDir` from the new-session form; resolves once its tab shows. */
export async function openAgentTab(page: Page, agent: string, workDir: string): Promise<void> {
  const form = await appPage(() => page).openNewSession();
  await form.getByRole('radio', { name: agent, exact: true }).check();
  await form.getByLabel('Working folder').fill(workDir);
  const before = await page.getByRole('tab').count();
  await form.getByRole('button', { name: 'Start session' }).click();
  await page.getByRole('tab', { selected: true }).and(page.getByRole('tab').nth(before)).waitFor();
}

/** Fills in the test MCP server's profile form as every suite does, and accepts it. */
export async function fillProfile(card: Locator): Promise<void> {
  await card.waitFor();
  await expect(card.textContent()).resolves.toContain('Please fill in your deployment profile.');
  await card.getByRole('textbox', { name: 'Your name' }).fill('Ada Lovelace');
  await choose(card, 'Region', 'us-east');
  await card.getByRole('checkbox', { name: 'Dry run' }).check();
  await card.getByLabel('Replicas').fill('3');
  await cardButton(card, 'Accept').click();
}

/**
 * Opens the sign-in page from its URL card and checks what follows: the page is the only one
 * asked for beyond 127.0.0.1, and the agent passes on the MCP server's completion, which closes
 * the card and marks its record done.
 */
export async function openSignIn(page: Page, asker: string, offsite: string[]): Promise<void> {
  const card = urlCard(page, asker);
  await card.waitFor();
  await expect(card.textContent()).resolves.toContain('Sign in to Example Cloud to continue.');
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    card.getByRole('button', { name: 'Open', exact: true }).click(),
  ]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe(SIGNIN_URL);
  expect(offsite).toEqual([SIGNIN_URL]);
  await appPage(() => page)
    .transcript()
    .getByRole('group', { name: `Request from ${asker} to open a web page` })
    .getByText('The agent marked this step done')
    .waitFor();
  await expect(card.count()).resolves.toBe(0);
}

/** Starts the web host with `settings` and a browser, together. */
export const startAppAndBrowser = (settings: Parameters<typeof startWebApp>[0]) =>
  Promise.all([startWebApp(settings), launchChromium()]);

/** Waits for `card` to show, and returns it. */
export async function shown(card: Locator): Promise<Locator> {
  await card.waitFor();
  return card;
}
