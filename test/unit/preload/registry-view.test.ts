/** The words of a download's progress, as the tab and the catalogue show them. */
import { describe, expect, it } from 'vitest';
import { downloaded } from '../../../preload/shared/registry-view';

describe('downloaded', () => {
  it('says how much has come in the unit of the larger number', () => {
    expect(downloaded(3_100_000, 12_400_000)).toBe('3.1 of 12.4 MB');
    expect(downloaded(120_000, 480_000)).toBe('120 of 480 KB');
    expect(downloaded(300, 4_200)).toBe('0.3 of 4.2 KB');
    expect(downloaded(3_100_000)).toBe('3.1 MB');
    expect(downloaded(0, 0)).toBe('0.0 of 0.0 KB');
  });
});
