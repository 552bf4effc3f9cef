/**
 * The web host's server (main/web/server.ts) with a real core, a real HTTP server on 127.0.0.1
 * and real WebSocket clients: the message limits, what a socket may send, the subscription each
 * socket holds on the core, the static files, the one-time links, the page keys and the proofs.
 *
 * test/e2e/web-host-security.test.ts proves the refusals by token, Host and Origin against the
 * built host; the few cases here prove them against this source, which the mutation run
 * (unit tests only) changes.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest, createServer } from 'node:http';
import { connect as tcpConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { AirlockCore, type CoreListener } from '../../../../main/core/core.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import { callProof } from '../../../../main/web/access.js';
import {
  contentSecurityPolicy,
  PROOF_REFUSED,
  sameSecret,
  startWebHost,
  type WebHost,
} from '../../../../main/web/server.js';
import { deadline } from '../../../helpers/core-harness.js';

/** The largest message the host takes from a page, as server.ts sets it. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/**
 * How long a wait on the host may take: each is a round trip on 127.0.0.1. A host that never
 * answers fails the test saying what it waited for, not as a bare test timeout.
 */
const WAIT_MS = 5_000;

// The renderer folder beside a sibling whose name starts the same, so an escape shows.
const base = mkdtempSync(join(tmpdir(), 'airlock-web-host-'));
const staticDir = join(base, 'renderer');
mkdirSync(staticDir);
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><div id="root"></div>');
mkdirSync(join(base, 'renderer-evil'));
writeFileSync(join(base, 'renderer-evil', 'secret.txt'), 'TOP SECRET');

/** One socket's subscription to the core; `ended` resolves when the host unsubscribes it. */
type Subscription = { listener: CoreListener; ended: Promise<void> };

let core: AirlockCore;
let host: WebHost;
let subscriptions: Subscription[];
/** Subscriptions not ended yet. */
let live: Set<Subscription>;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-web-core-'));
  core = new AirlockCore({
    settingsPath: join(dir, 'settings.json'),
    logsDir: join(dir, 'logs'),
    demoAgent: {
      name: 'Demo Agent',
      command: join(dir, 'no-such-agent'),
      args: [],
      env: {},
      builtIn: true,
    },
    defaultCwd: dir,
  });
  await core.init();
  subscriptions = [];
  live = new Set();
  const subscribe = core.onEvent.bind(core);
  vi.spyOn(core, 'onEvent').mockImplementation((listener) => {
    const unsubscribe = subscribe(listener);
    let end: () => void = () => undefined;
    const subscription: Subscription = {
      listener,
      ended: new Promise((resolve) => (end = resolve)),
    };
    subscriptions.push(subscription);
    live.add(subscription);
    return () => {
      live.delete(subscription);
      end();
      return unsubscribe();
    };
  });
  host = await startWebHost(core, { staticDir });
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) {
    socket.terminate();
  }
  // Bounded too: a host that keeps a socket open would never finish closing.
  await deadline(host.close(), 'the host to close', WAIT_MS);
  await core.dispose();
  vi.restoreAllMocks();
});

/** Resolves with the HTTP status that refused a socket, or 101 when it opened. */
function upgradeStatus(headers: Record<string, string>): Promise<number> {
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}/ws`, { headers });
  sockets.push(socket);
  const status = new Promise<number>((resolve, reject) => {
    socket.once('open', () => resolve(101));
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
  return deadline(status, 'the socket to open or be refused', WAIT_MS);
}

/** The token of a link (`origin/#token=…`). */
const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');

/** Opens a socket from this server's Origin, not yet let in. */
function openSocket(headers: Record<string, string> = {}): Promise<WebSocket> {
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}/ws`, {
    headers: { Origin: host.origin, ...headers },
  });
  sockets.push(socket);
  const opened = new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
  return deadline(opened, 'the socket to open', WAIT_MS);
}

/** A socket let in as the app page is: by a new link, or by `hello` as given. */
async function connect(
  hello: { link?: string; key?: string } = { link: tokenOf(host.newLink()) },
): Promise<WebSocket & { key: string; nonce: string }> {
  const socket = await openSocket();
  const answer = next(socket);
  socket.send(JSON.stringify({ t: 'hello', ...hello }));
  const received = await answer;
  if (received.kind !== 'message' || received.data.t !== 'welcome') {
    throw new Error(`the host did not let the socket in: ${JSON.stringify(received)}`);
  }
  return Object.assign(socket, {
    key: received.data.key as string,
    nonce: received.data.nonce as string,
  });
}

type Received =
  | { kind: 'message'; data: { t: string; id?: number; ok?: boolean; [key: string]: unknown } }
  | { kind: 'close'; code: number; reason: string };

/** The next thing that happens on a socket: a message, or its closing. */
function next(socket: WebSocket): Promise<Received> {
  const received = new Promise<Received>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      socket.off('close', onClose);
      resolve({ kind: 'message', data: JSON.parse(data.toString()) as never });
    };
    const onClose = (code: number, reason: Buffer) => {
      socket.off('message', onMessage);
      resolve({ kind: 'close', code, reason: reason.toString() });
    };
    socket.once('message', onMessage);
    socket.once('close', onClose);
  });
  return deadline(received, 'a message or the socket closing', WAIT_MS);
}

/** The next core event a socket receives. */
function nextEvent(socket: WebSocket): Promise<{ t: string; channel: string; payload: unknown }> {
  const event = new Promise<{ t: string; channel: string; payload: unknown }>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as {
        t: string;
        channel: string;
        payload: unknown;
      };
      if (message.t === 'event') {
        socket.off('message', onMessage);
        resolve(message);
      }
    };
    socket.on('message', onMessage);
  });
  return deadline(event, 'a core event on the socket', WAIT_MS);
}

const callText = (id: number, channel: string, payload: unknown) =>
  JSON.stringify({ t: 'call', id, channel, payload });

/** Sends a call and resolves with what comes back first. */
function call(socket: WebSocket, id: number, channel: string, payload: unknown): Promise<Received> {
  const received = next(socket);
  socket.send(callText(id, channel, payload));
  return received;
}

/** A call to `app:getState` whose JSON text is exactly `bytes` long. */
function callOfSize(bytes: number): string {
  const bare = callText(1, 'app:getState', { pad: '' });
  return callText(1, 'app:getState', { pad: 'a'.repeat(bytes - bare.length) });
}

type Reply = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const { hostname, port } = new URL(host.origin);
  const reply = new Promise<Reply>((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
  return deadline(reply, `the answer to ${method} ${path}`, WAIT_MS);
}

describe('messages from the page', () => {
  it(`takes a message of ${MAX_MESSAGE_BYTES} bytes and refuses one a byte longer (1009)`, async () => {
    const socket = await connect();
    const largest = callOfSize(MAX_MESSAGE_BYTES);
    expect(Buffer.byteLength(largest)).toBe(MAX_MESSAGE_BYTES);
    const answered = next(socket);
    socket.send(largest);
    // Read and answered: the core, not the size limit, refuses the padded request.
    expect(await answered).toMatchObject({ kind: 'message', data: { t: 'result', ok: false } });
    const refused = next(socket);
    socket.send(callOfSize(MAX_MESSAGE_BYTES + 1));
    expect(await refused).toMatchObject({ kind: 'close', code: 1009 });
  });

  it('refuses a binary frame, even one holding a valid call, and closes with 1008', async () => {
    const socket = await connect();
    const received = next(socket);
    socket.send(Buffer.from(callText(1, 'app:getState', {})), { binary: true });
    expect(await received).toEqual({ kind: 'close', code: 1008, reason: 'Malformed message' });
  });

  it.each<[string, unknown]>([
    ['another message type', { t: 'result', id: 1, channel: 'app:getState', payload: {} }],
    ['a negative id', { t: 'call', id: -1, channel: 'app:getState', payload: {} }],
    ['a fractional id', { t: 'call', id: 1.5, channel: 'app:getState', payload: {} }],
    ['an id that is not a number', { t: 'call', id: '1', channel: 'app:getState', payload: {} }],
    ['a channel of 101 characters', { t: 'call', id: 1, channel: 'x'.repeat(101), payload: {} }],
    ['JSON that is not an object', [1, 2, 3]],
  ])('closes the socket (1008) on %s', async (_name, message) => {
    const socket = await connect();
    const received = next(socket);
    socket.send(JSON.stringify(message));
    expect(await received).toEqual({ kind: 'close', code: 1008, reason: 'Malformed message' });
  });

  it('passes a call with id 0 and a channel of 100 characters to the core', async () => {
    const socket = await connect();
    expect(await call(socket, 0, 'x'.repeat(100), {})).toEqual({
      kind: 'message',
      data: { t: 'result', id: 0, ok: false, error: 'Unknown call' },
    });
  });
});

describe('results', () => {
  it('answers a call with its id and the core’s value', async () => {
    const socket = await connect();
    const received = await call(socket, 7, 'app:getState', {});
    expect(received).toMatchObject({
      kind: 'message',
      data: { t: 'result', id: 7, ok: true, value: { sessions: [], canPickFolder: false } },
    });
  });

  it('passes a user-facing error on as it is', async () => {
    vi.spyOn(core, 'invoke').mockRejectedValueOnce(new UserFacingError('That session is closed'));
    const socket = await connect();
    expect(await call(socket, 3, 'session:cancel', { key: 's1' })).toEqual({
      kind: 'message',
      data: { t: 'result', id: 3, ok: false, error: 'That session is closed' },
    });
  });

  it('hides any other error behind "Internal error" and logs it here', async () => {
    const failure = new Error('EACCES: /home/me/.ssh/id_ed25519');
    vi.spyOn(core, 'invoke').mockRejectedValueOnce(failure);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const socket = await connect();
    expect(await call(socket, 4, 'session:cancel', { key: 's1' })).toEqual({
      kind: 'message',
      data: { t: 'result', id: 4, ok: false, error: 'Internal error' },
    });
    expect(logged).toHaveBeenCalledWith('airlock: call failed:', failure);
  });

  it('does not log a user-facing error', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const socket = await connect();
    await call(socket, 5, 'shell:exec', {});
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('core events', () => {
  it('go to every open socket, each with a subscription of its own', async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    expect(live.size).toBe(2);
    const received = Promise.all([nextEvent(first), nextEvent(second)]);
    await call(first, 1, 'session:create', { agentName: 'Demo Agent', cwd: base });
    const [one, two] = await received;
    expect(one).toMatchObject({
      t: 'event',
      channel: 'session:onDidChange',
      payload: { agentName: 'Demo Agent' },
    });
    expect(two).toEqual(one);
  });

  it('stop for a socket once it closes: the host drops its subscription', async () => {
    const leaving = await connect();
    const staying = await connect();
    const [leavingSubscription, stayingSubscription] = subscriptions;
    leaving.close();
    await deadline(leavingSubscription!.ended, 'the host to unsubscribe', WAIT_MS);
    expect([...live]).toEqual([stayingSubscription]);
    const received = nextEvent(staying);
    await call(staying, 1, 'session:create', { agentName: 'Demo Agent', cwd: base });
    expect(await received).toMatchObject({ channel: 'session:onDidChange' });
  }, 5_000);

  it('stop for a socket the host closed on a malformed message', async () => {
    const socket = await connect();
    const [subscription] = subscriptions;
    socket.send('not json');
    await deadline(subscription!.ended, 'the host to unsubscribe', WAIT_MS);
    expect(live.size).toBe(0);
  }, 5_000);
});

describe('static files', () => {
  it('serves the page with headers that keep it to itself', async () => {
    const reply = await get('/');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<div id="root">');
    expect(reply.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(host.origin),
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
  });

  it('lets the page connect to this server’s WebSocket and nothing else', () => {
    const csp = contentSecurityPolicy('http://127.0.0.1:5173');
    expect(csp).toContain('connect-src ws://127.0.0.1:5173;');
    expect(csp).not.toContain('http://');
  });

  it('answers HEAD as GET, and a request from the page’s own Origin', async () => {
    expect((await get('/', {}, 'HEAD')).status).toBe(200);
    expect((await get('/', { Origin: host.origin })).status).toBe(200);
  });

  it('serves the app’s files with no credential, and never sets a cookie', async () => {
    const reply = await get('/');
    expect(reply.status).toBe(200);
    expect(reply.headers['set-cookie']).toBeUndefined();
    // An old link's token in the query is nothing to the host: it is not taken or traded.
    const old = await get(`/?token=${tokenOf(host.newLink())}`);
    expect(old.status).toBe(200);
    expect(old.headers['set-cookie']).toBeUndefined();
  });

  it('answers 404 for a file that is not there', async () => {
    const reply = await get('/missing.js');
    expect(reply).toMatchObject({ status: 404, body: 'Not found' });
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('refuses a path into a sibling folder whose name starts the same', async () => {
    const reply = await get('/..%2frenderer-evil%2fsecret.txt');
    expect(reply.status).toBe(403);
    expect(reply.body).not.toContain('TOP SECRET');
  });

  it('answers 500, without details, when a path cannot be decoded', async () => {
    const reply = await get('/%E0%A4%A');
    expect(reply).toMatchObject({ status: 500, body: 'Internal error' });
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
  });
});

describe('refusals', () => {
  const foreignHost = () => `attacker.example:${new URL(host.origin).port}`;

  it.each<[string, () => Record<string, string>, string?]>([
    ['another Host', () => ({ Host: foreignHost() })],
    ['another Origin', () => ({ Origin: 'https://attacker.example' })],
    ['a POST', () => ({}), 'POST'],
  ])('answers 403 over HTTP to %s, and sets no cookie', async (_name, headers, method) => {
    const reply = await get('/', headers(), method);
    expect(reply).toMatchObject({ status: 403, body: 'Forbidden' });
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it.each<[string, () => Record<string, string>]>([
    ['no Origin', () => ({})],
    ['another Origin', () => ({ Origin: 'https://attacker.example' })],
    ['another Host', () => ({ Origin: host.origin, Host: foreignHost() })],
  ])('refuses a socket with %s (403), subscribing nothing', async (_name, headers) => {
    expect(await upgradeStatus(headers())).toBe(403);
    expect(subscriptions).toHaveLength(0);
  });

  it.each<[string, () => object, string]>([
    ['a link token this host never gave', () => ({ link: 'x'.repeat(43) }), 'unknown'],
    ['a key this host never gave', () => ({ key: 'x'.repeat(43) }), 'unknown'],
    ['neither', () => ({}), 'missing'],
  ])('refuses a socket that presents %s (4403), subscribing nothing', async (_name, hello, why) => {
    const socket = await openSocket();
    const answer = next(socket);
    socket.send(JSON.stringify({ t: 'hello', ...hello() }));
    expect(await answer).toEqual({
      kind: 'message',
      data: { t: 'refused', reason: why },
    });
    expect(await next(socket)).toEqual({ kind: 'close', code: 4403, reason: 'Forbidden' });
    expect(subscriptions).toHaveLength(0);
  });

  it.each<[string, string | Buffer]>([
    ['a call', callText(1, 'app:getState', {})],
    ['a hello with more in it', JSON.stringify({ t: 'hello', link: 'abc', admin: true })],
    ['a binary hello', Buffer.from(JSON.stringify({ t: 'hello', link: 'abc' }))],
    ['text that is not JSON', 'hello'],
  ])('closes a socket (1008) whose first message is %s, answering nothing', async (_name, data) => {
    const socket = await openSocket();
    const received = next(socket);
    socket.send(data, { binary: typeof data !== 'string' });
    expect(await received).toEqual({ kind: 'close', code: 1008, reason: 'Malformed message' });
    expect(subscriptions).toHaveLength(0);
  });

  it('closes a socket that says nothing within the time allowed', async () => {
    const quick = await startWebHost(core, { staticDir, helloTimeoutMs: 50 });
    try {
      const socket = new WebSocket(`${quick.origin.replace('http', 'ws')}/ws`, {
        headers: { Origin: quick.origin },
      });
      sockets.push(socket);
      const closed = new Promise<string>((resolve) =>
        socket.once('close', (code, reason) => resolve(`${code} ${reason.toString()}`)),
      );
      expect(await deadline(closed, 'the silent socket to be closed', WAIT_MS)).toBe(
        '1008 No hello',
      );
    } finally {
      await quick.close();
    }
  });
});

describe('links and page keys', () => {
  it('carries 32 random bytes in the URL’s fragment, new for every link and every host', async () => {
    expect(host.url).toMatch(new RegExp(`^${host.origin}/#token=[\\w-]{43}$`));
    const other = await startWebHost(core, { staticDir });
    await other.close();
    const links = [host.url, host.newLink(), host.newLink(), other.url];
    expect(new Set(links.map(tokenOf)).size).toBe(4);
  });

  it('opens the app once: the same link again is refused as used, and a new one works', async () => {
    const link = tokenOf(host.newLink());
    const first = await connect({ link });
    const again = await openSocket();
    const answer = next(again);
    again.send(JSON.stringify({ t: 'hello', link }));
    expect(await answer).toMatchObject({ data: { t: 'refused', reason: 'used' } });
    expect((await connect()).key).not.toBe(first.key);
  });

  it('lets the page in again with its key (a reload, a dropped link), and gives a new nonce', async () => {
    const first = await connect();
    first.close();
    const reloaded = await connect({ key: first.key });
    expect(reloaded.key).toBe(first.key);
    expect(reloaded.nonce).not.toBe(first.nonce);
    expect(await call(reloaded, 1, 'app:getState', {})).toMatchObject({
      data: { ok: true },
    });
  });

  it('takes the key before a used link, so a reload that still has its link is let in', async () => {
    const link = tokenOf(host.newLink());
    const first = await connect({ link });
    expect((await connect({ link, key: first.key })).key).toBe(first.key);
  });

  it('keeps a bounded number of unused links: the oldest goes first', async () => {
    const oldest = tokenOf(host.newLink());
    for (let i = 0; i < 20; i += 1) {
      host.newLink();
    }
    const socket = await openSocket();
    const answer = next(socket);
    socket.send(JSON.stringify({ t: 'hello', link: oldest }));
    expect(await answer).toMatchObject({ data: { t: 'refused', reason: 'unknown' } });
  });
});

describe('calls that need the page’s proof', () => {
  const guarded = ['settings:revealEnv', 'settings:saveAgent', 'settings:testAgent'];

  it.each(guarded)('refuses %s without the proof, before the core sees it', async (channel) => {
    const invoked = vi.spyOn(core, 'invoke');
    const socket = await connect();
    expect(await call(socket, 1, channel, {})).toEqual({
      kind: 'message',
      data: { t: 'result', id: 1, ok: false, error: PROOF_REFUSED },
    });
    expect(invoked).not.toHaveBeenCalled();
  });

  it('refuses a proof made for another socket, another call id or another channel', async () => {
    const invoked = vi.spyOn(core, 'invoke');
    const socket = await connect();
    const other = await connect({ key: socket.key });
    const send = (id: number, channel: string, proof: string) => {
      const answer = next(socket);
      socket.send(JSON.stringify({ t: 'call', id, channel, payload: {}, proof }));
      return answer;
    };
    const channel = 'settings:revealEnv';
    for (const proof of [
      callProof(socket.key, other.nonce, 1, channel),
      callProof(socket.key, socket.nonce, 2, channel),
      callProof(socket.key, socket.nonce, 1, 'settings:testAgent'),
      callProof('another key', socket.nonce, 1, channel),
    ]) {
      expect(await send(1, channel, proof)).toMatchObject({ data: { error: PROOF_REFUSED } });
    }
    expect(invoked).not.toHaveBeenCalled();
  });

  it('passes a call with its proof on to the core, and others with none', async () => {
    const invoked = vi.spyOn(core, 'invoke');
    const socket = await connect();
    const channel = 'settings:revealEnv';
    const proof = callProof(socket.key, socket.nonce, 9, channel);
    const answer = next(socket);
    socket.send(JSON.stringify({ t: 'call', id: 9, channel, payload: { name: 'x' }, proof }));
    expect(await answer).toMatchObject({ data: { id: 9 } });
    expect(invoked).toHaveBeenCalledWith(channel, { name: 'x' });
    expect(await call(socket, 10, 'app:getState', {})).toMatchObject({ data: { ok: true } });
  });
});

describe('sameSecret', () => {
  it('tells equal secrets from different ones, whatever their lengths', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'a')).toBe(false);
  });
});

describe('the server', () => {
  it('listens on 127.0.0.1 at the port asked for', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const fixed = await startWebHost(core, { staticDir, port });
    try {
      expect(fixed.origin).toBe(`http://127.0.0.1:${port}`);
    } finally {
      await fixed.close();
    }
  });

  it('listens on 127.0.0.1 alone: another loopback address finds nothing', async () => {
    const { port } = new URL(host.origin);
    const probe = tcpConnect({ host: '127.0.0.2', port: Number(port) });
    const outcome = new Promise<string>((resolve) => {
      probe.once('connect', () => resolve('connected'));
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    // Refused on Linux; a system without that address may leave it unanswered instead.
    const settled = await deadline(outcome, 'the connection to 127.0.0.2', WAIT_MS).catch(
      () => 'unanswered',
    );
    probe.destroy();
    expect(settled).not.toBe('connected');
  });

  it('fails to start, saying why, on a port already taken', async () => {
    const { port } = new URL(host.origin);
    const started = startWebHost(core, { staticDir, port: Number(port) });
    await expect(deadline(started, 'the host to fail to start', WAIT_MS)).rejects.toThrow(
      /EADDRINUSE/,
    );
  });

  it('closes its open sockets when it closes', async () => {
    const socket = await connect();
    const received = next(socket);
    await deadline(host.close(), 'the host to close', WAIT_MS);
    expect(await received).toMatchObject({ kind: 'close' });
    await expect(connect()).rejects.toThrow();
  });
});
