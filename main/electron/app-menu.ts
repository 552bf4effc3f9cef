/**
 * The application menu: set at startup so Electron's default one, with Reload and Toggle
 * Developer Tools, never ships.
 *
 * The template is a pure function of the platform and whether the app is packaged, so what a
 * packaged build offers can be checked without Electron. Reload and the developer tools are in
 * it only when the app is not packaged; a packaged app window also has `devTools: false` (see
 * app-window.ts), so nobody at the keyboard can reach the bridge through the console.
 *
 * The window's own commands (new session, close session, agent settings, agent log) are sent
 * to the page as host commands (`AirlockCore.hostCommand`), which run what their keyboard
 * shortcuts run. Their accelerators are those shortcuts, the page's Alt chords (keyboard.ts),
 * shown beside the items but not registered (see {@link pageShortcut}). No label has a
 * mnemonic: Alt with a letter is the page's.
 */
import { app, Menu, shell, type MenuItemConstructorOptions } from 'electron';
import { mkdir } from 'node:fs/promises';
import type { HostCommand } from '../../preload/shared/contract.js';
import type { AirlockCore } from '../core/core.js';
import { logsDir } from '../core/settings/catalog.js';

/** What the menu's own items do, handed in so the template stays pure. */
export type MenuActions = {
  /** Opens the folder of the agents' logs in the system file manager. */
  openLogsFolder(): void;
  /** Sends the window one of its commands (`AirlockCore.hostCommand`). */
  hostCommand(command: HostCommand): void;
};

/**
 * An item that runs a command of the page, showing the page's own chord for it.
 *
 * `registerAccelerator: false` (Linux and Windows): the chord is shown but not registered, so
 * the key still reaches the page, whose shortcut runs the command once; a registered one would
 * be taken before the page sees it. macOS ignores the flag and sets the chord as the item's key
 * equivalent, but there Electron offers the main menu only the keys the page left unhandled,
 * and the page takes (prevents the default of) every chord it runs: one action there too.
 */
function pageShortcut(
  label: string,
  accelerator: string,
  command: HostCommand,
  actions: MenuActions,
): MenuItemConstructorOptions {
  return {
    label,
    accelerator,
    registerAccelerator: false,
    click: () => actions.hostCommand(command),
  };
}

/** The application menu's template for `platform`, packaged or not. */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  packaged: boolean,
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      role: 'appMenu',
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push({
    label: 'File',
    submenu: [
      // The chords are keyboard.ts's; app-menu.test.ts holds the two together.
      pageShortcut('New Session', 'Alt+N', { command: 'newSession' }, actions),
      pageShortcut('Close Session', 'Alt+X', { command: 'closeSession' }, actions),
      { type: 'separator' },
      pageShortcut('Agent Settings…', 'Alt+,', { command: 'agentSettings' }, actions),
      pageShortcut('Show Agent Log', 'Alt+L', { command: 'agentLog' }, actions),
      { label: 'Open Logs Folder', click: () => actions.openLogsFolder() },
      // On macOS, Quit is in the app menu.
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  });
  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  });
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (!packaged) {
    view.push(
      { type: 'separator' },
      { role: 'reload' },
      { role: 'forceReload' },
      { role: 'toggleDevTools' },
    );
  }
  template.push({ label: 'View', submenu: view });
  if (mac) {
    template.push({ role: 'windowMenu' });
  }
  template.push({
    label: 'Help',
    role: 'help',
    submenu: [{ role: 'about', label: 'About Airlock' }],
  });
  return template;
}

/** Opens the logs folder, making it first if no agent has written a log yet. */
export async function openLogsFolder(dir: string = logsDir()): Promise<void> {
  await mkdir(dir, { recursive: true });
  const failure = await shell.openPath(dir);
  if (failure) {
    console.error('airlock: could not open the logs folder:', failure);
  }
}

/**
 * Sets the application menu for this platform and build; its window commands go to `core`.
 * Call once the app is ready and the core runs, before any window opens.
 */
export function setupAppMenu(core: Pick<AirlockCore, 'hostCommand'>): void {
  const template = appMenuTemplate(process.platform, app.isPackaged, {
    openLogsFolder: () => {
      openLogsFolder().catch((error: unknown) =>
        console.error('airlock: could not open the logs folder:', error),
      );
    },
    hostCommand: (command) => core.hostCommand(command),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
