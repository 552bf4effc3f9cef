import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
// electron-builder's own loader and schema check, so the test sees the configuration exactly
// as `electron-builder` will (whichever file or package.json key holds it).
const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } =
  require('app-builder-lib/out/util/config/config.js') as {
    getConfig(
      projectDir: string,
      configPath: string | null,
      fromOptions: null,
    ): Promise<Configuration>;
    validateConfiguration(config: Configuration, logger: unknown): Promise<void>;
  };
const { DebugLogger } = require('builder-util') as {
  DebugLogger: new (enabled: boolean) => unknown;
};
// The list electron-builder's deb depends on when the configuration names none.
const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget.js') as {
  default: { prototype: { getDefaultDepends(target: string): string[] } };
};
const defaultDebDepends = FpmTarget.prototype.getDefaultDepends('deb');

let config: Configuration;
beforeAll(async () => {
  config = await getConfig(root, null, null);
});

/** The file patterns, flattened from the shapes electron-builder normalises them to. */
function filePatterns(files: unknown): string[] {
  const list = Array.isArray(files) ? files : [files];
  return list.flatMap((entry) =>
    typeof entry === 'string' ? [entry] : ((entry as { filter?: string[] }).filter ?? []),
  );
}

/** The target names of one platform, however the configuration spells them. */
function targets(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) =>
    typeof entry === 'string' ? entry : (entry as { target: string }).target,
  );
}

describe('the electron-builder configuration', () => {
  it("passes electron-builder's own schema check", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app and packages the build output only', () => {
    expect(config.appId).toBe('dev.airlock.app');
    expect(config.productName).toBe('Airlock');
    expect(filePatterns(config.files)).toEqual(['out/**', '!out/**/*.map', 'package.json']);
    expect(config.asar).not.toBe(false);
    expect(config.directories?.buildResources).toBe('build');
    expect(existsSync(`${root}build/icon.png`)).toBe(true);
  });

  it('builds a deb, an AppImage and a dir on Linux, a dmg on macOS and an NSIS installer on Windows', () => {
    expect(targets(config.linux?.target)).toEqual(['deb', 'AppImage', 'dir']);
    expect(targets(config.mac?.target)).toEqual(['dmg']);
    expect(targets(config.win?.target)).toEqual(['nsis']);
  });

  it('gives the deb what electron-builder requires of one, and the libraries Electron loads at start', async () => {
    // electron-builder refuses a deb without a maintainer (with an email) and a homepage.
    expect(config.linux?.maintainer).toMatch(/^[^<>]+ <[^@<>\s]+@[^@<>\s]+>$/);
    const metadata = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as {
      homepage?: string;
    };
    expect(metadata.homepage).toMatch(/^https:\/\//);
    expect(config.linux?.synopsis).toBeTruthy();
    // Its `depends` replaces electron-builder's default list: that list, plus what it lacks.
    expect(config.deb?.depends).toEqual([...defaultDebDepends, 'libgbm1', 'libasound2']);
    // The after-install script (setuid chrome-sandbox where needed, the AppArmor profile) is
    // electron-builder's own: a custom one would have to do all of that again.
    expect(config.deb?.afterInstall).toBeUndefined();
  });

  it('flips the fuses: no run-as-node, NODE_OPTIONS or --inspect; only app.asar loads; no file:// privileges', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
