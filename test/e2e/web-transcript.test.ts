/**
 * The transcript in Chromium against `npm run web`'s build, with the demo agent: how a long reply
 * reads once it is cut into rows.
 */
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/transcript';

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});
const { page } = useWebApp({ startSession: true });

const { transcript, send, turnEnded } = appPage(page);

/** The gaps in pixels between each list item on screen and the next one, in order. */
function itemGaps(): Promise<number[]> {
  return transcript().evaluate((log) => {
    const items = [...log.querySelectorAll('.row.text li')].map((item) =>
      item.getBoundingClientRect(),
    );
    return items.slice(1).map((box, n) => Math.round((box.top - items[n]!.bottom) * 10) / 10);
  });
}

describe('a long reply cut into rows', () => {
  it('keeps one gap between all the items of a list, across the rows it is cut into', async () => {
    // Tall enough to show the whole reply: its rows are all in the list's view at once.
    await page().setViewportSize({ width: 1200, height: 4_000 });
    // About 22 numbered paragraphs, blank lines between them: one loose list, cut into rows.
    await send('/long 12');
    await turnEnded('Done');
    const rows = await transcript().locator('.row.text').count();
    expect(rows).toBeGreaterThan(3);
    const gaps = await itemGaps();
    expect(gaps.length).toBeGreaterThan(15);
    expect(
      Math.max(...gaps) - Math.min(...gaps),
      `gaps between items: ${gaps.join(', ')}`,
    ).toBeLessThanOrEqual(1);
    for (const scheme of ['light', 'dark'] as const) {
      await page().emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page().setViewportSize({ width: 1200, height: 900 });
      await page().screenshot({ path: `${SHOTS}/long-list-${scheme}.png` });
    }
  });
});
