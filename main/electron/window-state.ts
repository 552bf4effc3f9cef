/**
 * Where the app window opens: the size and position it had last time, when the user can still
 * reach it there.
 *
 * The state is a small JSON file in Airlock's settings folder, read once at start and validated
 * (a damaged or foreign file is ignored, never trusted), and written a moment after the window
 * stops moving, atomically, with the settings file's writer.
 *
 * Restoring follows what editors do. A window opens where it was if its title bar can still be
 * grabbed on some display's work area (a display unplugged since, or a resolution lowered, can
 * leave it out of reach); a window larger than that work area is shrunk to it. Otherwise it
 * opens centred on the primary display. Maximized comes back; minimized and full-screen do not
 * (they are never saved). This file is pure apart from the file's reading and writing: the
 * Electron side (app-window.ts) passes in the displays' work areas.
 */
import { readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { configDir } from '../core/settings/catalog.js';
import { editSettingsFile } from '../core/settings/file.js';

/** A rectangle in screen coordinates (Electron's device-independent pixels). */
export type Rect = { x: number; y: number; width: number; height: number };

/** The window's size limits: the size it opens with when nothing is saved, and its minimum. */
export type WindowLimits = { width: number; height: number; minWidth: number; minHeight: number };

/** How tall a strip at the window's top must lie on a work area: about a title bar. */
export const GRAB_HEIGHT = 32;
/** How wide that strip must be on the work area (or the whole window, if narrower). */
export const GRAB_WIDTH = 96;
/** How long the window must stay still before its state is written. */
export const SAVE_DELAY_MS = 500;

/** Coordinates beyond any real desktop: such a file was not written by Airlock. */
const MAX_COORDINATE = 1_000_000;
/** A state file larger than this is not read (Airlock writes about 100 bytes). */
const MAX_FILE_BYTES = 16 * 1024;

const coordinate = z.number().int().min(-MAX_COORDINATE).max(MAX_COORDINATE);
const length = z.number().int().min(1).max(MAX_COORDINATE);

/** The saved state, as the file holds it. */
export const windowStateSchema = z.object({
  version: z.literal(1),
  bounds: z.object({ x: coordinate, y: coordinate, width: length, height: length }),
  maximized: z.boolean(),
});

/** The window's state: its bounds when neither maximized nor minimized, and whether maximized. */
export type WindowState = z.infer<typeof windowStateSchema>;

/** The state file's path: beside the settings file. */
export function windowStatePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'window-state.json');
}

/**
 * Whether the window's top strip lies on `area` enough to be grabbed and dragged: its top edge
 * inside the work area (not under a menu bar or off the bottom), and a stretch of it across.
 */
export function grabbable(bounds: Rect, area: Rect): boolean {
  const strip = Math.min(GRAB_HEIGHT, bounds.height);
  const across =
    Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
  return (
    bounds.y >= area.y &&
    bounds.y + strip <= area.y + area.height &&
    across >= Math.min(GRAB_WIDTH, bounds.width, area.width)
  );
}

/** Whether two rectangles are the same one. */
function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** `value` within `low` and `high`; `low` wins when they cross. */
function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, high));
}

/**
 * `bounds` made to fit `area`: no smaller than the minimum, no larger than the area (unless
 * the minimum is), and moved to the area's edge along a side where it was too large.
 */
function fitted(bounds: Rect, area: Rect, limits: WindowLimits): Rect {
  const width = clamp(bounds.width, limits.minWidth, Math.max(limits.minWidth, area.width));
  const height = clamp(bounds.height, limits.minHeight, Math.max(limits.minHeight, area.height));
  return {
    x: bounds.width > area.width ? area.x : bounds.x,
    y: bounds.height > area.height ? area.y : bounds.y,
    width,
    height,
  };
}

/** A window of `size` (fitted) centred on `area`; at its top left when it does not fit. */
function centred(size: Rect, area: Rect, limits: WindowLimits): Rect {
  const { width, height } = fitted(size, area, limits);
  return {
    x: area.x + Math.max(0, Math.floor((area.width - width) / 2)),
    y: area.y + Math.max(0, Math.floor((area.height - height) / 2)),
    width,
    height,
  };
}

/**
 * Where the window opens, given the saved state (undefined: none), the work areas of the
 * displays there are now, and the primary display's work area.
 */
export function restoredState(
  saved: WindowState | undefined,
  workAreas: readonly Rect[],
  primary: Rect,
  limits: WindowLimits,
): WindowState {
  if (saved) {
    const wanted = {
      ...saved.bounds,
      width: Math.max(saved.bounds.width, limits.minWidth),
      height: Math.max(saved.bounds.height, limits.minHeight),
    };
    const reachable = workAreas.filter((candidate) => grabbable(wanted, candidate));
    // Displays may overlap (mirrored): one the window fits as it is wins, so it never drifts.
    const area =
      reachable.find((candidate) => sameRect(fitted(wanted, candidate, limits), wanted)) ??
      reachable[0];
    if (area) {
      return { version: 1, bounds: fitted(wanted, area, limits), maximized: saved.maximized };
    }
  }
  const size = saved?.bounds ?? { x: 0, y: 0, width: limits.width, height: limits.height };
  return {
    version: 1,
    bounds: centred(size, primary, limits),
    maximized: saved?.maximized ?? false,
  };
}

/** The saved state; undefined when there is none or the file is not one Airlock wrote. */
export async function readWindowState(path: string): Promise<WindowState | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > MAX_FILE_BYTES) {
      return undefined;
    }
    const parsed = windowStateSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes `state` atomically. The settings file's writer refuses to replace a file it cannot
 * parse (right for the user's settings); this file is Airlock's own, so a damaged one is
 * removed and written anew.
 */
export async function writeWindowState(path: string, state: WindowState): Promise<void> {
  const text = `${JSON.stringify(windowStateSchema.parse(state), null, 2)}\n`;
  try {
    await editSettingsFile(path, () => text);
  } catch {
    await unlink(path).catch(() => undefined);
    await editSettingsFile(path, () => text);
  }
}

/**
 * The window state in memory and on disk: the latest state is remembered at once and written
 * once the window has been still for `delayMs`; writes run one after the other.
 */
export class WindowStateStore {
  private state: WindowState | undefined;
  private written: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private queue: Promise<void> = Promise.resolve();
  private writing = 0;

  constructor(
    readonly path: string,
    private readonly delayMs = SAVE_DELAY_MS,
  ) {}

  /** Reads the saved state into memory; undefined when there is none usable. */
  async load(): Promise<WindowState | undefined> {
    this.state = await readWindowState(this.path);
    this.written = this.state && JSON.stringify(this.state);
    return this.state;
  }

  /** The latest state, saved or not. */
  get current(): WindowState | undefined {
    return this.state;
  }

  /** Whether the latest state is not on disk yet (waiting, or being written). */
  get pending(): boolean {
    return this.timer !== undefined || this.writing > 0;
  }

  /** Remembers `state`, and writes it once no newer one has come for a while. */
  remember(state: WindowState): void {
    this.state = state;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  /**
   * Writes the latest state now, unless it is on disk already. Never rejects: a state that
   * cannot be written is only not remembered next time.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const state = this.state;
    const text = state && JSON.stringify(state);
    if (!state || text === this.written) {
      return this.queue;
    }
    this.written = text;
    this.writing++;
    this.queue = this.queue
      .then(() => writeWindowState(this.path, state))
      .catch((error: unknown) => {
        // Not on disk after all: the same state is written again next time.
        if (this.written === text) {
          this.written = undefined;
        }
        console.error('airlock: could not save the window state:', error);
      })
      .finally(() => this.writing--);
    return this.queue;
  }
}
