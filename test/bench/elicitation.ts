/**
 * The elicitation part of `npm run bench` (`npm run bench -- elicitation`): figures printed
 * beside their goals, never asserted.
 *
 * 1. 1,000 invalid `elicitation/create` requests, written at once by a scripted agent to the
 *    core: the time from the first written to the last answer read (goal under 1 s).
 * 2. 50 rounds of a 20-field form through the web host in Chromium: from the agent writing the
 *    request to the form being interactive (every field rendered, the first focused), and from
 *    the Accept press to the agent reading the answer (goals: median 16 ms and p95 50 ms to
 *    interactive; median 16 ms from Accept to the agent). The agent asks 100 ms into its turn,
 *    once the page has drawn the prompt (see the scripted agent's `elicit-bench`): asked at
 *    the turn's first instant, the form would wait behind the prompt's own echo.
 *
 * The agent stamps its side (writing, reading) and the page its own (interactive, Accept) as
 * epoch milliseconds, `performance.timeOrigin + performance.now()`; the page's clock is aligned
 * to this process's by the round trip with the least delay, and the agent's is this machine's.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { fixtureSpec, TSX_LOADER } from '../helpers/agents.js';
import { appPage } from '../helpers/app-page.js';
import { readySession, startCore } from '../helpers/core-harness.js';
import { launchChromium, startWebApp } from '../helpers/web-app.js';

const ROUNDS = 50;
const WARM_UP = 3;
const INVALID = 1_000;
const FIELDS = Array.from(
  { length: 20 },
  (_, index) => `Field ${String(index + 1).padStart(2, '0')}`,
);
const scriptedAgent = fileURLToPath(
  new URL('../fixtures/agents/scripted-agent.ts', import.meta.url),
);

/** Median, p95 (nearest rank), min and max of a list of milliseconds. */
function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return (
    `median ${ms(rank(0.5))}, p95 ${ms(rank(0.95))}, min ${ms(sorted[0] ?? NaN)}, ` +
    `max ${ms(sorted.at(-1) ?? NaN)}`
  );
}

/** Reads `key=value` numbers from an agent's report line. */
function numbers(line: string): Record<string, number> {
  return Object.fromEntries(
    [...line.matchAll(/(\w+)=([\d.]+)/g)].map((match) => [match[1], Number(match[2])]),
  );
}

/** One run of 1,000 invalid requests through the core: milliseconds, and how many answered. */
async function invalidBurst(): Promise<{ ms: number; answered: number }> {
  const agent = fixtureSpec('elicit-bench', 'Bench Agent');
  const { core, recorder, dir } = await startCore([agent]);
  try {
    const key = await readySession(core, recorder, agent.name, dir);
    await core.invoke('session:prompt', { key, text: `invalid ${INVALID}` });
    // A request meant as invalid that shows a card would wait on a user forever.
    await recorder.until(() =>
      recorder
        .transcript(key)
        .some((event) => ['turn_end', 'elicitation', 'url_elicitation'].includes(event.type)),
    );
    if (!recorder.transcript(key).some((event) => event.type === 'turn_end')) {
      await core.invoke('session:cancel', { key });
      throw new Error('a request the bench meant as invalid was shown as a card');
    }
    const figures = numbers(recorder.text(key));
    return { ms: (figures.last ?? NaN) - (figures.first ?? NaN), answered: figures.answered ?? 0 };
  } finally {
    core.dispose();
  }
}

/**
 * Installs the page's recorder, before the app loads: the moment the request of the round
 * expected reaches the page (the WebSocket message that carries its card), the moment its card
 * is interactive (the focused control is named by the first title and a control named by every
 * title is in the card), the next frame after that, and the moment Accept is clicked. Controls
 * are found by their accessible names, as a user of assistive technology finds them.
 */
async function installRecorder(page: Page): Promise<void> {
  // tsx (esbuild, keepNames) wraps named functions in `__name(…)`, which the page lacks.
  await page.addInitScript('globalThis.__name = (target) => target');
  await page.addInitScript((titles) => {
    const now = () => performance.timeOrigin + performance.now();
    const state = {
      round: 0,
      arrival: {} as Record<number, number>,
      interactive: {} as Record<number, number>,
      frame: {} as Record<number, number>,
      accept: {} as Record<number, number>,
    };
    const message = (round: number) => `Bench round ${round}: twenty fields`;
    // The first listener of every socket: it runs before the app's own.
    const Socket = window.WebSocket;
    window.WebSocket = class extends Socket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener('message', (event) => {
          const round = state.round;
          if (
            round > 0 &&
            state.arrival[round] === undefined &&
            typeof event.data === 'string' &&
            event.data.includes(message(round))
          ) {
            state.arrival[round] = now();
          }
        });
      }
    };
    const text = (ids: string) =>
      ids
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    const nameOf = (element: Element): string => {
      const labelledBy = element.getAttribute('aria-labelledby');
      if (labelledBy) {
        return text(labelledBy);
      }
      const label = element.getAttribute('aria-label');
      if (label) {
        return label;
      }
      const labels = (element as HTMLInputElement).labels;
      if (labels && labels.length > 0) {
        return [...labels].map((each) => each.textContent ?? '').join(' ');
      }
      return element.tagName === 'FIELDSET'
        ? (element.querySelector('legend')?.textContent ?? '')
        : '';
    };
    const check = () => {
      const round = state.round;
      const active = document.activeElement;
      if (round === 0 || state.interactive[round] !== undefined || !active) {
        return;
      }
      if (!nameOf(active).includes(titles[0]!)) {
        return;
      }
      // The card: the nearest container of the focused field that shows this round's message.
      let card: Element | null = active;
      while (card && !(card.textContent ?? '').includes(message(round))) {
        card = card.parentElement;
      }
      if (!card) {
        return;
      }
      const names = [
        ...card.querySelectorAll('input, select, textarea, fieldset, [role=radiogroup]'),
      ].map(nameOf);
      if (!titles.every((title) => names.some((name) => name.includes(title)))) {
        return;
      }
      state.interactive[round] = now();
      requestAnimationFrame(() => {
        // After the frame's callbacks and paint: the next task.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => (state.frame[round] = now());
        channel.port2.postMessage(null);
      });
    };
    document.addEventListener('focusin', check, true);
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    window.addEventListener(
      'click',
      (event) => {
        const button = (event.target as Element | null)?.closest('button');
        if (button?.textContent?.trim() === 'Accept' && state.accept[state.round] === undefined) {
          state.accept[state.round] = now();
        }
      },
      true,
    );
    (window as unknown as { airlockBench: typeof state }).airlockBench = state;
  }, FIELDS);
}

type PageTimes = { arrival?: number; interactive?: number; frame?: number; accept?: number };

function pageTimes(page: Page, round: number): Promise<PageTimes> {
  return page.evaluate((n) => {
    const state = (
      window as unknown as {
        airlockBench: Record<
          'arrival' | 'interactive' | 'frame' | 'accept',
          Record<number, number>
        >;
      }
    ).airlockBench;
    return {
      arrival: state.arrival[n],
      interactive: state.interactive[n],
      frame: state.frame[n],
      accept: state.accept[n],
    };
  }, round);
}

/**
 * The page's clock minus this process's, from the round trip with the least delay; with half
 * that delay, the most the estimate can be off by.
 */
async function clockOffset(page: Page): Promise<{ offset: number; within: number }> {
  let best = { offset: 0, within: Infinity };
  for (let sample = 0; sample < 30; sample++) {
    const before = performance.timeOrigin + performance.now();
    const there = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = performance.timeOrigin + performance.now();
    if ((after - before) / 2 < best.within) {
      best = { offset: there - (before + after) / 2, within: (after - before) / 2 };
    }
  }
  return best;
}

type Round = {
  toPage: number;
  toInteractive: number;
  toFrame: number;
  acceptToAgent: number;
};

/** The form rounds in Chromium; undefined, with why, when no card became interactive. */
async function formRounds(): Promise<
  { rounds: Round[]; cold: Round; clock: { offset: number; within: number } } | string
> {
  const app = await startWebApp({
    agent_servers: {
      'Bench Agent': {
        command: process.execPath,
        args: ['--import', TSX_LOADER, scriptedAgent, 'elicit-bench'],
      },
    },
  });
  const browser = await launchChromium({ full: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await installRecorder(page);
    await page.goto(app.url);
    await appPage(() => page).startSession('Bench Agent');
    const status = page.getByRole('status', { name: 'Session status' });
    const clock = await clockOffset(page);
    const composer = page.getByRole('textbox', { name: 'Message' });
    const transcript = page.getByRole('log', { name: 'Transcript' });
    const rounds: Round[] = [];
    let cold: Round | undefined;
    for (let round = 1; round <= WARM_UP + ROUNDS; round++) {
      await page.evaluate((n) => {
        (window as unknown as { airlockBench: { round: number } }).airlockBench.round = n;
      }, round);
      await composer.fill(`round ${round}`);
      await composer.press('Enter');
      const message = `Bench round ${round}: twenty fields`;
      try {
        await page.waitForFunction(
          (n) =>
            (window as unknown as { airlockBench: { frame: Record<number, number> } }).airlockBench
              .frame[n] !== undefined,
          round,
          { timeout: round === 1 ? 30_000 : 10_000 },
        );
      } catch {
        return (
          `no card with a control labelled by each of the 20 titles, the first focused, ` +
          `showed "${message}" (is the card UI, renderer/src/components/elicitation-card.tsx, built?)`
        );
      }
      if (round === 1) {
        // What the page's recorder saw, checked once by Playwright's accessible locators.
        const card = page
          .getByRole('region', { name: 'Questions from the agent' })
          .getByRole('group')
          .filter({ hasText: message })
          .first();
        for (const title of FIELDS) {
          await card.getByLabel(title, { exact: true }).first().waitFor();
        }
        const focused = await card
          .getByLabel(FIELDS[0]!, { exact: true })
          .evaluate((element) => element === document.activeElement);
        if (!focused) {
          return `the card showed its fields, but "${FIELDS[0]}" was not focused`;
        }
      }
      await page.getByRole('button', { name: 'Accept' }).click();
      await status.filter({ hasText: 'Ready' }).waitFor();
      // The list may have stopped following (the dock resizes it); the report is its last row.
      await transcript
        .locator('[data-virtuoso-scroller="true"]')
        .evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      const report = await transcript
        .getByText(new RegExp(`^bench round ${round}: `))
        .last()
        .textContent({ timeout: 10_000 });
      const agent = numbers(report ?? '');
      const times = await pageTimes(page, round);
      const local = (time: number | undefined) => (time ?? NaN) - clock.offset;
      const figures = {
        toPage: local(times.arrival) - (agent.write ?? NaN),
        toInteractive: local(times.interactive) - (agent.write ?? NaN),
        toFrame: local(times.frame) - (agent.write ?? NaN),
        acceptToAgent: (agent.read ?? NaN) - local(times.accept),
      };
      if (!report?.includes('action=accept')) {
        return `round ${round}: the agent did not read an accept (${report})`;
      }
      if (round === 1) {
        cold = figures;
      } else if (round > WARM_UP) {
        rounds.push(figures);
      }
    }
    return { rounds, cold: cold!, clock };
  } finally {
    await browser.close();
    await app.stop();
  }
}

/** Runs the elicitation part and prints its figures. */
export async function elicitationBench(): Promise<void> {
  const bursts: { ms: number; answered: number }[] = [];
  for (let run = 0; run < 3; run++) {
    bursts.push(await invalidBurst());
  }
  console.log(
    `elicitation, ${INVALID} invalid requests written at once: all answered in ` +
      bursts.map((burst) => `${burst.ms.toFixed(0)} ms (${burst.answered} answers)`).join(', ') +
      ` over 3 runs, first written to last answer read (goal < 1000 ms)`,
  );

  const form = await formRounds();
  if (typeof form === 'string') {
    console.log(`elicitation form rounds: not measured: ${form}`);
    return;
  }
  const { rounds, cold, clock } = form;
  console.log(
    `elicitation, 20-field form in Chromium through the web host, ${rounds.length} rounds ` +
      `after ${WARM_UP} warm-up (page clock aligned to ±${clock.within.toFixed(2)} ms):`,
  );
  console.log(
    `  agent writes the request -> form interactive (20 fields, first focused): ` +
      `${summary(rounds.map((round) => round.toInteractive))} (goal: median <= 16 ms, p95 <= 50 ms)`,
  );
  console.log(
    `    of which agent writes -> its card reaches the page (core, web host, WebSocket): ` +
      summary(rounds.map((round) => round.toPage)),
  );
  console.log(
    `    and reaches the page -> interactive (the renderer): ` +
      summary(rounds.map((round) => round.toInteractive - round.toPage)),
  );
  console.log(
    `  agent writes the request -> next frame after that: ` +
      summary(rounds.map((round) => round.toFrame)),
  );
  console.log(
    `  Accept pressed -> agent reads the answer: ` +
      `${summary(rounds.map((round) => round.acceptToAgent))} (goal: median <= 16 ms)`,
  );
  console.log(
    `  first round, cold page: ${cold.toInteractive.toFixed(1)} ms to interactive, ` +
      `${cold.acceptToAgent.toFixed(1)} ms from Accept to the agent`,
  );
}
