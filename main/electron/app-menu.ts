/**
 * The application menu: set at startup so Electron's default one, with Reload and Toggle
 * Developer Tools, never ships.
 *
 * The template is a pure function of the platform and whether the app is packaged, so what a
 * packaged build offers can be checked without Electron. Reload and the developer tools are in
 * it only when the app is not packaged; a packaged app window also has `devTools: false` (see
 * app-window.ts), so nobody at the keyboard can reach the bridge through the console.
 *
 * Every item acts in the main process alone (roles, the logs folder). The window's own
 * commands (new session, close session, agent settings, agent log) stay on the keyboard
 * shortcuts the page handles (keyboard.ts). No label has a mnemonic: Alt with a letter is the
 * page's.
 */
import { app, Menu, shell, type MenuItemConstructorOptions } from 'electron';
import { mkdir } from 'node:fs/promises';
import { logsDir } from '../core/settings/catalog.js';

/** What the menu's own items do, handed in so the template stays pure. */
export type MenuActions = {
  /** Opens the folder of the agents' logs in the system file manager. */
  openLogsFolder(): void;
};

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

/** Sets the application menu for this platform and build. Call once the app is ready. */
export function setupAppMenu(): void {
  const template = appMenuTemplate(process.platform, app.isPackaged, {
    openLogsFolder: () => {
      openLogsFolder().catch((error: unknown) =>
        console.error('airlock: could not open the logs folder:', error),
      );
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
