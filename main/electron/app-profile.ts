/**
 * Where Chromium keeps its profile (Electron's `userData`): cookies, local storage, caches,
 * `Preferences`, `Local State`, crash dumps and, on Linux, Electron's own `logs` folder.
 *
 * Left alone, Electron puts it at `<appData>/<app name>`, which is Airlock's settings folder
 * (`configDir()`) itself: the same path on Linux, and the same folder on macOS and Windows,
 * whose file systems ignore case. Chromium's files would then sit beside `settings.json`, and
 * its `logs` beside Airlock's agent logs.
 *
 * The profile is the `Chromium` folder inside the settings folder instead: apart from the
 * user's files, yet removed, backed up or redirected (`AIRLOCK_CONFIG_DIR`) with them, so a
 * test or a second configuration never shares a profile with the user's.
 */
import { app } from 'electron';
import { join } from 'node:path';
import { configDir } from '../core/settings/catalog.js';

/** Chromium's profile folder for the given environment. */
export function profileDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'Chromium');
}

/** Points Electron's `userData` at the profile folder. Must run before the app is ready. */
export function setupProfile(): void {
  app.setPath('userData', profileDir());
}
