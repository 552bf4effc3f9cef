/**
 * The first screen loads only itself: the welcome needs the entry script alone, under its
 * budget; the form card's script (RJSF, its validator, re2js) loads only once a session shows,
 * and the form then renders; and a part whose script cannot load says so, in words, with Reload.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/a11y.js';
import { appPage, newSessionDialog } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

/** The first screen's script budget, minified (React and zod are most of it). */
const FIRST_SCREEN_BUDGET = 420 * 1024;

/** The script files the page fetched, by name, and (once all their bodies are in) their sizes. */
function scriptsOf(page: Page) {
  const names: string[] = [];
  const bodies: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      names.push(new URL(response.url()).pathname.split('/').pop()!);
      bodies.push(response.body().then((body) => body.length));
    }
  });
  return {
    names,
    async sizes(): Promise<Map<string, number>> {
      const sizes = await Promise.all(bodies);
      return new Map(sizes.map((size, index) => [names[index]!, size]));
    },
  };
}

const isFormChunk = (name: string) => name.startsWith('elicitation-card-');

const { page, open } = useWebApp({ openEachTest: false });
const { startSession, send, openNewSession, status } = appPage(page);
const card = () =>
  page()
    .getByRole('region', { name: 'Questions from the agent' })
    .getByRole('group', { name: 'Question from Airlock Demo Agent 0.1.0' });

describe('the first screen', () => {
  it('loads the entry alone, within budget, and the form card only once a session shows', async () => {
    let scripts: ReturnType<typeof scriptsOf> | undefined;
    await open({ beforeLoad: (page) => (scripts = scriptsOf(page)) });
    await page().getByRole('button', { name: 'New session' }).first().waitFor();
    // Wait until the page has been idle once: nothing the welcome does not need loaded by then.
    await page().evaluate(
      () => new Promise<void>((resolve) => requestIdleCallback(() => resolve())),
    );
    const sizes = await scripts!.sizes();
    const names = [...sizes.keys()];
    expect(names.some(isFormChunk)).toBe(false);
    const entry = names.filter((name) => name.startsWith('index-') || name.startsWith('jsx-'));
    expect(entry.length).toBeGreaterThan(0);
    const entryBytes = entry.reduce((sum, name) => sum + sizes.get(name)!, 0);
    expect(entryBytes).toBeLessThan(FIRST_SCREEN_BUDGET);

    await startSession();
    // Once a session shows, the card's files are fetched when the page is idle, but not run:
    // running its script would add its stylesheet to the page.
    await expect.poll(() => scripts!.names.some(isFormChunk)).toBe(true);
    const cardStyle = page().locator('link[rel=stylesheet][href*="elicitation-card-"]');
    await expect(cardStyle.count()).resolves.toBe(0);
    await send('/form');
    await card().getByRole('button', { name: 'Accept' }).waitFor();
    await expect(cardStyle.count()).resolves.toBe(1);
    // The script fetched ahead is the one run: it was not fetched again.
    expect(scripts!.names.filter(isFormChunk)).toHaveLength(1);
  });

  it('shows in words, with Reload, that a form could not load', async () => {
    await open({
      beforeLoad: (page) =>
        page.route(/\/assets\/elicitation-card-[\w-]+\.js$/, (route) => route.abort()),
      // The browser's own words for the refused file, which the test causes.
      ignoreErrors: (text) => /Failed to load|net::ERR_FAILED|dynamically imported/.test(text),
    });
    await startSession();
    await send('/form');
    const failed = page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('alert')
      .filter({ hasText: 'This part of Airlock could not load' });
    await failed.waitFor();
    await expect(failed.getByRole('button', { name: 'Reload' }).isVisible()).resolves.toBe(true);
    // The rest of the app goes on: the message box still takes text.
    await expect(page().getByRole('textbox', { name: 'Message' }).isEditable()).resolves.toBe(true);
  });

  it("gives the first field the focus when a card comes before the card's script", async () => {
    /** The held request for the form card's script, once the page asked for it. */
    let held: (route: Route) => void = () => undefined;
    const asked = new Promise<Route>((resolve) => (held = resolve));
    await open({
      beforeLoad: (page) => page.route(/\/assets\/elicitation-card-[\w-]+\.js$/, held),
    });
    await startSession();
    await send('/form');
    // The question is in the transcript and its card in the dock, whose script is still held:
    // nothing in the card can take the focus yet.
    await page().getByRole('button', { name: 'Go to the question' }).waitFor();
    await (await asked).continue();
    const first = card().getByLabel('Name', { exact: true });
    await first.waitFor();
    await expect(first.evaluate((field) => field === document.activeElement)).resolves.toBe(true);
    // The first keystrokes are the answer's.
    await page().keyboard.type('Ada');
    await expect(first.inputValue()).resolves.toBe('Ada');
  });

  it("holds the shown tab's pane in place, busy, while the session view's script loads", async () => {
    /** The held request for the session view's script, once the page asked for it. */
    let held: (route: Route) => void = () => undefined;
    const asked = new Promise<Route>((resolve) => (held = resolve));
    await open({
      beforeLoad: (page) => page.route(/\/assets\/session-view-[\w-]+\.js$/, held),
    });
    const dialog = await openNewSession();
    await dialog.getByRole('button', { name: 'Start session' }).click();
    await newSessionDialog(page()).waitFor({ state: 'detached' });
    const pane = page().locator('#session-panel');
    await expect(pane.getAttribute('aria-busy')).resolves.toBe('true');
    // The tab that controls the pane names an element that is there.
    await expect(
      page().locator('[role=tab][aria-selected=true]').getAttribute('aria-controls'),
    ).resolves.toBe('session-panel');
    await expect(
      seriousViolations(new AxeBuilder({ page: page() }), 'session view loading'),
    ).resolves.toEqual([]);
    await (await asked).continue();
    await status().filter({ hasText: 'Ready' }).waitFor();
    await expect(pane.getAttribute('aria-busy')).resolves.toBe(null);
  });
});
