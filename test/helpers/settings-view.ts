/**
 * What the end-to-end tests of the agents' settings view share: a host per test on a
 * hand-written settings file, opening the view from the sidebar, screenshots of it in both
 * themes, and axe's serious findings in it in both themes.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import { seriousViolations } from './a11y.js';
import { useWebApp } from './e2e.js';

const THEMES = ['light', 'dark'] as const;

/**
 * A web app for each test on the settings file `settings` (written as it is), whose tests open
 * their page with `openSettings()`; screenshots go to the folder `shots`.
 */
export function useSettingsView(settings: string, shots: string) {
  beforeAll(async () => {
    await mkdir(shots, { recursive: true });
  });
  const web = useWebApp({
    host: 'test',
    settings,
    openEachTest: false,
    context: { bypassCSP: true },
  });
  const { page } = web;

  const view = () => page().getByRole('main', { name: 'Agents' });
  const agentList = () => view().getByRole('list', { name: 'Agents' });

  /** Opens the app and its agents' settings from the sidebar. */
  async function openSettings(): Promise<Page> {
    const shown = await web.open();
    await shown.getByRole('button', { name: /Agent settings/ }).click();
    await view().getByRole('heading', { name: 'Agents', level: 2 }).waitFor();
    // The heading shows at once; the list and the file's path once the core has answered.
    await agentList().waitFor();
    return shown;
  }

  /** Saves a screenshot of the page in the light and the dark theme. */
  async function shoot(name: string): Promise<void> {
    for (const colorScheme of THEMES) {
      await page().emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page().screenshot({ path: `${shots}/${name}-${colorScheme}.png`, fullPage: true });
    }
    await page().emulateMedia({ colorScheme: 'light' });
  }

  /** Axe's serious and critical findings in the view, in the light and the dark theme. */
  async function seriousInView(): Promise<string[]> {
    const found: string[] = [];
    for (const colorScheme of THEMES) {
      await page().emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      const builder = new AxeBuilder({ page: page() }).include('.agent-settings');
      found.push(...(await seriousViolations(builder, colorScheme)));
    }
    return found;
  }

  return { ...web, view, agentList, openSettings, shoot, seriousInView };
}
