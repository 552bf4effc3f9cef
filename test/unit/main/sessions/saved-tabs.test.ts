/**
 * The kept tabs' file (`sessions.json`): a damaged file set aside, never a crash; atomic,
 * debounced writes; the bounds on what it keeps; and, for any tabs, what is written is what
 * the next start offers.
 */
import fc from 'fast-check';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SavedTabs, type TabFacts } from '../../../../main/core/sessions/saved-tabs.js';
import { MAX_SESSION_NAME_CHARS } from '../../../../preload/contract.js';
import { MAX_SAVED_TABS } from '../../../../preload/lasting-sessions.js';

async function tempFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'airlock-saved-')), 'sessions.json');
}

const tab = (n: number, extra: Partial<TabFacts> = {}): TabFacts => ({
  agentName: 'Demo Agent',
  cwd: `/work/project-${n}`,
  acpSessionId: `demo_${n}`,
  title: `Tab ${n}`,
  ...extra,
});

/** What a new run of the app offers from the file. */
async function offersIn(file: string) {
  const next = new SavedTabs(file);
  await next.load();
  return next.offers();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('reading the file', () => {
  it.each([
    ['not JSON', '{"version": 1, "tabs": ['],
    ['another shape', '{"version": 2, "tabs": []}'],
    ['a list', '[]'],
  ])('sets a file that is %s aside and offers nothing', async (_what, text) => {
    const file = await tempFile();
    await writeFile(file, text);
    expect(await offersIn(file)).toEqual([]);
    const names = await readdir(join(file, '..'));
    expect(names.filter((name) => name.startsWith('sessions.json.bad-'))).toHaveLength(1);
    expect(names).not.toContain('sessions.json');
    const [aside] = names.filter((name) => name.startsWith('sessions.json.bad-'));
    expect(await readFile(join(file, '..', aside!), 'utf8')).toBe(text);
  });

  it('drops only the entries that are wrong, keeping the others', async () => {
    const file = await tempFile();
    const good = { agentName: 'Demo Agent', cwd: '/work/a', lastActivity: 5 };
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        tabs: [good, { ...good, cwd: 'relative/path' }, { ...good, agentName: '' }, 'text'],
      }),
    );
    expect(await offersIn(file)).toEqual([
      { id: 't1', agentName: 'Demo Agent', cwd: '/work/a', lastActivity: 5, reopenable: false },
    ]);
  });

  it('offers nothing, and sets nothing aside, when there is no file', async () => {
    const file = await tempFile();
    expect(await offersIn(file)).toEqual([]);
    expect(await readdir(join(file, '..'))).toEqual([]);
  });
});

describe('writing the file', () => {
  it('gathers quick changes into one write, after the debounce', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 300 });
    saved.track('s1', tab(1), true);
    saved.track('s1', tab(1, { title: 'Renamed' }), false);
    vi.advanceTimersByTime(299);
    await Promise.resolve();
    expect(await readdir(join(file, '..'))).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(vi.getTimerCount()).toBe(0);
    await saved.flush();
    expect((await offersIn(file)).map((one) => one.title)).toEqual(['Renamed']);
  });

  it('writes through a temporary file renamed over the old one, leaving no temporary', async () => {
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 0 });
    saved.track('s1', tab(1), true);
    await saved.flush();
    const first = await stat(file);
    saved.track('s2', tab(2), true);
    await saved.flush();
    // A new file took the old one's name: a reader never sees one half written.
    expect((await stat(file)).ino).not.toBe(first.ino);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(file, '..'))).toEqual(['sessions.json']);
    const written = JSON.parse(await readFile(file, 'utf8')) as { tabs: unknown[] };
    expect(written.tabs).toHaveLength(2);
  });

  it('keeps a closed tab out, and stops changing once frozen for the quit', async () => {
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 0 });
    saved.track('s1', tab(1), true);
    saved.track('s2', tab(2), true);
    saved.remove('s1');
    await saved.freeze();
    saved.remove('s2');
    saved.track('s3', tab(3), true);
    await saved.flush();
    expect((await offersIn(file)).map((one) => one.cwd)).toEqual(['/work/project-2']);
  });

  it('keeps the session id of a tab whose agent exited', async () => {
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 0 });
    saved.track('s1', tab(1), true);
    saved.track('s1', tab(1, { acpSessionId: undefined }), false);
    await saved.flush();
    expect((await offersIn(file))[0]?.reopenable).toBe(true);
  });

  it(`keeps the ${MAX_SAVED_TABS} newest tabs, and names clipped to one line`, async () => {
    const file = await tempFile();
    let clock = 1000;
    const saved = new SavedTabs(file, { debounceMs: 0, now: () => clock++ });
    for (let n = 0; n < MAX_SAVED_TABS + 20; n++) {
      saved.track(`s${n}`, tab(n, { title: `line\none ${'x'.repeat(500)}` }), true);
    }
    await saved.flush();
    const written = JSON.parse(await readFile(file, 'utf8')) as { tabs: unknown[] };
    expect(written.tabs).toHaveLength(MAX_SAVED_TABS);
    const offers = await offersIn(file);
    expect(offers[0]?.cwd).toBe(`/work/project-${MAX_SAVED_TABS + 19}`);
    expect(offers.at(-1)?.cwd).toBe('/work/project-20');
    expect(Array.from(offers[0]!.title!)).toHaveLength(MAX_SESSION_NAME_CHARS);
    expect(offers[0]!.title).toMatch(/^line one x+…$/);
  });
});

describe('what is written is what the next start offers', () => {
  it('holds for any tabs', async () => {
    const facts = fc.record({
      agentName: fc.string({ minLength: 1, maxLength: 200, unit: 'binary' }),
      cwd: fc.string({ maxLength: 100, unit: 'binary' }).map((rest) => `/${rest}`),
      acpSessionId: fc.option(fc.string({ minLength: 1, maxLength: 50 }), { nil: undefined }),
      title: fc.option(fc.string({ maxLength: 300, unit: 'binary' }), { nil: undefined }),
      userTitle: fc.option(fc.string({ maxLength: 300, unit: 'binary' }), {
        nil: undefined,
      }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(facts, { maxLength: MAX_SAVED_TABS + 5 }), async (tabs) => {
        const file = await tempFile();
        let clock = 1;
        const saved = new SavedTabs(file, { debounceMs: 0, now: () => clock++ });
        tabs.forEach((one, index) => saved.track(`s${index}`, one, true));
        await saved.flush();
        const offers = await offersIn(file);
        const kept = tabs.slice(-MAX_SAVED_TABS).reverse();
        expect(offers.map((one) => [one.agentName, one.cwd, one.reopenable])).toEqual(
          kept.map((one) => [one.agentName, one.cwd, one.acpSessionId !== undefined]),
        );
        for (const offer of offers) {
          expect(offer.title === undefined || Array.from(offer.title).length <= 200).toBe(true);
          expect(offer.title ?? '').not.toMatch(/[\n\r\t]/);
        }
      }),
      { numRuns: 30 },
    );
  });
});
