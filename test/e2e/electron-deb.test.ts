/**
 * The Linux deb, as electron-builder makes it from electron-builder.yml.
 *
 * electron-builder hands the deb to fpm, which it downloads, and neither the download nor a
 * system fpm is possible here. So fpm is a stand-in (`CUSTOM_FPM_PATH`) that keeps what
 * electron-builder asked of it: the control fields, the files and the after-install script,
 * which is what makes Chromium's sandbox work from the installed app. Electron is the
 * stand-in electron.test.ts uses (it carries only the fuse sentinel). Needs the build.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

/** The fuse wire's marker in an Electron binary (see @electron/fuses). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

describe('the deb', () => {
  let output: string;
  let fpmArgs: string[];
  let afterInstall: string;

  beforeAll(async () => {
    const dist = await mkdtemp(join(tmpdir(), 'airlock-electron-dist-'));
    output = await mkdtemp(join(tmpdir(), 'airlock-deb-'));
    const wire = Buffer.from([1, 8, 0x31, 0x30, 0x31, 0x31, 0x30, 0x30, 0x30, 0x31]);
    await writeFile(join(dist, 'electron'), Buffer.concat([Buffer.from(FUSE_SENTINEL), wire]), {
      mode: 0o755,
    });
    await mkdir(join(dist, 'resources'));
    const fpm = join(dist, 'fpm');
    await writeFile(
      fpm,
      [
        `#!${process.execPath}`,
        "const { copyFileSync, writeFileSync } = require('node:fs');",
        'const args = process.argv.slice(2);',
        `writeFileSync(${JSON.stringify(join(output, 'fpm-args.json'))}, JSON.stringify(args));`,
        "const script = args[args.indexOf('--after-install') + 1];",
        `copyFileSync(script, ${JSON.stringify(join(output, 'after-install'))});`,
        "const entry = args.find((arg) => arg.endsWith('=/usr/share/applications/airlock.desktop'));",
        `if (entry) copyFileSync(entry.split('=')[0], ${JSON.stringify(join(output, 'entry.desktop'))});`,
      ].join('\n'),
      { mode: 0o755 },
    );
    await promisify(execFile)(
      process.execPath,
      [
        require.resolve('electron-builder/cli.js'),
        '--linux',
        'deb',
        '--x64',
        `-c.electronDist=${dist}`,
        `-c.directories.output=${output}`,
      ],
      { cwd: root, env: { ...process.env, CUSTOM_FPM_PATH: fpm } },
    );
    fpmArgs = JSON.parse(await readFile(join(output, 'fpm-args.json'), 'utf8')) as string[];
    afterInstall = await readFile(join(output, 'after-install'), 'utf8');
  }, 300_000);

  /** The values fpm got for `flag`, in order. */
  function values(flag: string): string[] {
    return fpmArgs.flatMap((arg, index) => (arg === flag ? [fpmArgs[index + 1] ?? ''] : []));
  }

  it('is a deb named airlock, with a maintainer, a homepage and a description', () => {
    expect(values('-t')).toEqual(['deb']);
    expect(values('--name')).toEqual(['airlock']);
    expect(values('--maintainer')).toEqual(['Airlock contributors <maintainers@airlock.dev>']);
    expect(values('--url')).toEqual(['https://airlock.dev']);
    expect(values('--description')[0]).toMatch(/^Desktop client for the Agent Client Protocol\n/);
    expect(values('--package')).toEqual([join(output, 'airlock_0.1.0_amd64.deb')]);
  });

  it('depends on what Electron loads at start, libgbm and ALSA included', () => {
    expect(values('-d')).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libgbm1']));
    expect(values('-d')).toContain('libasound2');
  });

  it('installs the app in /opt/Airlock, with its icon and desktop entry', () => {
    expect(fpmArgs).toContain(`${join(output, 'linux-unpacked')}/=/opt/Airlock`);
    expect(fpmArgs).toContain(
      `${join(root, 'build', 'icon.png')}=/usr/share/icons/hicolor/512x512/apps/airlock.png`,
    );
    expect(fpmArgs.some((arg) => arg.endsWith('=/usr/share/applications/airlock.desktop'))).toBe(
      true,
    );
  });

  it('names its desktop entry as the app names itself, so the window and badge belong to it', async () => {
    // Electron takes the desktop name from package.json; the entry is installed under it.
    const { desktopName } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      desktopName: string;
    };
    expect(desktopName).toBe('airlock.desktop');
    const entry = await readFile(join(output, 'entry.desktop'), 'utf8');
    expect(entry).toMatch(/^StartupWMClass=airlock$/m);
    expect(entry).toMatch(/^Name=Airlock$/m);
  });

  it('makes chrome-sandbox setuid root where user namespaces do not work, and installs the AppArmor profile that allows them', async () => {
    expect(afterInstall).toMatch(
      /if ! \{ \[\[ -L \/proc\/self\/ns\/user \]\] && unshare --user true; \}; then\s+# [^\n]*\n\s+chmod 4755 '\/opt\/Airlock\/chrome-sandbox'/,
    );
    expect(afterInstall).toContain("APPARMOR_PROFILE_TARGET='/etc/apparmor.d/airlock'");
    const profile = await readFile(
      join(output, 'linux-unpacked', 'resources', 'apparmor-profile'),
      'utf8',
    );
    expect(profile).toContain('profile "airlock" "/opt/Airlock/airlock"');
    expect(profile).toMatch(/^\s*userns,$/m);
  });
});
