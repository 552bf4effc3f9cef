/**
 * The ACP registry's catalogue through the web host in Chromium, against a registry served on
 * 127.0.0.1 (AIRLOCK_REGISTRY_URL): search, install a binary agent (an archive whose command
 * runs the scripted agent) and go on to a session with it for a whole turn, update it, remove
 * it; a registry that cannot be reached; axe on the catalogue.
 *
 * Screens are saved to /tmp/shots/catalogue/, light and dark, wide and 420 px, to be looked at.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binaryEntry,
  elsewhereEntry,
  npxEntry,
  scriptedAgentArchive,
} from '../helpers/agent-archive.js';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { startLocalServer, type LocalServer } from '../helpers/local-registry.js';

const SHOTS = '/tmp/shots/catalogue';
/** The filter, the registry's names and an id the registry lacks. */
const REST_SHOTS = '/tmp/shots/registry-rest';
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="2" width="12" height="12" rx="3" fill="#2453d1"/></svg>`;

let server: LocalServer;
const previousUrl = process.env.AIRLOCK_REGISTRY_URL;

/** Serves the registry with the binary agent at `version` (its archive too), and two others. */
async function serveRegistry(version: string): Promise<void> {
  server.route(`/bin-agent-${version}.tar.gz`, { body: await scriptedAgentArchive() });
  server.route('/registry.json', {
    body: {
      version: '1.0.0',
      agents: [
        binaryEntry('bin-agent', version, server.url(`/bin-agent-${version}.tar.gz`), {
          icon: server.url('/icon.svg'),
        }),
        {
          ...npxEntry('npx-agent'),
          description:
            'An agent run with npx, whose description is long enough to wrap onto a second line in a narrow window and show how rows grow.',
        },
        elsewhereEntry('elsewhere'),
      ],
    },
  });
}

// Before the host starts (useWebApp's own hook comes after this one): it reads the address.
beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  await mkdir(REST_SHOTS, { recursive: true });
  server = await startLocalServer({
    '/icon.svg': { body: ICON, headers: { 'content-type': 'image/svg+xml' } },
  });
  await serveRegistry('1.0.0');
  process.env.AIRLOCK_REGISTRY_URL = server.url('/registry.json');
});
afterAll(async () => {
  if (previousUrl === undefined) {
    delete process.env.AIRLOCK_REGISTRY_URL;
  } else {
    process.env.AIRLOCK_REGISTRY_URL = previousUrl;
  }
  await server.close();
});

const { app, page, open } = useWebApp({ openEachTest: false, context: { bypassCSP: true } });
const { sendTurn, openNewSession } = appPage(() => page());

const catalogue = () => page().getByRole('main', { name: 'Add an agent' });
const row = (name: string) =>
  catalogue()
    .getByRole('listitem')
    .filter({ has: page().getByRole('heading', { name }) });
const search = () => catalogue().getByRole('searchbox', { name: 'Search agents' });

/** Opens the catalogue from the agents' settings, and waits for the registry's fresh list. */
async function openCatalogue(): Promise<void> {
  await page().keyboard.press('Alt+Comma');
  await page().getByRole('button', { name: 'Add agent' }).click();
  await catalogue().waitFor();
  await row('Scripted Binary').waitFor();
  await catalogue().getByText('Checking the registry').waitFor({ state: 'detached' });
}

/** Screenshots of the page, light and dark. */
async function shoot(name: string, folder = SHOTS): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page().emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page().screenshot({ path: `${folder}/${name}-${colorScheme}.png` });
  }
  await page().emulateMedia({ colorScheme: 'light' });
}

describe('the registry catalogue', () => {
  it('searches, installs a binary agent, runs a turn with it, updates and removes it', async () => {
    await open();
    await openCatalogue();
    // The search has the focus on open.
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Search agents');
    await expect(
      row('Elsewhere Agent').getByText('Not available for this platform').count(),
    ).resolves.toBe(1);
    await expect(
      row('Elsewhere Agent').getByRole('button', { name: 'Install Elsewhere Agent' }).isDisabled(),
    ).resolves.toBe(true);
    await expect(row('Scripted Binary').locator('img').getAttribute('src')).resolves.toMatch(
      /^data:image\/svg\+xml;base64,/,
    );
    await shoot('list-wide');

    await search().fill('someone else');
    await expect(catalogue().getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(
      ['Npx Agent'],
    );
    await search().fill('');
    // ↓ from the search goes to the first agent.
    await search().press('ArrowDown');
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.textContent))
      .toContain('Scripted Binary');

    // The source opens only through the link consent, which shows the whole address first.
    await row('Scripted Binary').getByRole('button', { name: 'Source of Scripted Binary' }).click();
    const consent = page().getByRole('dialog');
    await consent.getByText('https://example.com/scripted-binary').first().waitFor();
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await consent.waitFor({ state: 'hidden' });

    const violations: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme });
      violations.push(
        ...(await seriousViolations(
          new AxeBuilder({ page: page() }).include('.catalogue'),
          colorScheme,
        )),
      );
    }
    await page().emulateMedia({ colorScheme: 'light' });
    expect(violations).toEqual([]);

    // Install: then on to a new session with the agent chosen.
    await row('Scripted Binary').getByRole('button', { name: 'Install Scripted Binary' }).click();
    const dialog = page().getByRole('dialog', { name: 'New session' });
    await dialog.waitFor();
    await expect(
      // Shown by the registry's name; its id stays the settings key.
      dialog.getByRole('radio', { name: 'Scripted Binary', exact: true }).isChecked(),
    ).resolves.toBe(true);
    const settings = join(app().configDir, 'settings.json');
    expect((await readFile(settings, 'utf8')).replace(/\s+/g, ' ')).toContain(
      '"bin-agent": { "type": "registry" }',
    );
    await dialog.getByRole('button', { name: 'Start session' }).click();
    await page()
      .getByRole('status', { name: 'Session status' })
      .filter({ hasText: 'Ready' })
      .waitFor();
    await sendTurn('Hello');
    await page().getByText('Hello from the scripted agent.').waitFor();

    // A newer version in the registry: Update, and the older one is gone.
    await serveRegistry('2.0.0');
    await openCatalogue();
    const update = row('Scripted Binary').getByRole('button', {
      name: 'Update Scripted Binary from 1.0.0 to 2.0.0',
    });
    await update.waitFor();
    await shoot('update-wide');
    await update.click();
    await row('Scripted Binary').getByText('Installed').waitFor();
    await shoot('installed-wide');
    expect(await readdir(join(app().configDir, 'agents', 'bin-agent'))).toEqual(['2.0.0']);

    // Remove: the entry and the files go; Install comes back.
    await row('Scripted Binary').getByRole('button', { name: 'Remove Scripted Binary' }).click();
    await row('Scripted Binary').getByRole('button', { name: 'Install Scripted Binary' }).waitFor();
    // The focus, on Remove as it went, goes to the row's Install.
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Install Scripted Binary');
    expect(await readFile(settings, 'utf8')).not.toContain('bin-agent');
    expect(await readdir(join(app().configDir, 'agents'))).not.toContain('bin-agent');

    // An agent written into the file by hand shows as installed without a reload.
    await writeFile(
      settings,
      JSON.stringify({ agent_servers: { 'npx-agent': { type: 'registry' } } }),
    );
    await row('Npx Agent').getByText('Installed').waitFor();

    // The filter beside the search: Installed, then Not installed with the arrow keys.
    const headings = () => catalogue().getByRole('heading', { level: 3 }).allTextContents();
    const filter = catalogue().getByRole('group', { name: 'Show' });
    await filter.getByRole('radio', { name: 'Installed', exact: true }).click();
    await expect.poll(headings).toEqual(['Npx Agent']);
    await shoot('filter-installed-wide', REST_SHOTS);
    await page().keyboard.press('ArrowRight');
    await expect(filter.getByRole('radio', { name: 'Not installed' }).isChecked()).resolves.toBe(
      true,
    );
    await expect.poll(headings).toEqual(['Scripted Binary', 'Elsewhere Agent']);
    await search().fill('npx');
    await catalogue().getByText('No agent left to install matches “npx”.').waitFor();
    await search().fill('');
    await filter.getByRole('radio', { name: 'All', exact: true }).check();
    await expect.poll(headings).toHaveLength(3);

    // Esc closes the catalogue, back to the agents' settings: a registry agent by the
    // registry's name, one the registry lacks as such.
    await writeFile(
      settings,
      JSON.stringify({
        agent_servers: { 'npx-agent': { type: 'registry' }, 'gone-acp': { type: 'registry' } },
      }),
    );
    await row('Npx Agent').getByText('Installed').waitFor();
    await search().press('Escape');
    await catalogue().waitFor({ state: 'detached' });
    const agents = page().getByRole('list', { name: 'Agents' });
    await agents.getByRole('heading', { name: 'gone-acp' }).waitFor();
    await expect(
      agents
        .getByRole('listitem')
        .filter({ hasText: 'gone-acp' })
        .getByText('Not in the registry')
        .count(),
    ).resolves.toBe(1);
    await agents.getByRole('heading', { name: 'Npx Agent' }).waitFor();
    await shoot('settings-wide', REST_SHOTS);
    await page().getByRole('button', { name: 'Back to sessions' }).click();

    // The new-session dialog leads to the catalogue too.
    const starting = await openNewSession();
    await starting.getByRole('radio', { name: 'Npx Agent', exact: true }).waitFor();
    await shoot('new-session-wide');
    await shoot('new-session-wide', REST_SHOTS);
    await starting.getByRole('button', { name: 'Add an agent from the registry…' }).click();
    await starting.waitFor({ state: 'detached' });
    await catalogue().waitFor();
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Search agents');
  });

  it('says when the registry cannot be reached, with Retry, and fits a narrow window', async () => {
    await open({ viewport: { width: 420, height: 860 } });
    server.route('/registry.json', { status: 503, body: 'down' });
    await page().locator('#sidebar').waitFor({ state: 'attached' });
    await page().keyboard.press('Alt+Comma');
    await page().getByRole('button', { name: 'Add agent' }).click();
    const problem = catalogue().getByRole('status').filter({ hasText: 'registry' });
    await problem.waitFor();
    await shoot('problem-narrow');
    await serveRegistry('1.0.0');
    await problem.getByRole('button', { name: 'Retry' }).click();
    await problem.waitFor({ state: 'detached' });
    await row('Scripted Binary').waitFor();
    await shoot('list-narrow');
    await shoot('list-narrow', REST_SHOTS);

    // An install that stalls: its progress shows with Cancel, and Cancel ends it in words.
    server.route('/bin-agent-1.0.0.tar.gz', (_request, response) => {
      response.writeHead(200, { 'content-length': '4000000' });
      response.write(Buffer.alloc(1_500_000));
    });
    await row('Scripted Binary').getByRole('button', { name: 'Install Scripted Binary' }).click();
    await row('Scripted Binary').getByText('1.5 of 4.0 MB').waitFor();
    await shoot('installing-narrow');
    await row('Scripted Binary')
      .getByRole('button', { name: 'Cancel installing Scripted Binary' })
      .click();
    await row('Scripted Binary')
      .getByRole('status')
      .filter({ hasText: 'The install of Scripted Binary was cancelled.' })
      .waitFor();
    await shoot('cancelled-narrow');
    expect(await readFile(join(app().configDir, 'settings.json'), 'utf8')).not.toContain(
      'bin-agent',
    );
  });

  it('installs an agent written in by hand on its first session, the tab and the catalogue saying so', async () => {
    // An agent of its own: the earlier tests' agent still runs for their tab.
    server.route('/registry.json', {
      body: {
        version: '1.0.0',
        agents: [
          binaryEntry('late-agent', '3.0.0', server.url('/late-agent.tar.gz'), {
            name: 'Late Binary',
          }),
        ],
      },
    });
    const archive = await scriptedAgentArchive();
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.route('/late-agent.tar.gz', async (_request, response) => {
      response.writeHead(200, { 'content-length': String(archive.length) });
      response.write(archive.subarray(0, archive.length >> 1));
      await released;
      response.end(archive.subarray(archive.length >> 1));
    });
    await writeFile(
      join(app().configDir, 'settings.json'),
      JSON.stringify({ agent_servers: { 'late-agent': { type: 'registry' } } }),
    );
    await open();
    // The registry as it is now, fetched by the catalogue: a start does not fetch it anew.
    await page().keyboard.press('Alt+Comma');
    await page().getByRole('button', { name: 'Add agent' }).click();
    await row('Late Binary').waitFor();
    await catalogue().getByText('Checking the registry').waitFor({ state: 'detached' });
    await search().press('Escape');
    const dialog = await openNewSession();
    await dialog.getByRole('radio', { name: 'Late Binary', exact: true }).check();
    await dialog.getByRole('button', { name: 'Start session' }).click();
    // The tab says what it waits on.
    await page()
      .getByText(/^Installing Late Binary 3\.0\.0/)
      .waitFor();
    await shoot('first-start-wide');
    await page().keyboard.press('Alt+Comma');
    await page().getByRole('button', { name: 'Add agent' }).click();
    await row('Late Binary').waitFor();
    release();
    // The catalogue sees the install end without being asked.
    await row('Late Binary').getByText('Installed').waitFor();
    expect(await readdir(join(app().configDir, 'agents', 'late-agent'))).toEqual(['3.0.0']);
  });
});
