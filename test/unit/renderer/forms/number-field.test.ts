import type * as RjsfUtils from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module fresh, with the locale's decimal separator `separator`, counting its lookups. */
async function load(separator: string) {
  vi.resetModules();
  const lookups = vi.fn(() => separator);
  vi.doMock('@rjsf/utils', async (original) => ({
    ...(await original<typeof RjsfUtils>()),
    getDecimalSeparator: lookups,
  }));
  const field = await import('../../../../renderer/src/forms/number-field.js');
  return { ...field, lookups };
}

afterEach(() => {
  vi.doUnmock('@rjsf/utils');
});

describe('the number field with a decimal point', () => {
  it('turns what was typed into a number where it is one, and keeps the rest as typed', async () => {
    const { typedNumber } = await load('.');
    expect(typedNumber('36')).toBe(36);
    expect(typedNumber('-2.25')).toBe(-2.25);
    expect(typedNumber('.5')).toBe(0.5);
    expect(typedNumber('1.50')).toBe(1.5);
    expect(typedNumber('1.')).toBe(1);
    expect(typedNumber('abc')).toBe('abc');
    expect(typedNumber('')).toBeUndefined();
  });

  it('shows the text typed while it still reads as the value, and the value otherwise', async () => {
    const { shownNumber } = await load('.');
    expect(shownNumber(1.5, '1.50')).toBe('1.50');
    expect(shownNumber(1, '1.')).toBe('1.');
    expect(shownNumber(0, '.')).toBe('.');
    expect(shownNumber(2, '1.50')).toBe(2);
    expect(shownNumber(12, undefined)).toBe(12);
    expect(shownNumber('abc', 'abc')).toBe('abc');
    expect(shownNumber(undefined, '')).toBeUndefined();
  });

  it('does not read a typed value with a regex character as a pattern', async () => {
    const { shownNumber } = await load('.');
    // "1e21" in a pattern unescaped would still match; "1.5" unescaped would match "1x5".
    expect(shownNumber(1.5, '1x5')).toBe(1.5);
  });
});

describe('the number field in a locale that writes a decimal comma', () => {
  it('reads the comma as a point and shows numbers with a comma', async () => {
    const { typedNumber, shownNumber } = await load(',');
    expect(typedNumber('1,5')).toBe(1.5);
    expect(shownNumber(1.5, undefined)).toBe('1,5');
    expect(shownNumber(1, '1,')).toBe('1,');
  });

  it('looks the separator up once, however often the form draws', async () => {
    const { typedNumber, shownNumber, lookups } = await load(',');
    for (let draw = 0; draw < 20; draw++) {
      shownNumber(draw + 0.5, undefined);
      typedNumber(`${draw},5`);
    }
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});
