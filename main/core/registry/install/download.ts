/**
 * Downloads an agent's archive to a file: https (or http to this machine) only, redirects
 * followed by hand and each checked the same way, at most {@link MAX_DOWNLOAD_BYTES}, streamed
 * to disk with its SHA-256 computed on the way, cancellable.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { isFetchableUrl } from '../format.js';
import { UserFacingError } from '../../errors.js';

/** The most bytes of one archive; a bigger one is refused before or while it arrives. */
export const MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;
/** The most redirects followed for one download. */
export const MAX_REDIRECTS = 5;
/** How long a server may send nothing (no answer, no bytes) before a download is given up. */
export const IDLE_MS = 60_000;

/** What a finished download wrote. */
export type Downloaded = { bytes: number; sha256: string; url: string };

/** How a download is run. */
export type DownloadOptions = {
  /** Cancels it; the promise then rejects with {@link cancelled}. */
  signal?: AbortSignal;
  /** Called as bytes arrive; `total` is the server's content-length, when it gives one. */
  onProgress?: (progress: { received: number; total?: number }) => void;
  /** The most bytes taken (tests lower it). */
  maxBytes?: number;
  /** How long the server may send nothing before the download is given up (tests lower it). */
  idleMs?: number;
};

/** The error of a cancelled install. */
export function cancelled(): UserFacingError {
  return new UserFacingError('Cancelled');
}

/** The host of a URL, for messages (never the whole address, which may carry a token). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

/** Fetches `url`, following up to {@link MAX_REDIRECTS} redirects, each to a fetchable URL. */
async function fetchFollowing(
  url: string,
  name: string,
  signal: AbortSignal,
  stopped: () => UserFacingError | undefined,
): Promise<{ response: Response; url: string }> {
  let current = url;
  for (let hops = 0; ; hops += 1) {
    if (!isFetchableUrl(current)) {
      throw new UserFacingError(
        `The download of ${name} was sent to an address Airlock does not fetch from (only https is allowed).`,
        current.slice(0, 300),
      );
    }
    let response: Response;
    try {
      response = await fetch(current, {
        redirect: 'manual',
        signal,
        // fetch would undo a content-encoding, and the checksum is of the archive as published.
        headers: { 'accept-encoding': 'identity' },
      });
    } catch (error) {
      const reason = stopped();
      if (reason) {
        throw reason;
      }
      throw new UserFacingError(
        `${name} could not be downloaded: ${hostOf(current)} could not be reached.`,
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : undefined,
      );
    }
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      if (location === null || hops >= MAX_REDIRECTS) {
        throw new UserFacingError(
          `${name} could not be downloaded: ${hostOf(current)} sent it on too many times.`,
        );
      }
      try {
        current = new URL(location, current).href;
      } catch {
        current = location;
      }
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new UserFacingError(
        `${name} could not be downloaded: ${hostOf(current)} answered ${response.status}.`,
      );
    }
    return { response, url: current };
  }
}

/**
 * Downloads `url` into `file` (created anew; it must not exist). Rejects in words (a
 * {@link UserFacingError}) on a refused address, a network failure, an answer that is too big
 * or a cancel; the caller removes `file` then.
 */
export async function download(
  url: string,
  file: string,
  name: string,
  options: DownloadOptions = {},
): Promise<Downloaded> {
  const { signal } = options;
  if (signal?.aborted) {
    throw cancelled();
  }
  // A server that stops sending would otherwise hold the install open for ever.
  const idle = new AbortController();
  const idleMs = options.idleMs ?? IDLE_MS;
  let timer = setTimeout(() => idle.abort(), idleMs);
  const awake = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), idleMs);
  };
  const stopped = () =>
    signal?.aborted
      ? cancelled()
      : idle.signal.aborted
        ? new UserFacingError(`${name} could not be downloaded: ${hostOf(url)} stopped sending it.`)
        : undefined;
  try {
    return await receive(url, file, name, {
      ...options,
      signal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal,
      stopped,
      awake,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** The download itself, under a signal that both the user's cancel and the idle timer abort. */
async function receive(
  url: string,
  file: string,
  name: string,
  options: DownloadOptions & {
    signal: AbortSignal;
    stopped: () => UserFacingError | undefined;
    awake: () => void;
  },
): Promise<Downloaded> {
  const { signal, onProgress, stopped, awake } = options;
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  const { response, url: finalUrl } = await fetchFollowing(url, name, signal, stopped);
  awake();
  const tooBig = () =>
    new UserFacingError(
      `The download of ${name} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB; nothing was installed.`,
    );
  const length = response.headers.get('content-length');
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  // An encoded answer's length is of the encoded bytes, not of those fetch hands on.
  const total = length !== null && /^\d+$/.test(length) && !encoded ? Number(length) : undefined;
  if (total !== undefined && total > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  const hash = createHash('sha256');
  const handle = await open(file, 'wx', 0o600);
  let received = 0;
  try {
    onProgress?.({ received, ...(total === undefined ? {} : { total }) });
    if (response.body) {
      for await (const chunk of response.body) {
        awake();
        received += chunk.byteLength;
        if (received > maxBytes) {
          throw tooBig();
        }
        hash.update(chunk);
        try {
          await handle.write(chunk);
        } catch (error) {
          throw new UserFacingError(
            `${name} could not be saved on this computer; nothing was installed.`,
            error instanceof Error ? error.message : undefined,
          );
        }
        onProgress?.({ received, ...(total === undefined ? {} : { total }) });
      }
    }
  } catch (error) {
    await response.body?.cancel().catch(() => undefined);
    if (error instanceof UserFacingError) {
      throw error;
    }
    const reason = stopped();
    if (reason) {
      throw reason;
    }
    throw new UserFacingError(
      `${name} could not be downloaded: the connection to ${hostOf(finalUrl)} broke off.`,
      error instanceof Error ? error.message : undefined,
    );
  } finally {
    await handle.close();
  }
  const reason = stopped();
  if (reason) {
    throw reason;
  }
  if (total !== undefined && received !== total) {
    throw new UserFacingError(
      `${name} could not be downloaded: the connection to ${hostOf(finalUrl)} broke off.`,
    );
  }
  return { bytes: received, sha256: hash.digest('hex'), url: finalUrl };
}
