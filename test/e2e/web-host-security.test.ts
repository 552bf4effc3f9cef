/**
 * The web host refuses anything without the token, from another Host or another Origin.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebApp, type WebApp } from '../helpers/web-app.js';

let app: WebApp;
let cookie: string;

type Reply = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const url = new URL(app.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method, headers: { Host: url.host, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket; resolves with the open socket or the HTTP status that refused it. */
function openSocket(
  headers: Record<string, string>,
): Promise<{ socket?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${app.origin.replace('http', 'ws')}/ws`, { headers });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    socket.once('error', () => resolve({}));
  });
}

function call(
  socket: WebSocket,
  id: number,
  channel: string,
  payload: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: string }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as {
        t: string;
        id?: number;
        ok: boolean;
        value?: unknown;
        error?: string;
      };
      if (message.t === 'result' && message.id === id) {
        socket.off('message', onMessage);
        resolve(message);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ t: 'call', id, channel, payload }));
  });
}

beforeAll(async () => {
  app = await startWebApp();
  const token = new URL(app.url).searchParams.get('token')!;
  const reply = await get(`/?token=${token}`);
  cookie = String(reply.headers['set-cookie']).split(';')[0]!;
});
afterAll(() => app?.stop());

describe('the web host over HTTP', () => {
  it('trades the URL token for an HttpOnly, SameSite=Strict cookie and drops it from the address', async () => {
    const token = new URL(app.url).searchParams.get('token')!;
    const reply = await get(`/?token=${token}`);
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/');
    expect(String(reply.headers['set-cookie'])).toMatch(/HttpOnly/);
    expect(String(reply.headers['set-cookie'])).toMatch(/SameSite=Strict/);
  });

  it('serves the app with a strict CSP to a request that has the cookie', async () => {
    const reply = await get('/', { Cookie: cookie });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<div id="root">');
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-inline');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each<[string, string, () => Record<string, string>]>([
    ['no token', '/', () => ({})],
    ['a wrong URL token', '/?token=wrong', () => ({})],
    ['a wrong cookie', '/', () => ({ Cookie: 'airlock_token=wrong' })],
    ['an asset without the cookie', '/index.html', () => ({})],
    ['another Host (DNS rebinding)', '/', () => ({ Cookie: cookie, Host: 'attacker.example' })],
    [
      'localhost instead of 127.0.0.1',
      '/',
      () => ({ Cookie: cookie, Host: `localhost:${new URL(app.origin).port}` }),
    ],
    ['a foreign Origin', '/', () => ({ Cookie: cookie, Origin: 'https://attacker.example' })],
  ])('refuses a request with %s', async (_name, path, headers) => {
    const reply = await get(path, headers());
    expect(reply.status).toBe(403);
    expect(reply.body).not.toContain('<div id="root">');
  });

  it('refuses other methods and paths outside the app', async () => {
    expect((await get('/', { Cookie: cookie }, 'POST')).status).toBe(403);
    const traversal = await get('/..%2f..%2fpackage.json', { Cookie: cookie });
    expect(traversal.status).toBe(403);
    expect(traversal.body).not.toContain('"name"');
  });
});

describe('the web host over WebSocket', () => {
  it('refuses a socket without the cookie, from another Origin, or with no Origin', async () => {
    expect((await openSocket({ Origin: app.origin })).status).toBe(403);
    expect((await openSocket({ Cookie: cookie, Origin: 'https://attacker.example' })).status).toBe(
      403,
    );
    expect((await openSocket({ Cookie: cookie })).status).toBe(403);
    expect((await openSocket({ Cookie: 'airlock_token=nope', Origin: app.origin })).status).toBe(
      403,
    );
  });

  it('accepts the app page’s socket and validates every call', async () => {
    const { socket } = await openSocket({ Cookie: cookie, Origin: app.origin });
    expect(socket).toBeDefined();
    const unknown = await call(socket!, 1, 'shell:exec', {});
    expect(unknown).toMatchObject({ ok: false, error: 'Unknown call' });
    const invalid = await call(socket!, 2, 'session:create', { agentName: 'Demo Agent', cwd: 42 });
    expect(invalid.ok).toBe(false);
    expect(invalid.error).toMatch(/Invalid session:create request/);
    const state = await call(socket!, 3, 'app:getState', {});
    expect(state.ok).toBe(true);
    // Nothing the refused or invalid attempts sent created a session.
    expect((state.value as { sessions: unknown[] }).sessions).toEqual([]);
    const closed = new Promise<number>((resolve) => socket!.once('close', (code) => resolve(code)));
    socket!.send('not json');
    expect(await closed).toBe(1008);
  });
});
