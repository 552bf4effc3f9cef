/**
 * The renderer part of `npm run bench` (`npm run bench -- renderer`): a 1 MB reply streamed by
 * the demo agent as 10,000 chunks through the web host into Chromium, on a cold page and again
 * once the page is warm, in fresh browsers.
 *
 * - Time from sending the prompt until the whole reply is on screen, untraced: on two cores,
 *   Chromium's tracing takes CPU time from what it measures.
 * - The rows the list drew while the reply streamed in: following a fast stream, the rows that
 *   pass by unseen need not be drawn at all.
 * - The renderer main thread's tasks over 50 ms (goal: none), from Chromium's trace of the same
 *   turns in another fresh browser, with their wall and CPU time, and the CPU time of all the
 *   turn's main-thread tasks (which, unlike the times, does not depend on what else the machine
 *   runs). A trace with no main-thread tasks at all measured nothing and throws.
 * - That all the text arrived: the store holds the reply, character for character, and every
 *   paragraph of it is on screen, in order and whole, when the list is scrolled over it.
 */
import type { Browser, Page } from 'playwright-core';
import { longText } from '../../main/demo-agent/script.js';
import { appPage } from '../helpers/app-page.js';
import { launchChromium, startWebApp } from '../helpers/web-app.js';
import { exposeStore, lastPromptRow, storeReplyText, storeRowTexts } from './page-store.js';
import { ms, spread, whole } from './spread.js';

const RUNS = 3;
const REPLY = longText(1_000_000);
/** The reply's paragraphs: `N. text`, as the demo agent writes them. */
const PARAGRAPHS = REPLY.split('\n\n').filter(Boolean);

/**
 * Sends `text` and waits until the turn is over and its whole reply is on screen. The waits
 * check the DOM once a frame by attribute: a role query walks the accessibility tree, and at
 * every frame of a turn that would cost the page more than some of what it measures.
 */
async function runInBrowser(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const status = (expected: string) =>
    page.waitForFunction(
      (want) =>
        document.querySelector('[aria-label="Session status"]')?.textContent?.startsWith(want) ===
        true,
      expected,
      { polling: 'raf', timeout: 300_000 },
    );
  await status('Working');
  await status('Ready');
  // The list follows the reply, so once it is all in, the turn's end is the last row shown (an
  // earlier turn's end has long left the virtualised list by then).
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[role="status"][aria-label="Turn ended"]')]
        .at(-1)
        ?.textContent?.includes('Done') === true,
    undefined,
    { polling: 'raf', timeout: 300_000 },
  );
}

/**
 * Runs a turn and counts the rows the list drew for it (each row drawn at least once, by its
 * index), and the rows the turn added. `ms`: the turn alone, from the prompt to the whole reply
 * on screen; the counting after it is not part of it (it reads every row from the store).
 */
async function countDrawn(page: Page, turn: () => Promise<void>): Promise<Drawn> {
  await page.evaluate(() => {
    const drawn = new Set<number>();
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          const index = node instanceof Element ? node.getAttribute('data-item-index') : null;
          if (index !== null) {
            drawn.add(Number(index));
          }
        }
      }
    });
    const list = document.querySelector('[data-virtuoso-scroller="true"]');
    if (!list) {
      throw new Error('bench: no transcript list on the page');
    }
    observer.observe(list, { childList: true, subtree: true });
    Object.assign(window, { airlockBenchDrawn: { drawn, observer } });
  });
  const start = performance.now();
  await turn();
  const ms = performance.now() - start;
  const prompt = await lastPromptRow(page);
  const drawn = await page.evaluate((from) => {
    const { drawn, observer } = (
      window as unknown as { airlockBenchDrawn: { drawn: Set<number>; observer: MutationObserver } }
    ).airlockBenchDrawn;
    observer.disconnect();
    return [...drawn].filter((index) => index > from).length;
  }, prompt);
  const rows = (await storeRowTexts(page, prompt + 1)).length;
  return { ms, drawn, rows };
}

type Drawn = { ms: number; drawn: number; rows: number };

/** The renderer main thread's tasks: how many, and those over 50 ms of wall time. */
export type Tasks = {
  all: number;
  long: number;
  /** Those over 50 ms of CPU time: what the main thread itself spent, however busy the machine. */
  longCpu: number;
  longestMs: number;
  longestCpuMs: number;
  mostCpuMs: number;
  /** The CPU time of all of them: what the turn cost the main thread, however long it waited. */
  cpuMs: number;
};

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
};

/**
 * Runs `action` under Chromium's tracing and reads the renderer main thread's tasks from it:
 * their wall time, and their thread (CPU) time. The two differ when the thread is preempted,
 * which on a small machine running the agent and the host too is often.
 */
export async function traceTasks(
  browser: Browser,
  page: Page,
  action: () => Promise<void>,
): Promise<Tasks> {
  await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
  await action();
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  const mainThreads = new Set(
    trace.traceEvents
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const tasks = trace.traceEvents.filter(
    (event) =>
      event.name === 'RunTask' && event.ph === 'X' && mainThreads.has(`${event.pid}:${event.tid}`),
  );
  // "0 over 50 ms" from a trace that recorded nothing would be a lie.
  if (tasks.length === 0) {
    throw new Error(
      `the trace holds no renderer main-thread tasks (${trace.traceEvents.length} events, ` +
        `${mainThreads.size} CrRendererMain threads): the long-task figures would measure nothing`,
    );
  }
  const long = tasks.filter((task) => (task.dur ?? 0) > 50_000);
  const longest = long.reduce<TraceEvent | undefined>(
    (max, task) => (max && (max.dur ?? 0) >= (task.dur ?? 0) ? max : task),
    undefined,
  );
  return {
    all: tasks.length,
    long: long.length,
    longCpu: tasks.filter((task) => (task.tdur ?? 0) > 50_000).length,
    longestMs: (longest?.dur ?? 0) / 1000,
    longestCpuMs: (longest?.tdur ?? 0) / 1000,
    mostCpuMs: tasks.reduce((most, task) => Math.max(most, task.tdur ?? 0), 0) / 1000,
    cpuMs: tasks.reduce((sum, task) => sum + (task.tdur ?? 0), 0) / 1000,
  };
}

/**
 * The paragraphs on screen in the list's rows from `from` on, read by scrolling the list from top
 * to bottom: each `N. text`, from the numbered lists the markdown of the reply renders to. The
 * viewport is made tall for the read, so the list needs tens of steps, not hundreds.
 */
async function screenParagraphs(page: Page, from: number): Promise<Map<number, string[]>> {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport?.width ?? 1200, height: 8_000 });
  try {
    const scroller = page
      .getByRole('log', { name: 'Transcript' })
      .locator('[data-virtuoso-scroller="true"]');
    return await scroller
      .evaluate(async (element, first) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        // Rows are measured as they come into view, and the list moves to keep what is shown in
        // place: a read waits until the rows drawn and the position hold still for two frames.
        const settle = async () => {
          let last = '';
          for (let n = 0; n < 60; n++) {
            await frame();
            const now = `${element.scrollTop} ${[...element.querySelectorAll('[data-item-index]')]
              .map((item) => item.getAttribute('data-item-index'))
              .join(',')}`;
            if (now === last) {
              return;
            }
            last = now;
          }
        };
        const rows = new Map<number, string[]>();
        const read = () => {
          for (const item of element.querySelectorAll('[data-item-index]')) {
            const index = Number(item.getAttribute('data-item-index'));
            if (index < first || rows.has(index)) {
              continue;
            }
            rows.set(
              index,
              [...item.querySelectorAll('ol')].flatMap((list) =>
                [...list.children].map(
                  (entry, n) =>
                    `${Number(list.getAttribute('start') ?? 1) + n}. ${(entry.textContent ?? '').trim()}`,
                ),
              ),
            );
          }
        };
        // Half a viewport at a time, so consecutive reads overlap; a second pass reads any row a
        // first one passed over while the list was moving. A row missed twice is reported missing.
        // A wheel turn up first, as a reader's: the list stops following the end.
        element.dispatchEvent(new WheelEvent('wheel', { deltaY: -1, bubbles: true }));
        for (let pass = 0; pass < 2; pass++) {
          element.scrollTo({ top: 0 });
          await settle();
          for (;;) {
            read();
            if (element.scrollTop + element.clientHeight >= element.scrollHeight - 1) {
              break;
            }
            element.scrollTo({ top: element.scrollTop + element.clientHeight / 2 });
            await settle();
          }
          const indexes = [...rows.keys()].sort((a, b) => a - b);
          if (indexes.every((index, n) => n === 0 || index === indexes[n - 1]! + 1)) {
            break;
          }
        }
        // Back to the end by a wheel turn down, as a reader's: the list follows the end again.
        element.dispatchEvent(new WheelEvent('wheel', { deltaY: 1, bubbles: true }));
        element.scrollTo({ top: element.scrollHeight });
        await settle();
        return [...rows.entries()];
      }, from)
      .then((entries) => new Map(entries.sort(([a], [b]) => a - b)));
  } finally {
    await page.setViewportSize(viewport ?? { width: 1200, height: 900 });
  }
}

/** Where `actual` first differs from `expected`, or undefined when they are the same. */
function firstDifference(actual: string, expected: string): number | undefined {
  if (actual === expected) {
    return undefined;
  }
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) {
    at++;
  }
  return at;
}

/**
 * The first row of the reply where the screen and the store part: how many list entries the
 * store's row holds, and how many the screen showed for it (or that the list never drew it).
 */
async function whereScreenParts(
  page: Page,
  from: number,
  byRow: Map<number, string[]>,
): Promise<string> {
  const stored = await storeRowTexts(page, from);
  for (const [index, text] of stored) {
    const entries = text.split('\n').filter((line) => /^\d+\. /.test(line)).length;
    const onScreen = byRow.get(index);
    if (onScreen === undefined) {
      return `row ${index} (${entries} entries in the store) was never drawn while scrolling`;
    }
    if (onScreen.length !== entries) {
      return `row ${index}: ${entries} entries in the store, ${onScreen.length} on screen`;
    }
  }
  return `every row of the store (${stored.length}) showed its entries`;
}

/** Checks that the last reply arrived whole: in the store, and on screen. Empty when it did. */
async function missingText(page: Page): Promise<string[]> {
  const problems: string[] = [];
  const stored = await storeReplyText(page);
  const storeDiff = firstDifference(stored, REPLY);
  if (storeDiff !== undefined) {
    problems.push(
      `the store holds ${whole(stored.length)} of ${whole(REPLY.length)} characters, ` +
        `the first wrong or missing at ${whole(storeDiff)}`,
    );
  }
  const from = await lastPromptRow(page);
  const byRow = await screenParagraphs(page, from);
  const shown = [...byRow.values()].flat();
  const wrong = shown.findIndex((paragraph, n) => paragraph !== PARAGRAPHS[n]);
  if (wrong !== -1 || shown.length !== PARAGRAPHS.length) {
    const at = wrong === -1 ? Math.min(shown.length, PARAGRAPHS.length) : wrong;
    problems.push(
      `${whole(shown.length)} of ${whole(PARAGRAPHS.length)} paragraphs on screen, ` +
        `the first wrong or missing is number ${whole(at + 1)}: "${(shown[at] ?? '').slice(0, 40)}…"; ` +
        (await whereScreenParts(page, from, byRow)),
    );
  }
  return problems;
}

type Timings = {
  coldMs: number;
  warmMs: number;
  coldDrawn: Drawn;
  warmDrawn: Drawn;
  problems: string[];
};

type Traces = { cold: Tasks; warm: Tasks; problems: string[] };

type RendererRun = Timings & { traces: Traces };

/**
 * In a fresh browser, with a session with the demo agent: a cold page streams the reply, and then
 * the same again once warm; `measure` wraps each turn.
 */
async function inFreshBrowser<T>(
  measure: (browser: Browser, page: Page, turn: () => Promise<void>) => Promise<T>,
): Promise<{ cold: T; warm: T; problems: string[] }> {
  const app = await startWebApp();
  const browser = await launchChromium({ full: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await exposeStore(page);
    await page.goto(app.url);
    await appPage(() => page).startSession();
    const turn = () => runInBrowser(page, '/long 1000');
    const cold = await measure(browser, page, turn);
    const problems = (await missingText(page)).map((problem) => `cold page: ${problem}`);
    const warm = await measure(browser, page, turn);
    problems.push(...(await missingText(page)).map((problem) => `warm page: ${problem}`));
    return { cold, warm, problems };
  } finally {
    await browser.close();
    await app.stop();
  }
}

/** One run: the time and the rows drawn untraced, then the tasks traced, in two browsers. */
async function rendererRun(): Promise<RendererRun> {
  const timed = await inFreshBrowser(async (_browser, page, turn) => {
    const drawn = await countDrawn(page, turn);
    return { ms: drawn.ms, drawn };
  });
  const traced = await inFreshBrowser((browser, page, turn) => traceTasks(browser, page, turn));
  return {
    coldMs: timed.cold.ms,
    warmMs: timed.warm.ms,
    coldDrawn: timed.cold.drawn,
    warmDrawn: timed.warm.drawn,
    problems: timed.problems,
    traces: traced,
  };
}

/** Runs the renderer part and prints its figures. */
export async function rendererBench(): Promise<void> {
  const runs: RendererRun[] = [];
  for (let run = 0; run < RUNS; run++) {
    runs.push(await rendererRun());
  }
  const over = (figure: (run: RendererRun) => number, format: (value: number) => string) =>
    spread(runs.map(figure), format);
  const both = (figure: (tasks: Tasks) => number, format: (value: number) => string) =>
    `cold page ${over((run) => figure(run.traces.cold), format)}; ` +
    `warm ${over((run) => figure(run.traces.warm), format)}`;
  const complete = runs.filter(
    (run) => run.problems.length === 0 && run.traces.problems.length === 0,
  ).length;
  console.log(
    `renderer: 1 MB as 10,000 chunks from the demo agent through the web host into Chromium, ` +
      `cold page then warm, ${RUNS} runs of two fresh browsers:`,
  );
  console.log(
    `  all the text arrived (the store holds all ${whole(REPLY.length)} characters; all ` +
      `${whole(PARAGRAPHS.length)} paragraphs are on screen, whole and in order, when scrolled ` +
      `to): ${complete} of ${RUNS} runs (of both browsers)`,
  );
  runs.forEach((run, n) => {
    for (const problem of [...run.problems, ...run.traces.problems]) {
      console.log(`    run ${n + 1}, ${problem}`);
    }
  });
  console.log(
    `  whole reply on screen in (untraced): cold page ${over((run) => run.coldMs, ms)}; ` +
      `warm ${over((run) => run.warmMs, ms)}`,
  );
  const rows = runs[0]?.warmDrawn.rows ?? 0;
  console.log(
    `  rows drawn while the reply streamed in, of its ${whole(rows)}: ` +
      `cold page ${over((run) => run.coldDrawn.drawn, whole)}; ` +
      `warm ${over((run) => run.warmDrawn.drawn, whole)}`,
  );
  console.log(`  traced in another fresh browser, the same two turns:`);
  console.log(`  main-thread tasks over 50 ms (goal: none): ${both((tasks) => tasks.long, whole)}`);
  console.log(
    `    the longest of them (0 when none), wall time: ${both((tasks) => tasks.longestMs, ms)}`,
  );
  console.log(`    and its CPU time: ${both((tasks) => tasks.longestCpuMs, ms)}`);
  console.log(`  most CPU time in one task: ${both((tasks) => tasks.mostCpuMs, ms)}`);
  console.log(`  main-thread tasks traced: ${both((tasks) => tasks.all, whole)}`);
  console.log(
    `  main-thread CPU time for the turn (all its tasks; it does not depend on what else the ` +
      `machine runs, as the times above do): ${both((tasks) => tasks.cpuMs, ms)}`,
  );
  if (complete < RUNS) {
    process.exitCode = 1;
  }
  await longLineBench();
}

/** The long-line cases: one update from the demo agent each, and what it holds. */
const LONG_LINE_CASES = [
  { command: '/long-line 10', what: 'a single 10 MB line' },
  { command: '/long-line 10 100', what: '10 MB in 100 lines of 100 KB' },
] as const;

/** The goal for any one main-thread task while a long line arrives: CPU time under this. */
const LONG_LINE_GOAL_MS = 100;

/**
 * One run of the long-line cases, in a fresh browser: each case's turn traced, from the prompt
 * until its turn has ended on screen. A turn that has not ended after `runInBrowser`'s deadline
 * throws, and the run reports it.
 */
async function longLineRun(): Promise<(Tasks | string)[]> {
  const app = await startWebApp();
  const browser = await launchChromium({ full: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(app.url);
    await appPage(() => page).startSession();
    const results: (Tasks | string)[] = [];
    for (const { command } of LONG_LINE_CASES) {
      try {
        results.push(await traceTasks(browser, page, () => runInBrowser(page, command)));
      } catch (error) {
        results.push((error as Error).message.split('\n')[0] ?? 'failed');
      }
    }
    return results;
  } finally {
    await browser.close();
    await app.stop();
  }
}

/**
 * The long-line part of the renderer bench: for each case, over {@link RUNS} fresh browsers,
 * the longest main-thread task's wall time and the most CPU time any one task took.
 */
export async function longLineBench(): Promise<void> {
  const runs: (Tasks | string)[][] = [];
  for (let run = 0; run < RUNS; run++) {
    runs.push(await longLineRun());
  }
  console.log(
    `renderer, long lines: one update from the demo agent through the web host into Chromium, ` +
      `${RUNS} runs in fresh browsers (goal: no main-thread task over ${LONG_LINE_GOAL_MS} ms of CPU):`,
  );
  LONG_LINE_CASES.forEach(({ command, what }, n) => {
    const traced = runs.map((run) => run[n]!);
    const done = traced.filter((result): result is Tasks => typeof result !== 'string');
    console.log(`  ${what} (\`${command}\`), turn ended in ${done.length} of ${RUNS} runs`);
    for (const failure of traced.filter((result) => typeof result === 'string')) {
      console.log(`    failed: ${failure}`);
    }
    console.log(
      `    longest task, wall time: ${spread(
        done.map((tasks) => tasks.longestMs),
        ms,
      )}; most CPU time in one task: ${spread(
        done.map((tasks) => tasks.mostCpuMs),
        ms,
      )} (goal: under ${LONG_LINE_GOAL_MS} ms)`,
    );
    console.log(
      `    main-thread tasks over 50 ms: ${spread(
        done.map((tasks) => tasks.long),
        whole,
      )}; CPU time for the turn: ${spread(
        done.map((tasks) => tasks.cpuMs),
        ms,
      )}`,
    );
    if (done.length < RUNS || done.some((tasks) => tasks.mostCpuMs >= LONG_LINE_GOAL_MS)) {
      process.exitCode = 1;
    }
  });
}
