/** The steps and places every end-to-end test of a session uses, on the page a test holds. */
import type { Locator, Page } from 'playwright-core';

/** The new-session dialog of `page`. */
export function newSessionDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'New session' });
}

/**
 * Opens the new-session dialog once the app has loaded (or takes the one open): its New session
 * button (the welcome's or the sidebar's "+") when one shows, else Alt+N.
 */
async function openNewSession(page: Page): Promise<Locator> {
  await page.locator('#sidebar').waitFor({ state: 'attached' });
  if ((await newSessionDialog(page).count()) > 0) {
    return newSessionDialog(page);
  }
  const buttons = page.getByRole('button', { name: 'New session' });
  if ((await buttons.count()) > 0) {
    await buttons.first().click();
  } else {
    await page.keyboard.press('Alt+KeyN');
  }
  const dialog = newSessionDialog(page);
  await dialog.waitFor();
  return dialog;
}

/** The agents the new-session dialog offers, in its order; the dialog is closed again after. */
export async function offeredAgents(page: Page): Promise<string[]> {
  const dialog = await openNewSession(page);
  const names = await dialog
    .getByRole('group', { name: 'Agent' })
    .getByRole('radio')
    .evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value));
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return names;
}

/**
 * What has the focus in `page`, as a test can name it: its role (or, with `tagOnly` or where it
 * has none, its tag) and its label or text, as `button: Close`; `nothing` where none has it.
 */
export function focusedIn(page: Page, tagOnly = false): Promise<string> {
  return page.evaluate((tagOnly) => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) {
      return 'nothing';
    }
    const label = active.getAttribute('aria-label') ?? (active as HTMLInputElement).labels?.[0];
    const name = typeof label === 'string' ? label : (label?.textContent ?? active.textContent);
    const role = tagOnly ? null : active.getAttribute('role');
    return `${role ?? active.tagName.toLowerCase()}: ${name?.trim()}`;
  }, tagOnly);
}

/**
 * Locators and steps bound to the page `current()` returns (tests open a fresh page for each
 * test, so it is read each time).
 */
export function appPage(current: () => Page) {
  const status = () => current().getByRole('status', { name: 'Session status' });
  const transcript = () => current().getByRole('log', { name: 'Transcript' });
  const composer = () => current().getByRole('textbox', { name: 'Message' });
  return {
    status,
    transcript,
    composer,
    /** The latest turn's end, once it has ended with `text`. */
    turnEnded: (text: string) =>
      transcript()
        .getByRole('status', { name: 'Turn ended' })
        .last()
        .filter({ hasText: text })
        .waitFor(),
    /**
     * Opens the new-session dialog and waits for it: from the welcome or the sidebar's "+" when
     * one shows, else (a narrow window's hidden sidebar) with its shortcut. Returns the dialog.
     */
    openNewSession: () => openNewSession(current()),
    /**
     * Starts a session and waits until it is the one shown, and ready. `agent`: the agent to
     * pick (the dialog's choice when not given).
     */
    async startSession(agent?: string): Promise<void> {
      const page = current();
      const dialog = await openNewSession(page);
      if (agent !== undefined) {
        await dialog.getByRole('radio', { name: agent, exact: true }).check();
      }
      // Tabs are counted in the page: a narrow window's sidebar, and its tabs, may be hidden.
      const tabs = page.locator('[role=tab]');
      const before = await tabs.count();
      await dialog.getByRole('button', { name: 'Start session' }).click();
      await tabs
        .nth(before)
        .and(page.locator('[role=tab][aria-selected=true]'))
        .waitFor({ state: 'attached' });
      await status().filter({ hasText: 'Ready' }).waitFor();
    },
    /** Types a message and sends it with Enter. */
    async send(text: string): Promise<void> {
      await composer().fill(text);
      await composer().press('Enter');
    },
    /**
     * Sends a message and waits until its turn has ended: the status has gone to Working and
     * back to Ready. The page watches the status itself, so a turn over before a locator could
     * look is not missed.
     */
    async sendTurn(text: string): Promise<void> {
      const page = current();
      const turn = await page.evaluateHandle(() => {
        const shown = document.querySelector('[aria-label="Session status"]');
        if (!shown) {
          throw new Error('no session is shown');
        }
        // Wrapped: a handle to a promise would wait for it to settle.
        const ended = new Promise<void>((resolve) => {
          let working = false;
          const observer = new MutationObserver(() => {
            const now = shown.textContent ?? '';
            if (now.startsWith('Working')) {
              working = true;
            } else if (working && now === 'Ready') {
              observer.disconnect();
              resolve();
            }
          });
          observer.observe(shown, { childList: true, subtree: true, characterData: true });
        });
        return { ended };
      });
      await composer().fill(text);
      await composer().press('Enter');
      await turn.evaluate((watch) => watch.ended);
    },
  };
}
