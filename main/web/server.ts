/**
 * The web host: the renderer and the contract over HTTP + WebSocket on 127.0.0.1.
 *
 * Every request and socket must carry the session token (constant-time compared), name this
 * server in its Host header, and come from this server's origin; anything else gets 403 and
 * changes nothing. The token arrives once in the printed URL and is then kept in an HttpOnly,
 * SameSite=Strict cookie, so it leaves the address bar at once.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import type { AirlockCore } from '../core/core.js';
import { UserFacingError } from '../core/errors.js';
import { appContentSecurityPolicy, contentTypeOf } from '../shared/app-content.js';

const COOKIE = 'airlock_token';
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A call from the page, before the core checks its channel and payload. */
const callMessage = z.object({
  t: z.literal('call'),
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  payload: z.unknown(),
});

/** A running web host. */
export type WebHost = { url: string; origin: string; token: string; close(): Promise<void> };

/** The Content-Security-Policy for the app page on this origin: it may open its WebSocket. */
export function contentSecurityPolicy(origin: string): string {
  return appContentSecurityPolicy(origin.replace(/^http/, 'ws'));
}

/** Compares two secrets in constant time, whatever their lengths. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) {
      return rest.join('=');
    }
  }
  return undefined;
}

/** Starts the web host on 127.0.0.1 (a random port unless `port` is given). */
export async function startWebHost(
  core: AirlockCore,
  options: { staticDir: string; port?: number },
): Promise<WebHost> {
  const token = randomBytes(32).toString('base64url');
  let origin = '';
  let host = '';

  /** Host and Origin checks, shared by requests and sockets. */
  const fromThisOrigin = (request: IncomingMessage, originRequired: boolean): boolean => {
    if (request.headers.host !== host) {
      return false;
    }
    const requestOrigin = request.headers.origin;
    if (requestOrigin === undefined) {
      return !originRequired;
    }
    return requestOrigin === origin;
  };

  const forbid = (response: ServerResponse) => {
    response.writeHead(403, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    response.end('Forbidden');
  };

  const server = createServer((request, response) => {
    void handleRequest(request, response).catch(() => {
      if (!response.headersSent) {
        response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      }
      response.end('Internal error');
    });
  });

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (
      !fromThisOrigin(request, false) ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      forbid(response);
      return;
    }
    const url = new URL(request.url ?? '/', origin);
    const queryToken = url.searchParams.get('token');
    if (url.pathname === '/' && queryToken !== null) {
      if (!sameSecret(queryToken, token)) {
        forbid(response);
        return;
      }
      // Trade the URL token for a cookie and drop it from the address bar.
      response.writeHead(303, {
        Location: '/',
        'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      });
      response.end();
      return;
    }
    const presented = cookieToken(request.headers.cookie);
    if (presented === undefined || !sameSecret(presented, token)) {
      forbid(response);
      return;
    }
    await serveStatic(url.pathname, response);
  }

  async function serveStatic(pathname: string, response: ServerResponse): Promise<void> {
    const relative =
      pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
    const file = normalize(join(options.staticDir, relative));
    if (!file.startsWith(normalize(options.staticDir) + sep)) {
      forbid(response);
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': contentTypeOf(file),
      'Content-Security-Policy': contentSecurityPolicy(origin),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
      'Cache-Control': 'no-store',
    });
    response.end(body);
  }

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (request, socket, head) => {
    const presented = cookieToken(request.headers.cookie);
    if (
      !fromThisOrigin(request, true) ||
      presented === undefined ||
      !sameSecret(presented, token)
    ) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveSocket(ws));
  });

  function serveSocket(ws: WebSocket): void {
    const unsubscribe = core.onEvent((channel, payload) => {
      if (ws.readyState === ws.OPEN) {
        ws.send(JSON.stringify({ t: 'event', channel, payload }));
      }
    });
    ws.on('close', unsubscribe);
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      let parsed: z.infer<typeof callMessage>;
      try {
        parsed = callMessage.parse(JSON.parse(isBinary ? '' : data.toString()));
      } catch {
        ws.close(1008, 'Malformed message');
        return;
      }
      void core.invoke(parsed.channel, parsed.payload).then(
        (value) => ws.send(JSON.stringify({ t: 'result', id: parsed.id, ok: true, value })),
        (error: unknown) => {
          const message = error instanceof UserFacingError ? error.message : 'Internal error';
          if (!(error instanceof UserFacingError)) {
            console.error('airlock: call failed:', error);
          }
          ws.send(JSON.stringify({ t: 'result', id: parsed.id, ok: false, error: message }));
        },
      );
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) {
          client.terminate();
        }
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
