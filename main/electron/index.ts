/**
 * The Electron host: the app window, the preload bridge and the core, wired together.
 *
 * One `setupX()` per feature; each lives in its own module.
 */
import { app } from 'electron';
import { fileURLToPath } from 'node:url';
import { startCore } from './app-core.js';
import { setupAppMenu } from './app-menu.js';
import { setupProfile } from './app-profile.js';
import { setupQuit } from './app-quit.js';
import { registerAppScheme, setupAppProtocol } from './app-protocol.js';
import { appWindows, setupWindows } from './app-window.js';
import { setupHardening } from './hardening.js';
import { setupIpc } from './ipc.js';
import { setupUrlWindows } from './url-window.js';

const paths = {
  preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
  stripPreload: fileURLToPath(new URL('../preload/strip.cjs', import.meta.url)),
  renderer: fileURLToPath(new URL('../renderer', import.meta.url)),
  demoAgent: fileURLToPath(new URL('./demo-agent.js', import.meta.url)),
};

// All must run before the app is ready: Chromium opens its profile folder at startup, scheme
// privileges are fixed then, and no web contents may exist before the hardening does.
setupProfile();
registerAppScheme();
setupHardening();

app
  .whenReady()
  .then(async () => {
    setupAppMenu();
    setupAppProtocol(paths.renderer);
    const core = await startCore(paths.demoAgent);
    setupIpc(core, () => appWindows().map((window) => window.webContents));
    setupUrlWindows({ stripPreload: paths.stripPreload });
    setupQuit(core);
    setupWindows(paths.preload);
  })
  .catch((error: unknown) => {
    console.error('airlock: could not start:', error);
    app.exit(1);
  });
