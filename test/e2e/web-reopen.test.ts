/**
 * Quitting and reopening a session, in Chromium through the web host: a session with the demo
 * agent, the host stopped, a new host started on the same config folder, the offer to reopen it
 * taken with the keyboard, and its old transcript back in the tab; then the sidebar's
 * History lists it. In the light and the dark theme, checked with axe, with screenshots in
 * /tmp/airlock-shots/history/.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdir } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { replyFor } from '../../main/demo-agent/script.js';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { startWebApp, type WebApp } from '../helpers/web-app.js';

const SHOTS = '/tmp/airlock-shots/history';

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
});
const web = useWebApp({
  host: 'test',
  openEachTest: false,
  // The first page loses its host on purpose.
  ignoreErrors: (text) => text.includes('WebSocket'),
});
const { page } = web;
const { transcript, startSession, sendTurn, status } = appPage(page);

let again: WebApp | undefined;
afterEach(async () => {
  await again?.stop();
  again = undefined;
});

async function shot(name: string, theme: string, axe = true): Promise<void> {
  await page().screenshot({ path: `${SHOTS}/${name}-${theme}.png`, animations: 'disabled' });
  if (!axe) {
    return;
  }
  expect(await seriousViolations(new AxeBuilder({ page: page() }), name)).toEqual([]);
}

describe.each(['light', 'dark'] as const)('a session after a quit, in the %s theme', (theme) => {
  it('is offered again, and reopening it shows its old transcript', async () => {
    const context = { bypassCSP: true, colorScheme: theme };
    await web.open({ context });
    await startSession();
    await sendTurn('/title Planning the trip');
    await sendTurn('remember the blue door');
    const reply = replyFor('remember the blue door');

    // Quit: the host stops (and with it the agent); a new one starts on the same config folder.
    const configDir = web.app().configDir;
    await web.app().stop();
    again = await startWebApp(undefined, configDir);
    await web.open({ url: again.url, context });

    const offer = page().getByRole('region', { name: 'Reopen 1 session from last time' });
    await offer.getByText('Planning the trip').waitFor();
    await expect(page().getByRole('tab').count()).resolves.toBe(0);
    await shot('offer', theme);

    // Keyboard: the offer's Reopen is reachable and works with Enter.
    const reopen = offer.getByRole('button', { name: 'Reopen', exact: true });
    await reopen.focus();
    await page().keyboard.press('Enter');
    await status().filter({ hasText: 'Ready' }).waitFor();
    await transcript().getByText('remember the blue door', { exact: true }).waitFor();
    await expect(transcript().textContent()).resolves.toContain(reply.replace('`/help`', '/help'));
    await expect(offer.count()).resolves.toBe(0);
    await expect(page().getByRole('tab', { selected: true }).textContent()).resolves.toContain(
      'Planning the trip',
    );
    await shot('reopened', theme, false);

    // The History of the folder lists it; Reopen shows the tab it is open in.
    await page().getByRole('button', { name: 'History', exact: true }).click();
    const list = page().getByRole('list', { name: 'Earlier sessions of Demo Agent' });
    await list.getByText('Planning the trip').waitFor();
    await expect(list.textContent()).resolves.toContain('just now');
    await shot('history', theme);
    await list.getByRole('button', { name: 'Reopen Planning the trip' }).click();
    await expect(page().getByRole('tab').count()).resolves.toBe(1);
    await sendTurn('and after the quit?');
    // Two hosts, two agents and axe twice: more than one minute on a loaded machine.
  }, 150_000);
});
