import './use-fake-electron.js';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, BrowserWindow, Menu, resetFakeElectron, shell } from './fake-electron.js';
import {
  appMenuTemplate,
  openLogsFolder,
  setupAppMenu,
} from '../../../../main/electron/app-menu.js';
import { createAppWindow } from '../../../../main/electron/app-window.js';
import type { HostCommand } from '../../../../preload/shared/contract.js';
import { ariaChord, HOST_COMMAND_SHORTCUTS, SHORTCUTS } from '../../../../renderer/src/keyboard.js';

beforeEach(() => {
  for (const window of BrowserWindow.created) {
    window.emit('closed');
  }
  resetFakeElectron();
});

const actions = { openLogsFolder: vi.fn(), hostCommand: vi.fn() };
/** A core for `setupAppMenu`: only its host commands are used. */
const core = { hostCommand: vi.fn<(command: HostCommand) => void>() };

/** Every item of a template, submenus included. */
function allItems(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? allItems(item.submenu as MenuItemConstructorOptions[]) : []),
  ]);
}

/** The items of the top-level menu labelled `label`. */
function submenu(template: MenuItemConstructorOptions[], label: string) {
  const menu = template.find((item) => item.label === label);
  return (menu?.submenu ?? []) as MenuItemConstructorOptions[];
}

const roles = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role);

const DEV_ROLES = ['reload', 'forceReload', 'toggleDevTools'];

describe('appMenuTemplate', () => {
  it.each(['darwin', 'linux', 'win32'] as const)(
    'packaged on %s: no reload and no developer tools anywhere',
    (platform) => {
      const items = allItems(appMenuTemplate(platform, true, actions));
      for (const item of items) {
        expect(DEV_ROLES).not.toContain(item.role);
        expect(String(item.label ?? '')).not.toMatch(/reload|developer|devtools/i);
        expect(String(item.accelerator ?? '')).not.toMatch(/^(CmdOrCtrl\+R|F5|F12)$/i);
      }
    },
  );

  it('not packaged: View has reload, force reload and the developer tools', () => {
    const view = submenu(appMenuTemplate('linux', false, actions), 'View');
    expect(roles(view)).toEqual(expect.arrayContaining(DEV_ROLES));
  });

  it('Edit has the clipboard and undo roles, on every platform', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const edit = submenu(appMenuTemplate(platform, true, actions), 'Edit');
      expect(roles(edit)).toEqual(
        expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
      );
    }
  });

  it('has the macOS app menu (about, hide, quit) on macOS only', () => {
    const mac = appMenuTemplate('darwin', true, actions);
    expect(mac[0]?.role).toBe('appMenu');
    expect(roles(mac[0]?.submenu as MenuItemConstructorOptions[])).toEqual(
      expect.arrayContaining(['about', 'hide', 'hideOthers', 'quit']),
    );
    for (const platform of ['linux', 'win32'] as const) {
      const template = appMenuTemplate(platform, true, actions);
      expect(roles(template)).not.toContain('appMenu');
      expect(template[0]?.label).toBe('File');
    }
  });

  it('the macOS app menu is, in order: about, services, hide, hide others, show all, quit, with separators between groups', () => {
    const appMenu = appMenuTemplate('darwin', true, actions)[0]?.submenu;
    expect((appMenu as MenuItemConstructorOptions[]).map((item) => item.role ?? item.type)).toEqual(
      [
        'about',
        'separator',
        'services',
        'separator',
        'hide',
        'hideOthers',
        'unhide',
        'separator',
        'quit',
      ],
    );
  });

  it('has the Window menu, between View and Help, on macOS only', () => {
    const mac = appMenuTemplate('darwin', true, actions);
    const window = mac.findIndex((item) => item.role === 'windowMenu');
    expect(window).toBe(mac.findIndex((item) => item.label === 'View') + 1);
    expect(mac[window + 1]?.label).toBe('Help');
    for (const platform of ['linux', 'win32'] as const) {
      expect(roles(appMenuTemplate(platform, true, actions))).not.toContain('windowMenu');
    }
  });

  it('File has the session and agent commands, Open Logs Folder, and Quit except on macOS', () => {
    const commands = [
      'New Session',
      'Close Session',
      'separator',
      'Agent Settings…',
      'Show Agent Log',
      'Open Logs Folder',
    ];
    for (const platform of ['linux', 'win32'] as const) {
      const file = submenu(appMenuTemplate(platform, true, actions), 'File');
      expect(file.map((item) => item.role ?? item.type ?? item.label)).toEqual([
        ...commands,
        'separator',
        'quit',
      ]);
    }
    const macFile = submenu(appMenuTemplate('darwin', true, actions), 'File');
    expect(macFile.map((item) => item.type ?? item.label)).toEqual(commands);
  });

  it('each window command sends its host command, and nothing else', () => {
    const sent = new Map<string, unknown>();
    const hostCommand = vi.fn();
    const file = submenu(
      appMenuTemplate('linux', true, { openLogsFolder: vi.fn(), hostCommand }),
      'File',
    );
    for (const label of ['New Session', 'Close Session', 'Agent Settings…', 'Show Agent Log']) {
      hostCommand.mockClear();
      (file.find((item) => item.label === label)?.click as () => void)();
      expect(hostCommand, label).toHaveBeenCalledTimes(1);
      sent.set(label, hostCommand.mock.calls[0]?.[0]);
    }
    expect(Object.fromEntries(sent)).toEqual({
      'New Session': { command: 'newSession' },
      'Close Session': { command: 'closeSession' },
      'Agent Settings…': { command: 'agentSettings' },
      'Show Agent Log': { command: 'agentLog' },
    });
  });

  it('shows, beside each window command, the page’s own shortcut for it (keyboard.ts)', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const hostCommand = vi.fn<(command: HostCommand) => void>();
      const items = allItems(
        appMenuTemplate(platform, true, { openLogsFolder: vi.fn(), hostCommand }),
      );
      const commands = items.filter((item) => item.accelerator !== undefined && !item.role);
      expect(commands).toHaveLength(4);
      for (const item of commands) {
        hostCommand.mockClear();
        (item.click as () => void)();
        const command = hostCommand.mock.calls[0]![0].command;
        const shortcut = SHORTCUTS.find(({ id }) => id === HOST_COMMAND_SHORTCUTS[command]);
        expect(item.accelerator, `${item.label}`).toBe(ariaChord(shortcut!.chords[0]!));
      }
    }
  });

  it('leaves the keys of its window commands to the page: shown, not registered', () => {
    const file = submenu(appMenuTemplate('linux', true, actions), 'File');
    for (const item of file.filter((candidate) => candidate.accelerator !== undefined)) {
      expect(item.registerAccelerator, `${item.label}`).toBe(false);
      expect(item.accelerator).toMatch(/^Alt\+/);
    }
  });

  it('File opens the logs folder; it quits there except on macOS, where the app menu does', () => {
    const linuxFile = submenu(appMenuTemplate('linux', true, actions), 'File');
    expect(roles(linuxFile)).toContain('quit');
    const open = linuxFile.find((item) => item.label === 'Open Logs Folder');
    expect(open?.click).toBeTypeOf('function');
    (open?.click as () => void)();
    expect(actions.openLogsFolder).toHaveBeenCalledTimes(1);
    const macFile = submenu(appMenuTemplate('darwin', true, actions), 'File');
    expect(roles(macFile)).not.toContain('quit');
    expect(macFile.some((item) => item.label === 'Open Logs Folder')).toBe(true);
  });

  it('Help has About on every platform', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      expect(roles(submenu(appMenuTemplate(platform, true, actions), 'Help'))).toContain('about');
    }
  });

  it('takes no Ctrl/Cmd key from the page and no Alt mnemonic (the page’s shortcuts are Alt+letter)', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      for (const item of allItems(appMenuTemplate(platform, false, actions))) {
        // Roles carry Electron's own accelerators, for what the role does; the window commands
        // show the page's Alt chords, which they leave to the page (registerAccelerator: false).
        if (item.accelerator !== undefined) {
          expect(item.role).toBeUndefined();
          expect(item.accelerator).not.toMatch(/Cmd|Ctrl|Command|Control|Super|Meta/i);
          expect(item.registerAccelerator).toBe(false);
        }
        expect(String(item.label ?? '')).not.toContain('&');
      }
    }
  });
});

describe('setupAppMenu', () => {
  it('sets the packaged menu, without the developer tools, when the app is packaged', () => {
    app.isPackaged = true;
    setupAppMenu(core);
    expect(Menu.setApplicationMenu).toHaveBeenCalledTimes(1);
    const items = allItems(Menu.application?.template ?? []);
    expect(items.length).toBeGreaterThan(0);
    expect(items.some((item) => DEV_ROLES.includes(String(item.role)))).toBe(false);
  });

  it('keeps the developer tools in the menu when not packaged', () => {
    setupAppMenu(core);
    const items = allItems(Menu.application?.template ?? []);
    expect(items.some((item) => item.role === 'toggleDevTools')).toBe(true);
  });

  it('sends the window commands to the core', () => {
    core.hostCommand.mockClear();
    setupAppMenu(core);
    const file = submenu(Menu.application?.template ?? [], 'File');
    (file.find((item) => item.label === 'Show Agent Log')?.click as () => void)();
    expect(core.hostCommand).toHaveBeenCalledExactlyOnceWith({ command: 'agentLog' });
  });
});

describe('setupAppMenu: Open Logs Folder', () => {
  /** Clicks File → Open Logs Folder in the menu `setupAppMenu` set. */
  function clickOpenLogsFolder(): void {
    setupAppMenu(core);
    const file = submenu(Menu.application?.template ?? [], 'File');
    (file.find((item) => item.label === 'Open Logs Folder')?.click as () => void)();
  }

  it('opens the logs folder under the configuration folder', async () => {
    const config = mkdtempSync(join(tmpdir(), 'airlock-menu-'));
    vi.stubEnv('AIRLOCK_CONFIG_DIR', config);
    try {
      const opened = new Promise<string>((resolve) =>
        shell.openPath.mockImplementation(async (path) => {
          resolve(path);
          return '';
        }),
      );
      clickOpenLogsFolder();
      expect(await opened).toBe(join(config, 'logs'));
      expect(statSync(join(config, 'logs')).isDirectory()).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('logs, and does not throw, when opening the folder fails', async () => {
    vi.stubEnv('AIRLOCK_CONFIG_DIR', mkdtempSync(join(tmpdir(), 'airlock-menu-')));
    const logged = new Promise<unknown[]>((resolve) =>
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => resolve(args)),
    );
    try {
      shell.openPath.mockRejectedValue(new Error('no desktop session'));
      expect(() => clickOpenLogsFolder()).not.toThrow();
      const [message, error] = await logged;
      expect(message).toMatch(/could not open the logs folder/);
      expect((error as Error).message).toBe('no desktop session');
    } finally {
      vi.mocked(console.error).mockRestore();
      vi.unstubAllEnvs();
    }
  });
});

describe('openLogsFolder', () => {
  it('makes the folder if needed and opens it in the file manager', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'airlock-menu-')), 'logs');
    await openLogsFolder(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(shell.openPath).toHaveBeenCalledExactlyOnceWith(dir);
  });

  it('logs nothing when the file manager opens it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openLogsFolder(mkdtempSync(join(tmpdir(), 'airlock-menu-')));
    expect(shell.openPath).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
  });

  it('logs what the file manager answers when it cannot open it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    shell.openPath.mockResolvedValue('no file manager');
    await openLogsFolder(mkdtempSync(join(tmpdir(), 'airlock-menu-')));
    expect(error).toHaveBeenCalledWith(
      'airlock: could not open the logs folder:',
      'no file manager',
    );
    error.mockRestore();
  });
});

describe('the app window and the developer tools', () => {
  it('a packaged app window has no developer tools', () => {
    app.isPackaged = true;
    createAppWindow('/app/out/preload/index.cjs');
    expect(BrowserWindow.created[0]?.options.webPreferences?.devTools).toBe(false);
  });

  it('an unpackaged one has them', () => {
    createAppWindow('/app/out/preload/index.cjs');
    expect(BrowserWindow.created[0]?.options.webPreferences?.devTools).toBe(true);
  });
});
