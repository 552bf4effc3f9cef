/**
 * Undoing the agent's writes in Chromium through the web host, with the demo agent's `/write`:
 * a write row's Undo puts back what the file held (checked on disk); a file changed since the
 * write shows its three versions and asks, Keep leaving it and Restore restoring it; a turn's
 * "Undo all changes of this turn" says what it did. In the light and the dark theme, wide and
 * narrow.
 */
import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage, focusedIn } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/shots/undo';
mkdirSync(SHOTS, { recursive: true });

const { app, open, page } = useWebApp({ openEachTest: false });
const { transcript, startSession, sendTurn } = appPage(page);

/** The demo agent's `/write` text (main/demo-agent/files.ts), by its first line. */
const DEMO_WRITTEN = '# Written by the Airlock demo agent';

/** `name` in the session's folder (the host's, see test/helpers/web-app.ts). */
const inFolder = (name: string) => join(app().configDir, name);
/** The row of the write of `name`. */
const writeRow = (name: string) =>
  transcript().getByRole('region', { name: new RegExp(`^Tool call: Airlock wrote .*/${name}$`) });
const undoTurn = () =>
  transcript().getByRole('button', { name: 'Undo all changes of this turn' }).last();
const changedDialog = (name: string) =>
  page().getByRole('dialog', { name: `${name} changed since the agent wrote it` });

describe('undoing the agent’s writes', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 420]) {
      it(`puts files back from a write's row and from its turn (${colorScheme}, ${width} px)`, async () => {
        const tag = `${colorScheme}-${width}`;
        await open({ viewport: { width, height: 900 }, context: { colorScheme, bypassCSP: true } });
        await startSession();

        // A write's Undo: the file holds again what it held before.
        const notes = `notes-${tag}.txt`;
        await writeFile(inFolder(notes), 'hello world');
        await sendTurn(`/write ${notes}`);
        await expect(readFile(inFolder(notes), 'utf8')).resolves.toContain(DEMO_WRITTEN);
        const undo = writeRow(notes).getByRole('button', { name: 'Undo this write' });
        await undo.waitFor();
        await undoTurn().waitFor();
        await expect(
          transcript()
            .getByText(/^Only files the agent wrote through Airlock can be undone/)
            .count(),
        ).resolves.toBe(1);
        await page().screenshot({ path: `${SHOTS}/row-${tag}.png` });
        await undo.click();
        await writeRow(notes).getByText('Undone', { exact: true }).waitFor();
        await expect(readFile(inFolder(notes), 'utf8')).resolves.toBe('hello world');
        // Its turn has nothing left to undo.
        await expect(undoTurn().count()).resolves.toBe(0);

        // A file changed since the write: the three versions, and the choice.
        const changed = `changed-${tag}.txt`;
        await writeFile(inFolder(changed), 'hello world');
        await sendTurn(`/write ${changed}`);
        await writeFile(inFolder(changed), 'changed by me');
        await writeRow(changed).getByRole('button', { name: 'Undo this write' }).click();
        const dialog = changedDialog(changed);
        await dialog.waitFor();
        const version = (name: string) => dialog.getByRole('figure', { name });
        await expect(version("Before the agent's write").textContent()).resolves.toContain(
          'hello world',
        );
        await expect(version('As the agent wrote it').textContent()).resolves.toContain(
          DEMO_WRITTEN,
        );
        await expect(version('Now').textContent()).resolves.toContain('changed by me');
        await expect.poll(() => focusedIn(page())).toBe('button: Keep it as it is');
        expect(
          await seriousViolations(
            new AxeBuilder({ page: page() }).include('dialog'),
            'changed dialog',
          ),
        ).toEqual([]);
        await page().screenshot({ path: `${SHOTS}/changed-${tag}.png` });
        await dialog.getByRole('button', { name: 'Keep it as it is' }).click();
        await dialog.waitFor({ state: 'detached' });
        await expect(readFile(inFolder(changed), 'utf8')).resolves.toBe('changed by me');

        // The turn's undo leaves the changed file as it is, and says so.
        await undoTurn().click();
        const said = transcript().getByRole('status').filter({ hasText: 'changed since' });
        await said.waitFor();
        await expect(said.textContent()).resolves.toBe(
          `${changed} changed since, so it was left as it is.`,
        );
        await expect(readFile(inFolder(changed), 'utf8')).resolves.toBe('changed by me');
        await page().screenshot({ path: `${SHOTS}/turn-${tag}.png` });

        // Restore, asked for: the version before the agent's write comes back.
        await writeRow(changed).getByRole('button', { name: 'Undo this write' }).click();
        await dialog
          .getByRole('button', { name: "Restore the version before the agent's write" })
          .click();
        await writeRow(changed).getByText('Undone', { exact: true }).waitFor();
        await expect(readFile(inFolder(changed), 'utf8')).resolves.toBe('hello world');
        await expect(undoTurn().count()).resolves.toBe(0);

        // A turn that created a file: its undo takes the file away again.
        const created = `created-${tag}.txt`;
        await sendTurn(`/write ${created}`);
        expect(existsSync(inFolder(created))).toBe(true);
        await undoTurn().click();
        await transcript().getByRole('status').filter({ hasText: '1 file restored.' }).waitFor();
        expect(existsSync(inFolder(created))).toBe(false);
        await writeRow(created).getByText('Undone', { exact: true }).waitFor();

        // A file that became a folder since: the row says why nothing was done, and keeps Undo.
        const turned = `turned-${tag}.txt`;
        await sendTurn(`/write ${turned}`);
        await rm(inFolder(turned));
        await mkdir(inFolder(turned));
        await writeRow(turned).getByRole('button', { name: 'Undo this write' }).click();
        await expect(writeRow(turned).getByRole('alert').textContent()).resolves.toMatch(
          new RegExp(`${turned}.*; nothing was restored$`),
        );
        expect(statSync(inFolder(turned)).isDirectory()).toBe(true);
        await page().screenshot({ path: `${SHOTS}/refused-${tag}.png` });
        await expect(
          writeRow(turned).getByRole('button', { name: 'Undo this write' }).isEnabled(),
        ).resolves.toBe(true);
      });
    }
  }
});
