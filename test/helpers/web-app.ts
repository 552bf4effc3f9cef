/** Runs the built web host (`out/main/web.js`) and drives it with Debian's Chromium. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Chromium flags that work on these machines (no network, running as root). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running web host. */
export type WebApp = {
  /** The link the host printed first: it opens the app once. */
  url: string;
  /** A new one-time link, as a person gets by pressing Enter in the host's terminal. */
  newLink(): Promise<string>;
  origin: string;
  configDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
};

/**
 * Starts `node out/main/web.js` with its own config folder and waits for its URL. `reuse`: the
 * config folder of an earlier host, to start the app again as after a quit.
 */
export async function startWebApp(settings?: unknown, reuse?: string): Promise<WebApp> {
  const configDir = reuse ?? (await mkdtemp(join(tmpdir(), 'airlock-web-')));
  if (settings !== undefined) {
    await writeFile(
      join(configDir, 'settings.json'),
      typeof settings === 'string' ? settings : JSON.stringify(settings),
    );
  }
  const child = spawn(process.execPath, [join(root, 'out/main/web.js')], {
    env: { ...process.env, AIRLOCK_CONFIG_DIR: configDir, AIRLOCK_CWD: configDir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  /** Those waiting for the next link the host prints, first first. */
  const waiting: { resolve(link: string): void; reject(error: Error): void }[] = [];
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const match = /(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(line);
    if (match?.[1]) {
      waiting.shift()?.resolve(match[1]);
    }
  });
  child.once('exit', (code) => {
    for (const waiter of waiting.splice(0)) {
      waiter.reject(new Error(`web host exited with code ${code} before printing a link`));
    }
  });
  const nextLink = () =>
    new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
  const url = await nextLink();
  /** Links are asked for one at a time, each answered by the line it asked for. */
  let asking: Promise<unknown> = Promise.resolve();
  const newLink = () => {
    const asked = asking.then(() => {
      const link = nextLink();
      child.stdin!.write('\n');
      return link;
    });
    asking = asked.catch(() => undefined);
    return asked;
  };
  return {
    url,
    newLink,
    origin: new URL(url).origin,
    configDir,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Debian's full Chromium. */
const FULL_CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's headless shell (package `chromium-headless-shell`): the same Blink, with far less of
 * a browser around it, so a page costs about a quarter less CPU.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * Launches headless Chromium: `CHROMIUM_PATH` when set; else, for tests, the headless shell when
 * it is installed; else, and always for `full` (the benches, which measure what a page costs in a
 * whole browser), /usr/bin/chromium.
 */
export function launchChromium({ full = false }: { full?: boolean } = {}): Promise<Browser> {
  const shell = !full && existsSync(HEADLESS_SHELL);
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (shell ? HEADLESS_SHELL : FULL_CHROMIUM),
    args: CHROMIUM_ARGS,
  });
}

/** Passes the page's console errors on to the test's output, less those `ignore` names. */
export function echoPageErrors(page: Page, ignore: (text: string) => boolean = () => false): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && !ignore(message.text())) {
      console.error(`page: ${message.text()}`);
    }
  });
}

/** When the test failed, prints what its page showed (the last 3,000 characters), and `more`. */
export async function reportFailure(
  page: Page,
  task: { result?: { state?: string } },
  more = '',
): Promise<void> {
  if (task.result?.state === 'fail') {
    const shown = (await page.locator('body').textContent())?.slice(-3000);
    console.error(`page at failure:\n${shown}${more ? `\n${more}` : ''}`);
  }
}

/**
 * When the test failed, keeps what its page showed, so that a failure on CI says why: a
 * screenshot and the page's HTML in test-results/ (named after the test), and, printed with
 * `more`, what had the focus and the text of the shown tab's transcript and questions. Each part
 * is kept even when another cannot be had (a page that hangs or has gone).
 */
export async function dumpFailure(
  page: Page,
  task: { name: string; result?: { state?: string } },
  more = '',
): Promise<void> {
  if (task.result?.state !== 'fail') {
    return;
  }
  const dir = join(root, 'test-results');
  const base = join(dir, task.name.replace(/[^\w-]+/g, '-').slice(0, 100));
  const failed = (error: unknown) => `(not had: ${(error as Error).message.split('\n')[0]})`;
  await mkdir(dir, { recursive: true });
  const shot = await page
    .screenshot({ path: `${base}.png`, timeout: 10_000 })
    .then(() => `${base}.png`, failed);
  const html = await page
    .content()
    .then((content) => writeFile(`${base}.html`, content))
    .then(() => `${base}.html`, failed);
  // The shown tab's pane: those of tabs shown before may stay in the page, hidden.
  const shown = await page
    .evaluate(() => {
      const pane = document.querySelector('#session-panel');
      const text = (selector: string) =>
        pane?.querySelector(selector)?.textContent?.slice(-3000) ?? '(none)';
      const active = document.activeElement;
      const focus =
        !active || active === document.body
          ? 'nothing'
          : `${active.tagName.toLowerCase()} ${active.getAttribute('aria-label') ?? active.id}` +
            `${active.closest('#session-panel') ? '' : ' (outside the shown pane)'}`;
      const panes = document.querySelectorAll('main.session').length;
      return (
        `focus: ${focus}\nsession panes in the page: ${panes}\n` +
        `transcript:\n${text('[role="log"][aria-label="Transcript"]')}\n` +
        `questions:\n${text('.dock')}`
      );
    })
    .catch(failed);
  console.error(
    `page at failure (screenshot ${shot}, HTML ${html}):\n${shown}${more ? `\n${more}` : ''}`,
  );
}
