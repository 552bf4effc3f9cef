/**
 * The stage in Chromium through the web host: a question that waits takes the session pane
 * (its head and answers in view, its fields between them, the message box one line), the
 * transcript's row only says it waits, the card's head and the session's header stay calm, good
 * news fades while warnings stay, the focus goes to the message box once a session is ready and
 * back where the user was after a card, an empty session says what the agent offers, and a real
 * agent's two-question card shows every question before its Accept.
 */
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from '../helpers/agents.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RECORDING = '/work/shared/fixtures/real-elicitations/claude-ask-multi.json';
const replay = (...args: string[]) => ({
  command: process.execPath,
  args: ['--import', TSX_LOADER, `${root}test/fixtures/agents/replay-agent.ts`, ...args],
});

const { page, open } = useWebApp({
  openEachTest: false,
  settings: {
    agent_servers: {
      'Claude Replay': replay(RECORDING),
      'Claude Replay Unknown Call': replay(RECORDING, '--no-tool-call'),
    },
  },
});
const { status, transcript, composer, startSession, send, turnEnded } = appPage(page);
const ASKER = 'Airlock Demo Agent 0.1.0';
const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
const card = () => dock().getByRole('group', { name: `Question from ${ASKER}` });
const record = () =>
  transcript()
    .getByRole('group', { name: `Question from ${ASKER}` })
    .last();

/** Opens the app at `width`×`height` with a ready demo session (started at a width with the sidebar). */
async function openAt(width: number, height: number): Promise<Page> {
  const opened = await open({ viewport: { width: Math.max(width, 1280), height } });
  await startSession();
  if (width < 1280) {
    await opened.setViewportSize({ width, height });
  }
  return opened;
}

/** The stage's box, its head's bottom and its footer's top, in the page's pixels. */
function stageBounds(): Promise<{ top: number; bottom: number; height: number; width: number }> {
  return page().evaluate(() => {
    const stage = document.querySelector('#session-panel .dock.has-card')!;
    const box = stage.getBoundingClientRect();
    const head = stage.querySelector('.card-head, .permission-head')!.getBoundingClientRect();
    const foot = stage.querySelector('.card-actions, .permission-answer')!.getBoundingClientRect();
    return {
      top: Math.max(box.top, head.bottom),
      bottom: Math.min(box.bottom, foot.top),
      height: box.height,
      width: box.width,
    };
  });
}

/** Whether `element` lies wholly between the stage's head and its footer. */
async function betweenHeadAndFoot(element: Locator): Promise<boolean> {
  const [box, bounds] = await Promise.all([element.boundingBox(), stageBounds()]);
  return box !== null && box.y >= bounds.top - 0.5 && box.y + box.height <= bounds.bottom + 0.5;
}

/** Whether `element` (the card's heading) is inside the stage, not scrolled out of it. */
async function headInStage(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const stage = await page().locator('#session-panel .dock.has-card').boundingBox();
  return box !== null && stage !== null && box.y >= stage.y - 0.5;
}

/** Whether `element` is inside the window. */
async function inView(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const viewport = page().viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
}

describe('the stage', () => {
  for (const [width, minStage, minFields] of [
    [1280, 520, 300],
    [420, 440, 220],
  ] as const) {
    it(`gives /form's card the session pane at ${width}×800, the message box one line`, async () => {
      await openAt(width, 800);
      await send('/form');
      await card().waitFor();
      const bounds = await stageBounds();
      // Before the stage: 340 px with 100 px of fields at 1280, 365 px with 78 px at 420.
      expect(bounds.height).toBeGreaterThanOrEqual(minStage);
      expect(bounds.bottom - bounds.top).toBeGreaterThanOrEqual(minFields);
      if (width === 420) {
        const pane = await page().locator('#session-panel').boundingBox();
        expect(bounds.width).toBeGreaterThanOrEqual(pane!.width - 1);
      }
      // The message box steps aside to one line while the card waits, and comes back after.
      const oneLine = await composer().evaluate((box: HTMLTextAreaElement) => box.rows);
      expect(oneLine).toBe(1);
      // Tabbing through the fields keeps who asks in view, and each field between head and foot.
      const heading = card().getByRole('heading', { name: `Question from ${ASKER}` });
      await card().getByLabel('Name', { exact: true }).focus();
      let fields = 0;
      for (;;) {
        await page().keyboard.press('Tab');
        const where = await page().evaluate(() => {
          const active = document.activeElement;
          const box = active?.getBoundingClientRect();
          return {
            part: active?.closest('.card-actions')
              ? 'actions'
              : active?.closest('.card-form')
                ? 'form'
                : 'elsewhere',
            top: box?.top ?? 0,
            bottom: box?.bottom ?? 0,
          };
        });
        if (where.part !== 'form') {
          break;
        }
        fields += 1;
        await expect(headInStage(heading)).resolves.toBe(true);
        const bounds = await stageBounds();
        expect(where.top).toBeGreaterThanOrEqual(bounds.top - 0.5);
        expect(where.bottom).toBeLessThanOrEqual(bounds.bottom + 0.5);
      }
      expect(fields).toBeGreaterThanOrEqual(8);
      await card().getByRole('button', { name: 'Cancel' }).click();
      await turnEnded('Done');
      await expect(composer().evaluate((box: HTMLTextAreaElement) => box.rows)).resolves.toBe(3);
    });
  }

  it('keeps the first error above the footer at 420 px', async () => {
    await openAt(420, 800);
    await send('/form');
    await card().waitFor();
    await card().getByRole('button', { name: 'Accept' }).click();
    await card().getByRole('alert').filter({ hasText: 'Nothing was sent' }).waitFor();
    const name = card().getByLabel('Name', { exact: true });
    await expect(name.evaluate((field) => field === document.activeElement)).resolves.toBe(true);
    const errors = card().locator(`#${await name.getAttribute('id')}-errors`);
    await expect(errors.textContent()).resolves.not.toBe('');
    await expect(betweenHeadAndFoot(name)).resolves.toBe(true);
    await expect(betweenHeadAndFoot(errors)).resolves.toBe(true);
  });

  it('shows the question once: its transcript row only says it waits, and leads to the card', async () => {
    await openAt(1280, 800);
    await send('/form');
    await card().waitFor();
    const row = record();
    await expect(row.textContent()).resolves.toContain('Waiting for your answer');
    // The question itself is on the stage only.
    await expect(row.getByText('Tell me a little about yourself').count()).resolves.toBe(0);
    await composer().focus();
    await row.getByRole('button', { name: 'Go to the question' }).click();
    await expect(
      card()
        .getByLabel('Name', { exact: true })
        .evaluate((field) => field === document.activeElement),
    ).resolves.toBe(true);
    await page().keyboard.press('Escape');
    await row.getByText('Cancelled').waitFor();
  });
});

describe('a form taller than the stage', () => {
  for (const width of [1280, 420]) {
    it(`says how many questions it has and how many are below, as the stage scrolls, at ${width}×800`, async () => {
      await openAt(width, 800);
      await send('/form');
      await card().waitFor();
      const total = await card().locator('.card-fields > .field').count();
      expect(total).toBeGreaterThanOrEqual(8);
      const footer = card().locator('.card-actions');
      // Before: the footer showed Accept and said nothing of the fields out of view.
      const first = footer.getByText(new RegExp(`^${total} questions · \\d+ more below$`));
      await first.waitFor();
      const below = Number(/(\d+) more below/.exec((await first.textContent())!)![1]);
      expect(below).toBeGreaterThan(0);
      expect(below).toBeLessThan(total);
      // Scrolled to the end, none is below.
      await dock().evaluate((stage) => stage.scrollTo({ top: stage.scrollHeight }));
      await footer.getByText(`${total} questions · none below`, { exact: true }).waitFor();
      // Tabbing back to the first field brings the rest below again.
      await card().getByLabel('Name', { exact: true }).focus();
      await dock().evaluate((stage) => stage.scrollTo({ top: 0 }));
      await footer.getByText(`${total} questions · ${below} more below`, { exact: true }).waitFor();
      // Tabbing through the fields scrolls them into view: at the answers, none is below.
      for (let step = 0; step < 4 * total; step += 1) {
        await page().keyboard.press('Tab');
        const inFooter = await page().evaluate(
          () => document.activeElement?.closest('.card-actions') != null,
        );
        if (inFooter) {
          break;
        }
      }
      await footer.getByText(`${total} questions · none below`, { exact: true }).waitFor();
      await page().keyboard.press('Escape');
      await record().getByText('Cancelled').waitFor();
    });
  }

  it('says nothing of the sort when every question fits', async () => {
    await openAt(1280, 800);
    await send('/form-tool');
    await card().waitFor();
    await card().getByRole('button', { name: 'Accept' }).waitFor();
    await expect(card().locator('.card-actions').textContent()).resolves.not.toMatch(
      /question|below/,
    );
    await page().keyboard.press('Escape');
    await turnEnded('Done');
  });
});

describe('the strip and the message box while a card waits', () => {
  for (const [width, height] of [
    [1280, 800],
    [420, 800],
    [1280, 720],
    [420, 720],
  ] as const) {
    it(`shows whole transcript rows in the strip at ${width}×${height}, never a cut-off piece`, async () => {
      await openAt(width, height);
      await send('/form');
      await card().waitFor();
      const go = record().getByRole('button', { name: 'Go to the question' });
      await go.waitFor();
      const cut = await page().evaluate(() => {
        const strip = document
          .querySelector('#session-panel > .transcript')!
          .getBoundingClientRect();
        return [...document.querySelectorAll('#session-panel > .transcript [data-index]')].flatMap(
          (item) => {
            const box = item.getBoundingClientRect();
            const outside = box.bottom <= strip.top + 1 || box.top >= strip.bottom - 1;
            const inside = box.top >= strip.top - 1 && box.bottom <= strip.bottom + 1;
            return outside || inside ? [] : [`row ${item.getAttribute('data-index')}`];
          },
        );
      });
      expect(cut).toEqual([]);
      // The waiting row, whole, is among them.
      const [row, strip] = await Promise.all([record().boundingBox(), transcript().boundingBox()]);
      expect(row!.y).toBeGreaterThanOrEqual(strip!.y - 1);
      expect(row!.y + row!.height).toBeLessThanOrEqual(strip!.y + strip!.height + 1);
      await page().keyboard.press('Escape');
      await record().getByText('Cancelled').waitFor();
    });
  }

  it('keeps the message box one line at 420 px, its buttons icons beside it', async () => {
    await openAt(420, 800);
    await send('/form');
    await card().waitFor();
    const form = page().locator('#session-panel form.composer');
    const attach = form.getByRole('button', { name: 'Attach image' });
    const cancel = form.getByRole('button', { name: 'Cancel' });
    const [box, attachBox, cancelBox] = await Promise.all([
      composer().boundingBox(),
      attach.boundingBox(),
      cancel.boundingBox(),
    ]);
    // Before: 52 px, Attach image and Cancel stacked beside it.
    expect(box!.height).toBeLessThanOrEqual(44);
    for (const button of [attachBox!, cancelBox!]) {
      expect(button.x).toBeGreaterThanOrEqual(box!.x + box!.width);
      expect(button.y).toBeGreaterThanOrEqual(box!.y - 4);
      expect(button.y + button.height).toBeLessThanOrEqual(box!.y + box!.height + 4);
    }
    expect(cancelBox!.x).toBeGreaterThanOrEqual(attachBox!.x + attachBox!.width);
    // The icons are still the buttons they were: Cancel ends the turn, the card with it.
    await cancel.click();
    await turnEnded('Cancelled');
  });
});

describe('a calm card head and session header', () => {
  it('names who asks, the tab, the tool call by its title and where the card stands; the command behind Details', async () => {
    await openAt(1280, 800);
    await send('/form-tool');
    await card().waitFor();
    const head = card().locator('.card-head');
    const text = await head.textContent();
    expect(text).toContain(`Question from ${ASKER}`);
    expect(text).toMatch(/For the tab “[^”]+” in /);
    expect(text).toContain('about the tool call Create a branch');
    expect(text).toContain('1 question waiting');
    const launched = head.getByText('Launched with');
    await expect(launched.isVisible()).resolves.toBe(false);
    await head.getByText('Details', { exact: true }).click();
    await expect(launched.isVisible()).resolves.toBe(true);
    await card().getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Done');
  });

  it('says nothing of a tool call the transcript does not know, never its raw id', async () => {
    await open({ viewport: { width: 1280, height: 800 } });
    await startSession('Claude Replay Unknown Call');
    await send('Which database?');
    const asked = dock().getByRole('group', { name: 'Question from Claude Agent 0.101.0' });
    await asked.waitFor();
    const text = await asked.textContent();
    expect(text).not.toContain('toolu_stand_in_2');
    expect(text).not.toContain('about the tool call');
  });

  it('keeps the command line out of the session header: the agent log has it', async () => {
    await openAt(1280, 800);
    const header = page().locator('#session-panel .session-header');
    await expect(header.locator('[aria-label="Agent"]').textContent()).resolves.toBe(ASKER);
    const meta = await header.locator('.session-meta').textContent();
    expect(meta).not.toContain('demo-agent');
    expect(meta).toContain('airlock-web-');
    await header.getByRole('button', { name: 'Show agent log' }).click();
    const log = page().getByRole('region', { name: 'Agent log' });
    await expect(log.textContent()).resolves.toMatch(/Launched with .*demo-agent/);
  });
});

describe('notices', () => {
  it('says the agent marked a page done, as good news that fades on its own', async () => {
    await openAt(1280, 800);
    await send('/url');
    const urlCard = dock().getByRole('group', { name: `${ASKER} asks you to open a web page` });
    await urlCard.waitFor();
    const [popup] = await Promise.all([
      page().context().waitForEvent('page'),
      urlCard.getByRole('button', { name: /^Open/ }).first().click(),
    ]);
    await popup.getByRole('button', { name: 'Authorize' }).click();
    const notice = dock().locator('.dock-notice');
    await notice.getByText('The agent marked this step done.').waitFor();
    await expect(notice.textContent()).resolves.not.toMatch(/you (finished|visit)/i);
    await expect(notice.getAttribute('role')).resolves.toBe('status');
    const look = await notice.evaluate((element) => {
      const style = getComputedStyle(element);
      const warn = getComputedStyle(document.documentElement).getPropertyValue('--warn');
      return { animation: style.animationName, edge: style.borderLeftColor, warn };
    });
    expect(look.animation).toBe('notice-fade');
    // It goes by itself, with nobody pressing Dismiss.
    await notice.getByText('The agent marked this step done.').waitFor({
      state: 'detached',
      timeout: 10_000,
    });
    await turnEnded('Done');
  });

  it('keeps a warning until it is dismissed', async () => {
    await openAt(1280, 800);
    await send('/form-withdraw 0.5');
    await card().waitFor();
    const notice = dock().locator('.dock-notice');
    await notice.getByText(/was withdrawn by the agent/).waitFor();
    await expect(
      notice.evaluate((element) => getComputedStyle(element).animationName),
    ).resolves.toBe('none');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page().locator('#session-panel .dock-notice').textContent()).resolves.toBe('');
  });
});

describe('focus', () => {
  it('lands in the message box once a new session is ready', async () => {
    await open({ viewport: { width: 1280, height: 800 } });
    await startSession();
    await expect(composer().evaluate((box) => box === document.activeElement)).resolves.toBe(true);
    // The first keystrokes are the message's.
    await page().keyboard.type('hi');
    await expect(composer().inputValue()).resolves.toBe('hi');
  });

  it('goes back where the user was after a card ends', async () => {
    await openAt(1280, 800);
    await send('/form-later 0.5');
    const logButton = page().getByRole('button', { name: 'Show agent log' });
    await logButton.focus();
    await card().waitFor();
    const name = card().getByLabel('Branch name', { exact: true });
    await expect(name.evaluate((field) => field === document.activeElement)).resolves.toBe(true);
    await name.press('Escape');
    await record().getByText('Cancelled').waitFor();
    await expect(logButton.evaluate((button) => button === document.activeElement)).resolves.toBe(
      true,
    );
    await turnEnded('Done');
  });
});

describe('an empty session', () => {
  it('says what the agent offers instead of a strip of command chips', async () => {
    await openAt(1280, 800);
    await expect(page().getByRole('group', { name: 'Agent commands' }).count()).resolves.toBe(0);
    const offer = transcript().getByRole('region', { name: 'What Airlock Demo Agent offers' });
    await offer.waitFor();
    const text = await offer.textContent();
    expect(text).toContain('/help');
    expect(text).toMatch(/Type \/ in the message box to list all \d+ commands/);
    expect(text).toContain('Modes:');
    // The commands stay in the "/" completion.
    await composer().fill('/');
    await page().getByRole('listbox', { name: 'Commands' }).waitFor();
    await composer().fill('');
    await send('/help');
    await turnEnded('Done');
    await expect(offer.count()).resolves.toBe(0);
  });
});

describe("a real agent's two-question card", () => {
  it('shows every question before its Accept at 1366×768', async () => {
    await open({ viewport: { width: 1366, height: 768 } });
    await startSession('Claude Replay');
    await send('Set up the project');
    const asked = dock().getByRole('group', { name: 'Question from Claude Agent 0.101.0' });
    await asked.waitFor();
    await expect(asked.textContent()).resolves.toContain('about the tool call AskUserQuestion');
    const accept = asked.getByRole('button', { name: 'Accept' });
    await expect(inView(accept)).resolves.toBe(true);
    // Accept is in view: so is every question, whole, between the head and the footer.
    const questions = asked.locator('.card-form .field');
    const count = await questions.count();
    expect(count).toBeGreaterThanOrEqual(4);
    for (let index = 0; index < count; index += 1) {
      await expect(betweenHeadAndFoot(questions.nth(index))).resolves.toBe(true);
    }
    const sqlite = asked.getByRole('radio', { name: /SQLite/ });
    if ((await sqlite.count()) > 0) {
      await sqlite.check();
    } else {
      await asked.getByRole('combobox', { name: /Database/ }).selectOption('SQLite');
    }
    await accept.click();
    await transcript()
      .getByText(/You answered: .*SQLite/)
      .waitFor();
    await expect(status().textContent()).resolves.toBe('Ready');
  });
});
