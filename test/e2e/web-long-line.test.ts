/**
 * A message too long to lay out, in Chromium through the web host: one line of 10 MB from the
 * demo agent in a single update. The transcript shows the line's first 64 KB at once and says
 * how much more there is; the page answers the user while it arrives; "Show all" shows the rest
 * (in pieces, as plain text), and Copy copies the whole message.
 */
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { longLines } from '../../main/demo-agent/script.js';
import { LINE_CAP } from '../../renderer/src/state/text-cap.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/long-line';
const LINE = longLines(10_000_000);

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

const { page } = useWebApp({
  startSession: true,
  context: { permissions: ['clipboard-read', 'clipboard-write'] },
});
const { transcript, composer, status, send, turnEnded } = appPage(page);

/** The note that stands for the held-back rest of the line. */
const held = () => transcript().locator('.long-text');

/** Screenshots of the transcript's end in light and dark, 1280 and 420 pixels wide. */
async function shoot(name: string): Promise<void> {
  for (const width of [1280, 420]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page().setViewportSize({ width, height: 800 });
      await page().emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      // At the end of the list: the note (and what Show all showed) and the turn's end.
      await transcript().locator('[data-virtuoso-scroller="true"]').focus();
      await page().keyboard.press('End');
      await held().waitFor();
      await page().screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png` });
    }
  }
  await page().setViewportSize({ width: 1200, height: 900 });
  await page().emulateMedia({ colorScheme: 'light' });
}

describe('a 10 MB line', () => {
  it('shows its first 64 KB at once, and the page takes typing while it arrives', async () => {
    await send('/long-line 10');
    await status().filter({ hasText: 'Working' }).waitFor();
    // Typed while the line comes in: every key lands.
    await composer().pressSequentially('still here');
    await expect(composer().inputValue()).resolves.toBe('still here');
    await held().getByText('The rest of this line (9.5 MB) is too long to show here.').waitFor();
    await turnEnded('Done');
    // What is shown of the line ends at its 64th KB: the row before the note holds the last
    // segment of the head (rows are cut every 16,000 characters), and nothing of its end shows.
    const lastShown = await held().evaluate(
      (note) => note.closest('[data-index]')?.previousElementSibling?.textContent ?? '',
    );
    expect(lastShown).toBe(LINE.slice(64_000, LINE_CAP));
    await expect(transcript().getByText('(end of line 1)').count()).resolves.toBe(0);
  });

  it('shows the rest of the line on "Show all", from the keyboard, and copies the whole of it', async () => {
    await send('/long-line 10');
    await turnEnded('Done');
    await shoot('capped');
    const showAll = held().getByRole('button', { name: 'Show all' });
    await showAll.focus();
    await page().keyboard.press('Enter');
    const rest = held().getByRole('region', { name: 'The rest of this line' });
    await rest.waitFor();
    // Added a piece a frame; once all are in, the box ends with the line's end.
    await rest.evaluate(
      (box) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (box.getAttribute('aria-busy') === 'false') {
              resolve();
            } else {
              requestAnimationFrame(check);
            }
          };
          check();
        }),
    );
    const end = await rest.evaluate((box) => ({
      length: box.textContent?.length ?? 0,
      tail: box.textContent?.slice(-40) ?? '',
    }));
    expect(end).toEqual({ length: LINE.length - LINE_CAP, tail: LINE.slice(-40) });
    expect(end.tail.endsWith('(end of line 1)')).toBe(true);
    await expect(held().getByRole('button', { name: 'Show less' }).count()).resolves.toBe(1);
    await shoot('shown');

    const copy = held().getByRole('button', { name: 'Copy message' });
    await copy.focus();
    await page().keyboard.press('Enter');
    await held().getByRole('button', { name: 'Copied message' }).waitFor();
    const copied = await page().evaluate(() => navigator.clipboard.readText());
    expect(copied.length).toBe(LINE.length);
    expect(copied === LINE).toBe(true);
  });
});
