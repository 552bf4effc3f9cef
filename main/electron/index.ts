/**
 * The Electron host: the app window, the preload bridge and the core, wired together.
 *
 * One `setupX()` per feature; each lives in its own module.
 */
import { app } from 'electron';
import { fileURLToPath } from 'node:url';
import { setupAttention } from './app-attention.js';
import { startCore } from './app-core.js';
import { setupSecondInstance, takeSingleInstanceLock } from './app-instance.js';
import { setupAppMenu } from './app-menu.js';
import { setupProfile } from './app-profile.js';
import { setupQuit } from './app-quit.js';
import { registerAppScheme, setupAppProtocol } from './app-protocol.js';
import { appWindows, createAppWindow, setupWindows } from './app-window.js';
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
// privileges are fixed then, and no web contents may exist before the hardening does. The
// single-instance lock lives in the profile folder, so it is taken just after that is set and
// before anything else: a second instance quits having started nothing (app-instance.ts).
setupProfile();
if (takeSingleInstanceLock()) {
  registerAppScheme();
  setupHardening();

  app
    .whenReady()
    .then(async () => {
      setupAppProtocol(paths.renderer);
      const core = await startCore(paths.demoAgent);
      // Set before any window opens, so none ever has Electron's default menu; its window
      // commands go to the core.
      setupAppMenu(core);
      setupIpc(core, () => appWindows().map((window) => window.webContents));
      setupAttention(core, {
        open: appWindows,
        create: (key) => createAppWindow(paths.preload, key),
      });
      setupUrlWindows({ stripPreload: paths.stripPreload });
      setupQuit(core);
      await setupWindows(paths.preload);
      setupSecondInstance({ open: appWindows, create: () => createAppWindow(paths.preload) });
    })
    .catch((error: unknown) => {
      console.error('airlock: could not start:', error);
      app.exit(1);
    });
}
