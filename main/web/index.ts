/**
 * `npm run web`: the core and the renderer served to a browser on 127.0.0.1.
 *
 * Prints a link that opens the app once, and a new one each time Enter is pressed in its
 * terminal (a line on its standard input); runs until interrupted.
 */
import { createInterface } from 'node:readline';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { AirlockCore } from '../core/core.js';
import { builtDemoAgent } from '../core/demo.js';
import { logsDir, settingsPath } from '../core/settings/catalog.js';
import { startWebHost } from './server.js';

async function main(): Promise<void> {
  const core = new AirlockCore({
    settingsPath: settingsPath(),
    logsDir: logsDir(),
    demoAgent: builtDemoAgent(import.meta.url),
    defaultCwd: process.env.AIRLOCK_CWD ?? homedir(),
  });
  await core.init();
  const port = process.env.AIRLOCK_PORT ? Number.parseInt(process.env.AIRLOCK_PORT, 10) : 0;
  const host = await startWebHost(core, {
    staticDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    port,
  });
  process.stdout.write(
    `Airlock is running at ${host.url}\n` +
      'Each link opens Airlock once. Press Enter here for a new link.\n',
  );
  // Each line asks for a new link: for another browser, or after the page was closed.
  createInterface({ input: process.stdin }).on('line', () =>
    process.stdout.write(`New link: ${host.newLink()}\n`),
  );
  // Stops every agent (and what each started) before the host exits, so none outlives it.
  const stop = () => {
    void Promise.all([core.dispose(), host.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`airlock: ${(error as Error).message}`);
  process.exit(1);
});
