import './use-fake-electron.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserWindow,
  FakeWebContents,
  invokeMain,
  ipcHandlers,
  shell,
  type FakeFrame,
} from './fake-electron.js';
import { freshHost, loadStrip, openWindow, type Opened } from './url-window-harness.js';
import { STRIP_CHANNELS, StripState } from '../../../../preload/shared/strip-contract.js';
import { APP_URL, STRIP_URL } from '../../../../main/electron/app-protocol.js';
import { FORBIDDEN, STRIP_FAILURE } from '../../../../main/electron/ipc.js';
import {
  NAVIGATION_REFUSED,
  STRIP_HEIGHT,
  unanalysedWarning,
} from '../../../../main/electron/url-window-strip.js';

beforeEach(() => freshHost());

/** The states sent to a window's strip so far. */
function sentStates(opened: Opened): StripState[] {
  return opened.strip.webContents.send.mock.calls.map(([channel, state]) => {
    expect(channel).toBe(STRIP_CHANNELS.onDidChangeState);
    // Every state the main process sends passes the strip's own check.
    return StripState.parse(state);
  });
}

const lastState = (opened: Opened) => sentStates(opened).at(-1);

describe('the strip’s state', () => {
  it('is sent once the strip page has loaded: the consented URL, its domain, https', () => {
    const opened = openWindow('https://accounts.example.com/login?next=%2F');
    expect(opened.strip.webContents.send).not.toHaveBeenCalled();
    loadStrip(opened);
    const state = lastState(opened)!;
    expect(state).toEqual({
      url: 'https://accounts.example.com/login?next=%2F',
      registrableDomain: { start: 17, end: 28 },
      https: true,
      warnings: [],
    });
    expect(state.url.slice(state.registrableDomain!.start, state.registrableDomain!.end)).toBe(
      'example.com',
    );
  });

  it('shows plain loopback http as not https, with the analysis’s warnings', () => {
    const opened = openWindow('http://127.0.0.1:8080/callback');
    loadStrip(opened);
    const state = lastState(opened)!;
    expect(state).toMatchObject({
      url: 'http://127.0.0.1:8080/callback',
      registrableDomain: { start: 7, end: 16 },
      https: false,
    });
    expect(state.warnings.map(({ code }) => code)).toEqual(['ip-literal', 'http', 'port']);
    // This computer's page: notes, not warnings, as on the consent card.
    expect(state.warnings.map(({ level }) => level)).toEqual(['note', 'note', 'note']);
  });

  it('follows the main frame: navigations, in-page navigations and redirects', () => {
    const opened = openWindow();
    loadStrip(opened);
    const { contents } = opened;
    contents.emit('did-redirect-navigation', {
      url: 'https://sso.example.org/step',
      isMainFrame: true,
    });
    expect(lastState(opened)?.url).toBe('https://sso.example.org/step');
    contents.emit('did-navigate', {}, 'https://id.example.net/consent', 200, 'OK');
    expect(lastState(opened)?.url).toBe('https://id.example.net/consent');
    contents.emit('did-navigate-in-page', {}, 'https://id.example.net/consent#done', true, 1, 1);
    expect(lastState(opened)).toMatchObject({
      url: 'https://id.example.net/consent#done',
      registrableDomain: { start: 11, end: 22 },
    });
  });

  it('ignores subframes', () => {
    const opened = openWindow();
    loadStrip(opened);
    const before = sentStates(opened).length;
    const { contents } = opened;
    contents.emit('did-navigate-in-page', {}, 'https://ads.example.org/#x', false, 1, 2);
    contents.emit('did-redirect-navigation', {
      url: 'https://ads.example.org/',
      isMainFrame: false,
    });
    contents.emit('did-frame-navigate', {}, 'https://ads.example.org/', 200, 'OK', false, 1, 2);
    expect(sentStates(opened)).toHaveLength(before);
    expect(opened.handle.state().host).toBe('accounts.example.com');
  });

  it('shows the address without a domain when the analysis refuses it', () => {
    const opened = openWindow();
    loadStrip(opened);
    opened.contents.emit('did-navigate', {}, 'https://a..b/x', 200, 'OK');
    expect(lastState(opened)).toEqual({
      url: 'https://a..b/x',
      registrableDomain: null,
      https: true,
      warnings: [unanalysedWarning('The URL has an empty host or an empty label in its host.')],
    });
  });

  it('warns after a refused navigation, until the next main-frame navigation', () => {
    const opened = openWindow();
    loadStrip(opened);
    expect(opened.contents.attempt('will-navigate', 'myapp://oauth/callback?code=1')).toBe(true);
    expect(lastState(opened)?.warnings).toEqual([NAVIGATION_REFUSED]);
    opened.contents.emit('did-navigate', {}, 'https://accounts.example.com/retry', 200, 'OK');
    expect(lastState(opened)?.warnings).toEqual([]);
  });

  it('makes room for the warnings', () => {
    const opened = openWindow('http://localhost:3000/');
    const [bounds] = opened.strip.setBounds.mock.calls.at(-1)!;
    // Two warnings: plain http, and a port.
    expect(bounds.height).toBe(STRIP_HEIGHT.base + 2 * STRIP_HEIGHT.perWarning);
  });

  it('stops once the window is closed', async () => {
    const opened = openWindow();
    loadStrip(opened);
    opened.handle.close();
    await opened.handle.closed;
    const before = sentStates(opened).length;
    opened.contents.emit('did-navigate', {}, 'https://late.example.com/', 200, 'OK');
    expect(sentStates(opened)).toHaveLength(before);
  });
});

/** Calls a strip handler as Electron would for a message from `frame` of `sender`. */
function call(channel: string, sender: FakeWebContents, frame: FakeFrame | null) {
  return invokeMain(channel, { sender, senderFrame: frame });
}

const fromStrip = (opened: Opened, channel: string) =>
  call(channel, opened.strip.webContents, opened.strip.webContents.mainFrame);

describe('the strip’s calls', () => {
  it('are exactly close and open in browser', () => {
    expect([...ipcHandlers.keys()].sort()).toEqual([
      STRIP_CHANNELS.close,
      STRIP_CHANNELS.openInBrowser,
    ]);
  });

  it('close the window the strip belongs to, and no other', async () => {
    const first = openWindow();
    const second = openWindow();
    expect(await fromStrip(second, STRIP_CHANNELS.close)).toEqual({ ok: true, value: null });
    await second.handle.closed;
    expect(second.handle.state().status).toBe('closed');
    expect(first.handle.state().status).toBe('loading');
  });

  it('open the consented URL in the system browser, wherever the page has gone since', async () => {
    const opened = openWindow('https://accounts.example.com/login?next=%2F');
    opened.contents.emit('did-navigate', {}, 'https://elsewhere.example.org/', 200, 'OK');
    expect(await fromStrip(opened, STRIP_CHANNELS.openInBrowser)).toEqual({
      ok: true,
      value: null,
    });
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith(
      'https://accounts.example.com/login?next=%2F',
    );
  });

  it('answer a failure with a fixed message and log no URL', async () => {
    const opened = openWindow('https://accounts.example.com/login?code=secret');
    shell.openExternal.mockRejectedValueOnce(
      new Error('xdg-open failed for https://accounts.example.com/login?code=secret'),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await fromStrip(opened, STRIP_CHANNELS.openInBrowser)).toEqual({
      ok: false,
      error: STRIP_FAILURE,
    });
    expect(JSON.stringify(logged.mock.calls)).not.toContain('example.com');
    logged.mockRestore();
  });

  const strangers: [string, (opened: Opened) => [FakeWebContents, FakeFrame | null]][] = [
    ['the isolated page itself', (opened) => [opened.contents, opened.contents.mainFrame]],
    [
      'the app window',
      () => {
        const app = new BrowserWindow({});
        app.webContents.mainFrame.url = APP_URL;
        return [app.webContents, app.webContents.mainFrame];
      },
    ],
    [
      'another contents showing the strip page',
      () => {
        const other = new FakeWebContents();
        other.mainFrame.url = STRIP_URL;
        return [other, other.mainFrame];
      },
    ],
    [
      'a subframe of the strip',
      ({ strip }) => {
        const main = strip.webContents.mainFrame;
        return [strip.webContents, { ...main, routingId: main.routingId + 1 }];
      },
    ],
    [
      'the strip after it left the strip page',
      ({ strip }) => {
        strip.webContents.mainFrame.url = 'https://evil.example/';
        return [strip.webContents, strip.webContents.mainFrame];
      },
    ],
    ['a frame that is gone', ({ strip }) => [strip.webContents, null]],
  ];

  it.each(strangers)('refuse %s, doing nothing', async (_name, sender) => {
    const opened = openWindow();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const [contents, frame] = sender(opened);
    for (const channel of [STRIP_CHANNELS.close, STRIP_CHANNELS.openInBrowser]) {
      expect(await call(channel, contents, frame)).toEqual({ ok: false, error: FORBIDDEN });
    }
    expect(opened.window.close).not.toHaveBeenCalled();
    expect(shell.openExternal).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('refuse the strip of a window that is closed', async () => {
    const opened = openWindow();
    opened.handle.close();
    await opened.handle.closed;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await fromStrip(opened, STRIP_CHANNELS.openInBrowser)).toEqual({
      ok: false,
      error: FORBIDDEN,
    });
    expect(shell.openExternal).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
