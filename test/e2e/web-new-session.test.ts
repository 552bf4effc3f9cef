/**
 * Starting a session in Chromium through the web host: the welcome while none is open, the
 * sidebar's "+" and Alt+N opening the new-session dialog with the focus in it, Enter starting
 * from any of its fields, Esc starting nothing, recent folders first, the last choice
 * remembered, a sidebar that holds sessions and no form, and a tab named after the slash
 * command its first prompt ran.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/agents.js';
import { appPage, focusedIn, newSessionDialog } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const other = fixtureSpec('never-answer', 'Second Agent');

// A host of its own for each test: its sessions and recent folders start empty.
const { app, page } = useWebApp({
  host: 'test',
  viewport: { width: 1280, height: 800 },
  settings: { agent_servers: { [other.name]: { command: other.command, args: other.args } } },
});

const { status, composer, startSession, send, turnEnded } = appPage(page);
const dialog = () => newSessionDialog(page());
const tabs = () => page().getByRole('tab');
const shownTab = () => page().getByRole('tab', { selected: true });
const sidebar = () => page().getByRole('navigation', { name: 'Sessions' });
const welcome = () => page().getByRole('main', { name: 'Start a session' });
const folderField = () => dialog().getByRole('textbox', { name: 'Working folder' });
const agentRadio = (name: string) => dialog().getByRole('radio', { name, exact: true });
const focusInDialog = () =>
  dialog().evaluate((element) => element.contains(document.activeElement));
/** The element with the focus, as a test can name it. */
const focused = () => focusedIn(page(), true);

/** Waits until a new tab (the `before`+1-th) is shown and its session is ready. */
async function newTabReady(before: number): Promise<void> {
  await shownTab().and(tabs().nth(before)).waitFor();
  await status().filter({ hasText: 'Ready' }).waitFor();
}

describe('with no session open', () => {
  it('shows a welcome whose New session has the focus, and Enter opens the dialog', async () => {
    await welcome().waitFor();
    await expect(welcome().getByRole('heading', { name: 'Start a session' }).count()).resolves.toBe(
      1,
    );
    const start = welcome().getByRole('button', { name: /^New session/ });
    await expect(start.getAttribute('aria-keyshortcuts')).resolves.toBe('Alt+N');
    await expect.poll(focused).toMatch(/^button: New session/);

    await page().keyboard.press('Enter');
    await dialog().waitFor();
    await expect.poll(focusInDialog).toBe(true);
    await page().keyboard.press('Enter');
    await newTabReady(0);
    await expect(welcome().count()).resolves.toBe(0);
  });

  it('comes back, focused, once the last session closes', async () => {
    await startSession();
    await page()
      .getByRole('button', { name: /^Close session/ })
      .click();
    await welcome().waitFor();
    await expect.poll(focused).toMatch(/^button: New session/);
  });
});

describe('the sidebar', () => {
  it('holds the sessions and a "+" that opens the dialog, and no form', async () => {
    await startSession();
    await expect(sidebar().locator('form, select, input').count()).resolves.toBe(0);
    await expect(sidebar().getByRole('button', { name: 'Start session' }).count()).resolves.toBe(0);
    await sidebar().getByRole('tab').first().waitFor();
    await sidebar().getByRole('button', { name: 'History', exact: true }).waitFor();
    await sidebar()
      .getByRole('button', { name: /Agent settings/ })
      .waitFor();
    await sidebar()
      .getByRole('button', { name: /Keyboard shortcuts/ })
      .waitFor();

    const plus = sidebar().getByRole('button', { name: 'New session', exact: true });
    await expect(plus.getAttribute('aria-keyshortcuts')).resolves.toBe('Alt+N');
    await plus.click();
    await dialog().waitFor();
    await expect.poll(focusInDialog).toBe(true);
    await expect.poll(focused).toBe('input: Demo Agent');
  });
});

describe('the new-session dialog', () => {
  it('opens with Alt+N from the message box, and Enter on the agent starts that agent', async () => {
    await startSession();
    await composer().focus();
    await page().keyboard.press('Alt+N');
    await dialog().waitFor();
    await expect.poll(focusInDialog).toBe(true);
    // Arrow keys choose the agent; Enter starts, it does not open a list.
    await page().keyboard.press('ArrowDown');
    await expect(agentRadio(other.name).isChecked()).resolves.toBe(true);
    await page().keyboard.press('ArrowUp');
    await expect(agentRadio('Demo Agent').isChecked()).resolves.toBe(true);
    await page().keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await newTabReady(1);
    await expect(shownTab().textContent()).resolves.toContain('Demo Agent');
  });

  it('starts with Enter from the folder field, closes, and leaves the focus on no removed element', async () => {
    await page()
      .getByRole('button', { name: /^New session/ })
      .first()
      .click();
    await folderField().focus();
    await page().keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await shownTab().waitFor();
    // Not back on the button that opened the dialog (gone with the welcome), and nowhere
    // detached: on the page, or in the new session.
    await expect
      .poll(() =>
        page().evaluate(() => {
          const active = document.activeElement;
          return (
            active !== null &&
            active.isConnected &&
            (active === document.body || active.closest('[role=tabpanel], main') !== null)
          );
        }),
      )
      .toBe(true);
    await status().filter({ hasText: 'Ready' }).waitFor();
  });

  it('closes with Esc and starts nothing, from any field', async () => {
    await startSession();
    await composer().focus();
    for (const field of ['agent', 'folder', 'cancel'] as const) {
      await page().keyboard.press('Alt+N');
      await dialog().waitFor();
      if (field === 'folder') {
        await folderField().focus();
      } else if (field === 'cancel') {
        await dialog().getByRole('button', { name: 'Cancel' }).focus();
      }
      await page().keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });
      // The focus is back where the user was.
      await expect(
        composer().evaluate((element) => element === document.activeElement),
      ).resolves.toBe(true);
    }
    await expect(tabs().count()).resolves.toBe(1);
    await expect(status().textContent()).resolves.toBe('Ready');
  });

  it('offers the recent folders first, latest first, and remembers the last agent and folder', async () => {
    const first = join(app().configDir, 'alpha');
    const second = join(app().configDir, 'beta');
    await mkdir(first, { recursive: true });
    await mkdir(second, { recursive: true });
    for (const folder of [first, second]) {
      await page()
        .getByRole('button', { name: /^New session/ })
        .first()
        .click();
      await folderField().fill(folder);
      await page().keyboard.press('Enter');
      await dialog().waitFor({ state: 'detached' });
      await status().filter({ hasText: 'Ready' }).waitFor();
    }

    await page().keyboard.press('Alt+N');
    const recent = dialog().getByRole('group', { name: 'Recent folders' }).getByRole('radio');
    await expect
      .poll(() =>
        recent.evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value)),
      )
      .toEqual([second, first]);
    // The last choice is chosen again.
    await expect(folderField().inputValue()).resolves.toBe(second);
    await expect(recent.first().isChecked()).resolves.toBe(true);
    // Picking a recent folder fills the field, and the agent chosen last is kept with it.
    await dialog().getByRole('radio', { name: first, exact: true }).check();
    await expect(folderField().inputValue()).resolves.toBe(first);
    await agentRadio(other.name).check();
    await dialog().getByRole('button', { name: 'Start session' }).click();
    await dialog().waitFor({ state: 'detached' });
    await shownTab().and(tabs().nth(2)).waitFor();

    // Kept across a reload too.
    await page().reload();
    await page()
      .getByRole('button', { name: /^New session/ })
      .first()
      .click();
    await expect(agentRadio(other.name).isChecked()).resolves.toBe(true);
    await expect(folderField().inputValue()).resolves.toBe(first);
    await expect.poll(focused).toBe(`input: ${other.name}`);
  });
});

describe('a tab whose first prompt is a slash command', () => {
  it("is named after the command's description, then after the agent's title", async () => {
    await startSession();
    await send('/help');
    await turnEnded('Done');
    await expect(shownTab().locator('.tab-title').textContent()).resolves.toBe(
      'List what the demo agent can do',
    );
    await send('/title Trip notes');
    await turnEnded('Done');
    await expect.poll(() => shownTab().locator('.tab-title').textContent()).toBe('Trip notes');
  });
});
