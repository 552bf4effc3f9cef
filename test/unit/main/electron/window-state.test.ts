import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  GRAB_HEIGHT,
  GRAB_WIDTH,
  grabbable,
  readWindowState,
  restoredState,
  SAVE_DELAY_MS,
  windowStatePath,
  WindowStateStore,
  writeWindowState,
  type Rect,
  type WindowState,
} from '../../../../main/electron/window-state.js';

const LIMITS = { width: 1200, height: 800, minWidth: 640, minHeight: 480 };

/** A 1920×1080 display with a 32-pixel panel at its top, at `x`. */
const display = (x = 0): Rect => ({ x, y: 32, width: 1920, height: 1048 });
const saved = (bounds: Rect, maximized = false): WindowState => ({
  version: 1,
  bounds,
  maximized,
});

/**
 * Whether `bounds` can be grabbed on `area`, said independently of the code: its top strip
 * (as tall as a title bar, or the window) is inside the area from top to bottom, and a stretch
 * of it as wide as a grab (or the window, or the area) lies across the area.
 */
function reachable(bounds: Rect, area: Rect): boolean {
  const top = bounds.y;
  const bottom = bounds.y + Math.min(GRAB_HEIGHT, bounds.height);
  const left = Math.max(bounds.x, area.x);
  const right = Math.min(bounds.x + bounds.width, area.x + area.width);
  return (
    top >= area.y &&
    bottom <= area.y + area.height &&
    right - left >= Math.min(GRAB_WIDTH, bounds.width, area.width)
  );
}

describe('grabbable', () => {
  const area = { x: 0, y: 32, width: 1920, height: 1048 };

  it('takes a title bar from the work area’s very top to its very bottom', () => {
    expect(grabbable({ x: 100, y: 32, width: 900, height: 700 }, area)).toBe(true);
    expect(grabbable({ x: 100, y: 31, width: 900, height: 700 }, area)).toBe(false);
    const bottom = 32 + 1048 - GRAB_HEIGHT;
    expect(grabbable({ x: 100, y: bottom, width: 900, height: 700 }, area)).toBe(true);
    expect(grabbable({ x: 100, y: bottom + 1, width: 900, height: 700 }, area)).toBe(false);
  });

  it('needs a grab’s width of the title bar across, or the whole of a narrower window', () => {
    expect(grabbable({ x: 1920 - GRAB_WIDTH, y: 100, width: 900, height: 700 }, area)).toBe(true);
    expect(grabbable({ x: 1921 - GRAB_WIDTH, y: 100, width: 900, height: 700 }, area)).toBe(false);
    expect(grabbable({ x: GRAB_WIDTH - 900, y: 100, width: 900, height: 700 }, area)).toBe(true);
    expect(grabbable({ x: GRAB_WIDTH - 901, y: 100, width: 900, height: 700 }, area)).toBe(false);
    expect(grabbable({ x: 1900, y: 100, width: 20, height: 700 }, area)).toBe(true);
    expect(grabbable({ x: 1901, y: 100, width: 20, height: 700 }, area)).toBe(false);
  });

  it('takes a window shorter than a title bar by its own height', () => {
    expect(grabbable({ x: 100, y: 1070, width: 900, height: 10 }, area)).toBe(true);
    expect(grabbable({ x: 100, y: 1071, width: 900, height: 10 }, area)).toBe(false);
  });
});

describe('restoredState', () => {
  it('keeps the saved size and position when the window is on a display', () => {
    const bounds = { x: 2100, y: 200, width: 900, height: 700 };
    expect(restoredState(saved(bounds), [display(), display(1920)], display(), LIMITS)).toEqual(
      saved(bounds),
    );
  });

  it('keeps a window partly off a display while its title bar can be grabbed', () => {
    const bounds = { x: -800, y: 500, width: 900, height: 700 };
    expect(restoredState(saved(bounds), [display()], display(), LIMITS).bounds).toEqual(bounds);
  });

  it('centres the window on the primary display when its display is gone', () => {
    // Last on a second display to the right, which is unplugged now.
    const bounds = { x: 2100, y: 200, width: 900, height: 700 };
    const state = restoredState(saved(bounds, true), [display()], display(), LIMITS);
    expect(state).toEqual(saved({ x: 510, y: 206, width: 900, height: 700 }, true));
  });

  it('does not keep a window whose title bar is above the work area (under a menu bar)', () => {
    const bounds = { x: 100, y: 10, width: 900, height: 700 };
    expect(restoredState(saved(bounds), [display()], display(), LIMITS).bounds.y).toBe(206);
  });

  it('does not keep a window with only a sliver of its title bar on a display', () => {
    const bounds = { x: 1920 - GRAB_WIDTH + 1, y: 100, width: 900, height: 700 };
    expect(restoredState(saved(bounds), [display()], display(), LIMITS).bounds.x).toBe(510);
  });

  it('shrinks a window larger than its display to the work area, keeping the minimum', () => {
    const laptop = { x: 0, y: 0, width: 1280, height: 400 };
    const bounds = { x: 50, y: 100, width: 2500, height: 1400 };
    expect(restoredState(saved(bounds), [laptop], laptop, LIMITS).bounds).toEqual({
      x: 0,
      y: 0,
      width: 1280,
      height: 480,
    });
  });

  it('keeps a window exactly as wide or as tall as its display where it was', () => {
    const wide = { x: 100, y: 100, width: 1920, height: 700 };
    expect(restoredState(saved(wide), [display()], display(), LIMITS).bounds).toEqual(wide);
    const tall = { x: 100, y: 100, width: 900, height: 1048 };
    expect(restoredState(saved(tall), [display()], display(), LIMITS).bounds).toEqual(tall);
  });

  it('keeps a window as it is on the one of two overlapping displays it fits', () => {
    // A mirrored laptop screen, listed first, would shrink it.
    const laptop = { x: 0, y: 0, width: 1280, height: 800 };
    const bounds = { x: 100, y: 100, width: 1200, height: 900 };
    expect(restoredState(saved(bounds), [laptop, display()], laptop, LIMITS).bounds).toEqual(
      bounds,
    );
  });

  it('prefers a display it fits as it is to one that would change it in any one way', () => {
    const large = { x: 0, y: 0, width: 3000, height: 2000 };
    for (const [first, bounds] of [
      // Narrower than the minimum: moved to the left edge.
      [
        { x: 0, y: 0, width: 600, height: 1000 },
        { x: 100, y: 100, width: 640, height: 700 },
      ],
      // Lower than the minimum: moved to the top.
      [
        { x: 0, y: 0, width: 1000, height: 400 },
        { x: 100, y: 100, width: 900, height: 480 },
      ],
      // Narrower than the window at its left edge: made narrower.
      [
        { x: 0, y: 0, width: 1000, height: 1048 },
        { x: 0, y: 100, width: 1200, height: 700 },
      ],
      // Lower than the window at its top: made lower.
      [
        { x: 0, y: 0, width: 1920, height: 500 },
        { x: 100, y: 0, width: 900, height: 700 },
      ],
    ] as const) {
      expect(restoredState(saved(bounds), [first, large], first, LIMITS).bounds).toEqual(bounds);
    }
  });

  it('grows a saved window smaller than the minimum to it, where it was', () => {
    const bounds = { x: 100, y: 100, width: 300, height: 200 };
    expect(restoredState(saved(bounds), [display()], display(), LIMITS).bounds).toEqual({
      ...bounds,
      width: LIMITS.minWidth,
      height: LIMITS.minHeight,
    });
  });

  it('opens at the top left of a display smaller than the minimum, at the minimum', () => {
    const tiny = { x: 10, y: 20, width: 500, height: 400 };
    expect(restoredState(undefined, [tiny], tiny, LIMITS).bounds).toEqual({
      x: 10,
      y: 20,
      width: LIMITS.minWidth,
      height: LIMITS.minHeight,
    });
  });

  it('opens at the default size, centred, when nothing is saved', () => {
    expect(restoredState(undefined, [display()], display(), LIMITS)).toEqual(
      saved({ x: 360, y: 156, width: 1200, height: 800 }),
    );
  });

  it('puts the window on a visible display, at its minimum size or more, whatever was saved', () => {
    const rect = (minSide: number) =>
      fc.record({
        x: fc.integer({ min: -6000, max: 6000 }),
        y: fc.integer({ min: -6000, max: 6000 }),
        width: fc.integer({ min: minSide, max: 8000 }),
        height: fc.integer({ min: minSide, max: 8000 }),
      });
    const state = fc.record({
      version: fc.constant(1 as const),
      bounds: rect(1),
      maximized: fc.boolean(),
    });
    const limits = fc.record({
      width: fc.integer({ min: 100, max: 3000 }),
      height: fc.integer({ min: 100, max: 3000 }),
      minWidth: fc.integer({ min: 100, max: 1000 }),
      minHeight: fc.integer({ min: 100, max: 1000 }),
    });
    fc.assert(
      fc.property(
        fc.option(state, { nil: undefined }),
        fc.array(rect(GRAB_HEIGHT + 100), { minLength: 1, maxLength: 4 }),
        limits,
        (previous, areas, windowLimits) => {
          const [primary] = areas as [Rect, ...Rect[]];
          const { bounds, maximized } = restoredState(previous, areas, primary, windowLimits);
          expect(areas.some((area) => reachable(bounds, area))).toBe(true);
          expect(bounds.width).toBeGreaterThanOrEqual(windowLimits.minWidth);
          expect(bounds.height).toBeGreaterThanOrEqual(windowLimits.minHeight);
          expect(Object.values(bounds).every(Number.isInteger)).toBe(true);
          expect(maximized).toBe(previous?.maximized ?? false);
          // Opening where it opened last time changes nothing: the window does not drift.
          const again = restoredState(saved(bounds), areas, primary, windowLimits);
          expect(again.bounds).toEqual(bounds);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('the state file', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'airlock-window-state-'));
  });

  it('lives in the settings folder', () => {
    expect(windowStatePath({ AIRLOCK_CONFIG_DIR: '/conf/airlock' })).toBe(
      join('/conf/airlock', 'window-state.json'),
    );
  });

  it('reads back what was written, and leaves no temporary file behind', async () => {
    const path = join(folder, 'window-state.json');
    const state = saved({ x: -1200, y: 40, width: 1000, height: 700 }, true);
    await writeWindowState(path, state);
    expect(await readWindowState(path)).toEqual(state);
    expect(await readdir(folder)).toEqual(['window-state.json']);
  });

  it.each([
    ['missing', undefined],
    ['not JSON', '{"version": 1, "bounds": '],
    ['another shape', '{"version": 1, "bounds": [0, 0, 800, 600], "maximized": false}'],
    [
      'a later version',
      JSON.stringify({ ...saved({ x: 0, y: 0, width: 9, height: 9 }), version: 2 }),
    ],
    ['fractional', JSON.stringify(saved({ x: 0.5, y: 0, width: 900, height: 700 }))],
    ['a zero width', JSON.stringify(saved({ x: 0, y: 0, width: 0, height: 700 }))],
    ['huge', JSON.stringify(saved({ x: 1e12, y: 0, width: 900, height: 700 }))],
    ['an array', '[]'],
  ])('is ignored when %s', async (_case, text) => {
    const path = join(folder, 'window-state.json');
    if (text !== undefined) {
      await writeFile(path, text);
    }
    await expect(readWindowState(path)).resolves.toBeUndefined();
  });

  it('is ignored when a folder stands in its place', async () => {
    const path = join(folder, 'window-state.json');
    await mkdir(path);
    await expect(readWindowState(path)).resolves.toBeUndefined();
  });

  it('is ignored when larger than any state Airlock writes', async () => {
    const path = join(folder, 'window-state.json');
    const state = saved({ x: 10, y: 40, width: 900, height: 700 });
    await writeFile(path, `${JSON.stringify(state)}${' '.repeat(16 * 1024)}`);
    await expect(readWindowState(path)).resolves.toBeUndefined();
    const exactly = JSON.stringify(state);
    await writeFile(path, `${exactly}${' '.repeat(16 * 1024 - exactly.length)}`);
    await expect(readWindowState(path)).resolves.toEqual(state);
  });

  it('never reads a pipe in its place (it would wait for a writer)', async () => {
    const path = join(folder, 'window-state.json');
    execFileSync('mkfifo', [path]);
    const read = readWindowState(path);
    // Should the state be read from the pipe, this feeds it one at once instead of leaving it waiting.
    let done = false;
    const feed = (async () => {
      while (!done) {
        try {
          const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
          writeSync(fd, JSON.stringify(saved({ x: 1, y: 2, width: 900, height: 700 })));
          closeSync(fd);
          return;
        } catch {
          // No reader yet (ENXIO).
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    })();
    await expect(read.finally(() => (done = true))).resolves.toBeUndefined();
    await feed;
  });

  it('is never written with a state that is not one', async () => {
    const path = join(folder, 'window-state.json');
    const state = { ...saved({ x: 10, y: 40, width: 0, height: 700 }) };
    await expect(writeWindowState(path, state)).rejects.toThrow();
    expect(await readdir(folder)).toEqual([]);
  });

  it('is written over when damaged (it is Airlock’s own, not the user’s)', async () => {
    const path = join(folder, 'window-state.json');
    await writeFile(path, '{ broken');
    const state = saved({ x: 10, y: 40, width: 900, height: 700 });
    await writeWindowState(path, state);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(state);
  });
});

describe('WindowStateStore', () => {
  let path: string;
  beforeEach(async () => {
    path = join(await mkdtemp(join(tmpdir(), 'airlock-window-store-')), 'window-state.json');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the latest state once the window has been still for a moment', async () => {
    const store = new WindowStateStore(path);
    for (let x = 0; x < 50; x++) {
      store.remember(saved({ x, y: 40, width: 900, height: 700 }));
      await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS / 10);
    }
    expect(store.pending).toBe(true);
    await expect(readWindowState(path)).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    await vi.waitFor(() => expect(store.pending).toBe(false));
    expect(await readWindowState(path)).toEqual(saved({ x: 49, y: 40, width: 900, height: 700 }));
  });

  it('writes at once when flushed, and remembers in memory what it loaded', async () => {
    const first = new WindowStateStore(path);
    first.remember(saved({ x: 7, y: 40, width: 900, height: 700 }, true));
    await first.flush();
    expect(first.pending).toBe(false);
    const second = new WindowStateStore(path);
    expect(second.current).toBeUndefined();
    await second.load();
    expect(second.current).toEqual(saved({ x: 7, y: 40, width: 900, height: 700 }, true));
  });

  it('does not write again the state it loaded', async () => {
    const state = saved({ x: 7, y: 40, width: 900, height: 700 });
    await writeFile(path, JSON.stringify(state));
    const store = new WindowStateStore(path);
    await store.load();
    store.remember(saved({ x: 7, y: 40, width: 900, height: 700 }));
    await store.flush();
    expect(await readFile(path, 'utf8')).toBe(JSON.stringify(state));
  });

  it('writes each new state when flushed', async () => {
    const store = new WindowStateStore(path);
    for (const x of [1, 2, 3]) {
      store.remember(saved({ x, y: 40, width: 900, height: 700 }));
      await store.flush();
      expect((await readWindowState(path))?.bounds.x).toBe(x);
    }
  });

  it('writes a state again after a write failed, and is no longer pending', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const inTheWay = join(dirname(path), 'sub');
    const blocked = join(inTheWay, 'window-state.json');
    // A file where the state file's folder should be: the write fails.
    await writeFile(inTheWay, 'in the way');
    const store = new WindowStateStore(blocked);
    const state = saved({ x: 7, y: 40, width: 900, height: 700 });
    store.remember(state);
    await store.flush();
    expect(store.pending).toBe(false);
    expect(error).toHaveBeenCalledWith(
      'airlock: could not save the window state:',
      expect.anything(),
    );
    await unlink(inTheWay);
    store.remember(saved({ x: 7, y: 40, width: 900, height: 700 }));
    await store.flush();
    expect(await readWindowState(blocked)).toEqual(state);
    error.mockRestore();
  });

  it('does not write a state already on disk', async () => {
    const store = new WindowStateStore(path);
    store.remember(saved({ x: 7, y: 40, width: 900, height: 700 }));
    await store.flush();
    await writeFile(path, 'changed by someone else');
    store.remember(saved({ x: 7, y: 40, width: 900, height: 700 }));
    await store.flush();
    expect(await readFile(path, 'utf8')).toBe('changed by someone else');
  });
});
