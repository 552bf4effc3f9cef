/**
 * Agents' icons, as `data:` URLs of SVG the renderer shows only in an `<img>` (where an SVG
 * cannot run script), never inlined into the page.
 *
 * An icon given as a `data:image/svg+xml;base64,` URL (the bundled copy's) is used as it is once
 * it decodes to something that looks like SVG. One given as an address is fetched once (https,
 * or http to this machine; at most {@link MAX_ICON_BYTES}) and kept on disk under the agent's id
 * and version. Anything else, or any failure, is no icon: never an error.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fetchBounded } from './fetch-bounded.js';
import { type RegistryAgent, isFetchableUrl } from './format.js';

/** The most bytes of one icon. */
export const MAX_ICON_BYTES = 64 * 1024;

/** How long an icon that could not be fetched is not asked for again. */
const FAILURE_MEMORY_MS = 10 * 60 * 1000;

const DATA_PREFIX = 'data:image/svg+xml;base64,';

/**
 * Whether `text` starts like an SVG document: after an optional byte order mark, white space,
 * an XML declaration, comments and a doctype without an internal subset, an `<svg` element.
 */
export function looksLikeSvg(text: string): boolean {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    const trimmed = rest.trimStart();
    const prolog = /^(<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE\s+svg[^[>]*>)/i.exec(trimmed);
    if (!prolog) {
      return /^<svg[\s>/]/.test(trimmed);
    }
    rest = trimmed.slice(prolog[0].length);
  }
}

/** The SVG inside a `data:image/svg+xml;base64,` URL, if it is one and holds an SVG. */
function svgOfDataUrl(url: string): Buffer | undefined {
  if (!url.startsWith(DATA_PREFIX)) {
    return undefined;
  }
  const base64 = url.slice(DATA_PREFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    return undefined;
  }
  const svg = Buffer.from(base64, 'base64');
  return svg.byteLength <= MAX_ICON_BYTES && looksLikeSvg(svg.toString('utf8')) ? svg : undefined;
}

function dataUrlOf(svg: Buffer): string {
  return `${DATA_PREFIX}${svg.toString('base64')}`;
}

/** Fetches icons and keeps them on disk in `folder`. */
export class IconCache {
  private readonly pending = new Map<string, Promise<string | undefined>>();
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly folder: string,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The agent's icon as a data: URL of an SVG, or undefined. Never throws. */
  async icon(agent: RegistryAgent): Promise<string | undefined> {
    const icon = agent.icon;
    if (icon === undefined) {
      return undefined;
    }
    if (icon.startsWith('data:')) {
      const svg = svgOfDataUrl(icon);
      return svg === undefined ? undefined : icon;
    }
    if (!isFetchableUrl(icon)) {
      return undefined;
    }
    // One file per agent, version and address; the version is hashed as it may hold any text.
    const key = `${agent.id}-${createHash('sha256').update(`${agent.version}\n${icon}`).digest('hex').slice(0, 24)}`;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && this.now() - failed < FAILURE_MEMORY_MS) {
      return undefined;
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.load(key, icon).catch(() => undefined);
      this.pending.set(key, pending);
      void pending.then((found) => {
        this.pending.delete(key);
        if (found === undefined) {
          this.failedAt.set(key, this.now());
        }
      });
    }
    return pending;
  }

  private async load(key: string, url: string): Promise<string | undefined> {
    const file = join(this.folder, `${key}.svg`);
    const cached = await this.readCached(file);
    if (cached) {
      return dataUrlOf(cached);
    }
    const response = await fetchBounded(url, {
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_ICON_BYTES,
      headers: { accept: 'image/svg+xml' },
    });
    const text = response.body.toString('utf8');
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    const svg = looksLikeSvg(text) || (type === 'image/svg+xml' && /<svg[\s>/]/.test(text));
    if (response.status !== 200 || !svg) {
      return undefined;
    }
    await this.write(file, response.body).catch(() => undefined);
    return dataUrlOf(response.body);
  }

  private async readCached(file: string): Promise<Buffer | undefined> {
    try {
      const info = await stat(file);
      if (!info.isFile() || info.size > MAX_ICON_BYTES) {
        return undefined;
      }
      const svg = await readFile(file);
      return looksLikeSvg(svg.toString('utf8')) ? svg : undefined;
    } catch {
      return undefined;
    }
  }

  private async write(file: string, svg: Buffer): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, svg, { mode: 0o600 });
      await rename(temporary, file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}
