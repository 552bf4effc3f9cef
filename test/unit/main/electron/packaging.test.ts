import { existsSync } from 'node:fs';
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

  it('builds a dir and an AppImage on Linux, a dmg on macOS and an NSIS installer on Windows', () => {
    expect(targets(config.linux?.target)).toEqual(['dir', 'AppImage']);
    expect(targets(config.mac?.target)).toEqual(['dmg']);
    expect(targets(config.win?.target)).toEqual(['nsis']);
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
