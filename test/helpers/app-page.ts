/** The steps and places every end-to-end test of a session uses, on the page a test holds. */
import type { Page } from 'playwright-core';

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
    /** Starts a session and waits until it is the one shown, and ready. */
    async startSession(): Promise<void> {
      const page = current();
      await page.getByRole('button', { name: 'Start session' }).waitFor();
      const before = await page.getByRole('tab').count();
      await page.getByRole('button', { name: 'Start session' }).click();
      await page
        .getByRole('tab', { selected: true })
        .and(page.getByRole('tab').nth(before))
        .waitFor();
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
