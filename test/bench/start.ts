/**
 * The start part of `npm run bench` (`npm run bench -- start`): how long a person waits for the
 * app, from launching the web host (`node out/main/web.js`, as `npm run web` does) to the page
 * interactive, and to a session of the demo agent ready.
 *
 * - Cold: a new host and a fresh browser context (no cache) for each run; the time from the
 *   host's launch to its link, from the link to the page interactive (the welcome's New session
 *   button pressed as soon as it shows and the new-session dialog accepting input), and from the
 *   launch to a demo session ready (Start session pressed as soon as the dialog shows).
 * - Warm: the same page reloaded in the same context (its cache kept), to interactive and to the
 *   session shown and ready again.
 * - Each launch and each reload starts on a quiet machine (quiet.ts), as a person's would.
 * - The script the page loaded: all of it (the sum of its JS responses), and the part loaded
 *   before it was interactive; and from the build output, the first screen's script (the entry
 *   chunk and the chunks it imports statically, which the page cannot run without).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, startWebApp } from '../helpers/web-app.js';
import { quiet } from './quiet.js';
import { ms, spread, whole } from './spread.js';

const RUNS = 7;
const renderer = fileURLToPath(new URL('../../out/renderer', import.meta.url));

/**
 * The medians before the renderer was split (1,105 KB of script in one file), measured by this
 * bench on this machine, the median of four bench runs each: the goal is the page interactive on
 * a cold load in at most half of these.
 */
const BEFORE_MS = { linkToInteractive: 399, launchToInteractive: 823 };
/** The first screen's script budget, minified. */
const FIRST_SCREEN_GOAL_KB = 350;

type Run = {
  launchToLink: number;
  linkToInteractive: number;
  launchToInteractive: number;
  launchToReady: number;
  reloadToInteractive: number;
  reloadToReady: number;
  scriptBytes: number;
  firstScreenBytes: number;
  warmScriptBytes: number;
  /** Whether the machine was quiet before the launch and before the reload. */
  quiet: boolean;
};

/** The script files the built page cannot run without: its entry and every static import's. */
export async function firstScreenScript(): Promise<{ files: string[]; bytes: number }> {
  const html = await readFile(join(renderer, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(
      /<script[^>]*\ssrc="\.?\/?([^"]+)"|<link rel="modulepreload"[^>]*href="\.?\/?([^"]+)"/g,
    ),
  ].map((match) => (match[1] ?? match[2])!);
  let bytes = 0;
  for (const file of files) {
    bytes += (await stat(join(renderer, file))).size;
  }
  return { files, bytes };
}

/** Counts the bytes of the page's script responses, and those before `mark()` was called. */
function countScript(page: Page) {
  let all = 0;
  let beforeMark: number | undefined;
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') {
      return;
    }
    pending.push(
      response
        .body()
        .then((body) => {
          all += body.length;
        })
        .catch(() => undefined),
    );
  });
  return {
    async mark() {
      await Promise.all(pending);
      beforeMark = all;
    },
    async total() {
      await Promise.all(pending);
      return { all, beforeMark: beforeMark ?? all };
    },
  };
}

/**
 * Waits, checking once a frame in the page, for the new-session dialog to accept input,
 * pressing the welcome's New session button as soon as it shows. Returns when it did, on the
 * page's clock.
 */
async function interactive(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const dialog = document.querySelector('dialog[open]');
      if (dialog?.querySelector('input:not([disabled])')) {
        return true;
      }
      const composer = document.querySelector('textarea[aria-label="Message"]:not([disabled])');
      if (composer) {
        return true;
      }
      const start = [...document.querySelectorAll('button')].find(
        (button) =>
          button.getAttribute('aria-label') === 'New session' ||
          button.textContent?.trim().startsWith('New session') === true,
      );
      // Pressed once: the dialog may take a frame or more to open.
      if (start && !start.dataset.benchPressed) {
        start.dataset.benchPressed = 'yes';
        start.click();
      }
      return false;
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
}

/** Starts a demo session from the open dialog and waits until it is shown and ready. */
async function sessionReady(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start session' }).click();
  await readyShown(page);
}

/** Waits until the shown session's status reads Ready. */
async function readyShown(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector('[aria-label="Session status"]')?.textContent === 'Ready',
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
}

async function oneRun(browser: Browser): Promise<Run> {
  // The context and its page are made before the host launches: a person's browser is open.
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1200, height: 900 },
  });
  const page = await context.newPage();
  const quietAtLaunch = await quiet();
  const launched = performance.now();
  const app = await startWebApp();
  try {
    const linked = performance.now();
    const script = countScript(page);
    await page.goto(app.url);
    await interactive(page);
    const shown = performance.now();
    await script.mark();
    await sessionReady(page);
    const ready = performance.now();
    const cold = await script.total();

    const warmScript = countScript(page);
    const quietAtReload = await quiet();
    const reloading = performance.now();
    await page.reload();
    // A reload shows the session again (its composer), or the welcome and its dialog.
    await interactive(page);
    const reloaded = performance.now();
    await readyShown(page);
    const readyAgain = performance.now();
    const warm = await warmScript.total();
    return {
      launchToLink: linked - launched,
      linkToInteractive: shown - linked,
      launchToInteractive: shown - launched,
      launchToReady: ready - launched,
      reloadToInteractive: reloaded - reloading,
      reloadToReady: readyAgain - reloading,
      scriptBytes: cold.all,
      firstScreenBytes: cold.beforeMark,
      warmScriptBytes: warm.all,
      quiet: quietAtLaunch && quietAtReload,
    };
  } finally {
    await context.close();
    await app.stop();
  }
}

function kb(bytes: number): string {
  return `${whole(bytes / 1024)} KB`;
}

export async function startBench(): Promise<void> {
  console.log(`\nstart: the web host launched to the page interactive and a demo session ready`);
  const built = await firstScreenScript();
  console.log(
    `  first screen's script (build): ${kb(built.bytes)} in ${built.files.length} file(s) ` +
      `(goal: at most about ${FIRST_SCREEN_GOAL_KB} KB)`,
  );
  const browser = await launchChromium({ full: true });
  const runs: Run[] = [];
  try {
    // One run first to warm the machine's disk cache (the host's files, Chromium), not counted.
    await oneRun(browser);
    for (let run = 0; run < RUNS; run += 1) {
      runs.push(await oneRun(browser));
    }
  } finally {
    await browser.close();
  }
  const line = (label: string, pick: (run: Run) => number, goal = '') =>
    console.log(`  ${label}: ${spread(runs.map(pick), ms)}${goal}`);
  const busy = runs.filter((run) => !run.quiet).length;
  console.log(
    `  ${RUNS} runs, each a new host and a fresh browser context` +
      (busy > 0 ? ` (${busy} of them on a machine that never went quiet):` : ':'),
  );
  line("cold: launch to the host's link", (run) => run.launchToLink);
  const half = (before: number) =>
    ` (goal: median at most ${ms(before / 2)}, half of the ${ms(before)} before the split)`;
  line(
    'cold: link to the page interactive',
    (run) => run.linkToInteractive,
    half(BEFORE_MS.linkToInteractive),
  );
  line(
    'cold: launch to the page interactive',
    (run) => run.launchToInteractive,
    half(BEFORE_MS.launchToInteractive),
  );
  line('cold: launch to a demo session ready', (run) => run.launchToReady);
  line('warm: reload to the page interactive', (run) => run.reloadToInteractive);
  line('warm: reload to the session ready', (run) => run.reloadToReady);
  const bytes = (label: string, pick: (run: Run) => number) =>
    console.log(`  ${label}: ${spread(runs.map(pick), kb)}`);
  bytes('cold: script loaded before interactive', (run) => run.firstScreenBytes);
  bytes('cold: script loaded in all', (run) => run.scriptBytes);
  bytes('warm: script loaded in all', (run) => run.warmScriptBytes);
}
