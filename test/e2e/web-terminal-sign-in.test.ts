/**
 * Signing in through a terminal inside the app, end to end through the web host in Chromium, by
 * keyboard: an agent whose sign-in method is a `terminal` one asks for a name in the panel's
 * terminal; typed there, the agent restarts signed in and a turn runs. A sign-in that fails says
 * how it ended and can be tried again; Close ends it and gives the focus back. Axe checks the
 * panel; screenshots in the light and the dark theme, wide and 420 px.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { terminalLoginSpec } from '../helpers/agents.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { tempFolder } from '../helpers/temp-folder.js';

const SHOTS = '/tmp/shots/terminal';
mkdirSync(SHOTS, { recursive: true });

const tokens = tempFolder('airlock-terminal-e2e-');
const SIGNS_IN = terminalLoginSpec(join(tokens, 'ada'), 'Terminal Login');
const FAILS = terminalLoginSpec(join(tokens, 'nobody'), 'Terminal Failing');
const server = ({ command, args, env }: typeof SIGNS_IN) => ({ command, args, env });

const { page, open } = useWebApp({
  settings: { agent_servers: { [SIGNS_IN.name]: server(SIGNS_IN), [FAILS.name]: server(FAILS) } },
  openEachTest: false,
});
const { status, transcript, openNewSession, sendTurn, startSession } = appPage(page);

/** Starts a tab of `agent` and waits for its sign-in panel. */
async function startSigningIn(agent: string) {
  const dialog = await openNewSession();
  await dialog.getByRole('radio', { name: agent, exact: true }).check();
  await dialog.getByRole('button', { name: 'Start session' }).press('Enter');
  const panel = page().getByRole('region', { name: 'Authentication required' });
  await panel.waitFor();
  return panel;
}

/** Opens the terminal from its button, by keyboard; resolves once it asks for the name. */
async function openTerminal(panel: Locator) {
  const button = panel.getByRole('button', { name: 'Sign in in terminal' });
  await button.focus();
  await page().keyboard.press('Enter');
  const screen = page().getByRole('application', { name: /sign-in terminal$/ });
  await screen.getByText('What is your name?').waitFor();
  return { button, screen };
}

async function shoot(name: string, ready: () => Promise<unknown>) {
  for (const width of [1280, 420]) {
    await page().setViewportSize({ width, height: 760 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme });
      await ready();
      await page().screenshot({ path: `${SHOTS}/${name}-${colorScheme}-${width}.png` });
    }
  }
  await page().setViewportSize({ width: 1280, height: 760 });
}

describe('signing in through a terminal inside the app', () => {
  it('takes what is typed in the terminal, restarts the agent signed in, and runs a turn', async () => {
    await open({ viewport: { width: 1280, height: 760 } });
    const panel = await startSigningIn(SIGNS_IN.name);
    await expect(panel.locator('details.terminal-command').textContent()).resolves.toMatch(
      /terminal-login-agent\.sh --acp --login/,
    );
    const { screen } = await openTerminal(panel);
    await expect(screen.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    // A screen reader hears the question once the screen is still.
    await page()
      .locator('.sign-in-terminal [aria-live=polite]')
      .filter({ hasText: 'What is your name?' })
      .waitFor({ state: 'attached' });
    await page().keyboard.type('Ada');
    await screen.getByText('What is your name? Ada').waitFor();
    await expect(
      seriousViolations(
        new AxeBuilder({ page: page() }).include('.sign-in-terminal'),
        'sign-in terminal',
      ),
    ).resolves.toEqual([]);
    await shoot('typing', () => screen.getByText('What is your name? Ada').waitFor());

    await page().keyboard.press('Enter');
    await status().filter({ hasText: 'Ready' }).waitFor();
    await transcript().getByText('Signed in with “Log in”.').waitFor();
    await sendTurn('hello');
    await transcript().getByText('Hello, Ada.').waitFor();
  });

  it('says how a failed sign-in ended, tries again, and Close gives the focus back', async () => {
    await open({ viewport: { width: 1280, height: 760 } });
    const panel = await startSigningIn(FAILS.name);
    const { button, screen } = await openTerminal(panel);
    await page().keyboard.press('Enter');
    const ended = panel.getByRole('alert').filter({
      hasText: 'The sign-in command ended with code 3.',
    });
    await ended.waitFor();
    await screen.getByText('No name given.').waitFor();
    await expect(
      seriousViolations(
        new AxeBuilder({ page: page() }).include('.sign-in-terminal'),
        'failed sign-in terminal',
      ),
    ).resolves.toEqual([]);
    await shoot('failed', () => ended.waitFor());

    // Away to another tab and back: the same terminal, as it ended, nothing run again.
    await startSession('Demo Agent');
    await page()
      .getByRole('tab', { name: new RegExp(FAILS.name) })
      .click();
    await ended.waitFor();
    await screen.getByText('No name given.').waitFor();

    await ended.getByRole('button', { name: 'Try again' }).press('Enter');
    await ended.waitFor({ state: 'detached' });
    await screen.getByText('What is your name?').waitFor();
    await panel.getByRole('button', { name: 'Close' }).press('Enter');
    await screen.waitFor({ state: 'detached' });
    await expect(button.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    await expect(status().textContent()).resolves.not.toMatch(/Ready/);
  });
});
