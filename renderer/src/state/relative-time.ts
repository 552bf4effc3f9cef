/**
 * "5 minutes ago", "yesterday": when something last happened, as a sidebar says it. Older than a
 * week, the date itself.
 */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** How long ago `time` was (ms since the epoch), seen from `now`, in words. */
export function relativeTime(time: number, now = Date.now()): string {
  const ago = now - time;
  if (ago < 60_000) {
    return 'just now';
  }
  if (ago >= 7 * 86_400_000) {
    return new Date(time).toLocaleDateString(undefined, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
  }
  const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (ago >= size) {
      return words.format(-Math.floor(ago / size), unit);
    }
  }
  return 'just now';
}
