/**
 * The web host against what an attacker on this computer can do: another server on 127.0.0.1
 * that the same browser visits, and a plain WebSocket client that sets its own Origin header.
 * Nothing the page holds reaches the other server; no value it could capture lets a socket in;
 * the printed link opens the app once, and a reload of the open page keeps working.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { appPage } from '../helpers/app-page.js';
import { launchChromium, startWebApp, type WebApp } from '../helpers/web-app.js';

let app: WebApp;
let browser: Browser;

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

type Answer = { opened: boolean; status?: number; first?: { t: string; reason?: string } };

/**
 * What an attacker's own client gets: it sets the app's Origin itself, sends `hello` as its
 * first message, and reads the host's first answer.
 */
function attack(hello: object, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${app.origin.replace('http', 'ws')}/ws`, {
      headers: { Origin: app.origin, ...headers },
    });
    socket.once('unexpected-response', (_req, res) =>
      resolve({ opened: false, status: res.statusCode }),
    );
    socket.once('error', () => resolve({ opened: false }));
    socket.once('open', () => socket.send(JSON.stringify({ t: 'hello', ...hello })));
    socket.once('message', (data: WebSocket.RawData) => {
      resolve({ opened: true, first: JSON.parse(data.toString()) as Answer['first'] });
      socket.close();
    });
    socket.once('close', (code) => resolve({ opened: true, status: code }));
  });
}

/** Another server on 127.0.0.1, as a dev server or a local tool would be; it keeps every request. */
async function otherLocalServer(): Promise<{ server: Server; origin: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    seen.push(`${request.method} ${request.url}\n${JSON.stringify(request.headers)}`);
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>Local tool</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, seen };
}

beforeAll(async () => {
  [app, browser] = await Promise.all([startWebApp(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the page’s credentials', () => {
  it('reach no other server on 127.0.0.1 that the same browser visits, and no captured value opens a socket', async () => {
    const other = await otherLocalServer();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const link = await app.newLink();
      const token = new URL(link).hash.replace('#token=', '');
      await page.goto(link);
      await page.getByRole('button', { name: 'New session' }).first().waitFor();
      // The link leaves the address at once; the page's key is in its tab's storage alone.
      expect(page.url()).toBe(`${app.origin}/`);
      const key = await page.evaluate(() => sessionStorage.getItem('airlock.pageKey'));
      expect(key).toMatch(/^[\w-]{43}$/);
      await expect(page.evaluate(() => document.cookie)).resolves.toBe('');

      // The same browser visits another local server, as the attack did.
      await page.goto(`${other.origin}/`);
      await page.getByText('hello').waitFor();
      await page.goto(`${other.origin}/next`, { referer: link });
      expect(other.seen.length).toBeGreaterThanOrEqual(2);
      for (const request of other.seen) {
        expect(request).not.toContain(token);
        expect(request).not.toContain(key);
        expect(request.toLowerCase()).not.toContain('airlock_token');
      }

      // What that server could have taken, or anything it might guess, lets no socket in.
      expect(await attack({ link: token })).toMatchObject({
        first: { t: 'refused', reason: 'used' },
      });
      expect(await attack({}, { Cookie: `airlock_token=${token}` })).toMatchObject({
        first: { t: 'refused', reason: 'missing' },
      });
      expect(await attack({ key: 'x'.repeat(43) })).toMatchObject({
        first: { t: 'refused', reason: 'unknown' },
      });
    } finally {
      await context.close();
      await new Promise<void>((resolve) => other.server.close(() => resolve()));
    }
  }, 60_000);

  it('opens the app once: the link again shows how to get a new one, and a reload keeps working', async () => {
    const link = await app.newLink();
    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const page = await first.newPage();
      await page.goto(link);
      await page.getByRole('button', { name: 'New session' }).first().waitFor();

      const again = await second.newPage();
      await again.goto(link);
      const refused = again.getByRole('main', { name: 'This link cannot open Airlock' });
      await refused.waitFor();
      await expect(refused.textContent()).resolves.toMatch(/already been used/);
      await expect(refused.textContent()).resolves.toMatch(/press Enter: it prints a new link/);
      await expect(again.getByRole('button', { name: 'New session' }).count()).resolves.toBe(0);

      await page.reload();
      await appPage(() => page).startSession();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);

  it('makes the calls that reveal a secret or run a command with the page’s own proof', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const sent: string[] = [];
      page.on('websocket', (socket) =>
        socket.on('framesent', (frame) => sent.push(String(frame.payload))),
      );
      await page.goto(await app.newLink());
      await page.getByRole('button', { name: 'New session' }).first().waitFor();
      await page.getByRole('button', { name: /Agent settings/ }).click();
      await page.getByRole('button', { name: 'Test Demo Agent' }).click();
      await page
        .getByRole('region', { name: 'Test of Demo Agent' })
        .getByText('started and answered')
        .waitFor({ timeout: 60_000 });
      await expect
        .poll(() => sent.map((text) => JSON.parse(text) as { channel?: string; proof?: string }))
        .toContainEqual(
          expect.objectContaining({
            channel: 'settings:testAgent',
            proof: expect.stringMatching(/^[\w-]{43}$/),
          }),
        );
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('the web host over HTTP', () => {
  it('serves the app with a strict CSP, and sets no cookie', async () => {
    const reply = await get('/');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<div id="root">');
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-inline');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it.each<[string, string, () => Record<string, string>]>([
    ['another Host (DNS rebinding)', '/', () => ({ Host: 'attacker.example' })],
    [
      'localhost instead of 127.0.0.1',
      '/',
      () => ({ Host: `localhost:${new URL(app.origin).port}` }),
    ],
    ['a foreign Origin', '/', () => ({ Origin: 'https://attacker.example' })],
  ])('refuses a request with %s', async (_name, path, headers) => {
    const reply = await get(path, headers());
    expect(reply.status).toBe(403);
    expect(reply.body).not.toContain('<div id="root">');
  });

  it('refuses other methods and paths outside the app', async () => {
    expect((await get('/', {}, 'POST')).status).toBe(403);
    const traversal = await get('/..%2f..%2fpackage.json');
    expect(traversal.status).toBe(403);
    expect(traversal.body).not.toContain('"name"');
  });
});

describe('the web host over WebSocket', () => {
  it('refuses a socket from another Origin, or with no Origin', async () => {
    expect(await attack({}, { Origin: 'https://attacker.example' })).toEqual({
      opened: false,
      status: 403,
    });
  });
});
