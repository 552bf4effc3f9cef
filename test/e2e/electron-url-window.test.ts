/**
 * The isolated URL window in a real Electron, on a loopback page (only where one exists).
 *
 * Like the app tests in electron.test.ts, this runs only when ELECTRON_OVERRIDE_DIST_PATH names
 * a local Electron, and is reported as skipped otherwise. It bundles a small main process
 * (test/fixtures/electron/url-window-app.ts) with the real url-window module and launches it;
 * the strip and its preload come from the build (`npm run test:e2e` builds first).
 *
 * It never reads the isolated page: the page reports to its own server what it could do, and
 * the test reads that log, the strip (an app page) and the window's `{ status, host }`.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UrlWindowE2E } from '../fixtures/electron/url-window-app.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const electronDist = process.env.ELECTRON_OVERRIDE_DIST_PATH;
const STRIP_URL = 'airlock://app/strip.html';
// Chromium refuses to start as root with its sandbox on, and the isolated window refuses to
// open with it off: as root, the test checks that refusal instead.
const noSandbox = process.getuid?.() === 0;

/** Where the `electron` package would find the executable in ELECTRON_OVERRIDE_DIST_PATH. */
function electronExecutable(dist: string): string {
  switch (process.platform) {
    case 'darwin':
      return join(dist, 'Electron.app', 'Contents', 'MacOS', 'Electron');
    case 'win32':
      return join(dist, 'electron.exe');
    default:
      return join(dist, 'electron');
  }
}

/** Bundles the fixture main process (everything but `electron`) into one ES module. */
async function buildFixture(): Promise<string> {
  const { build } = await import('vite');
  const outDir = await mkdtemp(join(tmpdir(), 'airlock-url-window-e2e-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: join(root, 'test/fixtures/electron/url-window-app.ts'),
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { external: ['electron'], output: { entryFileNames: 'main.mjs' } },
    },
  });
  return join(outDir, 'main.mjs');
}

type Result<K extends keyof UrlWindowE2E> = Awaited<ReturnType<UrlWindowE2E[K]>>;

describe.skipIf(!electronDist)(
  'the isolated URL window in Electron (ELECTRON_OVERRIDE_DIST_PATH)',
  () => {
    let app: ElectronApplication;
    let opened: Result<'open'>;
    let strip: Page | undefined;

    /** Calls the fixture in the main process. */
    const call = async <K extends keyof UrlWindowE2E>(name: K): Promise<Result<K>> =>
      (await app.evaluate(
        (_electron, key: string) =>
          (globalThis as unknown as { airlockE2E: Record<string, () => unknown> }).airlockE2E[
            key
          ]!(),
        name as string,
      )) as Result<K>;

    /** What the strip shows: it is an app page, so the test may read it. */
    const stripShows = () =>
      strip!.evaluate(() => ({
        address: document.getElementById('address')?.textContent,
        domain: document.getElementById('domain')?.textContent,
        security: document.getElementById('security')?.textContent,
        warnings: [...document.querySelectorAll<HTMLElement>('#warnings li')].map(
          (item) => item.dataset.code,
        ),
      }));

    beforeAll(async () => {
      const main = await buildFixture();
      app = await _electron.launch({
        executablePath: electronExecutable(electronDist!),
        args: [...(noSandbox ? ['--no-sandbox'] : []), main],
        env: { ...process.env, AIRLOCK_OUT_DIR: join(root, 'out') },
      });
      await app.evaluate(({ app: electronApp }) => electronApp.whenReady());
      opened = await call('open');
      if (!noSandbox) {
        await vi.waitFor(() => {
          strip = app.windows().find((page) => page.url() === STRIP_URL);
          expect(strip).toBeDefined();
        });
      }
    });

    afterAll(async () => {
      await app?.close();
    });

    it.runIf(noSandbox)('refuses to open with --no-sandbox, and says why', () => {
      expect(opened).toEqual({
        error:
          "The isolated window needs Chromium's sandbox, which is off (--no-sandbox). Open the URL in your browser instead.",
      });
    });

    describe.skipIf(noSandbox)('with the sandbox on', () => {
      const wait = { timeout: 15_000 };

      it('opens the loopback page, and tells the app only its status and host', async () => {
        expect(opened).toHaveProperty('url');
        await vi.waitFor(
          async () => expect(await call('state')).toEqual({ status: 'loaded', host: '127.0.0.1' }),
          wait,
        );
      });

      it('gives the page no Node, no Airlock API, no dialogs and no permissions', async () => {
        await vi.waitFor(async () => {
          const log = await call('log');
          expect(log).toContain('globals:undefined,undefined,undefined,undefined');
          expect(log).toContain('after-alert');
          expect(log).toContain('notification:denied');
        }, wait);
      });

      it('shows the full address, its host highlighted, not https, with the warnings', async () => {
        const { url } = opened as { url: string };
        await vi.waitFor(async () => {
          const shown = await stripShows();
          expect(shown).toMatchObject({ address: url, domain: '127.0.0.1', security: 'Not https' });
          expect(shown.warnings).toEqual(expect.arrayContaining(['http', 'port']));
        }, wait);
      });

      it('refuses the page’s navigation to remote http, and says so in the strip', async () => {
        const { url } = opened as { url: string };
        await vi.waitFor(async () => {
          const shown = await stripShows();
          expect(shown.address).toBe(url);
          expect(shown.warnings).toContain('navigation-refused');
        }, wait);
      });

      it('loads window.open in the same view, and the strip follows it', async () => {
        await call('release');
        await vi.waitFor(async () => {
          const log = await call('log');
          // The page was still there after its navigation was refused.
          expect(log).toContain('still-here');
          expect(log).toContain('/popup');
        }, wait);
        expect(await call('windowCount')).toBe(1);
        const { url } = opened as { url: string };
        await vi.waitFor(
          async () => expect((await stripShows()).address).toBe(`${url}popup`),
          wait,
        );
      });

      it('gives the strip only window.airlockStrip', async () => {
        const globals = await strip!.evaluate(() => ({
          api: Object.keys((window as unknown as { airlockStrip: object }).airlockStrip).sort(),
          airlock: typeof (window as unknown as { airlock?: unknown }).airlock,
          require: typeof (window as unknown as { require?: unknown }).require,
        }));
        expect(globals).toEqual({
          api: ['close', 'onState', 'openInBrowser'],
          airlock: 'undefined',
          require: 'undefined',
        });
      });

      it('closes from the strip, whatever the page’s beforeunload says', async () => {
        await strip!.click('#close');
        expect(await call('closed')).toEqual({ status: 'closed', host: '127.0.0.1' });
        expect(await call('windowCount')).toBe(0);
      });
    });
  },
);
