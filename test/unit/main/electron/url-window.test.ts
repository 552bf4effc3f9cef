import './use-fake-electron.js';
import type { DevicePermissionHandlerHandlerDetails } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  app,
  asElectron,
  BaseWindow,
  BrowserWindow,
  session,
  WebContentsView,
} from './fake-electron.js';
import { freshHost, openWindow, STRIP_PRELOAD } from './url-window-harness.js';
import { STRIP_URL } from '../../../../main/electron/app-protocol.js';
import {
  isAllowedUrl,
  NO_SANDBOX_MESSAGE,
  NOT_ALLOWED_MESSAGE,
} from '../../../../main/electron/url-window-policy.js';
import { openUrlWindow } from '../../../../main/electron/url-window.js';

beforeEach(() => freshHost());

describe('openUrlWindow: the isolated page', () => {
  it('runs with every protection on, in its own session, with no preload', () => {
    const { page, session: partition } = openWindow();
    // The exact object: nothing may loosen it, and there is no preload (so no IPC).
    expect(page.options.webPreferences).toEqual({
      session: partition,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      devTools: false,
      spellcheck: false,
      disableDialogs: true,
      safeDialogs: true,
      webviewTag: false,
      navigateOnDragDrop: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
    });
  });

  it('gets a fresh in-memory partition per window: a new name each time, never persist:', () => {
    const first = openWindow();
    first.handle.close();
    const second = openWindow();
    const third = openWindow();
    const names = session.fromPartition.mock.calls.map(([name]) => name);
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
    for (const name of names) {
      expect(name).not.toMatch(/^persist:/);
      expect(name).toMatch(/^airlock-url-[0-9a-f-]{36}$/);
    }
    expect(new Set([first.session, second.session, third.session]).size).toBe(3);
  });

  it('loads the consented URL in the page and the strip page above it', () => {
    const { window, strip, page } = openWindow('https://accounts.example.com/login');
    expect(page.webContents.loadURL).toHaveBeenCalledWith('https://accounts.example.com/login');
    expect(strip.webContents.loadURL).toHaveBeenCalledWith(STRIP_URL);
    expect(window.contentView.children).toEqual([strip, page]);
    const [stripBounds] = strip.setBounds.mock.calls.at(-1)!;
    const [pageBounds] = page.setBounds.mock.calls.at(-1)!;
    expect(stripBounds.y).toBe(0);
    expect(pageBounds.y).toBe(stripBounds.height);
  });

  it('gives the strip its own sandboxed preload and nothing of the page', () => {
    const { strip, session: partition } = openWindow();
    expect(strip.options.webPreferences).toMatchObject({
      preload: STRIP_PRELOAD,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
    expect(strip.webContents.session).not.toBe(partition);
  });

  it('refuses to open anything when Chromium runs with --no-sandbox, and says why', () => {
    app.commandLine.hasSwitch.mockImplementation((name) => name === 'no-sandbox');
    const analysis = {
      href: 'https://example.com/',
      highlight: { start: 8, end: 19 },
      warnings: [],
    };
    expect(() => openUrlWindow({ url: 'https://example.com/', analysis })).toThrow(
      NO_SANDBOX_MESSAGE,
    );
    expect(NO_SANDBOX_MESSAGE).toBe(
      "The isolated window needs Chromium's sandbox, which is off (--no-sandbox). Open the URL in your browser instead.",
    );
    expect(BaseWindow.created).toHaveLength(0);
    expect(WebContentsView.created).toHaveLength(0);
    expect(session.fromPartition).not.toHaveBeenCalled();
  });

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'http://evil.example/',
    'data:text/html,x',
  ])('refuses to open %s at all', (url) => {
    const analysis = { href: url, highlight: { start: 0, end: 1 }, warnings: [] };
    expect(() => openUrlWindow({ url, analysis })).toThrow(NOT_ALLOWED_MESSAGE);
    expect(BaseWindow.created).toHaveLength(0);
  });
});

describe('isAllowedUrl', () => {
  it.each([
    ['https://example.com/', true],
    ['https://accounts.example.com:8443/x?y#z', true],
    ['http://127.0.0.1:8080/', true],
    ['http://127.1/', true],
    ['http://localhost:3000/callback', true],
    ['http://[::1]/', true],
    ['http://evil.example/', false],
    ['http://localhost.evil.example/', false],
    ['http://notlocalhost/', false],
    ['http://app.localhost/', false],
    ['http://127.0.0.1.evil.example/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,<p>x</p>', false],
    ['blob:https://example.com/0000', false],
    ['airlock://app/index.html', false],
    ['ftp://example.com/', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedUrl(url)).toBe(allowed);
  });
});

describe('navigation of the page', () => {
  const events = ['will-navigate', 'will-frame-navigate', 'will-redirect'] as const;
  const refused = ['file:///etc/passwd', 'javascript:alert(1)', 'http://evil.example/'];
  const allowed = ['https://example.com/', 'http://127.0.0.1:8080/'];

  it.each(events)('%s: refuses file:, javascript: and remote http', (event) => {
    const { contents } = openWindow();
    for (const url of refused) {
      expect(contents.attempt(event, url), url).toBe(true);
    }
  });

  it.each(events)('%s: allows https and loopback http', (event) => {
    const { contents } = openWindow();
    for (const url of allowed) {
      expect(contents.attempt(event, url), url).toBe(false);
    }
  });

  it.each(['will-frame-navigate', 'will-redirect'] as const)(
    '%s: a frame inside the page may also hold about:blank, about:srcdoc, data: and blob:',
    (event) => {
      const { contents } = openWindow();
      const inert = [
        'about:blank',
        'about:srcdoc',
        'data:text/html,<p>x',
        'blob:https://a.example/1',
      ];
      for (const url of inert) {
        expect(contents.attempt(event, url, false), url).toBe(false);
        // The page itself never becomes one of them: the strip would name nothing real.
        expect(contents.attempt(event, url, true), url).toBe(true);
      }
      for (const url of [...refused, 'about:config', 'chrome://settings/']) {
        expect(contents.attempt(event, url, false), url).toBe(true);
      }
    },
  );

  it('grants the rule to the page only: the strip still navigates nowhere', () => {
    const { strip } = openWindow();
    expect(strip.webContents.attempt('will-navigate', 'https://example.com/')).toBe(true);
  });
});

describe('popups and <webview>', () => {
  it('loads an allowed window.open URL in the same view, and never opens a window', () => {
    const { contents } = openWindow();
    expect(contents.requestWindow('https://pay.example.com/checkout')).toEqual({
      action: 'deny',
    });
    expect(contents.loadURL).toHaveBeenLastCalledWith('https://pay.example.com/checkout');
    expect(BaseWindow.created).toHaveLength(1);
    expect(BrowserWindow.created).toHaveLength(0);
  });

  it.each(['javascript:alert(1)', 'http://evil.example/', 'file:///etc/passwd'])(
    'refuses window.open(%s) outright',
    (url) => {
      const { contents } = openWindow();
      contents.loadURL.mockClear();
      expect(contents.requestWindow(url)).toEqual({ action: 'deny' });
      expect(contents.loadURL).not.toHaveBeenCalled();
    },
  );

  it('refuses to attach a <webview>', () => {
    const { contents } = openWindow();
    const preventDefault = vi.fn();
    contents.emit('will-attach-webview', { preventDefault }, {}, {});
    expect(preventDefault).toHaveBeenCalled();
  });
});

describe("the page's session", () => {
  it('denies every permission request and check, and device access', () => {
    const { contents, session: partition } = openWindow();
    const callback = vi.fn();
    const page = asElectron(contents);
    const details = { isMainFrame: true, requestingUrl: 'https://accounts.example.com/' };
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'hid',
    ] as const) {
      partition.permissionRequestHandler?.(page, permission, callback, details);
    }
    expect(callback.mock.calls).toEqual([[false], [false], [false], [false], [false]]);
    expect(
      partition.permissionCheckHandler?.(page, 'media', 'https://accounts.example.com', {
        isMainFrame: true,
      }),
    ).toBe(false);
    const usb = { deviceType: 'usb', origin: 'https://accounts.example.com' };
    expect(partition.devicePermissionHandler?.(usb as DevicePermissionHandlerHandlerDetails)).toBe(
      false,
    );
  });

  it('refuses every download', () => {
    const { session: partition } = openWindow();
    const preventDefault = vi.fn();
    partition.emit('will-download', { preventDefault }, {}, {});
    expect(preventDefault).toHaveBeenCalled();
  });

  it('answers a client certificate request with no certificate', () => {
    const { contents } = openWindow();
    const preventDefault = vi.fn();
    const callback = vi.fn();
    const certificate = { data: '-----BEGIN CERTIFICATE-----' };
    contents.emit(
      'select-client-certificate',
      { preventDefault },
      'https://example.com/',
      [certificate],
      callback,
    );
    expect(preventDefault).toHaveBeenCalled();
    expect(callback).toHaveBeenCalledExactlyOnceWith(null);
  });
});

describe('closing', () => {
  it('ignores the page’s beforeunload: will-prevent-unload never holds the window', () => {
    const { contents } = openWindow();
    const preventDefault = vi.fn();
    contents.emit('will-prevent-unload', { preventDefault });
    expect(preventDefault).toHaveBeenCalled();
  });

  it('closes both views’ contents and clears the partition’s data, cache and auth cache', async () => {
    const { handle, window, strip, contents, session: partition } = openWindow();
    handle.close();
    expect(window.close).toHaveBeenCalled();
    await handle.closed;
    expect(contents.close).toHaveBeenCalled();
    // Without waiting for beforeunload.
    expect(contents.close.mock.calls[0]).toEqual([]);
    expect(strip.webContents.close).toHaveBeenCalled();
    expect(partition.clearStorageData).toHaveBeenCalledTimes(1);
    expect(partition.clearStorageData.mock.calls[0]).toEqual([]);
    expect(partition.clearCache).toHaveBeenCalledTimes(1);
    expect(partition.clearAuthCache).toHaveBeenCalledTimes(1);
    expect(handle.state().status).toBe('closed');
  });

  it('cleans up the same way when the user closes the window itself', async () => {
    const { handle, window, session: partition } = openWindow();
    window.close();
    await handle.closed;
    expect(partition.clearStorageData).toHaveBeenCalledTimes(1);
    expect(handle.state().status).toBe('closed');
    // Closing again is harmless.
    handle.close();
    expect(window.close).toHaveBeenCalledTimes(1);
  });

  it('still resolves `closed` when clearing the session fails', async () => {
    const { handle, session: partition } = openWindow();
    partition.clearCache.mockRejectedValueOnce(new Error('busy'));
    handle.close();
    await expect(handle.closed).resolves.toBeUndefined();
  });
});

describe('what the window reports', () => {
  it('is only the status and host, following the main frame’s loads', () => {
    const { handle, contents } = openWindow('https://accounts.example.com/login?code=secret');
    expect(handle.state()).toEqual({ status: 'loading', host: 'accounts.example.com' });
    contents.emit('did-start-loading');
    contents.emit('did-stop-loading');
    expect(handle.state()).toEqual({ status: 'loaded', host: 'accounts.example.com' });
    contents.emit('did-navigate', {}, 'https://id.example.org/next', 200, 'OK');
    expect(handle.state()).toEqual({ status: 'loaded', host: 'id.example.org' });
    expect(Object.keys(handle).sort()).toEqual(['close', 'closed', 'state']);
  });

  it('fails on a main-frame load error, not on a subframe’s or an aborted one', () => {
    const { handle, contents } = openWindow();
    const fail = (code: number, isMainFrame: boolean) =>
      contents.emit('did-fail-load', {}, code, 'ERR', 'https://x.example/', isMainFrame, 1, 1);
    contents.emit('did-start-loading');
    fail(-105, false);
    fail(-3, true);
    expect(handle.state().status).toBe('loading');
    fail(-105, true);
    contents.emit('did-stop-loading');
    expect(handle.state().status).toBe('failed');
    contents.emit('did-start-loading');
    contents.emit('did-stop-loading');
    expect(handle.state().status).toBe('loaded');
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(handle.state().status).toBe('failed');
  });

  it('writes nothing to the console, so no URL reaches a log', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => undefined),
    );
    const { handle, contents } = openWindow('https://accounts.example.com/login?code=secret');
    contents.emit('did-start-loading');
    contents.attempt('will-navigate', 'myapp://callback?code=secret');
    contents.emit('did-navigate', {}, 'https://accounts.example.com/done?code=secret', 200, 'OK');
    contents.emit('did-fail-load', {}, -105, 'ERR', 'https://x.example/?code=secret', true, 1, 1);
    handle.close();
    await handle.closed;
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });
});
