/**
 * Permission cards and tool cards in Chromium against `npm run web`'s build, with the demo agent:
 * a card waits in the dock, shows what it asks to allow before any answer, is answered from the
 * keyboard, stays put while the transcript scrolls, leaves a record in the transcript, and an
 * "Always allow" holds; tool cards fold, number their diffs' lines, and a call the user did not
 * allow reads as not run.
 */
import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { DEMO_FILE } from '../../main/demo-agent/tools.js';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

// Tall enough that the list draws every row of a turn.
const { app, page, reopen } = useWebApp({
  viewport: { width: 1200, height: 1600 },
  startSession: true,
});

const { status, transcript, turnEnded, send } = appPage(page);

/** How the cards name the demo agent: its title and version, as it says when it starts. */
const DEMO = 'Airlock Demo Agent 0.1.0';

/** Waits until `count` turns have ended and the session is ready for the next. */
async function turnsEnded(count: number): Promise<void> {
  await transcript()
    .getByRole('status', { name: 'Turn ended' })
    .nth(count - 1)
    .waitFor();
  await status().filter({ hasText: 'Ready' }).waitFor();
}

const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
/** The waiting card, in the dock. */
const card = (title: string) => dock().getByRole('group', { name: `Permission request: ${title}` });
/** The transcript's record of the latest request about `title`. */
const record = (title: string) =>
  transcript()
    .getByRole('group', { name: `Permission asked: ${title}` })
    .last();
const tool = (title: string) =>
  transcript()
    .getByRole('region', { name: `Tool call: ${title}` })
    .last();

/** Each line of a diff as its old number, new number and text. */
const diffLines = (diff: Locator) =>
  diff
    .locator('.diff-line, .diff-fold')
    .evaluateAll((rows) =>
      rows.map((row) =>
        row.classList.contains('diff-fold')
          ? (row.textContent ?? '')
          : [...row.children].map((cell) => cell.textContent ?? '').join('|'),
      ),
    );

/** The colour a CSS variable gives text, as the page computes it. */
const colourOf = (variable: string) =>
  page().evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);

describe('a permission card', () => {
  it('shows the edit it asks to allow, with line numbers, paths and kind, before any answer', async () => {
    await send('/permission');
    const asking = card('Edit README.md');
    await asking.getByRole('button', { name: 'Allow once', exact: true }).waitFor();
    // The choices are the agent's, named as it named them: the key hints are not in their names.
    await expect(asking.getByRole('button').allTextContents()).resolves.toEqual([
      'Allow once',
      'Always allow',
      'Reject',
    ]);
    for (const name of ['Allow once', 'Always allow', 'Reject']) {
      await asking.getByRole('button', { name, exact: true }).waitFor();
    }

    const diff = asking.getByRole('figure', { name: `Diff of ${DEMO_FILE}` });
    await expect(diffLines(diff)).resolves.toEqual([
      '1|1|  # Demo',
      '2|2|  ',
      '3||- Hello.',
      '|3|+ Hello from the Airlock demo agent.',
      '4|4|  ',
      '5|5|  This project shows what Airlock can display.',
      '6|6|  ',
      '⋯ 5 unchanged lines',
      '12|12|  ',
      '13|13|  ## Usage',
      '14|14|  ',
      '15||- Start it with `npm start`.',
      '|15|+ Start it with `npm start`, then type `/help`.',
      '16|16|  ',
      '17|17|  ## Licence',
      '18|18|  ',
      '19|19|  MIT',
    ]);
    await expect(diff.locator('figcaption').textContent()).resolves.toBe(`${DEMO_FILE}+2 −2`);
    await expect(asking.locator('.permission-ask').textContent()).resolves.toBe(
      'EditIt asks to edit: Edit README.md',
    );
    await expect(asking.locator('.tool-kind').textContent()).resolves.toBe('Edit');
    // Its head names who asks, as a form's and a URL's card do, and the launch command waits
    // under Details.
    const head = asking.locator('header.card-head');
    await head.getByRole('heading', { name: `${DEMO} asks for permission`, exact: true }).waitFor();
    await expect(head.locator('.card-context').textContent()).resolves.toMatch(/^For /);
    const launched = head.locator('.card-command');
    await expect(launched.isVisible()).resolves.toBe(false);
    await head.getByText('Details', { exact: true }).click();
    await expect(launched.textContent()).resolves.toMatch(/^Launched with .*demo-agent/);
    await dock().getByText('1 permission request waiting').waitFor();
    // The transcript keeps its place in time: that something waits, and the way to it (the
    // question itself shows once, on the stage).
    await expect(record('Edit README.md').textContent()).resolves.toBe(
      'A permission request is waiting for your answerGo to the request',
    );

    // Its tool call says it waits, and keeps what the card shows folded away meanwhile.
    const call = tool('Edit README.md');
    await call.getByText('Waiting for your answer').waitFor();
    await expect(call.getByRole('status').textContent()).resolves.toBe('pending');
    const toggle = call.getByRole('button', { name: /Edit README\.md/ });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');

    await asking.getByRole('button', { name: 'Allow once' }).click();
    await record('Edit README.md').getByText('Allowed once: you chose “Allow once”').waitFor();
    await expect(
      record('Edit README.md').locator('.permission-row-ask').textContent(),
    ).resolves.toBe(`${DEMO} asked to edit: Edit README.md`);
    await turnEnded('Done');
    // Answered, the card leaves the dock and its record stays; the tool call shows what was done.
    await asking.waitFor({ state: 'detached' });
    await expect(record('Edit README.md').getByRole('figure').count()).resolves.toBe(0);
    await expect(call.getByRole('status').textContent()).resolves.toBe('completed');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await call.getByRole('figure', { name: `Diff of ${DEMO_FILE}` }).waitFor();
  });

  it('shows the command it asks to run and where, and is answered by its keys', async () => {
    await send('/permission-run');
    const asking = card('Run the tests');
    await asking.getByRole('button', { name: 'Reject' }).waitFor();
    // A new card takes the focus on its first choice.
    await page().waitForFunction(() => document.activeElement?.textContent === 'Allow once');
    await expect(asking.locator('.permission-ask').textContent()).resolves.toBe(
      'CommandIt asks to run: Run the tests',
    );
    await asking.getByRole('heading', { name: `${DEMO} asks for permission` }).waitFor();
    const command = asking.locator('.tool-command');
    await expect(command.textContent()).resolves.toBe(
      `Command in ${app().configDir}$ bash -lc 'npm test -- --reporter=dot'`,
    );
    await expect(
      asking
        .getByRole('group', { name: 'Raw input' })
        .or(asking.getByLabel('Raw input'))
        .textContent(),
    ).resolves.toContain('"npm test -- --reporter=dot"');

    // The tool call's own card has the same fields, folded until the user opens it.
    const call = tool('Run the tests');
    await call.getByRole('button', { name: /Run the tests/ }).click();
    await expect(call.locator('.tool-command pre').textContent()).resolves.toBe(
      "$ bash -lc 'npm test -- --reporter=dot'",
    );

    // Back on the card: the arrows move between its choices, a digit picks one.
    await asking.getByRole('button', { name: 'Allow once' }).focus();
    await page().keyboard.press('ArrowRight');
    await expect(page().evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Always allow',
    );
    await page().keyboard.press('End');
    await expect(page().evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Reject',
    );
    await page().keyboard.press('1');
    await record('Run the tests').getByText('Allowed once: you chose “Allow once”').waitFor();
    await transcript().getByText('The tests pass: 10 of 10.').waitFor();
    await expect(call.locator('.tool-content').textContent()).resolves.toContain(
      'Tests  10 passed (10)',
    );
  });

  it('waits in the dock, keeping the focus, while the transcript scrolls far away', async () => {
    // A transcript much taller than the window, so the list draws only the rows in view.
    await page().setViewportSize({ width: 1000, height: 700 });
    await send('/long 60');
    await turnEnded('Done');
    await send('/permission');
    // Anywhere on the page: where the card is drawn is what this test is about.
    const asking = page().getByRole('group', { name: 'Permission request: Edit README.md' });
    const allow = asking.getByRole('button', { name: 'Allow once' });
    await allow.waitFor();
    await page().waitForFunction(() => document.activeElement?.textContent === 'Allow once');

    // The user scrolls the transcript back to its start, far from the end where it was asked.
    const list = transcript();
    await list.hover();
    const first = list.getByLabel('Your prompt').filter({ hasText: '/long 60' });
    for (let turns = 0; turns < 200 && !(await first.isVisible()); turns++) {
      await page().mouse.wheel(0, -5000);
    }
    await expect(first.isVisible()).resolves.toBe(true);
    // The record at the end is no longer drawn; the card and its focus are still there.
    await record('Edit README.md').waitFor({ state: 'detached' });
    await expect(allow.isVisible()).resolves.toBe(true);
    await expect(page().evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Allow once',
    );
    await page().keyboard.press('ArrowRight');
    await expect(page().evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Always allow',
    );
    await page().keyboard.press('1');
    await asking.waitFor({ state: 'detached' });
    await status().filter({ hasText: 'Ready' }).waitFor();
  });

  it('is not asked again once the user chose “Always allow” for that kind of tool', async () => {
    await send('/permission');
    await card('Edit README.md').getByRole('button', { name: 'Always allow' }).click();
    await record('Edit README.md').getByText('Always allowed: you chose “Always allow”').waitFor();
    await transcript()
      .getByText('I will not ask again before edits in this session.', { exact: false })
      .waitFor();
    await turnsEnded(1);

    await send('/permission');
    await transcript()
      .getByText(
        'You chose “Always allow” for edits earlier in this session, so I did not ask again.',
        { exact: false },
      )
      .waitFor();
    await turnsEnded(2);
    await expect(
      transcript()
        .getByRole('group', { name: /^Permission asked/ })
        .count(),
    ).resolves.toBe(1);
    await expect(dock().count()).resolves.toBe(0);
    await expect(tool('Edit README.md').getByRole('status').textContent()).resolves.toBe(
      'completed',
    );

    // Another kind of tool is still asked about.
    await send('/permission-run');
    await card('Run the tests').getByRole('button', { name: 'Reject' }).click();
    await record('Run the tests').getByText('Rejected: you chose “Reject”').waitFor();
    await transcript().getByText('Understood: I did not run the tests.').waitFor();
    await turnsEnded(3);
  });
});

describe('a tool card', () => {
  it('folds and unfolds by mouse and keyboard, saying which it is', async () => {
    await send('/tool');
    await turnEnded('Done');
    const call = tool('Edit README.md');
    const toggle = call.getByRole('button', { name: /Edit README\.md/ });
    const diff = call.getByRole('figure', { name: `Diff of ${DEMO_FILE}` });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(
      toggle.evaluate(
        (button) => document.getElementById(button.getAttribute('aria-controls')!) !== null,
      ),
    ).resolves.toBe(true);
    await diff.waitFor();

    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await diff.waitFor({ state: 'detached' });

    await toggle.focus();
    await page().keyboard.press('Enter');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await diff.waitFor();
    await page().keyboard.press('Space');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
  });

  it('reads “rejected · not run” in a neutral colour for a call the user rejected, never “failed”', async () => {
    await send('/permission');
    await card('Edit README.md').getByRole('button', { name: 'Reject' }).click();
    await transcript().getByText('Understood: I left README.md alone.').waitFor();
    await turnEnded('Done');
    const status = tool('Edit README.md').getByRole('status');
    await expect(status.textContent()).resolves.toBe('rejected · not run');
    const [shown, muted, danger] = await Promise.all([
      status.evaluate((element) => getComputedStyle(element).color),
      colourOf('--muted'),
      colourOf('--danger'),
    ]);
    expect(shown).toBe(muted);
    expect(shown).not.toBe(danger);
  });

  it('ends only the card on Esc: the agent gets its reject choice and the turn goes on', async () => {
    await send('/permission');
    await card('Edit README.md').getByRole('button', { name: 'Reject' }).waitFor();
    await page().keyboard.press('Escape');
    await transcript().getByText('Understood: I left README.md alone.').waitFor();
    await turnEnded('Done');
    await expect(tool('Edit README.md').getByRole('status').textContent()).resolves.toBe(
      'rejected · not run',
    );
    await expect(card('Edit README.md').count()).resolves.toBe(0);
  });

  it('reads “cancelled · not run” for a call whose permission the user cancelled', async () => {
    await send('/permission');
    await card('Edit README.md').getByRole('button', { name: 'Reject' }).waitFor();
    // Cancelling the turn is the Cancel button's, not Esc's.
    await page()
      .locator('#session-panel .composer')
      .getByRole('button', { name: 'Cancel' })
      .click();
    await turnEnded('Cancelled');
    await expect(tool('Edit README.md').getByRole('status').textContent()).resolves.toBe(
      'cancelled · not run',
    );
    // The record says who ended it; the dock says why the card went.
    await record('Edit README.md').getByText('Cancelled: the turn was cancelled').waitFor();
    await dock()
      .getByRole('status')
      .getByText('The permission request “Edit README.md” closed: the turn was cancelled.')
      .waitFor();
  });
});

describe('accessibility', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violations: permission cards, tool cards, diffs (${colorScheme})`, async () => {
      // axe is injected as a script, which the app's CSP refuses; it opens pages of its own,
      // which it needs a context made for them to do.
      await reopen({ context: { bypassCSP: true, colorScheme } });
      const scan = async (what: string) => {
        const builder = new AxeBuilder({ page: page() }).include('[role=log]').include('.dock');
        expect(await seriousViolations(builder, what)).toEqual([]);
      };
      await send('/permission');
      await card('Edit README.md').getByRole('button', { name: 'Reject' }).waitFor();
      await scan('edit card');
      await card('Edit README.md').getByRole('button', { name: 'Allow once' }).click();
      await turnsEnded(1);
      await send('/permission-run');
      await card('Run the tests').getByRole('button', { name: 'Reject' }).waitFor();
      await scan('command card');
      await card('Run the tests').getByRole('button', { name: 'Reject' }).click();
      await turnsEnded(2);
      await tool('Run the tests')
        .getByRole('button', { name: /Run the tests/ })
        .click();
      await tool('Run the tests').getByText('Raw input').click();
      await scan('answered cards, tool cards and diffs');
    });
  }
});
