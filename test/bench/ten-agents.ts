/**
 * The agents part of `npm run bench` (`npm run bench -- agents`): ten demo agents, each its own
 * process (ten agents of the settings file running the built demo agent), in ten tabs of one page, each streaming a 1 MB reply (`/long 1000`) at once, through the web
 * host into Chromium, in fresh browsers.
 *
 * - The shown tab's time from the ten prompts to its whole reply on screen, untraced (goal: the
 *   renderer part's pace for 1 MB, a median of at most 1 s), and the CPU time each kind of
 *   process used meanwhile (where /proc tells it): the agents, the web host, Chromium.
 * - The renderer main thread's tasks over 50 ms of CPU while the ten stream (goal: none), from
 *   Chromium's trace of the same turns in another fresh browser (see renderer.ts).
 * - Switching tabs once the turns are over: from the click on a tab to the frame that shows its
 *   transcript, in the page; and the main thread's CPU time for all of it, traced, until the
 *   list holds still (goal: at most 16 ms, one frame).
 * - The page's JS heap after GC per idle tab holding its 1 MB transcript: the heap with the ten
 *   tabs less the heap with none, over ten (goal: at most 5 MB a tab); and less the heap with
 *   the ten tabs open but empty, which is the transcripts alone.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, JSHandle, Page } from 'playwright-core';
import { longText } from '../../main/demo-agent/script.js';
import { appPage } from '../helpers/app-page.js';
import { launchChromium, startWebApp, type WebApp } from '../helpers/web-app.js';
import { exposeStore, type StoreWindow } from './page-store.js';
import { cpuBetween, cpuByKind, PROCESS_KINDS, type ProcessKind } from './process-cpu.js';
import { traceTasks, type Tasks } from './renderer.js';
import { ms, spread, whole } from './spread.js';

const RUNS = 3;
const TABS = 10;
const REPLY = longText(1_000_000);
/** Tab switches measured in each run, each to another tab. */
const SWITCHES = 6;
/** The longest any one wait may take: a turn of ten 1 MB replies on a busy machine included. */
const WAIT_MS = 300_000;

/** The name of agent `n` (from 1) in the settings file. */
const agentName = (n: number) => `Demo ${n}`;
/** Ten agents, each running the built demo agent as a process of its own. */
const SETTINGS = {
  agent_servers: Object.fromEntries(
    Array.from({ length: TABS }, (_, tab) => [
      agentName(tab + 1),
      {
        command: process.execPath,
        args: [fileURLToPath(new URL('../../out/main/demo-agent.js', import.meta.url))],
      },
    ]),
  ),
};

/** The goals, as the brief of this part sets them. */
const GOALS = { shownMs: 1_000, switchMs: 16, heapPerTabMb: 5 };

/** Runs `wait` (a wait in the page with a deadline); when it fails, says what did not happen. */
async function until(what: string, wait: Promise<JSHandle<unknown>>): Promise<void> {
  try {
    await wait;
  } catch (error) {
    throw new Error(
      `bench: ${what} did not happen within ${whole(WAIT_MS / 1000)} s ` +
        `(${(error as Error).message.split('\n')[0]})`,
    );
  }
}

/** The page's JS heap in use after garbage collection, in bytes (through the DevTools protocol). */
async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    // Twice: what the first collection frees can let more go in the second.
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value;
    if (used === undefined) {
      throw new Error('bench: Chromium reported no JSHeapUsedSize metric');
    }
    return used;
  } finally {
    await cdp.detach();
  }
}

/** A page of the app in `browser`, with the store exposed, and no session open. */
async function openApp(browser: Browser, app: WebApp): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await exposeStore(page);
  await page.goto(app.url);
  await page.locator('#sidebar').waitFor({ state: 'attached', timeout: 60_000 });
  return page;
}

/**
 * Opens a session with each of the {@link TABS} demo agents, the last shown; returns their keys,
 * in tab order.
 */
async function openTabs(page: Page): Promise<string[]> {
  const app = appPage(() => page);
  for (let tab = 0; tab < TABS; tab++) {
    await app.startSession(agentName(tab + 1));
  }
  const keys = await page.evaluate(() =>
    (window as unknown as StoreWindow)
      .airlockBenchStore()
      .getState()
      .sessions.map((session) => session.key),
  );
  if (keys.length !== TABS) {
    throw new Error(`bench: ${TABS} sessions were started, the page shows ${keys.length}`);
  }
  return keys;
}

/**
 * Sends `/long 1000` to every tab at once (through the page's own API, in one task, so none waits
 * on the UI of another), and waits for the shown tab's whole reply on screen: its turn's end
 * drawn. Returns that time, on the page's clock; then waits for every tab's turn to be over.
 */
async function tenTurns(
  page: Page,
  keys: string[],
): Promise<{ shownMs: number; cpu: Map<ProcessKind, number> | undefined }> {
  const cpuBefore = await cpuByKind();
  await page.evaluate((all) => {
    const store = (window as unknown as StoreWindow).airlockBenchStore();
    Object.assign(window, { airlockBenchSent: performance.now() });
    for (const key of all) {
      void store.api.invoke('session:prompt', { key, text: '/long 1000' });
    }
  }, keys);
  await until(
    "the shown tab's turn end on screen",
    page.waitForFunction(
      () =>
        [...document.querySelectorAll('#session-panel [role="status"][aria-label="Turn ended"]')]
          .at(-1)
          ?.textContent?.includes('Done') === true,
      undefined,
      { polling: 'raf', timeout: WAIT_MS },
    ),
  );
  const cpu = cpuBetween(cpuBefore, await cpuByKind());
  const shownMs = await page.evaluate(
    () => performance.now() - (window as unknown as { airlockBenchSent: number }).airlockBenchSent,
  );
  await until(
    `every tab's turn over (${TABS} tabs)`,
    page.waitForFunction(
      (all) => {
        const state = (window as unknown as StoreWindow).airlockBenchStore().getState();
        return all.every(
          (key) =>
            state.transcripts[key]?.rows.at(-1)?.kind === 'turn_end' &&
            state.sessions.find((session) => session.key === key)?.status === 'ready',
        );
      },
      keys,
      { polling: 'raf', timeout: WAIT_MS },
    ),
  );
  return { shownMs, cpu };
}

/** The tabs whose store does not hold the reply whole, each with what it holds. */
async function missingReplies(page: Page, keys: string[]): Promise<string[]> {
  const held = await page.evaluate((all) => {
    const state = (window as unknown as StoreWindow).airlockBenchStore().getState();
    return all.map((key) => {
      const rows = state.transcripts[key]?.rows ?? [];
      const from = rows.findLastIndex((row) => row.kind === 'prompt') + 1;
      return rows
        .slice(from)
        .map((row) => (row.kind === 'text' && row.role === 'agent' ? row.text : ''))
        .join('');
    });
  }, keys);
  return held.flatMap((text, tab) =>
    text === REPLY
      ? []
      : [`tab ${tab + 1} holds ${whole(text.length)} of ${whole(REPLY.length)} characters`],
  );
}

/**
 * Clicks tab `index` in the page and times it: to the end of the first frame that shows the
 * tab's transcript (a new list, its turn's end drawn), and to the list holding still (its rows
 * and position the same two frames running). Both from the click, on the page's clock.
 */
function switchTab(page: Page, index: number): Promise<{ shownMs: number; stillMs: number }> {
  return page.evaluate(
    async ({ tab, deadline }) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      // A task of its own after the frame: the frame's layout and paint are done by then.
      const afterFrame = () =>
        new Promise<number>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(performance.now());
          channel.port2.postMessage(null);
        });
      const target = document.querySelectorAll<HTMLElement>('[role="tab"]')[tab];
      // The shown tab's pane (the panel it controls): those of tabs shown before may stay drawn,
      // hidden.
      const before = document.querySelector('#session-panel [role="log"][aria-label="Transcript"]');
      if (!target || !before) {
        throw new Error(`bench: no tab ${tab + 1}, or no transcript shown before the switch`);
      }
      const shown = () => {
        const log = document.querySelector('#session-panel [role="log"][aria-label="Transcript"]');
        return (
          log !== null &&
          log !== before &&
          [...log.querySelectorAll('[role="status"][aria-label="Turn ended"]')]
            .at(-1)
            ?.textContent?.includes('Done') === true
        );
      };
      const where = () => {
        const scroller = document.querySelector('#session-panel [data-virtuoso-scroller="true"]');
        return `${scroller?.scrollTop} ${[
          ...(scroller?.querySelectorAll('[data-item-index]') ?? []),
        ]
          .map((item) => item.getAttribute('data-item-index'))
          .join(',')}`;
      };
      const clicked = performance.now();
      target.click();
      let shownAt: number | undefined;
      for (let n = 0; n < deadline && shownAt === undefined; n++) {
        await frame();
        if (shown()) {
          shownAt = await afterFrame();
        }
      }
      if (shownAt === undefined) {
        throw new Error(`bench: tab ${tab + 1}'s transcript was not shown ${deadline} frames on`);
      }
      let last = where();
      let stillAt = shownAt;
      for (let n = 0, same = 0; same < 2; n++) {
        if (n >= deadline) {
          throw new Error(`bench: tab ${tab + 1}'s list still moved ${deadline} frames on`);
        }
        await frame();
        const now = where();
        if (now === last) {
          same++;
        } else {
          same = 0;
          last = now;
          stillAt = await afterFrame();
        }
      }
      return { shownMs: shownAt - clicked, stillMs: stillAt - clicked };
    },
    { tab: index, deadline: 600 },
  );
}

/** The tabs to switch to in turn: each one other than the tab shown before it. */
function switchOrder(): number[] {
  return Array.from({ length: SWITCHES }, (_, n) => (n * 3) % (TABS - 1));
}

type Switch = { shownMs: number; stillMs: number; cpuMs: number; mostCpuMs: number };

type AgentsRun = {
  shownMs: number;
  /** The CPU time each kind of process used until the shown reply was on screen. */
  cpu: Map<ProcessKind, number> | undefined;
  streaming: Tasks;
  switches: Switch[];
  heapPerTab: number;
  heapPerTabOverEmpty: number;
  problems: string[];
};

/** One run: the turns untraced, the switches and the heap in one fresh browser; traced in another. */
async function agentsRun(): Promise<AgentsRun> {
  const problems: string[] = [];
  let untraced: Omit<AgentsRun, 'streaming' | 'problems'>;
  {
    const app = await startWebApp(SETTINGS);
    const browser = await launchChromium({ full: true });
    try {
      const page = await openApp(browser, app);
      const heapNone = await heapAfterGc(page);
      const keys = await openTabs(page);
      const heapEmpty = await heapAfterGc(page);
      const { shownMs, cpu } = await tenTurns(page, keys);
      problems.push(...(await missingReplies(page, keys)));
      const switches: Switch[] = [];
      for (const tab of switchOrder()) {
        const { shownMs, stillMs } = await switchTab(page, tab);
        // The same switch again, traced: away to the next tab first, untimed.
        await switchTab(page, (tab + 1) % TABS);
        const tasks = await traceTasks(browser, page, async () => {
          await switchTab(page, tab);
        });
        switches.push({ shownMs, stillMs, cpuMs: tasks.cpuMs, mostCpuMs: tasks.mostCpuMs });
      }
      const heapFull = await heapAfterGc(page);
      untraced = {
        shownMs,
        cpu,
        switches,
        heapPerTab: (heapFull - heapNone) / TABS,
        heapPerTabOverEmpty: (heapFull - heapEmpty) / TABS,
      };
    } finally {
      await browser.close();
      await app.stop();
    }
  }
  const app = await startWebApp(SETTINGS);
  const browser = await launchChromium({ full: true });
  try {
    const page = await openApp(browser, app);
    const keys = await openTabs(page);
    const streaming = await traceTasks(browser, page, async () => {
      await tenTurns(page, keys);
    });
    problems.push(...(await missingReplies(page, keys)).map((problem) => `traced: ${problem}`));
    return { ...untraced, streaming, problems };
  } finally {
    await browser.close();
    await app.stop();
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** Runs the agents part and prints its figures. */
export async function tenAgentsBench(): Promise<void> {
  const runs: AgentsRun[] = [];
  const failures: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    try {
      runs.push(await agentsRun());
    } catch (error) {
      failures.push(`run ${run + 1}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const over = (figure: (run: AgentsRun) => number, format: (value: number) => string) =>
    spread(runs.map(figure), format);
  const switches = runs.flatMap((run) => run.switches);
  const overSwitches = (figure: (tab: Switch) => number) => spread(switches.map(figure), ms);
  console.log(
    `agents: ${TABS} demo agents, each its own process, in ${TABS} tabs of one page, each streaming 1 MB at once ` +
      `through the web host into Chromium, ${RUNS} runs of two fresh browsers:`,
  );
  for (const failure of failures) {
    console.log(`  failed: ${failure}`);
  }
  console.log(
    `  every tab's reply whole in the store: ${runs.filter((run) => run.problems.length === 0).length} ` +
      `of ${RUNS} runs`,
  );
  runs.forEach((run, n) => {
    for (const problem of run.problems) {
      console.log(`    run ${n + 1}: ${problem}`);
    }
  });
  console.log(
    `  the shown tab's whole reply on screen in (untraced): ${over((run) => run.shownMs, ms)} ` +
      `(goal: median at most ${ms(GOALS.shownMs)})`,
  );
  const measured = runs.filter((run) => run.cpu !== undefined);
  if (measured.length > 0) {
    const used = PROCESS_KINDS.map(
      (kind) =>
        `${kind} ${spread(
          measured.map((run) => run.cpu!.get(kind)!),
          ms,
        )}`,
    );
    console.log(`    meanwhile, CPU time by process: ${used.join('; ')}`);
  }
  console.log(`  traced in another fresh browser, the same ${TABS} turns:`);
  console.log(
    `  main-thread tasks over 50 ms of CPU (goal: none): ` +
      `${over((run) => run.streaming.longCpu, whole)}; over 50 ms of wall time ` +
      `${over((run) => run.streaming.long, whole)}; ` +
      `most CPU time in one task ${over((run) => run.streaming.mostCpuMs, ms)}`,
  );
  console.log(
    `    the longest task's wall time: ${over((run) => run.streaming.longestMs, ms)}; ` +
      `main-thread CPU time for the turns: ${over((run) => run.streaming.cpuMs, ms)}`,
  );
  console.log(`  switching tabs after the turns, ${switches.length} switches:`);
  console.log(
    `    main-thread CPU time from the click until the list holds still (traced; goal: at most ` +
      `${ms(GOALS.switchMs)}): ${overSwitches((tab) => tab.cpuMs)}; most in one task ` +
      `${overSwitches((tab) => tab.mostCpuMs)}`,
  );
  console.log(
    `    from the click to the end of the frame that shows the transcript: ` +
      `${overSwitches((tab) => tab.shownMs)}; to the list holding still: ` +
      `${overSwitches((tab) => tab.stillMs)}`,
  );
  console.log(
    `  JS heap after GC per idle tab with its 1 MB transcript (goal: at most ` +
      `${GOALS.heapPerTabMb} MB): ${over((run) => run.heapPerTab, mb)} over no tab; ` +
      `${over((run) => run.heapPerTabOverEmpty, mb)} over the tabs empty`,
  );
  if (failures.length > 0 || runs.some((run) => run.problems.length > 0)) {
    process.exitCode = 1;
  }
}
