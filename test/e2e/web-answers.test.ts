/**
 * Answers survive, end to end with the demo agent: a question that ends without the user's
 * answer (withdrawn by the agent, the turn cancelled) keeps what the user had typed in its
 * transcript row, with Copy, also after the tab is left and shown again; nothing of it is sent.
 * Shot in light and dark, wide and narrow, under /tmp/shots/answers, and checked with axe.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/shots/answers';
mkdirSync(SHOTS, { recursive: true });

const { open, page } = useWebApp({ openEachTest: false });
const { transcript, startSession, send, turnEnded } = appPage(page);

const ASKER = 'Question from Airlock Demo Agent 0.1.0';
const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
const card = () => dock().getByRole('group', { name: ASKER });
/** The transcript record of the latest question. */
const record = () => transcript().getByRole('group', { name: ASKER }).last();
/** What the record lists as typed, a line per field. */
const typedLines = () =>
  record()
    .locator('.typed-answers dl > div')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.children].map((cell) => cell.textContent).join(': ')),
    );

describe('what the user typed on a question that ended without their answer', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 420]) {
      it(`stays in its row when the agent withdraws it or the turn is cancelled (${colorScheme}, ${width} px)`, async () => {
        const tag = `${colorScheme}-${width}`;
        await open({ viewport: { width, height: 900 }, context: { colorScheme, bypassCSP: true } });
        await startSession();

        await send('/form-withdraw 2');
        await card().getByLabel('Branch name', { exact: true }).fill('fix/keep-my-words');
        await record().getByText('Withdrawn by the agent. You had typed:').waitFor();
        await transcript()
          .getByText(/^I withdrew the question\. /)
          .waitFor();
        await turnEnded('Done');
        await expect(typedLines()).resolves.toEqual(['Branch name: fix/keep-my-words']);
        // Never sent: the agent says it got no answer.
        await expect(
          transcript()
            .getByText(/fix\/keep-my-words/)
            .count(),
        ).resolves.toBe(1);
        await record().getByRole('button', { name: 'Copy what you had typed' }).waitFor();
        await page().screenshot({ path: `${SHOTS}/withdrawn-${tag}.png` });
        const builder = new AxeBuilder({ page: page() }).include('[role=log]');
        expect(await seriousViolations(builder, `withdrawn row ${tag}`)).toEqual([]);

        // Left for another tab and shown again, the row still shows it (wide: the tab strip).
        if (width === 1280) {
          // Earlier tests' sessions are listed too: this one is the tab selected now.
          const tabs = page().getByRole('tab');
          const index = await tabs.evaluateAll((all) =>
            all.findIndex((tab) => tab.getAttribute('aria-selected') === 'true'),
          );
          await startSession();
          await tabs.nth(index).click();
          await record().getByText('Withdrawn by the agent. You had typed:').waitFor();
          await expect(typedLines()).resolves.toEqual(['Branch name: fix/keep-my-words']);
        }

        // A turn cancelled while the card waits keeps it the same way.
        await send('/form-withdraw 60');
        await card().getByLabel('Branch name', { exact: true }).fill('fix/second-try');
        await page()
          .locator('#session-panel .composer')
          .getByRole('button', { name: 'Cancel' })
          .click();
        await record().getByText('Closed: the turn was cancelled. You had typed:').waitFor();
        await expect(typedLines()).resolves.toEqual(['Branch name: fix/second-try']);
      });
    }
  }
});
