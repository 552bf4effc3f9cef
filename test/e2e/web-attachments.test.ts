/**
 * Attachments in Chromium through the web host: an `@` mention completes over the session
 * folder's files and is picked by keyboard, the file goes to the demo agent as an embedded
 * resource, a pasted image as an image block, and a dropped file that is not an image points at
 * `@`. In the light and the dark theme, with no serious or critical axe violation.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const SHOTS = '/tmp/airlock-shots/attachments';
mkdirSync(SHOTS, { recursive: true });

const { app, open, page: current } = useWebApp({ openEachTest: false });
const { transcript, composer, turnEnded, startSession } = appPage(() => current());
const files = () => current().getByRole('listbox', { name: 'Files' });
const chips = () => current().getByRole('list', { name: 'Attachments' });

/** The serious and critical axe violations on the page as it is. */
function violations(): Promise<string[]> {
  return seriousViolations(new AxeBuilder({ page: current() }), 'attachments');
}

/**
 * Pastes a PNG into the message box, as the clipboard would give it: a 48×48 square drawn in
 * the page, so its chip shows a thumbnail. Resolves with its size in bytes.
 */
function pasteImage(page: Page, name: string): Promise<number> {
  return page.getByRole('textbox', { name: 'Message' }).evaluate(async (box, fileName) => {
    const canvas = document.createElement('canvas');
    canvas.width = 48;
    canvas.height = 48;
    const draw = canvas.getContext('2d')!;
    draw.fillStyle = '#e8590c';
    draw.fillRect(0, 0, 48, 48);
    draw.fillStyle = '#1c7ed6';
    draw.fillRect(12, 12, 24, 24);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!)));
    const transfer = new DataTransfer();
    transfer.items.add(new File([blob], fileName, { type: 'image/png' }));
    box.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
    return blob.size;
  }, name);
}

describe('attachments', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`attaches a file by @ and a pasted image, and the agent gets both (${colorScheme})`, async () => {
      mkdirSync(join(app().configDir, 'docs'), { recursive: true });
      writeFileSync(join(app().configDir, 'docs', 'notes.md'), '# Notes\nhello\n');
      writeFileSync(join(app().configDir, 'notebook.txt'), 'other\n');
      // axe is injected as a script, which the app's CSP refuses.
      await open({ context: { colorScheme, bypassCSP: true } });
      await startSession();

      await composer().fill('What is in ');
      await composer().press('End');
      await composer().pressSequentially('@note');
      await files().getByRole('option').first().waitFor();
      // Files of the folder fit the query, best fit first; the first is active.
      await expect(files().getByRole('option').allTextContents()).resolves.toEqual([
        '@notebook.txt',
        '@docs/notes.md',
      ]);
      await expect(composer().getAttribute('aria-activedescendant')).resolves.toBe(
        await files().getByRole('option').first().getAttribute('id'),
      );
      await composer().press('ArrowDown');
      await expect(files().getByRole('option', { selected: true }).textContent()).resolves.toBe(
        '@docs/notes.md',
      );
      await current().screenshot({ path: `${SHOTS}/completion-${colorScheme}.png` });
      await expect(violations()).resolves.toEqual([]);
      await composer().press('Enter');

      // The mention became a chip; the text lost it.
      await chips().getByText('@docs/notes.md').waitFor();
      await expect(files().count()).resolves.toBe(0);
      await expect(composer().inputValue()).resolves.toBe('What is in ');

      const size = await pasteImage(current(), 'square.png');
      await chips().getByText('square.png').waitFor();
      await current().getByRole('button', { name: 'Attach image' }).waitFor();
      await current().screenshot({ path: `${SHOTS}/chips-${colorScheme}.png` });
      await expect(violations()).resolves.toEqual([]);

      await composer().pressSequentially('these?');
      await composer().press('Enter');
      await turnEnded('Done');
      await transcript().getByText('Got resource notes.md (14 characters)').waitFor();
      await transcript().getByText(`Got image image/png (${size} bytes)`).waitFor();
      // Under the prompt, what was sent with it, each on a line of its own.
      await expect(transcript().locator('.row.attached').allTextContents()).resolves.toEqual([
        'Attached notes.md, its text included',
        'Attached an image (image/png)',
      ]);
      await expect(chips().count()).resolves.toBe(0);
      await current().screenshot({ path: `${SHOTS}/sent-${colorScheme}.png` });
    });
  }

  it('Esc closes the file list; a chip’s remove button drops the file', async () => {
    writeFileSync(join(app().configDir, 'remove-me.md'), 'x');
    await open();
    await startSession();
    await composer().pressSequentially('@remove');
    await files().getByRole('option').first().waitFor();
    await composer().press('Escape');
    await expect(files().count()).resolves.toBe(0);
    await composer().pressSequentially('-');
    await files().getByRole('option').first().waitFor();
    await composer().press('Tab');
    await chips().getByRole('button', { name: 'Remove @remove-me.md' }).click();
    await expect(chips().count()).resolves.toBe(0);
  });

  it('a dropped file that is not an image points at @', async () => {
    await open();
    await startSession();
    // The shown tab's message box: the panes of tabs shown before stay in the page, hidden.
    await current()
      .locator('#session-panel .composer-area')
      .evaluate((area) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['text'], 'notes.md', { type: 'text/markdown' }));
        area.dispatchEvent(
          new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
        );
      });
    await current().getByText('Use @ to attach files from the folder.').waitFor();
    await expect(chips().count()).resolves.toBe(0);
  });
});
