/**
 * A broken settings file is reported by name in the app, which still starts with the demo agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, startWebApp, type WebApp } from '../helpers/web-app.js';

let app: WebApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startWebApp('{ "agent_servers": { "Broken": { "command": 42 } } }'),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a broken settings file', () => {
  it('is named with its problem, and the demo agent still works', async () => {
    const page = await browser.newPage();
    await page.goto(app.url);
    const alert = page.getByRole('navigation', { name: 'Sessions' }).getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(
      /settings\.json: agent_servers\.Broken\.command/,
    );
    await expect(
      page.getByRole('combobox', { name: 'Agent' }).locator('option').allTextContents(),
    ).resolves.toEqual(['Demo Agent']);
    await page.getByRole('button', { name: 'Start session' }).click();
    await page
      .getByRole('status', { name: 'Session status' })
      .filter({ hasText: 'Ready' })
      .waitFor();
    await page.close();
  });
});
