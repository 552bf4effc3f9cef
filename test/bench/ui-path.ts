/**
 * The whole path to the UI (`npm run bench -- ui`): the flood agent's updates through the core,
 * the web host and its WebSocket into the renderer in Chromium.
 *
 * In each run, a fresh web host and browser start a session with the flood agent and send one
 * prompt; the page counts, from the moment it sends the prompt:
 *
 * - updates reaching the renderer: the updates' text in the socket's messages, counted by a
 *   listener that runs before the app's own on every message (the app's parse and contract
 *   check of that message come after it);
 * - updates applied to the store: the agent's text in the session's store (see page-store.ts),
 *   over the text of one update. The store takes in text at a pace set per frame (see
 *   renderer/src/state/frame-budget.ts), so this rate is the renderer's chosen pace, not only
 *   its speed.
 *
 * Then, after a full garbage collection, the JS heap of the page holding that one session (V8's
 * used heap, `Runtime.getHeapUsage`), and how much of it came after the session was ready.
 */
import type { Page } from 'playwright-core';
import { CHUNK_TEXT } from '../fixtures/agents/flood-agent.js';
import { appPage } from '../helpers/app-page.js';
import { launchChromium, startWebApp } from '../helpers/web-app.js';
import { floodArgs } from './forwarding.js';
import { exposeStore, storeReplyText, type StoreWindow } from './page-store.js';
import { spread, whole } from './spread.js';

/** How many updates one run streams: of 100 characters each, 10 MB of text. */
const UPDATES = 100_000;
const RUNS = 3;

/** What the page records, in its own `performance.now()` milliseconds. */
type PathTimes = {
  /** The `session:prompt` call leaving the page. */
  prompt?: number;
  /** Chunk events that reached the page so far, and when the last of them did. */
  chunks: number;
  lastChunk?: number;
  /** When the store first held the text of every update. */
  stored?: number;
  /** The agent text the store holds so far, in characters, and when it last grew. */
  storedChars: number;
  lastStored?: number;
};
type PathWindow = { airlockPath: PathTimes };

/** Counts what reaches the page's sockets and notes when the prompt leaves; before the app loads. */
async function installCounter(page: Page): Promise<void> {
  await page.addInitScript(
    (piece: string) => {
      const times: PathTimes = { chunks: 0, storedChars: 0 };
      (window as unknown as PathWindow).airlockPath = times;
      const Socket = window.WebSocket;
      window.WebSocket = class extends Socket {
        constructor(...args: ConstructorParameters<typeof WebSocket>) {
          super(...args);
          // The first listener of the socket: it runs before the app's own.
          this.addEventListener('message', (event) => {
            const data = event.data;
            if (typeof data !== 'string' || !data.includes('"channel":"session:onDidAppend"')) {
              return;
            }
            // The core joins a batch's pieces of text: the updates are counted by their text,
            // each the flood agent's paragraph, as JSON writes it.
            let found = 0;
            for (
              let at = data.indexOf(piece);
              at !== -1;
              at = data.indexOf(piece, at + piece.length)
            ) {
              found++;
            }
            if (found > 0) {
              times.chunks += found;
              times.lastChunk = performance.now();
            }
          });
        }

        send(data: Parameters<WebSocket['send']>[0]): void {
          if (typeof data === 'string' && data.includes('"channel":"session:prompt"')) {
            times.prompt = performance.now();
          }
          super.send(data);
        }
      };
    },
    JSON.stringify(CHUNK_TEXT).slice(1, -1),
  );
}

/** Notes when the store first holds `chars` characters of the active session's agent text. */
function watchStore(page: Page, chars: number): Promise<void> {
  return page.evaluate((target) => {
    const store = (window as unknown as StoreWindow).airlockBenchStore();
    const times = (window as unknown as PathWindow).airlockPath;
    const unsubscribe = store.subscribe(() => {
      const state = store.getState();
      const rows = state.activeKey ? (state.transcripts[state.activeKey]?.rows ?? []) : [];
      let stored = 0;
      for (const row of rows) {
        // Text past a message's caps is held back in overflow rows (state/text-cap.ts).
        if ((row.kind === 'text' || row.kind === 'overflow') && row.role === 'agent') {
          stored += row.text.length;
        }
      }
      if (stored > times.storedChars) {
        times.storedChars = stored;
        times.lastStored = performance.now();
      }
      if (stored >= target) {
        times.stored = performance.now();
        unsubscribe();
      }
    });
  }, chars);
}

async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return heap.usedSize / 1024 / 1024;
}

/** How long the store may take to hold the whole reply before the run fails. */
const STORE_TIMEOUT_MS = 300_000;

/**
 * Waits for the store to hold the text of every update. On a timeout it says how far the socket
 * and the store got, and whether the store had stopped or was still going (too slow).
 */
async function storeFilled(page: Page): Promise<void> {
  try {
    await page.waitForFunction(
      () => (window as unknown as PathWindow).airlockPath.stored !== undefined,
      undefined,
      { timeout: STORE_TIMEOUT_MS, polling: 100 },
    );
  } catch (error) {
    const progress = await page
      .evaluate(() => {
        const times = (window as unknown as PathWindow).airlockPath;
        const now = performance.now();
        return {
          ...times,
          sincePrompt: now - (times.prompt ?? now),
          sinceStored: now - (times.lastStored ?? now),
        };
      })
      .catch(() => undefined);
    if (!progress) {
      throw error;
    }
    const target = UPDATES * CHUNK_TEXT.length;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    throw new Error(
      `the store held ${whole(progress.storedChars)} of ${whole(target)} characters ` +
        `${seconds(progress.sincePrompt)} after the prompt (last grew ${seconds(progress.sinceStored)} ` +
        `before); the socket had carried ${whole(progress.chunks)} of ${whole(UPDATES)} updates`,
      { cause: error },
    );
  }
}

type PathRun = {
  toSocket: number;
  toStore: number;
  heapMb: number;
  transcriptMb: number;
  complete: boolean;
};

async function pathRun(): Promise<PathRun> {
  const app = await startWebApp({
    agent_servers: {
      'Flood Agent': { command: process.execPath, args: floodArgs(UPDATES) },
    },
  });
  const browser = await launchChromium({ full: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await exposeStore(page);
    await installCounter(page);
    await page.goto(app.url);
    await appPage(() => page).startSession('Flood Agent');
    const status = page.getByRole('status', { name: 'Session status' });
    const before = await heapAfterGc(page);

    await watchStore(page, UPDATES * CHUNK_TEXT.length);
    await page.getByRole('textbox', { name: 'Message' }).fill('flood');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await storeFilled(page);
    await status.filter({ hasText: 'Ready' }).waitFor();
    const times = await page.evaluate(() => (window as unknown as PathWindow).airlockPath);
    if (times.chunks !== UPDATES || times.prompt === undefined) {
      throw new Error(`the page's socket carried ${times.chunks} of the ${UPDATES} updates`);
    }
    const text = await storeReplyText(page);
    const heapMb = await heapAfterGc(page);
    return {
      toSocket: times.chunks / (((times.lastChunk ?? NaN) - times.prompt) / 1000),
      toStore: UPDATES / (((times.stored ?? NaN) - times.prompt) / 1000),
      heapMb,
      transcriptMb: heapMb - before,
      complete: text === CHUNK_TEXT.repeat(UPDATES),
    };
  } finally {
    await browser.close();
    await app.stop();
  }
}

/** Runs the whole-path part and prints its figures. */
export async function uiPathBench(): Promise<void> {
  const runs: PathRun[] = [];
  for (let run = 0; run < RUNS; run++) {
    runs.push(await pathRun());
  }
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  const over = (figure: (run: PathRun) => number, format: (value: number) => string) =>
    spread(runs.map(figure), format);
  const complete = runs.filter((run) => run.complete).length;
  console.log(
    `whole path to the UI: the flood agent's ${whole(UPDATES)} updates through the core, the ` +
      `web host and its WebSocket into Chromium, ${RUNS} fresh browsers:`,
  );
  console.log(
    `  updates/s reaching the renderer's socket listener: ${over((run) => run.toSocket, whole)}`,
  );
  console.log(
    `  updates/s applied to the renderer's store (paced per frame by design): ` +
      `${over((run) => run.toStore, whole)}; every character in the store: ` +
      `${complete} of ${RUNS} runs`,
  );
  console.log(
    `  JS heap of the renderer page after a full GC, holding one session with these ` +
      `${whole(UPDATES)} updates (${whole((UPDATES * CHUNK_TEXT.length) / 1e6)} MB of text): ` +
      `${over((run) => run.heapMb, mb)}; of which added since before the prompt: ` +
      over((run) => run.transcriptMb, mb),
  );
  if (complete < RUNS) {
    process.exitCode = 1;
  }
}
