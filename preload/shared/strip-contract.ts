/**
 * The contract between the main process and the isolated URL window's address strip.
 *
 * Much smaller than the app's contract: the strip only shows where the isolated page is and
 * asks for two things, to close the window and to open the consented URL in the system
 * browser. This file imports only zod, like preload/shared/contract.ts.
 */
import { z } from 'zod';

/** Chromium's longest URL; the strip shows the whole address, never an elided one. */
const MAX_URL_CHARS = 2 * 1024 * 1024;

/** The strip's IPC channels: two calls and one event. */
export const STRIP_CHANNELS = {
  /** Closes the URL window the strip belongs to. */
  close: 'strip:close',
  /** Opens the URL the user consented to in the system browser. */
  openInBrowser: 'strip:openInBrowser',
  /** The strip's state changed (the page navigated, a warning appeared). */
  onDidChangeState: 'strip:onDidChangeState',
} as const;

/**
 * A finding about the address, as the URL analysis words and ranks it (`danger`, `caution`,
 * `note`); the strip's own messages (a refused navigation) carry no level.
 */
export const StripWarning = z
  .object({
    code: z.string().min(1).max(100),
    level: z.enum(['danger', 'caution', 'note']).optional(),
    message: z.string().min(1).max(2_000),
  })
  .strict();
/** See {@link StripWarning}. */
export type StripWarning = z.infer<typeof StripWarning>;

/**
 * What the strip shows: the page's full address, where its registrable domain is within it,
 * whether it is https, and the warnings about it.
 */
export const StripState = z
  .object({
    url: z.string().min(1).max(MAX_URL_CHARS),
    registrableDomain: z
      .object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() })
      .strict()
      .nullable(),
    https: z.boolean(),
    warnings: z.array(StripWarning).max(50),
  })
  .strict()
  .refine(
    ({ url, registrableDomain: range }) =>
      range === null || (range.start < range.end && range.end <= url.length),
    { message: 'The registrable domain lies outside the address' },
  );
/** See {@link StripState}. */
export type StripState = z.infer<typeof StripState>;

/** The strip page's whole API, exposed by preload/strip.ts as `window.airlockStrip`. */
export type AirlockStripApi = {
  /** Calls `listener` with the current state (once known) and every later one; returns the unsubscribe function. */
  onState(listener: (state: StripState) => void): () => void;
  /** Closes the URL window. */
  close(): Promise<void>;
  /** Opens the URL the user consented to in the system browser. */
  openInBrowser(): Promise<void>;
};
