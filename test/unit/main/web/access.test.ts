/**
 * Who the web host lets in (main/web/access.ts), on its own: links used once, page keys kept,
 * and every list bounded, oldest first.
 */
import { describe, expect, it } from 'vitest';
import { PageAccess } from '../../../../main/web/access.js';

/** Lets a page in by a new link, and answers its key. */
function pageKey(access: PageAccess): string {
  const admitted = access.admit({ link: access.newLink() });
  if (!('key' in admitted)) {
    throw new Error(`refused: ${admitted.refused}`);
  }
  return admitted.key;
}

describe('PageAccess', () => {
  it('keeps 20 unused links; the 21st drops the oldest', () => {
    const twenty = new PageAccess();
    const links = Array.from({ length: 20 }, () => twenty.newLink());
    expect(twenty.admit({ link: links[0]! })).toHaveProperty('key');
    const more = new PageAccess();
    const oldest = more.newLink();
    const rest = Array.from({ length: 20 }, () => more.newLink());
    expect(more.admit({ link: oldest })).toEqual({ refused: 'unknown' });
    expect(more.admit({ link: rest[0]! })).toHaveProperty('key');
  });

  it('keeps the keys of 200 pages; the 201st page’s drops the oldest', () => {
    const access = new PageAccess();
    const keys = Array.from({ length: 200 }, () => pageKey(access));
    expect(access.admit({ key: keys[0]! })).toEqual({ key: keys[0] });
    pageKey(access);
    expect(access.admit({ key: keys[0]! })).toEqual({ refused: 'unknown' });
    expect(access.admit({ key: keys[1]! })).toEqual({ key: keys[1] });
  });

  it('says a link was used for the last 200 used, and only that it is unknown before them', () => {
    const access = new PageAccess();
    const first = access.newLink();
    access.admit({ link: first });
    for (let i = 0; i < 199; i += 1) {
      pageKey(access);
    }
    expect(access.admit({ link: first })).toEqual({ refused: 'used' });
    pageKey(access);
    expect(access.admit({ link: first })).toEqual({ refused: 'unknown' });
  });
});
