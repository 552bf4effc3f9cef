/**
 * A small HTTP server on 127.0.0.1 for tests of what Airlock fetches (the agent registry, icons,
 * agent archives): a table of routes, every request recorded, routes that answer later or never,
 * closed cleanly after the test file.
 *
 * ```ts
 * const server = await startLocalServer({
 *   '/registry.json': { body: { version: '1.0.0', agents: [] }, headers: { etag: '"v1"' } },
 *   '/slow': 'hang',
 *   '/stream': (request, response) => { response.end('…'); },
 * });
 * const url = server.url('/registry.json');
 * await fetch(url);
 * expect(server.requests[0]?.headers['if-none-match']).toBe(undefined);
 * ```
 *
 * An unknown path answers 404. Routes can be replaced with `server.route(…)`; `useLocalServer`
 * gives a test file one server, reset after each test.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A fixed answer: status (200 by default), headers, and a body (an object is sent as JSON). */
export type RouteAnswer = {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer | object;
  /** When given, the answer waits until this settles (a way to hold a route open on purpose). */
  after?: Promise<unknown>;
};

/** A route that writes its own answer. */
export type RouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
) => void | Promise<void>;

/** What a path answers: a fixed answer, a handler, or `'hang'`: never an answer until closed. */
export type Route = RouteAnswer | RouteHandler | 'hang';

/** A request the server saw. */
export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
};

/** A running server. */
export type LocalServer = {
  /** The server's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The full address of a path on this server. */
  url(path: string): string;
  /** Every request so far, in order. */
  requests: RecordedRequest[];
  /** Sets (or replaces) what a path answers. */
  route(path: string, route: Route): void;
  /** Resolves at the next request for `path` (or at once if `count` were already seen). */
  waitForRequest(path: string, count?: number): Promise<RecordedRequest>;
  /** Forgets every route and request, then serves `routes`. */
  reset(routes?: Record<string, Route>): void;
  /** Stops the server, cutting open connections (hung routes included). */
  close(): Promise<void>;
};

/** Starts a server with these routes on a free port of 127.0.0.1. */
export async function startLocalServer(routes: Record<string, Route> = {}): Promise<LocalServer> {
  const table = new Map<string, Route>(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const waiters: { path: string; count: number; resolve: (request: RecordedRequest) => void }[] =
    [];
  const seen = (path: string) => requests.filter((request) => request.path === path);

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const recorded = { method: request.method ?? 'GET', path, headers: request.headers };
    requests.push(recorded);
    for (const waiter of [...waiters]) {
      if (waiter.path === path && seen(path).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(recorded);
      }
    }
    void answer(table.get(path), request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    url: (path) => `${origin}${path}`,
    requests,
    route: (path, route) => {
      table.set(path, route);
    },
    reset: (next = {}) => {
      table.clear();
      for (const [path, route] of Object.entries(next)) {
        table.set(path, route);
      }
      requests.length = 0;
    },
    waitForRequest: (path, count = seen(path).length + 1) => {
      const already = seen(path);
      if (already.length >= count) {
        return Promise.resolve(already[count - 1]!);
      }
      return new Promise((resolve) => waiters.push({ path, count, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(
  route: Route | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (route === undefined) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  if (route === 'hang') {
    return;
  }
  if (typeof route === 'function') {
    await route(request, response);
    return;
  }
  await route.after;
  const body =
    route.body === undefined
      ? ''
      : typeof route.body === 'string' || Buffer.isBuffer(route.body)
        ? route.body
        : JSON.stringify(route.body);
  const json =
    route.body !== undefined && typeof route.body === 'object' && !Buffer.isBuffer(route.body);
  response.writeHead(route.status ?? 200, {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...route.headers,
  });
  response.end(body);
}

/**
 * A server for this test file: started before its first test, its routes put back to `routes`
 * and its requests forgotten after each test, closed after the last. Call the returned function
 * inside a test for the running server.
 */
export function useLocalServer(routes: Record<string, Route> = {}): () => LocalServer {
  let server: LocalServer | undefined;
  beforeAll(async () => {
    server = await startLocalServer(routes);
  });
  afterEach(() => server?.reset(routes));
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) {
      throw new Error('The local server starts before the first test; use it inside a test.');
    }
    return server;
  };
}
