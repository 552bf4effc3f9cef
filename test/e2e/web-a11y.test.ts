/**
 * Accessibility of the main screens, checked with axe-core in Chromium through the web host, in
 * the light and the dark theme (and high contrast): the start screen, the welcome and the
 * new-session dialog (wide and narrow), a session with a streamed
 * reply (links and code), a tool call with its diff, a permission card, the agent log, the
 * consent for a link, a narrow window with its sidebar over the session, the screen of a first
 * load that failed, and the state after the connection to Airlock is lost. No serious or critical violation anywhere.
 *
 * Each screen is also saved to /tmp/airlock-shots/10d/a11y-*.png, to be looked at.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdir } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { appPage, newSessionDialog } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { startWebApp } from '../helpers/web-app.js';

const SHOTS = '/tmp/airlock-shots/10d';

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
});
const web = useWebApp({ openEachTest: false, ignoreErrors: (text) => text.includes('WebSocket') });
const { app, page } = web;

const { transcript, turnEnded, startSession, openNewSession, send } = appPage(page);

type Theme = {
  name: string;
  colorScheme: 'light' | 'dark';
  contrast?: 'more';
  forcedColors?: 'active';
};
const THEMES: Theme[] = [
  { name: 'light', colorScheme: 'light' },
  { name: 'dark', colorScheme: 'dark' },
  { name: 'contrast', colorScheme: 'light', contrast: 'more' },
];

/** A fresh page in `theme`; axe is injected as a script, which the app's CSP refuses. */
async function open(url: string, theme: Theme, width = 1280): Promise<void> {
  await web.open({
    url,
    viewport: { width, height: 800 },
    context: {
      bypassCSP: true,
      colorScheme: theme.colorScheme,
      contrast: theme.contrast ?? 'no-preference',
      forcedColors: theme.forcedColors ?? 'none',
    },
  });
}

/** The serious and critical violations on the page as it is, each with where it is. */
async function violations(): Promise<string[]> {
  const results = await new AxeBuilder({ page: page() }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}

/** Checks the screen and keeps a picture of it. */
async function check(screen: string, theme: Theme, width = 1280): Promise<void> {
  await expect(violations(), `${screen} (${theme.name})`).resolves.toEqual([]);
  await page().screenshot({
    path: `${SHOTS}/a11y-${screen}-${theme.name}-${width}.png`,
    animations: 'disabled',
  });
}

describe.each(THEMES)('the main screens in the $name theme', (theme) => {
  it('has no serious or critical violation on any of them', async () => {
    await open(await app().newLink(), theme);
    await page().getByRole('button', { name: 'New session' }).first().waitFor();
    await check('start', theme);

    await startSession();
    await send('/links');
    await turnEnded('Done');
    await check('reply', theme);

    await transcript().getByRole('button', { name: 'PayPal', exact: true }).click();
    // A borrowed name: the dialog leads with its danger, opening takes a second step.
    await page().getByRole('dialog').getByRole('button', { name: 'Open anyway…' }).waitFor();
    await check('link-consent', theme);
    await page().keyboard.press('Escape');
    await page().getByRole('dialog').waitFor({ state: 'hidden' });

    await send('/tool');
    await transcript()
      .getByRole('figure', { name: /Diff of/ })
      .waitFor();
    await turnEnded('Done');
    await check('tool-diff', theme);

    await send('/permission');
    const card = page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: /Permission request/ });
    await card.getByRole('button', { name: 'Allow once' }).waitFor();
    await check('permission', theme);
    await card.getByRole('button', { name: 'Allow once' }).click();
    await turnEnded('Done');

    await page().getByRole('button', { name: 'Show agent log' }).click();
    await page().getByRole('region', { name: 'Agent log' }).getByText('Log file:').waitFor();
    await check('log', theme);
    await page().keyboard.press('Escape');

    // A phone-sized window, the sidebar over the session.
    await page().setViewportSize({ width: 400, height: 800 });
    await check('narrow', theme, 400);
    await page().getByRole('button', { name: 'Sessions sidebar' }).click();
    await page().getByRole('navigation', { name: 'Sessions' }).waitFor();
    await check('narrow-sidebar', theme, 400);
  });

  it('has none on the welcome and the new-session dialog, wide and narrow', async () => {
    // A host of its own: the welcome shows only while no session is open.
    const fresh = await startWebApp();
    try {
      for (const width of [1280, 400]) {
        await open(await fresh.newLink(), theme, width);
        await page().getByRole('main', { name: 'Start a session' }).waitFor();
        await check('welcome', theme, width);
        // The welcome's New session has the focus.
        await page().keyboard.press('Enter');
        await newSessionDialog(page()).waitFor();
        await check('new-session', theme, width);
        await page().keyboard.press('Escape');
        await newSessionDialog(page()).waitFor({ state: 'detached' });
      }
      // With a recent folder to offer.
      await startSession();
      await openNewSession();
      await check('new-session-recent', theme, 400);
    } finally {
      await page().goto('about:blank');
      await fresh.stop();
    }
  });

  it('has none when the first load fails', async () => {
    await open(await app().newLink(), theme);
    await page().getByRole('button', { name: 'New session' }).first().waitFor();
    // The host looks down from now on: the page's next first load fails.
    await page().routeWebSocket(/\/ws$/, (ws) => ws.close({ code: 1013, reason: 'host down' }));
    await page().reload();
    await page().getByRole('main', { name: 'Airlock could not load your sessions' }).waitFor();
    await check('first-load-failed', theme);
  });

  it('has none once the connection to Airlock is lost', async () => {
    // A host of its own, stopped under the page: the socket closes as when Airlock quits.
    const lost = await startWebApp();
    try {
      await open(lost.url, theme);
      await startSession();
      await send('hello');
      await turnEnded('Done');
      await lost.stop();
      await page()
        .getByRole('alert')
        .filter({ hasText: /connection/i })
        .first()
        .waitFor();
      await check('connection-lost', theme);
    } finally {
      await lost.stop();
    }
  });
});

/** High contrast as the system asks for it, and as it forces its own colours, light and dark. */
const STAGE_THEMES: Theme[] = [
  { name: 'contrast', colorScheme: 'light', contrast: 'more' },
  { name: 'contrast-dark', colorScheme: 'dark', contrast: 'more' },
  { name: 'forced', colorScheme: 'light', forcedColors: 'active' },
  { name: 'forced-dark', colorScheme: 'dark', forcedColors: 'active' },
];

/** The cards the stage shows: a form, a web page that is a danger, a permission request. */
const STAGE_CARDS = [
  { screen: 'stage-form', command: '/form', card: /^Question from / },
  { screen: 'stage-url-danger', command: '/url-lookalike', card: /asks you to open a web page$/ },
  { screen: 'stage-permission', command: '/permission', card: /Permission request/ },
];

describe.each(STAGE_THEMES)('the stage with a card in the $name theme', (theme) => {
  it('has no serious or critical violation, wide and narrow', async () => {
    await open(await app().newLink(), theme);
    await startSession();
    for (const width of [1280, 420]) {
      await page().setViewportSize({ width, height: 800 });
      for (const { screen, command, card } of STAGE_CARDS) {
        await send(command);
        const shown = page()
          .getByRole('region', { name: 'Questions from the agent' })
          .getByRole('group', { name: card });
        await shown.waitFor();
        await check(screen, theme, width);
        // Esc ends the card only: a form, a URL or a permission request (answered with its reject).
        await shown.press('Escape');
        await page().locator('#session-panel .dock.has-card').waitFor({ state: 'detached' });
        await page()
          .getByRole('status', { name: 'Session status' })
          .filter({ hasText: 'Ready' })
          .waitFor();
      }
    }
  });
});
