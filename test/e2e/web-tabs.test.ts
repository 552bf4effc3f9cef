/**
 * Session tabs in Chromium through the web host: the attention a session that waits for the
 * user draws, asking before a busy session closes, telling the core which tab is shown, tab
 * names, renaming, and the keyboard map with its help overlay.
 */
import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { SHORTCUTS } from '../../renderer/src/keyboard.js';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage, focusedIn } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

// A host of its own for each test: sessions live in the core, and every test counts them.
const { app, page, open, reopen, setPage } = useWebApp({ host: 'test' });

const { status, transcript, composer, turnEnded, startSession, send } = appPage(page);
const tabs = () => page().getByRole('tab');
const shownTab = () => page().getByRole('tab', { selected: true });
const dialog = () => page().getByRole('dialog');
const permissionCard = () =>
  page()
    .getByRole('region', { name: 'Questions from the agent' })
    .getByRole('group', { name: 'Permission request: Edit README.md' });
const formCard = () =>
  page()
    .getByRole('region', { name: 'Questions from the agent' })
    .getByRole('group', { name: 'Question from Airlock Demo Agent 0.1.0' });
/** What has the focus, as a test can name it: a button's text, a field's label, a tab's name. */
const focused = () => focusedIn(page());

/** Starts a session and sends `command`, leaving a card that waits for the user. */
async function waitingSession(command: '/permission' | '/form'): Promise<void> {
  await startSession();
  await send(command);
  await (command === '/permission' ? permissionCard() : formCard()).waitFor();
}

describe('a session that waits for the user', () => {
  it('is marked on its tab, and the window title counts the questions waiting', async () => {
    await startSession();
    await expect(page().title()).resolves.toBe('Airlock');
    await waitingSession('/permission');
    const asking = shownTab();
    // It says it waits for the user, not that it works, as a busy one does (the tab's count
    // comes with the session's next change, as the card shows or just after).
    await expect.poll(() => asking.textContent()).toContain('Waits for you');
    await expect(asking.textContent()).resolves.not.toMatch(/Working|prompting/);
    await expect(page().title()).resolves.toBe('(1) Airlock');

    await waitingSession('/form');
    await expect.poll(() => page().title()).toBe('(2) Airlock');
    // Both waiting tabs say so to assistive technology, and are marked where they can be seen.
    await expect(
      page()
        .getByRole('tab', { name: /Waits for you/ })
        .count(),
    ).resolves.toBe(2);
    const marks = () =>
      tabs().evaluateAll((all) => {
        // The bar down a waiting tab's side is in the warning colour (the shown tab's, the accent).
        const probe = document.createElement('span');
        probe.style.color = 'var(--warn)';
        document.body.append(probe);
        const warn = getComputedStyle(probe).color;
        probe.remove();
        return all.map((tab) => getComputedStyle(tab).boxShadow.includes(warn));
      });
    await expect(marks()).resolves.toEqual([false, true, true]);

    // A session that works without waiting for the user is not marked.
    await tabs().nth(0).click();
    await send('/long 50000');
    await tabs().nth(0).filter({ hasText: 'Working…' }).waitFor();
    await expect(tabs().nth(0).textContent()).resolves.not.toContain('Waits for you');
    await expect(marks()).resolves.toEqual([false, true, true]);
    await page().getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');

    // Answering one: the count follows.
    await tabs().nth(2).click();
    await formCard().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page().title()).toBe('(1) Airlock');
    await expect(tabs().nth(2).textContent()).resolves.not.toContain('Waits for you');
  });

  it('is reached with Alt+J, which focuses the first control of its card', async () => {
    await waitingSession('/permission');
    await waitingSession('/form');
    await startSession();
    await composer().focus();

    // From the idle third session, round to the first that waits: its permission card, in the
    // dock.
    await page().keyboard.press('Alt+J');
    await tabs().nth(0).and(shownTab()).waitFor();
    await expect.poll(focused).toBe('button: Allow once');

    // Then the next: the form's first field.
    await page().keyboard.press('Alt+J');
    await tabs().nth(1).and(shownTab()).waitFor();
    await expect.poll(focused).toBe('input: Name');

    // Round again.
    await page().keyboard.press('Alt+J');
    await tabs().nth(0).and(shownTab()).waitFor();
    await expect.poll(focused).toBe('button: Allow once');
    await expect(
      page().evaluate(() => document.activeElement?.closest('.dock .permission') != null),
    ).resolves.toBe(true);
    await page().keyboard.press('Enter');
    await transcript()
      .getByRole('group', { name: 'Permission asked: Edit README.md' })
      .getByText('Allowed once: you chose “Allow once”')
      .waitFor();

    // The one left is the form; with nothing waiting, the app says so.
    await page().keyboard.press('Alt+J');
    await tabs().nth(1).and(shownTab()).waitFor();
    await expect.poll(focused).toBe('input: Name');
    await page().keyboard.press('Escape');
    await transcript().getByText('You answered: cancel.').waitFor();
    await page().keyboard.press('Alt+J');
    await page().getByRole('status').filter({ hasText: 'Nothing waits for you.' }).waitFor();
    await expect(page().title()).resolves.toBe('Airlock');
  });
});

describe('closing a session', () => {
  it('asks first while a card waits: Esc keeps it, Enter closes it', async () => {
    await startSession();
    await waitingSession('/permission');
    const close = page().getByRole('button', {
      name: 'Close session “Ask for permission before a tool call”',
    });
    await close.click();
    const ask = page().getByRole('dialog', {
      name: 'Close “Ask for permission before a tool call”?',
    });
    await ask.waitFor();
    await expect(ask.getAttribute('aria-describedby')).resolves.toBeTruthy();
    await expect(ask.textContent()).resolves.toContain(
      'The agent is working and a question waits for you.',
    );
    await expect.poll(focused).toBe('button: Close session');

    // Esc keeps it, and nothing else happens: the turn still waits on its card.
    await page().keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await expect(tabs().count()).resolves.toBe(2);
    await expect(focused()).resolves.toBe(
      'button: Close session “Ask for permission before a tool call”',
    );
    await expect(
      permissionCard().getByRole('button', { name: 'Allow once' }).count(),
    ).resolves.toBe(1);

    // Alt+X asks too; Enter closes it.
    await composer().focus();
    await page().keyboard.press('Alt+X');
    await ask.waitFor();
    await page().keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    await expect.poll(() => tabs().count()).toBe(1);
    await expect(page().title()).resolves.toBe('Airlock');
    // The focus lands on the tab shown now, not nowhere.
    await expect.poll(focused).toMatch(/^tab: /);
  });

  it('asks first while a turn runs', async () => {
    await startSession();
    await send('/long 100000');
    await status().filter({ hasText: 'Working' }).waitFor();
    await page().keyboard.press('Alt+X');
    await dialog()
      .getByText('The agent is working. Closing the session cancels the turn.')
      .waitFor();
    await page().getByRole('button', { name: 'Keep it open' }).click();
    await dialog().waitFor({ state: 'detached' });
    // Esc in the dialog did not reach the turn either: it is still running.
    await page().keyboard.press('Alt+X');
    await dialog().waitFor();
    await page().keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await expect(status().textContent()).resolves.toBe('Working…');
    await page().getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');
  });

  it('closes an idle session at once', async () => {
    await startSession();
    await startSession();
    await page()
      .getByRole('button', { name: /^Close session/ })
      .last()
      .click();
    await expect.poll(() => tabs().count()).toBe(1);
    await expect(dialog().count()).resolves.toBe(0);
  });
});

describe('the tab shown', () => {
  it('is named to the core each time it changes, so that its reply arrives first', async () => {
    // The keys of the page's `session:show` calls, as they leave it.
    const shows: string[] = [];
    await reopen({
      beforeLoad: (next) =>
        next.on('websocket', (socket) =>
          socket.on('framesent', ({ payload }) => {
            const call = JSON.parse(String(payload)) as { channel?: string; payload?: unknown };
            if (call.channel === 'session:show') {
              shows.push((call.payload as { key: string }).key);
            }
          }),
        ),
    });
    await startSession();
    await expect.poll(() => shows.length).toBe(1);
    await startSession();
    await expect.poll(() => shows.length).toBe(2);
    await tabs().nth(0).click();
    await expect.poll(() => shows.length).toBe(3);
    const [first, second, again] = shows;
    expect(second).not.toBe(first);
    expect(again).toBe(first);
    // Showing the same tab again tells nothing new.
    await tabs().nth(0).click();
    await send('/help');
    await turnEnded('Done');
    expect(shows).toHaveLength(3);
  });
});

describe('tab names', () => {
  it("shows the agent's title, else the first prompt, with the folder and the agent", async () => {
    await startSession();
    const folder = app().configDir.split('/').at(-1)!;
    await expect(shownTab().textContent()).resolves.toBe(
      `Airlock Demo Agent${folder}Demo AgentReady`,
    );
    // The full path is the tab's tooltip and description.
    await expect(shownTab().getAttribute('title')).resolves.toBe(app().configDir);

    await send('  Why does the build\nfail on CI?  ');
    await turnEnded('Done');
    await shownTab().getByText('Why does the build fail on CI?', { exact: true }).waitFor();

    await send('/title Release notes');
    await turnEnded('Done');
    await shownTab().getByText('Release notes', { exact: true }).waitFor();
    await expect(page().getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe(
      'Release notes',
    );

    // Two sessions in one folder with one agent are told apart by their names.
    await startSession();
    await send('Another question');
    await turnEnded('Done');
    await expect(tabs().allTextContents()).resolves.toEqual([
      `Release notes${folder}Demo AgentReady`,
      `Another question${folder}Demo AgentReady`,
    ]);
  });

  it("is the user's once renamed: Enter saves, Esc cancels, every page shows it", async () => {
    await startSession();
    await send('/title Agent title');
    await turnEnded('Done');
    const name = () => shownTab().locator('.tab-title').textContent();

    // Double-click: a field over the tab, with the name selected.
    await shownTab().dblclick();
    const field = page().getByRole('textbox', { name: 'New name for session “Agent title”' });
    await expect.poll(focused).toBe('input: New name for session “Agent title”');
    await expect(field.inputValue()).resolves.toBe('Agent title');
    await page().keyboard.type('Ship the release');
    await page().keyboard.press('Enter');
    await field.waitFor({ state: 'detached' });
    await expect.poll(name).toBe('Ship the release');
    await expect.poll(focused).toMatch(/^tab: Ship the release/);

    // F2, during a turn: Esc leaves the name as it was, and does not cancel the turn.
    await send('/long 100000');
    await status().filter({ hasText: 'Working' }).waitFor();
    await page().keyboard.press('F2');
    await page()
      .getByRole('textbox', { name: /^New name/ })
      .waitFor();
    await page().keyboard.type('Not this');
    await page().keyboard.press('Escape');
    await page()
      .getByRole('textbox', { name: /^New name/ })
      .waitFor({ state: 'detached' });
    await expect(name()).resolves.toBe('Ship the release');
    await expect(status().textContent()).resolves.toBe('Working…');
    await page().getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');

    // The agent's next title does not win over the user's name.
    await send('/title Newer agent title');
    await turnEnded('Done');
    await expect(name()).resolves.toBe('Ship the release');

    // The name is the core's: a second page shows it too.
    const first = page();
    await open();
    await page()
      .getByRole('tab', { name: /^Ship the release/ })
      .waitFor();
    setPage(first);

    // The Rename button; an empty name gives the tab back the agent's title.
    await page().getByRole('button', { name: 'Rename session “Ship the release”' }).click();
    await page()
      .getByRole('textbox', { name: /^New name/ })
      .fill('');
    await page().keyboard.press('Enter');
    await expect.poll(name).toBe('Newer agent title');
  });
});

describe('the keyboard map', () => {
  it('lists every shortcut in a help overlay that keeps the focus and gives it back', async () => {
    await startSession();
    // `?` typed in the message box is text.
    await composer().focus();
    await page().keyboard.type('why?');
    await expect(composer().inputValue()).resolves.toBe('why?');
    await expect(dialog().count()).resolves.toBe(0);

    // Outside a text field, `?` opens the help.
    await shownTab().focus();
    await page().keyboard.press('?');
    const help = page().getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const text = await help.textContent();
    for (const shortcut of SHORTCUTS) {
      expect(text).toContain(shortcut.action);
    }
    await expect(
      help.getByRole('row', { name: /Alt\s*\+\s*J\s*Go to the next question/ }).count(),
    ).resolves.toBe(1);

    // The focus stays in the dialog, both ways, and the page behind is inert.
    await expect.poll(focused).toBe('button: Close');
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page().keyboard.press(key);
      await expect(
        help.evaluate((element) => element.contains(document.activeElement)),
      ).resolves.toBe(true);
    }
    // Shortcuts wait while it is open.
    await page().keyboard.press('Alt+N');
    await expect(
      help.evaluate((element) => element.contains(document.activeElement)),
    ).resolves.toBe(true);

    await page().keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await expect(focused()).resolves.toMatch(/^tab: /);

    // F1 opens it from a text field too; the Close button closes it.
    await composer().focus();
    await page().keyboard.press('F1');
    await help.waitFor();
    await help.getByRole('button', { name: 'Close' }).click();
    await help.waitFor({ state: 'detached' });
    await expect(focused()).resolves.toBe('textarea: Message');
  });

  it('has a shortcut for each session action a desktop user expects', async () => {
    await startSession();
    await startSession();
    await startSession();
    await composer().focus();

    // Next and previous session, round the ends.
    await page().keyboard.press('Alt+PageDown');
    await tabs().nth(0).and(shownTab()).waitFor();
    await page().keyboard.press('Alt+PageUp');
    await tabs().nth(2).and(shownTab()).waitFor();
    await page().keyboard.press('Alt+PageUp');
    await tabs().nth(1).and(shownTab()).waitFor();

    // New session: the dialog that starts one, its agent chosen; Esc closes it.
    await page().keyboard.press('Alt+N');
    await expect.poll(focused).toBe('input: Demo Agent');
    await page().keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await expect(tabs().count()).resolves.toBe(3);

    // The message box.
    await page().keyboard.press('Alt+M');
    await expect.poll(focused).toBe('textarea: Message');

    // Close the shown one (idle: at once).
    await page().keyboard.press('Alt+X');
    await expect.poll(() => tabs().count()).toBe(2);
  });
});

describe('accessibility', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violations: tabs, help, confirm, rename (${colorScheme})`, async () => {
      // axe is injected as a script, which the app's CSP refuses.
      await reopen({ context: { bypassCSP: true, colorScheme } });
      await startSession();
      await send('/title A named session');
      await turnEnded('Done');
      await waitingSession('/permission');
      const scan = async (what: string) => {
        expect(await seriousViolations(new AxeBuilder({ page: page() }), what)).toEqual([]);
      };
      await scan('tabs');
      await page().keyboard.press('F1');
      await dialog().waitFor();
      await scan('help');
      await page().keyboard.press('Escape');
      await page().keyboard.press('Alt+X');
      await dialog().waitFor();
      await scan('confirm');
      await page().keyboard.press('Escape');
      await page().keyboard.press('F2');
      await page()
        .getByRole('textbox', { name: /^New name/ })
        .waitFor();
      await scan('rename');
    });
  }
});
