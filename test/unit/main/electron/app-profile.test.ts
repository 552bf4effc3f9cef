import './use-fake-electron.js';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { app, resetFakeElectron } from './fake-electron.js';
import { configDir, logsDir, settingsPath } from '../../../../main/core/settings/catalog.js';
import { profileDir, setupProfile } from '../../../../main/electron/app-profile.js';

const packageJson = JSON.parse(
  readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'),
) as { name: string; productName?: string };

/** A path as a case-insensitive file system sees it (macOS and Windows), with one separator. */
function folded(path: string): string {
  return path.replaceAll('\\', '/').replace(/\/+$/, '').toLowerCase();
}

/** Whether `inner` is `outer` or inside it, ignoring case. */
function within(inner: string, outer: string): boolean {
  const a = folded(inner);
  const b = folded(outer);
  return a === b || a.startsWith(`${b}/`);
}

/**
 * Electron's own default for `userData`: `<appData>/<productName or name>`, with appData as
 * Electron defines it per platform.
 */
function electronDefault(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  const name = packageJson.productName ?? packageJson.name;
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(homedir(), '.config'));
  return join(appData, name);
}

const cases: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv }[] = [
  { platform: 'linux', env: {} },
  { platform: 'linux', env: { XDG_CONFIG_HOME: '/home/me/conf' } },
  { platform: 'darwin', env: {} },
  { platform: 'win32', env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' } },
  { platform: 'linux', env: { AIRLOCK_CONFIG_DIR: '/tmp/airlock-elsewhere' } },
];

const realPlatform = process.platform;
function onPlatform(platform: NodeJS.Platform): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true });
}

beforeEach(() => resetFakeElectron());
afterEach(() => onPlatform(realPlatform));

describe("Chromium's profile folder", () => {
  it.each(cases)('is apart from the settings and logs ($platform, $env)', ({ platform, env }) => {
    onPlatform(platform);
    const profile = profileDir(env);
    expect(folded(profile)).not.toBe(folded(configDir(env)));
    // Chromium's files do not land beside the settings file or in the logs folder...
    expect(within(settingsPath(env), profile)).toBe(false);
    expect(within(logsDir(env), profile)).toBe(false);
    expect(within(profile, logsDir(env))).toBe(false);
    // ...but stay with them, so a redirected configuration gets its own profile.
    expect(within(profile, configDir(env))).toBe(true);
  });

  it.each(cases.filter((c) => !c.env.AIRLOCK_CONFIG_DIR))(
    "would be the settings folder if Electron's default were kept ($platform)",
    ({ platform, env }) => {
      onPlatform(platform);
      expect(folded(electronDefault(platform, env))).toBe(folded(configDir(env)));
    },
  );

  it('is what Electron is told to use as userData', () => {
    setupProfile();
    expect(app.setPath).toHaveBeenCalledExactlyOnceWith('userData', profileDir());
    expect(folded(profileDir())).not.toBe(folded(configDir()));
  });
});
