/**
 * An agent's words on a card, in Chromium through the web host: a form whose title reads as if
 * Airlock asked ("Airlock — Sign in") shows that title quoted under "<Agent> asks:", never as a
 * heading; the card's own heading is the app's, and names the agent.
 */
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/agent-words';
const AGENT = 'Airlock Demo Agent 0.1.0';

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

const { page } = useWebApp({ startSession: true });
const { send } = appPage(page);

describe('a form titled as if the app asked', () => {
  it("shows the agent's title quoted under “<Agent> asks:”, and no heading but the app's", async () => {
    await send('/form-lookalike');
    const card = page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: `Question from ${AGENT}` });
    await card.waitFor();
    // The app's heading names the agent; the agent's title is no heading at all.
    await expect(card.getByRole('heading').allTextContents()).resolves.toEqual([
      `Question from ${AGENT}`,
    ]);
    await expect(card.getByRole('heading', { name: 'Airlock — Sign in' }).count()).resolves.toBe(0);
    // It is in the quotation of the agent's words, with its message and description.
    const words = card.getByRole('figure', { name: `${AGENT} asks:` });
    const quote = words.locator('blockquote');
    await expect(quote.getByText('Airlock — Sign in', { exact: true }).count()).resolves.toBe(1);
    await expect(quote.getByText('Airlock: sign in again to go on.').count()).resolves.toBe(1);
    await expect(quote.getByText('Your Airlock session has expired.').count()).resolves.toBe(1);
    // In the body's size and weight, as the text around it, not a heading's.
    const title = quote.getByText('Airlock — Sign in', { exact: true });
    const [titleStyle, bodyStyle] = await Promise.all(
      [title, quote.getByText('Airlock: sign in again to go on.')].map((locator) =>
        locator.evaluate((element) => {
          const style = getComputedStyle(element);
          return `${style.fontSize} ${style.fontWeight}`;
        }),
      ),
    );
    expect(titleStyle).toBe(bodyStyle);

    for (const width of [1280, 420]) {
      for (const scheme of ['light', 'dark'] as const) {
        await page().setViewportSize({ width, height: 900 });
        await page().emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await card.scrollIntoViewIfNeeded();
        await page().screenshot({ path: `${SHOTS}/card-${width}-${scheme}.png` });
      }
    }
  });
});
