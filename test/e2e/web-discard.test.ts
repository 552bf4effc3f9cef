/**
 * Esc on a form card, end to end with the demo agent's `/form`: an untouched card (or one typed
 * on and erased back) cancels at once; a card the user changed asks "Discard your answers?" in
 * the card, on Keep editing (Enter keeps editing, the answers intact, nothing sent), and a second
 * Esc or Discard cancels it. Shot in light and dark, wide and narrow, under /tmp/shots/discard,
 * and checked with axe while it asks.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage, focusedIn } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/shots/discard';
mkdirSync(SHOTS, { recursive: true });

const { open, page } = useWebApp({ openEachTest: false });
const { status, transcript, startSession, send } = appPage(page);

const ASKER = 'Question from Airlock Demo Agent 0.1.0';
const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
const card = () => dock().getByRole('group', { name: ASKER });
const name = () => card().getByLabel('Name', { exact: true });
const question = () => card().getByRole('status').filter({ hasText: 'Discard your answers?' });
const prompt = () => card().getByRole('group', { name: 'Discard your answers?' });
const focused = () => focusedIn(page());

/** Asks with `/form` and waits for its card, which starts on Name. */
async function ask(): Promise<void> {
  await send('/form');
  await card().waitFor();
  await expect(focused()).resolves.toBe('input: Name');
}

/** Waits for the agent to say it got its `count`th answer, a cancel, and for that turn's end. */
async function cancelled(count: number): Promise<void> {
  await transcript()
    .getByText('You answered: cancel.')
    .nth(count - 1)
    .waitFor();
  await transcript()
    .getByRole('status', { name: 'Turn ended' })
    .nth(count - 1)
    .waitFor();
  await expect(card().count()).resolves.toBe(0);
}

describe('Esc on a form card', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 420]) {
      it(`asks before discarding typed answers, and only then (${colorScheme}, ${width} px)`, async () => {
        const tag = `${colorScheme}-${width}`;
        await open({ viewport: { width, height: 900 }, context: { colorScheme, bypassCSP: true } });
        await startSession();

        // Untouched: Esc cancels at once, without asking.
        await ask();
        await page().keyboard.press('Escape');
        await cancelled(1);

        // Typed, then erased back to how it started: untouched, so the same.
        await ask();
        await page().keyboard.type('Ada');
        await expect(name().inputValue()).resolves.toBe('Ada');
        for (let i = 0; i < 3; i++) {
          await page().keyboard.press('Backspace');
        }
        await expect(name().inputValue()).resolves.toBe('');
        await page().keyboard.press('Escape');
        await cancelled(2);

        // Typed: Esc asks in the card, on Keep editing; Enter keeps editing, the answer intact.
        await ask();
        await page().keyboard.type('Ada Lovelace');
        await page().keyboard.press('Escape');
        await question().waitFor();
        await expect(focused()).resolves.toBe('button: Keep editing');
        await expect(
          prompt()
            .getByRole('button')
            .evaluateAll((all) => all.map((button) => button.textContent)),
        ).resolves.toEqual(['Keep editing', 'Discard']);
        await expect(card().getByRole('alert').count()).resolves.toBe(0);
        await page().screenshot({ path: `${SHOTS}/asking-${tag}.png` });
        const builder = new AxeBuilder({ page: page() });
        expect(await seriousViolations(builder, `discard prompt ${tag}`)).toEqual([]);

        await page().keyboard.press('Enter');
        await prompt().waitFor({ state: 'detached' });
        await expect(question().count()).resolves.toBe(0);
        await expect(focused()).resolves.toBe('input: Name');
        await expect(name().inputValue()).resolves.toBe('Ada Lovelace');
        // Nothing was sent: the card is still open, and the agent still waits for it.
        await expect(card().count()).resolves.toBe(1);
        await status().filter({ hasText: 'Working' }).waitFor();
        // Still editing: typing goes on in the field.
        await page().keyboard.type(' B.');
        await expect(name().inputValue()).resolves.toBe('Ada Lovelace B.');

        // Esc, Esc: asked once, then discarded (the card cancelled, as Esc did before).
        await page().keyboard.press('Escape');
        await question().waitFor();
        await page().keyboard.press('Escape');
        await cancelled(3);

        // Discard, clicked: the same.
        await ask();
        await page().keyboard.type('Grace');
        await page().keyboard.press('Escape');
        await prompt().getByRole('button', { name: 'Discard' }).click();
        await cancelled(4);
        await page().screenshot({ path: `${SHOTS}/discarded-${tag}.png` });
      });
    }
  }
});
