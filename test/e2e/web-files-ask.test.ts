/**
 * `ask_before_writes` in Chromium through the web host: the demo agent's `/write` waits on a
 * permission card showing the diff, and the file changes only once the user allows it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_WRITE_TEXT } from '../../main/demo-agent/files.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/files';
mkdirSync(SHOTS, { recursive: true });

const {
  open,
  page: current,
  app,
} = useWebApp({
  openEachTest: false,
  settings: { ask_before_writes: true },
});
const { turnEnded, startSession, send } = appPage(() => current());

describe('a write the user is asked about first', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows the diff on a card and writes once allowed (${colorScheme})`, async () => {
      const file = join(app().configDir, `ask-${colorScheme}.md`);
      writeFileSync(file, '# Before\n');
      await open({ context: { colorScheme } });
      await startSession();
      await send(`/write ask-${colorScheme}.md`);
      const card = current().getByRole('group', { name: /^Permission request: Write / });
      await card.waitFor();
      await expect(card.getByRole('figure', { name: /Diff of / }).textContent()).resolves.toContain(
        '# Before',
      );
      expect(readFileSync(file, 'utf8')).toBe('# Before\n');
      await current().screenshot({ path: `${SHOTS}/ask-${colorScheme}.png` });
      await card.getByRole('button', { name: 'Write the file' }).click();
      await turnEnded('Done');
      expect(readFileSync(file, 'utf8')).toBe(DEMO_WRITE_TEXT);
    });
  }
});
