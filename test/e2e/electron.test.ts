/**
 * The Electron host end to end: packaging (always), and the app in a real Electron (only where
 * one exists).
 *
 * The Electron binary cannot be downloaded on most machines this runs on, so:
 * - packaging runs electron-builder against a stand-in Electron distribution that carries only
 *   the fuse sentinel; electron-builder copies it, flips its fuses and writes app.asar as it
 *   would for the real one;
 * - the app itself runs only when ELECTRON_OVERRIDE_DIST_PATH names a local Electron (the
 *   variable the `electron` package itself honours), and is reported as skipped otherwise.
 * Both need the build (`npm run test:e2e` builds first).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AirlockApi } from '../../preload/shared/contract.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

/** The fuse wire's marker in an Electron binary (see @electron/fuses). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** A fuse byte: '0' disabled, '1' enabled. */
const OFF = 0x30;
const ON = 0x31;

describe('packaging with a stand-in Electron binary', () => {
  let appDir: string;

  beforeAll(async () => {
    const dist = await mkdtemp(join(tmpdir(), 'airlock-electron-dist-'));
    const output = await mkdtemp(join(tmpdir(), 'airlock-package-'));
    // Fuse wire v1 with eight fuses, each set the opposite of what the app wants.
    const wire = Buffer.from([1, 8, ON, OFF, ON, ON, OFF, OFF, OFF, ON]);
    await writeFile(join(dist, 'electron'), Buffer.concat([Buffer.from(FUSE_SENTINEL), wire]), {
      mode: 0o755,
    });
    await mkdir(join(dist, 'resources'));
    await promisify(execFile)(
      process.execPath,
      [
        require.resolve('electron-builder/cli.js'),
        '--dir',
        '--linux',
        '--x64',
        `-c.electronDist=${dist}`,
        `-c.directories.output=${output}`,
      ],
      { cwd: root },
    );
    appDir = join(output, 'linux-unpacked');
  }, 180_000);

  it('turns off run-as-node, NODE_OPTIONS and --inspect, and loads only a checked app.asar', async () => {
    const { getCurrentFuseWire, FuseV1Options } = await import('@electron/fuses');
    const fuses = (await getCurrentFuseWire(join(appDir, 'airlock'))) as Record<number, number>;
    expect(fuses[FuseV1Options.RunAsNode]).toBe(OFF);
    expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(ON);
    expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(OFF);
    expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(OFF);
    expect(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ON);
    expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ON);
  });

  it('ships the build and the production dependencies, and no sources or dev tools', async () => {
    const { listPackage } = (await import('@electron/asar')) as {
      listPackage(path: string, options: object): string[];
    };
    const files = listPackage(join(appDir, 'resources', 'app.asar'), {}).map((file) =>
      file.replaceAll('\\', '/'),
    );
    for (const entry of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/demo-agent.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/node_modules/@agentclientprotocol/sdk/package.json',
      '/node_modules/zod/package.json',
    ]) {
      expect(files).toContain(entry);
    }
    const topLevel = new Set(files.map((file) => file.split('/')[1]));
    expect([...topLevel].sort()).toEqual(['node_modules', 'out', 'package.json']);
    for (const devOnly of ['electron', 'vitest', 'typescript', 'react', 'playwright-core']) {
      expect(files).not.toContain(`/node_modules/${devOnly}`);
    }
    expect(files.filter((file) => file.startsWith('/out/') && file.endsWith('.map'))).toEqual([]);
  });
});

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

const electronDist = process.env.ELECTRON_OVERRIDE_DIST_PATH;

describe.skipIf(!electronDist)('the app in Electron (ELECTRON_OVERRIDE_DIST_PATH)', () => {
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'airlock-electron-'));
    app = await _electron.launch({
      executablePath: electronExecutable(electronDist!),
      // Chromium refuses to start as root with its sandbox on; only then is it turned off.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
      env: { ...process.env, AIRLOCK_CONFIG_DIR: configDir, AIRLOCK_CWD: configDir },
    });
    page = await app.firstWindow();
    await page.waitForFunction(() => document.readyState === 'complete');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows the app page on the app scheme, with only window.airlock and no Node', async () => {
    expect(page.url()).toBe('airlock://app/index.html');
    const globals = await page.evaluate(() => ({
      airlock: Object.keys((window as unknown as { airlock: object }).airlock).sort(),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(globals).toEqual({
      airlock: ['invoke', 'on'],
      require: 'undefined',
      process: 'undefined',
    });
  });

  it('serves the page with the CSP header, which blocks eval', async () => {
    const result = await page.evaluate(async () => {
      const response = await fetch('airlock://app/index.html');
      let evalBlocked = false;
      try {
        // The point: the CSP must refuse it.
        (0, eval)('1');
      } catch {
        evalBlocked = true;
      }
      return { csp: response.headers.get('content-security-policy'), evalBlocked };
    });
    expect(result.csp).toContain("script-src 'self'");
    expect(result.evalBlocked).toBe(true);
  });

  it('denies window.open', async () => {
    expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
  });

  it('runs a turn with the demo agent in a utility process', async () => {
    const text = await page.evaluate(async () => {
      const api = (window as unknown as { airlock: AirlockApi }).airlock;
      const state = await api.invoke('app:getState', {});
      const { key } = await api.invoke('session:create', {
        agentName: 'Demo Agent',
        cwd: state.defaultCwd,
      });
      let reply = '';
      await new Promise<void>((resolve, reject) => {
        let prompted = false;
        api.on('session:onDidChange', (summary) => {
          if (summary.key === key && summary.status === 'ready' && !prompted) {
            prompted = true;
            api.invoke('session:prompt', { key, text: 'hello there' }).catch(reject);
          } else if (summary.key === key && summary.status === 'failed') {
            reject(new Error(summary.error));
          }
        });
        api.on('session:onDidAppend', (batch) => {
          for (const event of batch.key === key ? batch.events : []) {
            if (event.type === 'chunk' && event.role === 'agent') {
              reply += event.text;
            } else if (event.type === 'turn_end') {
              resolve();
            }
          }
        });
      });
      return reply;
    });
    expect(text.length).toBeGreaterThan(0);
  });

  it("opens the demo agent's /url page only on consent, in the isolated window", async () => {
    const windowsBefore = app.windows().length;
    // Everything the app can see, through its own bridge: the card, then what opening said.
    const outcome = await page.evaluate(async () => {
      const api = (window as unknown as { airlock: AirlockApi }).airlock;
      const state = await api.invoke('app:getState', {});
      const { key } = await api.invoke('session:create', {
        agentName: 'Demo Agent',
        cwd: state.defaultCwd,
      });
      const card = await new Promise<{ cardKey: string; href: string }>((resolve, reject) => {
        let prompted = false;
        api.on('session:onDidChange', (summary) => {
          if (summary.key === key && summary.status === 'ready' && !prompted) {
            prompted = true;
            api.invoke('session:prompt', { key, text: '/url' }).catch(reject);
          }
        });
        api.on('session:onDidAppend', (batch) => {
          for (const event of batch.key === key ? batch.events : []) {
            if (event.type === 'url_elicitation') {
              resolve({ cardKey: event.cardKey, href: event.url.href });
            }
          }
        });
      });
      try {
        await api.invoke('elicitation:openUrl', { key, cardKey: card.cardKey, where: 'window' });
        return { ...card, opened: true as const };
      } catch (error) {
        return { ...card, opened: false as const, error: (error as Error).message };
      }
    });
    expect(outcome.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    if (process.getuid?.() === 0) {
      // Started with --no-sandbox (root): the isolated window refuses, in words.
      expect(outcome).toMatchObject({
        opened: false,
        error:
          "The isolated window needs Chromium's sandbox, which is off (--no-sandbox). Open the URL in your browser instead.",
      });
      expect(app.windows()).toHaveLength(windowsBefore);
      return;
    }
    expect(outcome.opened).toBe(true);
    // The strip is an app page the test may read; the page itself stays out of reach.
    let strip: Page | undefined;
    await vi.waitFor(
      () => {
        strip = app.windows().find((opened) => opened.url() === 'airlock://app/strip.html');
        expect(strip).toBeDefined();
      },
      { timeout: 15_000 },
    );
    await strip!.waitForFunction(
      (href) => document.getElementById('address')?.textContent === href,
      outcome.href,
    );
  });
});
