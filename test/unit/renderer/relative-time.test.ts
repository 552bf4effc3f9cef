/**
 * When something last happened, as the sidebar and the reopen offer say it: words up to a week,
 * the date itself after.
 */
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../../renderer/src/state/relative-time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Noon local time, so a day or a week back lands on the day the test names.
const now = new Date(2026, 11, 1, 12).getTime();

describe('relativeTime', () => {
  it('says "just now" under a minute, and for a time a little ahead of the clock', () => {
    expect(relativeTime(now, now)).toBe('just now');
    expect(relativeTime(now - MINUTE + 1, now)).toBe('just now');
    expect(relativeTime(now + 5_000, now)).toBe('just now');
  });

  it('counts whole minutes, hours and days back, in the largest unit that fits', () => {
    expect(relativeTime(now - MINUTE, now)).toBe('1 minute ago');
    expect(relativeTime(now - 5 * MINUTE - 59_000, now)).toBe('5 minutes ago');
    expect(relativeTime(now - HOUR + 1, now)).toBe('59 minutes ago');
    expect(relativeTime(now - HOUR, now)).toBe('1 hour ago');
    expect(relativeTime(now - 3 * HOUR - 59 * MINUTE, now)).toBe('3 hours ago');
    expect(relativeTime(now - DAY + 1, now)).toBe('23 hours ago');
  });

  it('says "yesterday" for one day back, and the number of days up to a week', () => {
    expect(relativeTime(now - DAY, now)).toBe('yesterday');
    expect(relativeTime(now - 2 * DAY, now)).toBe('2 days ago');
    expect(relativeTime(now - 7 * DAY + 1, now)).toBe('6 days ago');
  });

  it('gives the date, with its year, from a week back', () => {
    const weekAgo = new Date(2026, 10, 24, 12);
    const month = new Intl.DateTimeFormat(undefined, { month: 'short' }).format(weekAgo);
    const shown = relativeTime(weekAgo.getTime(), now);
    expect(weekAgo.getTime()).toBe(now - 7 * DAY);
    expect(shown).toContain('2026');
    expect(shown).toContain(month);
    expect(shown).toMatch(/\b24\b/);
    expect(relativeTime(new Date(2025, 0, 5, 12).getTime(), now)).toContain('2025');
  });
});
