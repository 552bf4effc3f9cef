import './use-fake-electron.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { app, BaseWindow, shell } from './fake-electron.js';
import { freshHost } from './url-window-harness.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import { openUrl } from '../../../../main/electron/url-opener.js';
import {
  NO_SANDBOX_MESSAGE,
  NOT_ALLOWED_MESSAGE,
} from '../../../../main/electron/url-window-policy.js';

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
    // Words for the user: the core passes a UserFacingError's message on, any other as
    // "Internal error".
    const refusal = openUrl(url, 'browser');
    await expect(refusal).rejects.toThrow(NOT_ALLOWED_MESSAGE);
    await expect(refusal).rejects.toBeInstanceOf(UserFacingError);
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
    const refusal = openUrl('http://evil.example/', 'window');
    await expect(refusal).rejects.toThrow(NOT_ALLOWED_MESSAGE);
    await expect(refusal).rejects.toBeInstanceOf(UserFacingError);
    expect(BaseWindow.created).toHaveLength(0);
  });

  it('refuses with --no-sandbox, saying to use the browser instead', async () => {
    app.commandLine.hasSwitch.mockImplementation((name) => name === 'no-sandbox');
    const refusal = openUrl('https://accounts.example.com/', 'window');
    await expect(refusal).rejects.toThrow(NO_SANDBOX_MESSAGE);
    await expect(refusal).rejects.toBeInstanceOf(UserFacingError);
    expect(BaseWindow.created).toHaveLength(0);
    // The browser still works: it has its own sandbox.
    await openUrl('https://accounts.example.com/', 'browser');
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('says so in words when the system browser fails', async () => {
    shell.openExternal.mockRejectedValueOnce(new Error('no handler for https'));
    const failure = openUrl('https://example.com/', 'browser');
    await expect(failure).rejects.toThrow(
      'The system browser could not open the URL: no handler for https',
    );
    await expect(failure).rejects.toBeInstanceOf(UserFacingError);
  });

  it('refuses a place it does not know', async () => {
    await expect(openUrl('https://example.com/', 'tab' as never)).rejects.toThrow();
    expect(BaseWindow.created).toHaveLength(0);
    expect(shell.openExternal).not.toHaveBeenCalled();
  });
});
