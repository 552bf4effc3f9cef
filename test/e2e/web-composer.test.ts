/**
 * Starting, restarting and talking to a session in Chromium through the web host: the mode and
 * options survive a restart, a start that hangs can be stopped, the working folder is checked
 * and remembered, and the composer completes commands, keeps history, drafts and its focus.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/agents.js';
import { appPage, newSessionDialog } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const hangsAtInitialize = fixtureSpec('never-answer', 'Hangs');
const hangsAtNew = fixtureSpec('never-answer-new', 'Hangs Later');

// A host of its own for each test: its tabs, recent folders and agent logs start empty.
const { app, page } = useWebApp({
  host: 'test',
  settings: {
    agent_servers: Object.fromEntries(
      [hangsAtInitialize, hangsAtNew].map((spec) => [
        spec.name,
        { command: spec.command, args: spec.args },
      ]),
    ),
  },
});

const { status, transcript, composer, turnEnded, startSession, openNewSession, send } =
  appPage(page);
const form = () => newSessionDialog(page());
const folderField = () => form().getByLabel('Working folder');
const composerFocused = () => composer().evaluate((element) => element === document.activeElement);

/** How many times the agent's log says its process was stopped by Airlock. */
async function stops(agentName: string): Promise<number> {
  const file = `${agentName.replace(/[^A-Za-z0-9._-]+/g, '_')}.log`;
  const log = await readFile(join(app().configDir, 'logs', file), 'utf8').catch(() => '');
  return log.match(/was stopped by SIGTERM/g)?.length ?? 0;
}

describe('restarting an agent', () => {
  it('sets the mode and options chosen before again, and says it restarted', async () => {
    await startSession();
    await page().getByRole('combobox', { name: 'Mode' }).selectOption({ label: 'Ask' });
    await page().getByRole('combobox', { name: 'Reply style' }).selectOption({ label: 'Detailed' });
    await page().getByRole('checkbox', { name: 'Show thinking' }).uncheck();
    await expect
      .poll(() => page().getByRole('combobox', { name: 'Mode' }).inputValue())
      .toBe('ask');
    await expect
      .poll(() => page().getByRole('checkbox', { name: 'Show thinking' }).isChecked())
      .toBe(false);

    // The agent restarts by itself, and the tab's choices go back on.
    await send('/crash');
    await transcript().getByText('Restarted Demo Agent', { exact: false }).waitFor();
    await status().filter({ hasText: 'Ready' }).waitFor();

    // The "Restarting…" line became its outcome, naming what was set again.
    const restarted = transcript().getByText('Restarted Demo Agent', { exact: false });
    await restarted.waitFor();
    await expect(restarted.textContent()).resolves.toContain(
      'Mode: Ask; Reply style: Detailed; Show thinking: off',
    );
    await expect(
      transcript().getByText('Demo Agent stopped unexpectedly', { exact: false }).count(),
    ).resolves.toBe(0);
    await expect(page().getByRole('combobox', { name: 'Mode' }).inputValue()).resolves.toBe('ask');
    await expect(page().getByRole('combobox', { name: 'Reply style' }).inputValue()).resolves.toBe(
      'detailed',
    );
    await expect(page().getByRole('checkbox', { name: 'Show thinking' }).isChecked()).resolves.toBe(
      false,
    );

    // The new process really has them.
    await send('hello again');
    await turnEnded('Done');
    await transcript().getByText('In detail: your message was 11 characters long.').waitFor();
  });
});

describe('a start that hangs', () => {
  /** Starts a session with `agent` and waits for nothing more. */
  async function startWith(agent: string): Promise<void> {
    const dialog = await openNewSession();
    await dialog.getByRole('radio', { name: agent, exact: true }).check();
    await dialog.getByRole('button', { name: 'Start session' }).click();
  }

  it('can be stopped from its tab at once', async () => {
    await startWith(hangsAtInitialize.name);
    await status().filter({ hasText: 'Starting' }).waitFor();
    await page().getByRole('button', { name: 'Stop starting' }).click();
    await status().filter({ hasText: 'Failed' }).waitFor();
    await expect(
      page().getByRole('region', { name: 'Agent stopped' }).textContent(),
    ).resolves.toContain('You stopped Hangs while it was starting.');
    // The process is gone well within the 30 s the start would have waited.
    await expect.poll(() => stops(hangsAtInitialize.name), { timeout: 10_000 }).toBe(1);
  });

  it('stops when its tab is closed while it waits for session/new', async () => {
    await startWith(hangsAtNew.name);
    await status().filter({ hasText: 'Starting' }).waitFor();
    const before = await stops(hangsAtNew.name);
    await page()
      .getByRole('button', { name: /^Close session/ })
      .click();
    await expect.poll(() => page().getByRole('tab').count()).toBe(0);
    await expect.poll(() => stops(hangsAtNew.name), { timeout: 10_000 }).toBe(before + 1);
  });
});

describe('the working folder', () => {
  it('is refused before anything starts when it is not an existing absolute folder', async () => {
    const alert = form().getByRole('alert');
    await openNewSession();
    await folderField().fill(join(app().configDir, 'no-such-folder'));
    await form().getByRole('button', { name: 'Start session' }).click();
    await expect(alert.textContent()).resolves.toBe(
      `The working folder ${join(app().configDir, 'no-such-folder')} does not exist.`,
    );
    await folderField().fill('projects/airlock');
    await form().getByRole('button', { name: 'Start session' }).click();
    await alert.filter({ hasText: 'absolute' }).waitFor();
    await folderField().fill(join(app().configDir, 'settings.json'));
    await form().getByRole('button', { name: 'Start session' }).click();
    await alert.filter({ hasText: 'is a file, not a folder' }).waitFor();
    // Nothing started: no tab.
    await expect(page().getByRole('tab').count()).resolves.toBe(0);
    await expect(folderField().getAttribute('aria-invalid')).resolves.toBe('true');
  });

  it('offers the folders used recently, the latest first, kept across reloads', async () => {
    const first = join(app().configDir, 'project-one');
    const second = join(app().configDir, 'project-two');
    await mkdir(first, { recursive: true });
    await mkdir(second, { recursive: true });
    for (const folder of [first, second]) {
      await openNewSession();
      await folderField().fill(folder);
      await startSession();
    }
    const offered = () =>
      form()
        .getByRole('group', { name: 'Recent folders' })
        .getByRole('radio')
        .evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value));
    await openNewSession();
    await expect.poll(offered).toEqual(expect.arrayContaining([second, first]));
    expect((await offered()).slice(0, 2)).toEqual([second, first]);
    // The one used last is chosen.
    await expect(folderField().inputValue()).resolves.toBe(second);
    await expect(
      form().getByRole('radio', { name: second, exact: true }).isChecked(),
    ).resolves.toBe(true);

    await page().reload();
    await openNewSession();
    await expect.poll(async () => (await offered()).slice(0, 2)).toEqual([second, first]);
    const saved = JSON.parse(
      await readFile(join(app().configDir, 'recent-folders.json'), 'utf8'),
    ) as { folders: string[] };
    expect(saved.folders.slice(0, 2)).toEqual([second, first]);
  });
});

describe('the composer', () => {
  it("completes the agent's slash commands from a list", async () => {
    await startSession();
    const list = page().getByRole('listbox', { name: 'Commands' });
    await composer().fill('/form');
    await list.waitFor();
    const options = list.getByRole('option');
    await expect(options.first().textContent()).resolves.toContain('/form');
    await expect(options.count()).resolves.toBeGreaterThan(3);
    await expect(options.first().getAttribute('aria-selected')).resolves.toBe('true');

    // ArrowDown moves the active option; the composer says which it is.
    await composer().press('ArrowDown');
    const second = options.nth(1);
    await expect(second.getAttribute('aria-selected')).resolves.toBe('true');
    await expect(composer().getAttribute('aria-activedescendant')).resolves.toBe(
      await second.getAttribute('id'),
    );
    const secondName = (await second.getAttribute('data-command'))!;
    // Enter completes it and sends nothing.
    await composer().press('Enter');
    await expect(composer().inputValue()).resolves.toBe(`/${secondName} `);
    await list.waitFor({ state: 'detached' });
    await expect(transcript().getByLabel('Your prompt').count()).resolves.toBe(0);

    // Esc closes the list and leaves the text; Tab completes.
    await composer().fill('/he');
    await list.waitFor();
    await composer().press('Escape');
    await list.waitFor({ state: 'detached' });
    await expect(composer().inputValue()).resolves.toBe('/he');
    await composer().fill('/hel');
    await list.waitFor();
    await composer().press('Tab');
    await expect(composer().inputValue()).resolves.toBe('/help ');
    await expect(composerFocused()).resolves.toBe(true);
    await composer().press('Enter');
    await turnEnded('Done');
  });

  it('recalls earlier messages with ArrowUp and ArrowDown at the ends of the text', async () => {
    await startSession();
    await send('first message');
    await turnEnded('Done');
    await send('second message');
    await transcript().getByRole('status', { name: 'Turn ended' }).nth(1).waitFor();

    await composer().focus();
    await composer().press('ArrowUp');
    await expect(composer().inputValue()).resolves.toBe('second message');
    await composer().press('ArrowUp');
    await expect(composer().inputValue()).resolves.toBe('first message');
    await composer().press('ArrowUp');
    await expect(composer().inputValue()).resolves.toBe('first message');
    await composer().press('ArrowDown');
    await expect(composer().inputValue()).resolves.toBe('second message');
    await composer().press('ArrowDown');
    await expect(composer().inputValue()).resolves.toBe('');

    // A draft is kept while browsing, and ArrowUp inside the text only moves the caret.
    await composer().fill('line one\nline two');
    await composer().press('ArrowUp');
    await expect(composer().inputValue()).resolves.toBe('line one\nline two');
    await composer().press('Control+Home');
    await composer().press('ArrowUp');
    await expect(composer().inputValue()).resolves.toBe('second message');
    await composer().press('ArrowDown');
    await expect(composer().inputValue()).resolves.toBe('line one\nline two');
  });

  it('keeps a draft per tab when switching tabs', async () => {
    await startSession();
    await composer().fill('draft for the first tab');
    await startSession();
    await expect(composer().inputValue()).resolves.toBe('');
    await composer().fill('draft for the second tab');
    const tabs = page().getByRole('tab');
    await tabs.nth(0).click();
    await expect(composer().inputValue()).resolves.toBe('draft for the first tab');
    await tabs.nth(1).click();
    await expect(composer().inputValue()).resolves.toBe('draft for the second tab');
  });

  it('has the focus once started, and gets it back after a permission answer and a cancel', async () => {
    await startSession();
    await expect(composerFocused()).resolves.toBe(true);

    await send('/permission');
    const card = page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: 'Permission request: Edit README.md' });
    await card.getByRole('button', { name: 'Allow once' }).click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(composerFocused).toBe(true);
    await turnEnded('Done');

    await send('/long 50000');
    await page().getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');
    await expect.poll(composerFocused).toBe(true);
  });
});
