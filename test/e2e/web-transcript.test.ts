/**
 * The transcript in Chromium against `npm run web`'s build, with the demo agent: how a long reply
 * reads once it is cut into rows.
 */
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { MAX_CHARS, MAX_GROWTH, START_CHARS } from '../../renderer/src/state/frame-budget.js';

const SHOTS = '/tmp/airlock-shots/transcript';

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});
const { page } = useWebApp({ startSession: true });

const { transcript, send, turnEnded } = appPage(page);

/** The fewest frames the UI can take `chars` streamed characters in: its budget at its quickest. */
function fewestFrames(chars: number): number {
  let frames = 0;
  for (let taken = 0, budget = START_CHARS; taken < chars; frames++) {
    taken += budget;
    budget = Math.min(budget * MAX_GROWTH, MAX_CHARS);
  }
  return frames;
}

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

describe('a large reply, read after it ends', () => {
  it('leaves no part of the view blank in any frame, also where rows were never drawn', async () => {
    await page().setViewportSize({ width: 1200, height: 900 });
    await send('/long 400');
    await turnEnded('Done');
    // For a second after the end, then for a second after a jump to the middle (rows the fast
    // reply passed by, never drawn until now): the part of the list's view that no drawn row
    // covers, in each frame.
    const blank = await transcript()
      .locator('[data-virtuoso-scroller="true"]')
      .evaluate(async (scroller) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        const uncovered = () => {
          const view = scroller.getBoundingClientRect();
          const covered = [...scroller.querySelectorAll('[data-item-index]')]
            .map((row) => row.getBoundingClientRect())
            .filter((box) => box.bottom > view.top && box.top < view.bottom)
            .reduce(
              (sum, box) => sum + Math.min(box.bottom, view.bottom) - Math.max(box.top, view.top),
              0,
            );
          return Math.round(view.height - covered);
        };
        const watch = async (into: number[]) => {
          const start = performance.now();
          while (performance.now() - start < 1_000) {
            await frame();
            into.push(uncovered());
          }
        };
        const atEnd: number[] = [];
        await watch(atEnd);
        scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -1, bubbles: true }));
        scroller.scrollTop = scroller.scrollHeight / 2;
        const inMiddle: number[] = [];
        await watch(inMiddle);
        return { atEnd, inMiddle };
      });
    for (const frames of [blank.atEnd, blank.inMiddle]) {
      expect(frames.length).toBeGreaterThan(10);
      expect(
        Math.max(...frames),
        `blank pixels per frame: ${frames.join(', ')}`,
      ).toBeLessThanOrEqual(1);
    }
  });
});

type SetupCounts = { scrollSetups: number; mediaQueries: number; renders: number };

describe('a reply streaming in', () => {
  it('is drawn frame after frame without setting the list up again or making new queries', async () => {
    await page().setViewportSize({ width: 1200, height: 900 });
    // Counted while the reply streams in: the scroll listeners the list adds to its scroller
    // (it adds one as it sets itself up), the media queries made, and the frames that changed
    // the rows. The originals are put back after.
    await page().evaluate(() => {
      const counts: SetupCounts = { scrollSetups: 0, mediaQueries: 0, renders: 0 };
      const addEventListener = EventTarget.prototype.addEventListener;
      const matchMedia = window.matchMedia;
      EventTarget.prototype.addEventListener = function (
        this: EventTarget,
        ...args: Parameters<EventTarget['addEventListener']>
      ) {
        if (args[0] === 'scroll' && this instanceof HTMLElement && this.dataset.virtuosoScroller) {
          counts.scrollSetups++;
        }
        return addEventListener.apply(this, args);
      };
      window.matchMedia = (query) => {
        counts.mediaQueries++;
        return matchMedia.call(window, query);
      };
      const rows = new MutationObserver(() => counts.renders++);
      rows.observe(document.querySelector('#session-panel [data-virtuoso-scroller="true"]')!, {
        childList: true,
        subtree: true,
        characterData: true,
      });
      Object.assign(window, {
        airlockSetups: {
          counts,
          restore: () => {
            EventTarget.prototype.addEventListener = addEventListener;
            window.matchMedia = matchMedia;
            rows.disconnect();
          },
        },
      });
    });
    await send('/long 100');
    await turnEnded('Done');
    const counts = await page().evaluate(() => {
      const { counts, restore } = (
        window as unknown as { airlockSetups: { counts: SetupCounts; restore: () => void } }
      ).airlockSetups;
      restore();
      return counts;
    });
    // The reply came in over several frames (as many as the frame budget needs at its quickest),
    // and not one of them set the list up again (reading the scroller's size, which lays the
    // page out) or asked the window a media query anew.
    expect(counts.renders).toBeGreaterThanOrEqual(fewestFrames(100_000));
    expect(counts).toEqual({ scrollSetups: 0, mediaQueries: 0, renders: counts.renders });
  });
});
