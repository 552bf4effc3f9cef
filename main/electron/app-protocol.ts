/**
 * The `airlock://app/` scheme that serves the renderer to the app window.
 *
 * A privileged custom scheme instead of `file://`: the page gets an origin of its own (so
 * `'self'` in the CSP means the app's files and nothing else on disk), every response carries
 * a strict Content-Security-Policy header, and only files inside the renderer folder are
 * served.
 */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { appContentSecurityPolicy, contentTypeOf } from '../shared/app-content.js';

/** The app's scheme. */
export const APP_SCHEME = 'airlock';
/** The one host on the app's scheme. */
export const APP_HOST = 'app';
/** The page the app window loads. */
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;
/** The page of the isolated URL window's address strip. */
export const STRIP_URL = `${APP_SCHEME}://${APP_HOST}/strip.html`;

/**
 * Registers the app scheme's privileges. Electron requires this before the app is ready.
 *
 * `standard` and `secure` give the page a real, secure origin; CSP is not bypassed.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
    },
  ]);
}

/** Whether a URL is a page of the app (and not some other scheme or host). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * The file inside `rootDir` that an app URL names, or `null` when the URL is not an app URL
 * or its path leaves `rootDir` (`..`, encoded slashes, absolute paths, NUL bytes).
 */
export function resolveAppFile(rootDir: string, url: string): string | null {
  if (!isAppUrl(url)) {
    return null;
  }
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) {
    return null;
  }
  const root = resolve(rootDir);
  const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    return null;
  }
  return join(root, inside);
}

/** Answers one request on the app scheme with a file from `rootDir`. */
export async function serveAppRequest(rootDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return plain(405, 'Method not allowed');
  }
  const file = resolveAppFile(rootDir, request.url);
  if (file === null) {
    return plain(403, 'Forbidden');
  }
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return plain(404, 'Not found');
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: {
      ...SECURITY_HEADERS,
      'Content-Type': contentTypeOf(file),
    },
  });
}

/** Serves the renderer folder on the app scheme. Call once the app is ready. */
export function setupAppProtocol(rootDir: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(rootDir, request));
}

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': appContentSecurityPolicy(),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
