/**
 * The agent's file requests in Chromium through the web host: a write the demo agent makes
 * shows as a diff in the transcript, and its reads and writes outside the folder show as
 * refusals, in the light and the dark theme.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/files';
mkdirSync(SHOTS, { recursive: true });

const { open, page: current } = useWebApp({ openEachTest: false });
const { transcript, turnEnded, startSession, send } = appPage(() => current());

describe('file requests in the transcript', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows a write as a diff and refusals as lines (${colorScheme})`, async () => {
      await open({ context: { colorScheme } });
      await startSession();
      await send(`/write notes-${colorScheme}.md`);
      const diff = transcript().getByRole('figure', {
        name: new RegExp(`Diff of .*notes-${colorScheme}\\.md$`),
      });
      await diff.waitFor();
      await turnEnded('Done');
      await expect(diff.textContent()).resolves.toContain('# Written by the Airlock demo agent');
      await expect(diff.textContent()).resolves.toContain('New file');
      await diff.scrollIntoViewIfNeeded();
      await current().screenshot({ path: `${SHOTS}/write-${colorScheme}.png` });
      await send('/outside');
      // The second turn's end (the first one's "Done" is already there).
      await transcript().getByRole('status', { name: 'Turn ended' }).nth(1).waitFor();
      const refusals = transcript().getByText(/^Airlock refused the agent's request to/);
      await expect(refusals.count()).resolves.toBe(3);
      await expect(refusals.first().textContent()).resolves.toContain(
        "/etc/hostname is outside the session's folder",
      );
      await current().screenshot({ path: `${SHOTS}/outside-${colorScheme}.png` });
    });
  }
});
