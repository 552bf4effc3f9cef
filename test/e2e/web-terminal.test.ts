/**
 * A terminal streaming in the transcript, in Chromium through the web host: the demo agent's
 * `/run` embeds the command's terminal in its tool call, whose output shows with its colours
 * drawn (not its escape codes) and how it ended; a long command stops with the Stop button. In
 * the light and the dark theme.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/terminal';
mkdirSync(SHOTS, { recursive: true });

const { open, page: current } = useWebApp({ openEachTest: false });
const { transcript, turnEnded, startSession, send } = appPage(() => current());

/** `/run` has no shell: printf gets the quoted text as its format, and expands `\033` itself. */
const COLOURED =
  "/run printf '\\033[31mred\\033[0m plain \\033[1;32mbold green\\033[0m \\033[34mblue\\033[0m \\033[38;5;208morange\\033[0m\\n'";

describe('a terminal in a tool call', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows coloured output and its end, and stops a long command (${colorScheme})`, async () => {
      await open({ context: { colorScheme } });
      await startSession();

      await send(COLOURED);
      const coloured = transcript().getByRole('region', { name: /^Tool call: Run printf/ });
      const output = coloured.locator('pre.terminal-output');
      await coloured.getByRole('status').filter({ hasText: 'Exited with code 0' }).waitFor();
      await turnEnded('Done');
      await expect(output.locator('span.ansi-fg-red').textContent()).resolves.toBe('red');
      await expect(output.locator('span.ansi-fg-green.ansi-bold').textContent()).resolves.toBe(
        'bold green',
      );
      // A 256-colour is an rgb() colour: 208 is (255, 135, 0).
      await expect(
        output.getByText('orange').evaluate((span) => getComputedStyle(span).color),
      ).resolves.toBe('rgb(255, 135, 0)');
      const text = await output.textContent();
      expect(text).toBe('red plain bold green blue orange\n');
      expect(text).not.toContain('\u001b');
      expect(text).not.toMatch(/\[\d+m/);
      await coloured.scrollIntoViewIfNeeded();
      await current().screenshot({ path: `${SHOTS}/coloured-${colorScheme}.png` });

      await send('/run sleep 30');
      const long = transcript().getByRole('region', { name: 'Tool call: Run sleep 30' });
      const stop = long.getByRole('button', { name: 'Stop the command (ends its process)' });
      await long.getByRole('status').filter({ hasText: 'Running…' }).waitFor();
      await long.scrollIntoViewIfNeeded();
      await current().screenshot({ path: `${SHOTS}/running-${colorScheme}.png` });
      // Reached and pressed from the keyboard.
      await stop.focus();
      await current().keyboard.press('Enter');
      // The user stopped it: "Stopped", with no signal's name.
      await long
        .getByRole('status')
        .filter({ hasText: /^Stopped$/ })
        .waitFor();
      await expect(stop.count()).resolves.toBe(0);
      await transcript()
        .getByText(/was stopped by SIGTERM\.$/)
        .waitFor();
      await long.scrollIntoViewIfNeeded();
      await current().screenshot({ path: `${SHOTS}/stopped-${colorScheme}.png` });
    });
  }
});
