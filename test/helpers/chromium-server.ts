/**
 * The e2e project's global set-up: one Chromium for the whole run, which every file connects
 * to (`sharedChromium` in test/helpers/e2e.ts) instead of launching its own. Each test still
 * opens its pages in browser contexts of its own, so what one test leaves (storage, cookies,
 * permissions) never reaches another.
 */
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './web-app.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the run's Chromium, for `chromium.connect`. */
    chromiumEndpoint: string;
  }
}

/** Launches the run's Chromium, and closes it once the run is over. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  let ending = false;
  server.on('close', () => {
    if (!ending) {
      console.error(
        "the run's Chromium closed before the run's end: the next files launch their own",
      );
    }
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => {
    ending = true;
    return server.close();
  };
}
