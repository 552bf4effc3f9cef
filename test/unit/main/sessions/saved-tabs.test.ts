/**
 * The kept tabs' file (`sessions.json`): a damaged file set aside, never a crash; atomic,
 * debounced writes; the bounds on what it keeps; and, for any tabs, what is written is what
 * the next start offers.
 */
import fc from 'fast-check';
import { spawn, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SavedTabs, type TabFacts } from '../../../../main/core/sessions/saved-tabs.js';
import { MAX_SESSION_NAME_CHARS } from '../../../../preload/shared/contract.js';
import {
  MAX_ACP_SESSION_ID_CHARS,
  MAX_SAVED_TABS,
  SavedTabView,
} from '../../../../preload/shared/lasting-sessions.js';

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

/** A file as the last run left it, holding `tabs`, padded with spaces to `size` bytes. */
async function fileWith(tabs: unknown[], size?: number): Promise<string> {
  const file = await tempFile();
  const text = JSON.stringify({ version: 1, tabs });
  await writeFile(file, size === undefined ? text : text.padEnd(size, ' '));
  return file;
}

const kept = (n: number, lastActivity: number) => ({
  agentName: 'Demo Agent',
  cwd: `/work/project-${n}`,
  acpSessionId: `demo_${n}`,
  lastActivity,
});

/** The file's inode: a write renames a new file over it, so a write changes it. */
const inode = async (file: string) => (await stat(file)).ino;

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

  it('offers the newest first, each under an id the contract accepts', async () => {
    const file = await fileWith([kept(1, 5), kept(2, 9), kept(3, 7)]);
    const offers = await offersIn(file);
    expect(offers.map((one) => one.lastActivity)).toEqual([9, 7, 5]);
    expect(new Set(offers.map((one) => one.id)).size).toBe(3);
    for (const offer of offers) {
      expect(SavedTabView.safeParse(offer).success).toBe(true);
    }
  });

  it(`offers at most ${MAX_SAVED_TABS} tabs of a longer file`, async () => {
    const file = await fileWith(
      Array.from({ length: MAX_SAVED_TABS + 5 }, (_unused, n) => kept(n, n)),
    );
    expect(await offersIn(file)).toHaveLength(MAX_SAVED_TABS);
  });

  it('reads a file of 1 MiB, and sets a larger one aside unread', async () => {
    const fits = await fileWith([kept(1, 5)], 1024 * 1024);
    expect(await offersIn(fits)).toHaveLength(1);
    const large = await fileWith([kept(1, 5)], 1024 * 1024 + 1);
    expect(await offersIn(large)).toEqual([]);
    const names = await readdir(join(large, '..'));
    expect(names.filter((name) => name.startsWith('sessions.json.bad-'))).toHaveLength(1);
  });

  it("reads nothing from a folder in the file's place, and leaves it there", async () => {
    const file = await tempFile();
    await mkdir(file);
    expect(await offersIn(file)).toEqual([]);
    expect(await readdir(join(file, '..'))).toEqual(['sessions.json']);
  });

  it("does not open a pipe in the file's place (a read would wait for a writer)", async () => {
    const file = await tempFile();
    execFileSync('mkfifo', [file]);
    // A writer ready to answer a read with a valid file: reading the pipe would offer its tab.
    const writer = spawn('sh', [
      '-c',
      'printf "%s" "$0" > "$1"',
      JSON.stringify({ version: 1, tabs: [kept(1, 5)] }),
      file,
    ]);
    try {
      expect(await offersIn(file)).toEqual([]);
    } finally {
      writer.kill();
    }
  });

  it('leaves a file it cannot read where it is (a link to nothing)', async () => {
    const file = await tempFile();
    await symlink(join(file, '..', 'gone.json'), file);
    expect(await offersIn(file)).toEqual([]);
    expect(await readdir(join(file, '..'))).toEqual(['sessions.json']);
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

  it('waits 300 ms by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const saved = new SavedTabs(await tempFile());
    saved.track('s1', tab(1), true);
    vi.advanceTimersByTime(299);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(vi.getTimerCount()).toBe(0);
    await saved.flush();
  });

  it('writes when the debounce ends, without a flush', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 300 });
    saved.track('s1', tab(1), true);
    saved.track('s2', tab(2), true);
    // Two changes, one timer: one write.
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(300);
    vi.useRealTimers();
    await expect.poll(() => readdir(join(file, '..'))).toEqual(['sessions.json']);
  });

  it('writes nothing on a flush with nothing pending', async () => {
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 0 });
    await saved.flush();
    expect(await readdir(join(file, '..'))).toEqual([]);
  });

  it('writes a tab closed on its own', async () => {
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 0 });
    saved.track('s1', tab(1), true);
    saved.track('s2', tab(2), true);
    await saved.flush();
    saved.remove('s1');
    await saved.flush();
    expect((await offersIn(file)).map((one) => one.cwd)).toEqual(['/work/project-2']);
  });

  it('writes again only when something of the tab changed', async () => {
    const file = await tempFile();
    let clock = 10;
    const saved = new SavedTabs(file, { debounceMs: 0, now: () => clock });
    const facts = tab(1, { userTitle: 'Mine' });
    saved.track('s1', facts, true);
    await saved.flush();
    const unchanged = await inode(file);
    clock = 20;
    saved.track('s1', { ...facts }, false);
    await saved.flush();
    expect(await inode(file)).toBe(unchanged);
    const changes: [Partial<TabFacts>, boolean][] = [
      [{ agentName: 'Other Agent' }, false],
      [{ cwd: '/work/elsewhere' }, false],
      [{ acpSessionId: 'demo_new' }, false],
      [{ userTitle: 'Renamed' }, false],
      [{}, true],
    ];
    let last = facts;
    for (const [change, active] of changes) {
      const before = await inode(file);
      clock += 1;
      last = { ...last, ...change };
      saved.track('s1', last, active);
      await saved.flush();
      expect(await inode(file), JSON.stringify(change)).not.toBe(before);
    }
    expect((await offersIn(file))[0]).toMatchObject({
      agentName: 'Other Agent',
      cwd: '/work/elsewhere',
      title: 'Renamed',
      lastActivity: clock,
    });
  });

  it('moves the last activity when a tab first shows up or runs a turn, not otherwise', async () => {
    const file = await tempFile();
    let clock = 100;
    const saved = new SavedTabs(file, { debounceMs: 0, now: () => clock });
    const activity = async () => {
      await saved.flush();
      return (await offersIn(file))[0]?.lastActivity;
    };
    saved.track('s1', tab(1), false);
    expect(await activity()).toBe(100);
    clock = 200;
    saved.track('s1', tab(1, { title: 'Renamed' }), false);
    expect(await activity()).toBe(100);
    clock = 300;
    saved.track('s1', tab(1, { title: 'Renamed' }), true);
    expect(await activity()).toBe(300);
  });

  it('keeps only a session id the contract can carry', async () => {
    const file = await tempFile();
    const saved = new SavedTabs(file, { debounceMs: 0 });
    saved.track('empty', tab(1, { acpSessionId: '' }), true);
    saved.track('long', tab(2, { acpSessionId: 'x'.repeat(MAX_ACP_SESSION_ID_CHARS + 1) }), true);
    saved.track('longest', tab(3, { acpSessionId: 'x'.repeat(MAX_ACP_SESSION_ID_CHARS) }), true);
    await saved.flush();
    const offers = await offersIn(file);
    expect(Object.fromEntries(offers.map((one) => [one.cwd, one.reopenable]))).toEqual({
      '/work/project-1': false,
      '/work/project-2': false,
      '/work/project-3': true,
    });
  });

  it('removes its temporary file when the rename fails', async () => {
    const file = await tempFile();
    // A folder that is not empty in the file's place: the rename over it fails.
    await mkdir(file);
    await writeFile(join(file, 'inside'), '');
    const saved = new SavedTabs(file, { debounceMs: 0 });
    saved.track('s1', tab(1), true);
    await saved.flush();
    expect(await readdir(join(file, '..'))).toEqual(['sessions.json']);
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

describe('the offer', () => {
  it('gives a tab taken to reopen once, and the file no longer holds it', async () => {
    const file = await fileWith([kept(1, 5), kept(2, 9)]);
    const saved = new SavedTabs(file, { debounceMs: 0 });
    await saved.load();
    const [newest] = saved.offers();
    expect(saved.take(newest!.id)).toMatchObject({ cwd: '/work/project-2' });
    expect(saved.take(newest!.id)).toBeUndefined();
    expect(saved.offers().map((one) => one.cwd)).toEqual(['/work/project-1']);
    await saved.flush();
    expect((await offersIn(file)).map((one) => one.cwd)).toEqual(['/work/project-1']);
  });

  it('writes nothing when an id not on offer is taken', async () => {
    const file = await fileWith([kept(1, 5)]);
    const saved = new SavedTabs(file, { debounceMs: 0 });
    await saved.load();
    const before = await inode(file);
    expect(saved.take('t99')).toBeUndefined();
    await saved.flush();
    expect(await inode(file)).toBe(before);
  });

  it('forgets the tabs dismissed, in the file too', async () => {
    const file = await fileWith([kept(1, 5), kept(2, 9)]);
    const saved = new SavedTabs(file, { debounceMs: 0 });
    await saved.load();
    saved.dismiss();
    expect(saved.offers()).toEqual([]);
    await saved.flush();
    expect(await offersIn(file)).toEqual([]);
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
