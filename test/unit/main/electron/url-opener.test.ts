import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, BaseWindow, shell } from './fake-electron.js';
import { freshHost } from './url-window-harness.js';
import { openUrl } from '../../../../main/electron/url-opener.js';
import {
  NO_SANDBOX_MESSAGE,
  NOT_ALLOWED_MESSAGE,
} from '../../../../main/electron/url-window-policy.js';

vi.mock('electron', () => import('./fake-electron.js'));

beforeEach(() => freshHost());

describe("openUrl: 'browser'", () => {
  it.each([
    ['https://accounts.example.com/login?next=%2F', 'https://accounts.example.com/login?next=%2F'],
    ['HTTPS://Accounts.Example.com/a b', 'https://accounts.example.com/a%20b'],
    ['http://127.0.0.1:8080/callback', 'http://127.0.0.1:8080/callback'],
  ])('hands %s to the system browser, serialised', async (url, handed) => {
    await openUrl(url, 'browser');
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith(handed);
    expect(BaseWindow.created).toHaveLength(0);
  });

  it.each([
    'http://evil.example/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://server/share',
    'https://a..b/',
    'https://example.com/\u202Egro.live',
  ])('refuses %s, opening nothing', async (url) => {
    await expect(openUrl(url, 'browser')).rejects.toThrow(NOT_ALLOWED_MESSAGE);
    expect(shell.openExternal).not.toHaveBeenCalled();
  });
});

describe("openUrl: 'window'", () => {
  it('opens the isolated window on the serialised URL', async () => {
    await openUrl('HTTPS://Accounts.Example.com/login', 'window');
    expect(BaseWindow.created).toHaveLength(1);
    const page = BaseWindow.created[0]!.contentView.children[1]!;
    expect(page.webContents.loadURL).toHaveBeenCalledWith('https://accounts.example.com/login');
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('refuses an address the isolated page may not show', async () => {
    await expect(openUrl('http://evil.example/', 'window')).rejects.toThrow(NOT_ALLOWED_MESSAGE);
    expect(BaseWindow.created).toHaveLength(0);
  });

  it('refuses with --no-sandbox, saying to use the browser instead', async () => {
    app.commandLine.hasSwitch.mockImplementation((name) => name === 'no-sandbox');
    await expect(openUrl('https://accounts.example.com/', 'window')).rejects.toThrow(
      NO_SANDBOX_MESSAGE,
    );
    expect(BaseWindow.created).toHaveLength(0);
    // The browser still works: it has its own sandbox.
    await openUrl('https://accounts.example.com/', 'browser');
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('refuses a place it does not know', async () => {
    await expect(openUrl('https://example.com/', 'tab' as never)).rejects.toThrow();
    expect(BaseWindow.created).toHaveLength(0);
    expect(shell.openExternal).not.toHaveBeenCalled();
  });
});
