/** What both model-API stand-ins keep of each request, for a test to assert on. */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** A request as a stand-in received it. */
export type RecordedRequest = {
  method: string;
  /** The path with its query string, e.g. `/v1/messages?beta=true`. */
  path: string;
  headers: IncomingMessage['headers'];
  /** The body as the stand-in read it (parsed JSON), or `undefined` when there was none. */
  body: unknown;
  /** Set when the client went away before the response was complete. */
  disconnected: boolean;
};

/**
 * Records `req` with its `body` in `requests`. Given `res`, the record's `disconnected` is set
 * when the response closes before it was finished.
 */
export function recordRequest(
  requests: RecordedRequest[],
  req: IncomingMessage,
  body: unknown,
  res?: ServerResponse,
): RecordedRequest {
  const recorded: RecordedRequest = {
    method: req.method ?? '',
    path: req.url ?? '',
    headers: req.headers,
    body,
    disconnected: false,
  };
  requests.push(recorded);
  res?.on('close', () => (recorded.disconnected = !res.writableFinished));
  return recorded;
}

/**
 * A request listener that reads each request's whole body, records the request with
 * `parse(body)` in `requests` and hands the record to `route`.
 */
export function recordingListener(
  requests: RecordedRequest[],
  parse: (raw: string) => unknown,
  route: (request: RecordedRequest, res: ServerResponse) => void,
): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      route(recordRequest(requests, req, parse(Buffer.concat(chunks).toString('utf8')), res), res);
    });
  };
}

/**
 * Makes `server` a proxy that refuses everything: an HTTPS request sent through it (CONNECT) is
 * answered 403 and its `host:port` added to `refused`, so nothing leaves the host.
 */
export function refuseTunnels(server: Server, refused: string[]): void {
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    refused.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
}

/**
 * Refuses `request` when it came through the stand-in as a proxy (a plain-HTTP request through
 * a proxy names its full URL): answers 403, adds its host to `refused` and returns true.
 */
export function refusedAsProxy(
  request: RecordedRequest,
  res: ServerResponse,
  refused: string[],
): boolean {
  if (!/^https?:/.test(request.path)) {
    return false;
  }
  refused.push(new URL(request.path).host);
  res.writeHead(403).end();
  return true;
}
