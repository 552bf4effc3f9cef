/**
 * The tabs Airlock had open, kept in `<configDir>/sessions.json` so that the next start can offer
 * to reopen them.
 *
 * Two kinds of entry share the file: the tabs open now (by tab key, updated as they get a session
 * id, a title or a name, and removed when closed), and the tabs of the last run that the user has
 * neither reopened nor dismissed yet (offered, by id). Both survive another restart.
 *
 * The file is checked with zod on read; one that cannot be parsed is set aside beside it (renamed
 * `sessions.json.bad-<time>`) and the app starts with none, never a crash. Writes are debounced,
 * one at a time, and atomic: a temporary file renamed over the old one.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { z } from 'zod';
import { MAX_SESSION_NAME_CHARS } from '../../../preload/shared/contract.js';
import {
  MAX_ACP_SESSION_ID_CHARS,
  MAX_SAVED_TABS,
  type SavedTabView,
} from '../../../preload/shared/lasting-sessions.js';
import { oneLine } from '../tab-title.js';

/** A file larger than this was not written by Airlock: it is set aside unread. */
const MAX_FILE_BYTES = 1024 * 1024;

/** One tab as the file keeps it. */
export const SavedTab = z.object({
  agentName: z.string().min(1).max(200),
  cwd: z.string().min(1).max(4096).refine(isAbsolute, 'not an absolute path'),
  acpSessionId: z.string().min(1).max(MAX_ACP_SESSION_ID_CHARS).optional(),
  /** The agent's title, or the first prompt while it sent none. */
  title: z.string().max(MAX_SESSION_NAME_CHARS).optional(),
  /** The name the user gave the tab. */
  userTitle: z.string().max(MAX_SESSION_NAME_CHARS).optional(),
  /** When the tab last opened or ran a turn, in ms since the epoch. */
  lastActivity: z.number().int().nonnegative(),
});
export type SavedTab = z.infer<typeof SavedTab>;

/** The file's shape; each tab is checked on its own so one bad entry costs only itself. */
const SavedFile = z.object({ version: z.literal(1), tabs: z.array(z.unknown()) });

/** What a tab reports to be kept (see {@link SavedTabs.track}). */
export type TabFacts = Omit<SavedTab, 'lastActivity'>;

/** Options for {@link SavedTabs}. */
export type SavedTabsOptions = {
  /** How long changes gather before one write; 300 ms by default. */
  debounceMs?: number;
  now?: () => number;
};

/** The saved tabs, in memory and in their file. */
export class SavedTabs {
  private readonly open = new Map<string, SavedTab>();
  private readonly offered = new Map<string, SavedTab>();
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  /** Writes run one after the other. */
  private queue: Promise<void> = Promise.resolve();
  private frozen = false;
  private readonly debounceMs: number;
  private readonly now: () => number;

  constructor(
    readonly file: string,
    options: SavedTabsOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 300;
    this.now = options.now ?? Date.now;
  }

  /** Reads the file left by the last run: its tabs become the offer. Never rejects. */
  async load(): Promise<void> {
    for (const tab of await this.read()) {
      this.offered.set(`t${(this.nextId++).toString(36)}`, tab);
    }
  }

  /** The tabs on offer, most recent first. */
  offers(): SavedTabView[] {
    return [...this.offered.entries()]
      .map(([id, tab]) => ({
        id,
        agentName: tab.agentName,
        cwd: tab.cwd,
        title: tab.userTitle ?? tab.title,
        lastActivity: tab.lastActivity,
        reopenable: tab.acpSessionId !== undefined,
      }))
      .sort((a, b) => b.lastActivity - a.lastActivity);
  }

  /** Takes one offered tab (to reopen it); it leaves the offer. */
  take(id: string): SavedTab | undefined {
    const tab = this.offered.get(id);
    if (tab) {
      this.offered.delete(id);
      this.schedule();
    }
    return tab;
  }

  /** The user does not want the offered tabs: they are forgotten. */
  dismiss(): void {
    this.offered.clear();
    this.schedule();
  }

  /**
   * Records what an open tab is now. Its last activity moves when it first shows up and when
   * `active` (a turn started). A session id once known is kept while none replaces it (an agent
   * that exited still names the session to reopen).
   */
  track(key: string, facts: TabFacts, active: boolean): void {
    if (this.frozen) {
      return;
    }
    const held = this.open.get(key);
    const next: SavedTab = {
      agentName: facts.agentName,
      cwd: facts.cwd,
      acpSessionId: clipId(facts.acpSessionId) ?? held?.acpSessionId,
      title: clipName(facts.title),
      userTitle: clipName(facts.userTitle),
      lastActivity: !held || active ? this.now() : held.lastActivity,
    };
    if (held && sameTab(held, next)) {
      return;
    }
    this.open.set(key, next);
    this.schedule();
  }

  /** A tab was closed: it leaves the list. */
  remove(key: string): void {
    if (!this.frozen && this.open.delete(key)) {
      this.schedule();
    }
  }

  /**
   * Writes what is pending now and stops taking changes: the app is quitting, and its tabs
   * closing one by one must not empty the list it leaves for the next start.
   */
  async freeze(): Promise<void> {
    this.frozen = true;
    await this.flush();
  }

  /** Writes at once if a write is pending; resolves once written. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.enqueue();
    }
    await this.queue;
  }

  private schedule(): void {
    if (this.timer !== undefined) {
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.enqueue();
    }, this.debounceMs);
    this.timer.unref?.();
  }

  private enqueue(): void {
    // The newest tabs first, bounded: an app that never closes a tab does not grow the file.
    const tabs = [...this.open.values(), ...this.offered.values()]
      .sort((a, b) => b.lastActivity - a.lastActivity)
      .slice(0, MAX_SAVED_TABS);
    this.queue = this.queue.then(() =>
      this.write(tabs).catch(() => {
        // Not remembered this time; the next change tries again, and nothing else is lost.
      }),
    );
  }

  private async read(): Promise<SavedTab[]> {
    let raw: string;
    try {
      const info = await stat(this.file);
      if (!info.isFile()) {
        return [];
      }
      if (info.size > MAX_FILE_BYTES) {
        await this.setAside();
        return [];
      }
      raw = await readFile(this.file, 'utf8');
    } catch {
      return [];
    }
    let parsed: z.infer<typeof SavedFile>;
    try {
      parsed = SavedFile.parse(JSON.parse(raw));
    } catch {
      await this.setAside();
      return [];
    }
    return parsed.tabs
      .flatMap((entry) => {
        const tab = SavedTab.safeParse(entry);
        return tab.success ? [tab.data] : [];
      })
      .slice(0, MAX_SAVED_TABS);
  }

  /** Keeps a damaged file beside the new one, for the user to look at, instead of losing it. */
  private async setAside(): Promise<void> {
    await rename(this.file, `${this.file}.bad-${this.now()}`).catch(() => undefined);
  }

  private async write(tabs: SavedTab[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify({ version: 1, tabs }, null, 2)}\n`, {
        mode: 0o600,
      });
      await rename(temporary, this.file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}

function clipName(name: string | undefined): string | undefined {
  const line = name === undefined ? '' : oneLine(name, MAX_SESSION_NAME_CHARS);
  return line === '' ? undefined : line;
}

function clipId(id: string | undefined): string | undefined {
  return id !== undefined && id.length > 0 && id.length <= MAX_ACP_SESSION_ID_CHARS
    ? id
    : undefined;
}

function sameTab(a: SavedTab, b: SavedTab): boolean {
  return (
    a.agentName === b.agentName &&
    a.cwd === b.cwd &&
    a.acpSessionId === b.acpSessionId &&
    a.title === b.title &&
    a.userTitle === b.userTitle &&
    a.lastActivity === b.lastActivity
  );
}
