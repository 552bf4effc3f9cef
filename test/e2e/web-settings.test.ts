/**
 * Agents from the settings file: a broken file is reported by name while the demo agent still
 * works, and an agent that needs signing in shows its methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/agents.js';
import { appPage, offeredAgents } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { startWebApp, type WebApp } from '../helpers/web-app.js';

const { app, browser } = useWebApp({
  settings: '{ "agent_servers": { "Broken": { "command": 42 } } }',
  openEachTest: false,
});

describe('a broken settings file', () => {
  it('is named with its problem, and the demo agent still works', async () => {
    const page = await browser().newPage();
    await page.goto(await app().newLink());
    const alert = page.getByRole('navigation', { name: 'Sessions' }).getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(
      /settings\.json, line 1: agent_servers\.Broken\.command: must be text, in quotes/,
    );
    await expect(offeredAgents(page)).resolves.toEqual(['Demo Agent']);
    await appPage(() => page).startSession();
    await page.close();
  });
});

describe('an agent that needs signing in', () => {
  let authApp: WebApp;
  beforeAll(async () => {
    const agent = fixtureSpec('auth-required', 'Needs Login');
    authApp = await startWebApp({
      agent_servers: { [agent.name]: { command: agent.command, args: agent.args } },
    });
  });
  afterAll(() => authApp?.stop());

  it('lists the sign-in methods, explains the variable, and signs in', async () => {
    const page = await browser().newPage();
    await page.goto(authApp.url);
    const dialog = await appPage(() => page).openNewSession();
    await dialog.getByRole('radio', { name: 'Needs Login', exact: true }).check();
    await dialog.getByRole('button', { name: 'Start session' }).click();
    const panel = page.getByRole('region', { name: 'Authentication required' });
    await panel.waitFor();
    const methods = panel.getByRole('listitem').filter({ hasText: 'FOO API key' });
    await expect(methods.getByRole('listitem').allTextContents()).resolves.toEqual([
      'FOO_KEY: not set',
    ]);
    // The web host has no keychain: it says so and points at the settings file.
    await expect(methods.textContent()).resolves.toContain(
      'This host has no keychain to keep secrets in. Set the variable in the agent’s "env" in the settings file instead.',
    );
    await expect(methods.getByText(authApp.configDir, { exact: false }).count()).resolves.toBe(1);
    await expect(methods.locator('input').count()).resolves.toBe(0);
    await panel.getByRole('button', { name: 'Sign in with Log in' }).click();
    await page
      .getByRole('status', { name: 'Session status' })
      .filter({ hasText: 'Ready' })
      .waitFor();
    await expect(panel.count()).resolves.toBe(0);
    await page.close();
  });
});
