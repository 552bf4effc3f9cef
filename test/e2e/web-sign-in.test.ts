/**
 * Signing in with the fewest steps, end to end through the web host in Chromium: a codex-like
 * agent (the scripted agent's `auth-api-key`) whose API-key method names its provider in
 * `_meta` is signed in with the key from its environment, and its tab says so; without the key,
 * the device-code sign-in asks to open a page, which shows on the tab that asked to sign in.
 */
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/agents.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/signin';
const WITH_KEY = 'Codex Like';
const WITHOUT_KEY = 'Codex Device';
const agent = fixtureSpec('auth-api-key');
const server = (env: Record<string, string>) => ({ command: agent.command, args: agent.args, env });

const { page, open } = useWebApp({
  settings: {
    agent_servers: {
      [WITH_KEY]: server({ OPENAI_API_KEY: 'sk-test' }),
      // Empty, whatever the host's own environment holds.
      [WITHOUT_KEY]: server({ OPENAI_API_KEY: '' }),
    },
  },
  openEachTest: false,
  // The verification page, served here: nothing leaves the machine.
  beforeLoad: (opened: Page) =>
    opened
      .context()
      .route('https://auth.example.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<p>Enter your one-time code</p>' }),
      ),
});
const { status, transcript, startSession, openNewSession } = appPage(page);

describe('an agent whose API-key sign-in names its provider', () => {
  it('is signed in with the key from its environment, and the tab says so', async () => {
    await open();
    await startSession(WITH_KEY);
    const line = transcript().getByText(
      `Signed in with “API Key”, from OPENAI_API_KEY in ${WITH_KEY}’s environment.`,
      { exact: true },
    );
    await line.waitFor();
    await expect(
      page().getByRole('region', { name: 'Authentication required' }).count(),
    ).resolves.toBe(0);
    await mkdir(SHOTS, { recursive: true });
    for (const width of [1280, 420]) {
      await page().setViewportSize({ width, height: 700 });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page().emulateMedia({ colorScheme });
        await line.waitFor();
        await page().screenshot({
          path: `${SHOTS}/signed-in-${colorScheme}-${width}.png`,
          animations: 'disabled',
        });
      }
    }
  });

  it('without the key, shows the page its device-code sign-in asks to open on the tab that asked', async () => {
    await open();
    const dialog = await openNewSession();
    await dialog.getByRole('radio', { name: WITHOUT_KEY, exact: true }).check();
    await dialog.getByRole('button', { name: 'Start session' }).click();
    const panel = page().getByRole('region', { name: 'Authentication required' });
    await panel.getByRole('button', { name: 'Sign in with ChatGPT (device code)' }).click();

    const card = page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: /asks you to open a web page$/ });
    await card.getByText('Sign in to ChatGPT and enter this code: WXYZ-1234').waitFor();
    await expect(card.locator('code.url-full').textContent()).resolves.toBe(
      'https://auth.example.com/codex/device',
    );
    await mkdir(SHOTS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme });
      // Themes change with a transition: the shot waits for none.
      await page().screenshot({
        path: `${SHOTS}/device-code-${colorScheme}.png`,
        animations: 'disabled',
      });
    }
    const [popup] = await Promise.all([
      page().context().waitForEvent('page'),
      card.getByRole('button', { name: 'Open', exact: true }).click(),
    ]);
    await popup.getByText('Enter your one-time code').waitFor();

    // The agent says the step is done as soon as the page is open, and signs in.
    await status().filter({ hasText: 'Ready' }).waitFor();
    const record = transcript().getByRole('group', { name: /to open a web page$/ });
    await record.getByText('asked while the tab started to open a web page').waitFor();
    await record.getByText('The agent marked this step done').waitFor();
    await expect(card.count()).resolves.toBe(0);
  });
});
