import './use-fake-electron.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DevicePermissionHandlerHandlerDetails } from 'electron';
import {
  app,
  asElectron,
  FakeSession,
  FakeWebContents,
  resetFakeElectron,
} from './fake-electron.js';
import {
  hardenSession,
  permitNavigation,
  setupHardening,
} from '../../../../main/electron/hardening.js';

beforeEach(() => resetFakeElectron());

/** A contents created after the hardening is set up, as Electron would announce it. */
function createdContents(): FakeWebContents {
  const contents = new FakeWebContents(new FakeSession());
  app.emit('web-contents-created', {}, contents);
  return contents;
}

describe('setupHardening', () => {
  it('turns on the sandbox for every renderer', () => {
    setupHardening();
    expect(app.enableSandbox).toHaveBeenCalledTimes(1);
  });

  it('refuses every navigation and redirect of any new contents', () => {
    setupHardening();
    const contents = createdContents();
    expect(contents.attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-navigate', 'airlock://app/index.html')).toBe(true);
    expect(contents.attempt('will-frame-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-redirect', 'file:///etc/passwd')).toBe(true);
  });

  it('denies window.open', () => {
    setupHardening();
    const contents = createdContents();
    expect(contents.setWindowOpenHandler).toHaveBeenCalledTimes(1);
    expect(contents.requestWindow('https://evil.example/')).toEqual({ action: 'deny' });
  });

  it('refuses to attach a <webview>', () => {
    setupHardening();
    const contents = createdContents();
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) }, {}, {});
    expect(prevented).toBe(true);
  });

  it('denies every permission request and check, device access and downloads', () => {
    setupHardening();
    const contents = createdContents();
    const { session } = contents;
    const callback = vi.fn();
    const details = { isMainFrame: true, requestingUrl: 'https://evil.example/' };
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
    ] as const) {
      session.permissionRequestHandler?.(asElectron(contents), permission, callback, details);
    }
    expect(callback.mock.calls).toEqual([[false], [false], [false], [false], [false]]);
    expect(
      session.permissionCheckHandler?.(asElectron(contents), 'media', 'https://evil.example', {
        isMainFrame: true,
      }),
    ).toBe(false);
    const usb = { deviceType: 'usb', origin: 'https://evil.example' };
    expect(session.devicePermissionHandler?.(usb as DevicePermissionHandlerHandlerDetails)).toBe(
      false,
    );
    let prevented = false;
    session.emit('will-download', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });
});

describe('permitNavigation', () => {
  it('lets a contents navigate only where its owner allows', () => {
    setupHardening();
    const contents = createdContents();
    permitNavigation(asElectron(contents), (url) => url.startsWith('https://'));
    expect(contents.attempt('will-navigate', 'https://accounts.example/')).toBe(false);
    expect(contents.attempt('will-redirect', 'http://accounts.example/')).toBe(true);
    // Another contents keeps the default.
    expect(createdContents().attempt('will-navigate', 'https://accounts.example/')).toBe(true);
  });

  it('tells the rule which frame navigates, and takes a frame that does not say as the main one', () => {
    setupHardening();
    const contents = createdContents();
    const frames: boolean[] = [];
    permitNavigation(asElectron(contents), (_url, mainFrame) => {
      frames.push(mainFrame);
      return !mainFrame;
    });
    expect(contents.attempt('will-frame-navigate', 'about:srcdoc', false)).toBe(false);
    expect(contents.attempt('will-frame-navigate', 'about:srcdoc', true)).toBe(true);
    let prevented = false;
    contents.emit('will-navigate', {
      url: 'about:srcdoc',
      preventDefault: () => {
        prevented = true;
      },
    });
    expect(prevented).toBe(true);
    expect(frames).toEqual([false, true, true]);
  });
});

describe('hardenSession', () => {
  it('sets the handlers once per session', () => {
    const session = new FakeSession();
    hardenSession(asElectron(session));
    hardenSession(asElectron(session));
    expect(session.setPermissionRequestHandler).toHaveBeenCalledTimes(1);
    expect(session.listenerCount('will-download')).toBe(1);
  });
});
