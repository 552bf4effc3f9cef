/**
 * The agent registry as Airlock knows it: fetched from the registry's address when it can be,
 * otherwise the last good copy (kept on disk), otherwise the copy bundled with Airlock.
 *
 * Nothing fetched is trusted: the answer is bounded in time and size, parsed, checked for depth
 * and read through {@link readRegistry}. A failure never loses the copy already shown; it is
 * told in `problem`, one sentence in words ("Could not reach the agent registry (timed out after
 * 15 s); showing the copy from 3 Dec.").
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FetchProblem, fetchBounded, sizeInWords } from './fetch-bounded.js';
import { MAX_REGISTRY_BYTES, type Registry, type RegistryAgent, readRegistry } from './format.js';
import { IconCache } from './icons.js';
import { snapshotRegistry } from './snapshot.js';

/** The published registry's address. */
export const DEFAULT_REGISTRY_URL =
  'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

/** How long a fetch of the registry may take, whole. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** The deepest nesting of arrays and objects read from the registry. */
const MAX_DEPTH = 64;

/** The cache file: the last good registry text, its address, ETag and when it was fetched. */
const CACHE_FILE = 'registry-cache.json';

/** AIRLOCK_REGISTRY_URL, else the settings' agent_registry_url, else the default. */
export function registryUrl(env: NodeJS.ProcessEnv, setting?: string): string {
  const fromEnv = env.AIRLOCK_REGISTRY_URL?.trim();
  if (fromEnv) {
    return fromEnv;
  }
  const fromSetting = setting?.trim();
  return fromSetting ? fromSetting : DEFAULT_REGISTRY_URL;
}

/** A copy of the registry, where it came from, and why it is not a fresh one when it is not. */
export type RegistryState = {
  registry: Registry;
  source: 'network' | 'cache' | 'snapshot';
  fetchedAt?: number;
  problem?: string;
};

type CacheEntry = { url: string; etag?: string; fetchedAt: number; text: string };

/** Why a registry answer cannot be used, in words after "The agent registry …". */
class ContentProblem extends Error {}

/** Whether `value` nests arrays and objects deeper than `limit` (walked without recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') {
      continue;
    }
    if (depth >= limit) {
      return true;
    }
    for (const child of Object.values(item)) {
      if (child !== null && typeof child === 'object') {
        stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}

/** Reads a registry's text; throws a {@link ContentProblem} in words. */
function parseRegistry(text: string): Registry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ContentProblem(
      error instanceof RangeError
        ? 'sent JSON nested too deeply to read'
        : 'sent something that is not JSON',
    );
  }
  if (nestsDeeperThan(value, MAX_DEPTH)) {
    throw new ContentProblem('sent JSON nested too deeply to read');
  }
  try {
    return readRegistry(value);
  } catch {
    throw new ContentProblem('sent something that is not in the registry format');
  }
}

/** "3 Dec", or "3 Dec 2025" when not this year. */
function dayInWords(time: number, now: number): string {
  const day = new Date(time);
  const sameYear = day.getFullYear() === new Date(now).getFullYear();
  return day.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/** Fetches the registry, keeps the last good copy, and the agents' icons. */
export class RegistryClient {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly icons: IconCache;
  private inFlight: Promise<RegistryState> | undefined;

  constructor(
    private readonly options: {
      url: () => string;
      cacheDir: string;
      timeoutMs?: number;
      maxBytes?: number;
    },
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? MAX_REGISTRY_BYTES;
    this.icons = new IconCache(join(options.cacheDir, 'icons'), this.timeoutMs);
  }

  /** The last good copy without the network: the cache on disk, else the bundled snapshot. */
  async current(): Promise<RegistryState> {
    const cached = await this.readCache();
    if (cached) {
      return { registry: cached.registry, source: 'cache', fetchedAt: cached.entry.fetchedAt };
    }
    return { registry: snapshotRegistry(), source: 'snapshot' };
  }

  /**
   * Fetches anew (If-None-Match with the cached ETag); on failure keeps the last good copy and
   * says why, in words, in `problem`. Concurrent calls share one fetch.
   */
  refresh(): Promise<RegistryState> {
    this.inFlight ??= this.fetchAnew().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** The agent's icon as a data: URL of an SVG (fetched once, cached on disk), or undefined. */
  icon(agent: RegistryAgent): Promise<string | undefined> {
    return this.icons.icon(agent).catch(() => undefined);
  }

  private async fetchAnew(): Promise<RegistryState> {
    const cached = await this.readCache();
    let problem: string;
    try {
      const url = this.options.url();
      // An ETag means something only to the server that gave it.
      const etag = cached && cached.entry.url === url ? cached.entry.etag : undefined;
      const response = await fetchBounded(url, {
        timeoutMs: this.timeoutMs,
        maxBytes: this.maxBytes,
        headers: {
          accept: 'application/json',
          ...(etag === undefined ? {} : { 'if-none-match': etag }),
        },
      });
      const now = Date.now();
      if (response.status === 304 && cached && etag !== undefined) {
        await this.writeCache({ ...cached.entry, fetchedAt: now }).catch(() => undefined);
        return { registry: cached.registry, source: 'network', fetchedAt: now };
      }
      if (response.status === 304) {
        throw new ContentProblem('answered "not modified" to a request that had no copy');
      }
      const text = response.body.toString('utf8');
      const registry = parseRegistry(text);
      const newEtag = response.headers.get('etag') ?? undefined;
      await this.writeCache({
        url,
        fetchedAt: now,
        text,
        ...(newEtag !== undefined && newEtag.length <= 1_000 ? { etag: newEtag } : {}),
      }).catch(() => undefined);
      return { registry, source: 'network', fetchedAt: now };
    } catch (error) {
      problem = this.problemOf(error);
    }
    const kept = cached
      ? { registry: cached.registry, source: 'cache' as const, fetchedAt: cached.entry.fetchedAt }
      : { registry: snapshotRegistry(), source: 'snapshot' as const };
    const showing =
      kept.source === 'cache'
        ? `showing the copy from ${dayInWords(kept.fetchedAt, Date.now())}`
        : 'showing the copy that came with Airlock';
    return { ...kept, problem: `${problem}; ${showing}.` };
  }

  private problemOf(error: unknown): string {
    if (error instanceof FetchProblem && error.unreachable) {
      return `Could not reach the agent registry (${error.message})`;
    }
    if (error instanceof FetchProblem && error.message.startsWith('it sent more than')) {
      return `The agent registry sent more than ${sizeInWords(this.maxBytes)}, more than a registry should be`;
    }
    if (error instanceof FetchProblem) {
      return `Could not read the agent registry (${error.message})`;
    }
    if (error instanceof ContentProblem) {
      return `The agent registry ${error.message}`;
    }
    return 'Could not read the agent registry';
  }

  private async readCache(): Promise<{ entry: CacheEntry; registry: Registry } | undefined> {
    const file = join(this.options.cacheDir, CACHE_FILE);
    try {
      const info = await stat(file);
      // The text is kept inside JSON, where escapes can make it up to six times longer.
      if (!info.isFile() || info.size > this.maxBytes * 6 + 4_096) {
        return undefined;
      }
      const entry = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheEntry> | null;
      if (
        typeof entry?.url !== 'string' ||
        typeof entry.text !== 'string' ||
        !Number.isFinite(entry.fetchedAt) ||
        (entry.etag !== undefined && typeof entry.etag !== 'string')
      ) {
        return undefined;
      }
      const valid = entry as CacheEntry;
      return { entry: valid, registry: parseRegistry(valid.text) };
    } catch {
      return undefined;
    }
  }

  private async writeCache(entry: CacheEntry): Promise<void> {
    await mkdir(this.options.cacheDir, { recursive: true });
    const file = join(this.options.cacheDir, CACHE_FILE);
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(entry), { mode: 0o600 });
      await rename(temporary, file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}
