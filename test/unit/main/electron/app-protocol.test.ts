import './use-fake-electron.js';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { protocol, resetFakeElectron } from './fake-electron.js';
import {
  APP_URL,
  isAppUrl,
  registerAppScheme,
  resolveAppFile,
  serveAppRequest,
  setupAppProtocol,
} from '../../../../main/electron/app-protocol.js';
import { appContentSecurityPolicy } from '../../../../main/shared/app-content.js';

// A renderer folder beside a secret, so an escape would be visible in the body.
const base = mkdtempSync(join(tmpdir(), 'airlock-protocol-'));
const root = join(base, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Airlock</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1);');
writeFileSync(join(base, 'secret.txt'), 'TOP SECRET');
mkdirSync(join(base, 'renderer-evil'));
writeFileSync(join(base, 'renderer-evil', 'x.js'), 'TOP SECRET');
afterAll(() => rmSync(base, { recursive: true, force: true }));

beforeEach(() => resetFakeElectron());

const get = (url: string, method = 'GET') => serveAppRequest(root, new Request(url, { method }));

describe('registerAppScheme', () => {
  it('registers airlock: as a standard, secure scheme that does not bypass CSP', () => {
    registerAppScheme();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledTimes(1);
    const [schemes] = protocol.registerSchemesAsPrivileged.mock.calls[0] as [
      { scheme: string; privileges: Record<string, boolean> }[],
    ];
    expect(schemes).toHaveLength(1);
    expect(schemes[0]?.scheme).toBe('airlock');
    expect(schemes[0]?.privileges).toMatchObject({ standard: true, secure: true });
    expect(schemes[0]?.privileges.bypassCSP).not.toBe(true);
    expect(schemes[0]?.privileges.allowServiceWorkers).not.toBe(true);
  });
});

describe('appContentSecurityPolicy', () => {
  const directives = new Map(
    appContentSecurityPolicy()
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values] as const),
  );

  it('allows scripts only from the app itself: no eval, no inline scripts', () => {
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(appContentSecurityPolicy()).not.toMatch(/unsafe-(eval|inline)|wasm-unsafe-eval|\*/);
  });

  it('forbids plugins, base rewrites, form posts, framing and WebSockets', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });
});

describe('serveAppRequest', () => {
  it('serves the page with the CSP header and its content type', async () => {
    const response = await get(APP_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(appContentSecurityPolicy());
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Airlock</title>');
  });

  it('serves the page for the bare origin and scripts from subfolders', async () => {
    expect(await (await get('airlock://app/')).text()).toContain('<title>Airlock</title>');
    const script = await get('airlock://app/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(appContentSecurityPolicy());
  });

  it('puts the CSP header on refusals and misses too', async () => {
    const missing = await get('airlock://app/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(appContentSecurityPolicy());
  });

  it.each([
    'airlock://app/..%2fsecret.txt',
    'airlock://app/%2e%2e/secret.txt',
    'airlock://app/assets/..%2f..%2fsecret.txt',
    'airlock://app/..%5csecret.txt',
    'airlock://app/..%2frenderer-evil/x.js',
    `airlock://app/${encodeURIComponent(join(base, 'secret.txt'))}`,
    'airlock://app/index.html%00.js',
    'airlock://app/%E0%A4%A',
  ])('refuses a path outside the renderer folder: %s', async (url) => {
    const response = await get(url);
    expect([403, 404]).toContain(response.status);
    expect(await response.text()).not.toContain('TOP SECRET');
  });

  it('refuses other hosts and other schemes', async () => {
    expect((await get('airlock://evil/index.html')).status).toBe(403);
    expect((await get('https://app/index.html')).status).toBe(403);
  });

  it('refuses anything but GET and HEAD', async () => {
    expect((await get(APP_URL, 'POST')).status).toBe(405);
    const head = await get(APP_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('resolveAppFile', () => {
  it('maps app URLs into the folder and nothing else', () => {
    expect(resolveAppFile(root, 'airlock://app/assets/app.js')).toBe(
      join(root, 'assets', 'app.js'),
    );
    expect(resolveAppFile(root, 'airlock://app/../secret.txt')).toBe(join(root, 'secret.txt'));
    expect(resolveAppFile(root, 'airlock://app/..%2f..%2fsecret.txt')).toBeNull();
    expect(resolveAppFile(root, 'file:///etc/passwd')).toBeNull();
  });
});

describe('isAppUrl', () => {
  it('accepts only the app host on the app scheme', () => {
    expect(isAppUrl(APP_URL)).toBe(true);
    expect(isAppUrl('airlock://app.evil.example/index.html')).toBe(false);
    expect(isAppUrl('airlock://evil/index.html')).toBe(false);
    expect(isAppUrl('https://app/index.html')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

describe('setupAppProtocol', () => {
  it('handles the airlock: scheme from the given folder', async () => {
    setupAppProtocol(root);
    expect(protocol.handle).toHaveBeenCalledTimes(1);
    const [scheme, handler] = protocol.handle.mock.calls[0] as [
      string,
      (request: Request) => Promise<Response>,
    ];
    expect(scheme).toBe('airlock');
    const response = await handler(new Request(APP_URL));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(appContentSecurityPolicy());
    expect((await handler(new Request('airlock://app/..%2fsecret.txt'))).status).toBe(403);
  });
});
