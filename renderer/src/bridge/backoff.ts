/**
 * How long to wait before trying the core again, after a link that dropped or a first load
 * that failed: a growing pause, so a core that is down is not hammered, capped so it is soon
 * noticed once it is back.
 */

/** The pauses before each new try, in ms; the last one repeats. */
export const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/** The pause before the next try, after `failures` failed ones in a row (0: the first retry). */
export function reconnectDelay(failures: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(failures, 0), RECONNECT_DELAYS_MS.length - 1)]!;
}
