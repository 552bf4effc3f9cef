/**
 * One bounded GET of something from the network: only addresses Airlock fetches from (https, or
 * http to this machine), a deadline for the whole exchange, a cap on the bytes read, and
 * redirects followed by hand so that each new address is checked before it is asked.
 *
 * Every failure is a {@link FetchProblem} whose message is words a person can read ("timed out
 * after 15 s"), never an errno code or a stack.
 */
import { STATUS_CODES } from 'node:http';
import { isFetchableUrl } from './format.js';

/** The most redirects followed before giving up. */
export const MAX_REDIRECTS = 3;

/** Why a fetch failed, in words that fit after "Could not reach …" or alone in parentheses. */
export class FetchProblem extends Error {
  constructor(
    message: string,
    /** Whether the server was never reached (network, DNS, timeout), rather than answering badly. */
    readonly unreachable: boolean,
  ) {
    super(message);
  }
}

/** What came back: a status (2xx or 304) and, for 2xx, the whole body. */
export type BoundedResponse = {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The address that answered, after redirects. */
  url: string;
};

export type BoundedFetchOptions = {
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
};

/** "15 s", "1.5 s", "250 ms": a duration as a person says it. */
export function durationInWords(ms: number): string {
  if (ms < 1_000) {
    return `${Math.round(ms)} ms`;
  }
  const seconds = ms / 1_000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** "4 MB", "64 KB": a size cap as a person says it. */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  }
  if (bytes >= 1024) {
    return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  }
  return `${bytes} bytes`;
}

/** The words for a network error from `fetch` (its `cause` holds Node's code). */
function networkWords(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (cause?.message === 'bad port') {
    return 'it is on a port Airlock does not fetch from';
  }
  if (code === 'ECONNREFUSED') {
    return 'the server refused the connection';
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return 'its address could not be found; is this computer online?';
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return 'the connection was cut';
  }
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') {
    return 'the network could not reach it';
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/.test(code)) {
    return 'its certificate could not be trusted';
  }
  return 'the network failed';
}

/** Whether `text` is an address on this machine. */
function isLoopback(text: string): boolean {
  const host = new URL(text).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Reads a body to its end, refusing (and cancelling the rest) past `maxBytes`. */
async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new FetchProblem(`it sent more than ${sizeInWords(maxBytes)}`, false);
  }
  if (!response.body) {
    return Buffer.alloc(0);
  }
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    received += value.byteLength;
    if (received > maxBytes) {
      // Stop reading at once: a server that never stops sending is not read to its end.
      await reader.cancel().catch(() => undefined);
      throw new FetchProblem(`it sent more than ${sizeInWords(maxBytes)}`, false);
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(chunks, received);
}

/**
 * GETs `url`, following at most {@link MAX_REDIRECTS} redirects to addresses that pass
 * `isFetchableUrl`. Resolves with a 2xx (body read whole) or a 304 (no body); rejects with a
 * {@link FetchProblem} for anything else.
 */
export async function fetchBounded(
  url: string,
  options: BoundedFetchOptions,
): Promise<BoundedResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let address = url;
  try {
    for (let redirects = 0; ; redirects += 1) {
      if (!isFetchableUrl(address)) {
        throw new FetchProblem(
          redirects === 0
            ? 'its address is not https, and Airlock fetches only over https'
            : 'it redirected to an address that is not https, which Airlock does not follow',
          false,
        );
      }
      // A server elsewhere never sends Airlock to this machine's own services.
      if (redirects > 0 && !isLoopback(url) && isLoopback(address)) {
        throw new FetchProblem(
          'it redirected to this computer, which Airlock does not follow',
          false,
        );
      }
      let response: Response;
      try {
        response = await fetch(address, {
          headers: options.headers,
          redirect: 'manual',
          signal,
          credentials: 'omit',
        });
      } catch (error) {
        if (signal.aborted) {
          throw error;
        }
        throw new FetchProblem(networkWords(error), true);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        await response.body?.cancel().catch(() => undefined);
        if (location === null) {
          throw new FetchProblem('it redirected without saying where', false);
        }
        if (redirects >= MAX_REDIRECTS) {
          throw new FetchProblem('it redirected too many times', false);
        }
        try {
          address = new URL(location, address).href;
        } catch {
          throw new FetchProblem('it redirected to an address that is not valid', false);
        }
        continue;
      }
      if (response.status === 304) {
        await response.body?.cancel().catch(() => undefined);
        return { status: 304, headers: response.headers, body: Buffer.alloc(0), url: address };
      }
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel().catch(() => undefined);
        const phrase = STATUS_CODES[response.status];
        throw new FetchProblem(
          `the server answered ${response.status}${phrase ? ` ${phrase}` : ''}`,
          false,
        );
      }
      const body = await readCapped(response, options.maxBytes);
      return { status: response.status, headers: response.headers, body, url: address };
    }
  } catch (error) {
    if (error instanceof FetchProblem) {
      throw error;
    }
    if (signal.aborted) {
      throw new FetchProblem(`timed out after ${durationInWords(options.timeoutMs)}`, true);
    }
    throw new FetchProblem(networkWords(error), true);
  }
}
