/**
 * The web host: the renderer and the contract over HTTP + WebSocket on 127.0.0.1.
 *
 * Every request and socket must name this server in its Host header and come from this
 * server's origin (a socket must say so); anything else gets 403 and changes nothing. The app's
 * files hold no secret and need none. A socket is let in only by its first message: the
 * one-time link token from the printed URL's fragment, or the key the page was given for it
 * (see access.ts); until then it gets nothing and may send nothing else. Calls that reveal a
 * secret or run a command need the page's proof besides (see preload/shared/web-wire.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import {
  callsNeedingProof,
  HelloMessage,
  REFUSED_CLOSE_CODE,
  type RefusedMessage,
  type WelcomeMessage,
} from '../../preload/shared/web-wire.js';
import { isCallChannel } from '../../preload/shared/contract.js';
import type { AirlockCore } from '../core/core.js';
import { UserFacingError } from '../core/errors.js';
import { appContentSecurityPolicy, contentTypeOf } from '../shared/app-content.js';
import { callProof, PageAccess, sameSecret } from './access.js';

export { sameSecret } from './access.js';

const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** How long a new socket may take to say who it is before it is closed. */
const HELLO_TIMEOUT_MS = 10_000;

/** A call from the page, before the core checks its channel and payload. */
const callMessage = z.object({
  t: z.literal('call'),
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  payload: z.unknown(),
  proof: z.string().max(128).optional(),
});

/** A running web host. */
export type WebHost = {
  /** The first link (`origin/#token=…`): it opens the app once. */
  url: string;
  origin: string;
  /** A new one-time link, for another page or browser. */
  newLink(): string;
  close(): Promise<void>;
};

/** The Content-Security-Policy for the app page on this origin: it may open its WebSocket. */
export function contentSecurityPolicy(origin: string): string {
  return appContentSecurityPolicy(origin.replace(/^http/, 'ws'));
}

/** The answer to a call refused for want of the page's proof. */
export const PROOF_REFUSED = 'This page could not prove it is the Airlock page that was let in';

/**
 * Starts the web host on 127.0.0.1 (a random port unless `port` is given). `helloTimeoutMs`: how
 * long a new socket may take to say who it is (10 s unless given).
 */
export async function startWebHost(
  core: AirlockCore,
  options: { staticDir: string; port?: number; helloTimeoutMs?: number },
): Promise<WebHost> {
  const access = new PageAccess();
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
    await serveStatic(new URL(request.url ?? '/', origin).pathname, response);
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
    if (!fromThisOrigin(request, true)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => awaitHello(ws));
  });

  /** A new socket: its first message must let it in, within the time allowed. */
  function awaitHello(ws: WebSocket): void {
    const timer = setTimeout(
      () => ws.close(1008, 'No hello'),
      options.helloTimeoutMs ?? HELLO_TIMEOUT_MS,
    );
    ws.on('error', () => ws.terminate());
    ws.once('close', () => clearTimeout(timer));
    ws.once('message', (data, isBinary) => {
      clearTimeout(timer);
      let hello: HelloMessage;
      try {
        hello = HelloMessage.parse(JSON.parse(isBinary ? '' : data.toString()));
      } catch {
        ws.close(1008, 'Malformed message');
        return;
      }
      const admitted = access.admit(hello);
      if ('refused' in admitted) {
        const refused: RefusedMessage = { t: 'refused', reason: admitted.refused };
        ws.send(JSON.stringify(refused));
        ws.close(REFUSED_CLOSE_CODE, 'Forbidden');
        return;
      }
      const nonce = randomBytes(16).toString('base64url');
      const welcome: WelcomeMessage = { t: 'welcome', key: admitted.key, nonce };
      ws.send(JSON.stringify(welcome));
      serveSocket(ws, admitted.key, nonce);
    });
  }

  /** A socket that was let in: core events go out, calls come in. */
  function serveSocket(ws: WebSocket, key: string, nonce: string): void {
    const unsubscribe = core.onEvent((channel, payload) => {
      if (ws.readyState === ws.OPEN) {
        ws.send(JSON.stringify({ t: 'event', channel, payload }));
      }
    });
    ws.on('close', unsubscribe);
    ws.on('message', (data, isBinary) => {
      let parsed: z.infer<typeof callMessage>;
      try {
        parsed = callMessage.parse(JSON.parse(isBinary ? '' : data.toString()));
      } catch {
        ws.close(1008, 'Malformed message');
        return;
      }
      const answer = (result: { ok: true; value: unknown } | { ok: false; error: string }) =>
        ws.send(JSON.stringify({ t: 'result', id: parsed.id, ...result }));
      if (
        isCallChannel(parsed.channel) &&
        callsNeedingProof.has(parsed.channel) &&
        !sameSecret(parsed.proof ?? '', callProof(key, nonce, parsed.id, parsed.channel))
      ) {
        answer({ ok: false, error: PROOF_REFUSED });
        return;
      }
      void core.invoke(parsed.channel, parsed.payload).then(
        (value) => answer({ ok: true, value }),
        (error: unknown) => {
          const message = error instanceof UserFacingError ? error.message : 'Internal error';
          if (!(error instanceof UserFacingError)) {
            console.error('airlock: call failed:', error);
          }
          answer({ ok: false, error: message });
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
  const newLink = () => `${origin}/#token=${access.newLink()}`;
  return {
    url: newLink(),
    origin,
    newLink,
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
