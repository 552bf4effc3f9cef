/**
 * How both hosts serve the built renderer: content types and the Content-Security-Policy.
 *
 * One policy for both: no `unsafe-eval`, no inline scripts or styles, nothing from elsewhere.
 * Only where the page may connect differs (the web host's WebSocket; nothing for Electron's
 * app window, which talks to the core through the preload bridge).
 */
import { extname } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** The Content-Type of a built renderer file. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}

/** The app page's Content-Security-Policy; `connectSrc` is where it may connect. */
export function appContentSecurityPolicy(connectSrc = "'self'"): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSrc}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
