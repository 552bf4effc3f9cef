/**
 * What the user has typed in each tab's composer and not sent yet.
 *
 * Kept in memory per session key, so switching tabs loses nothing, and copied to the page's
 * sessionStorage, so a reload of the page (or a reconnect that needs one) loses nothing either.
 * sessionStorage belongs to this browser tab and origin, and is gone when the tab closes.
 */

/** Where the drafts are copied. */
export const DRAFTS_STORAGE_KEY = 'airlock.drafts';
/** Drafts longer than this stay in memory only (sessionStorage holds a few megabytes). */
const MAX_STORED_CHARS = 100_000;

/** The drafts, by session key. */
export class ComposerDrafts {
  private readonly drafts = new Map<string, string>();
  private saveScheduled = false;

  constructor(private readonly storage: Storage | undefined) {
    try {
      const stored: unknown = JSON.parse(storage?.getItem(DRAFTS_STORAGE_KEY) ?? '{}');
      if (stored !== null && typeof stored === 'object' && !Array.isArray(stored)) {
        for (const [key, text] of Object.entries(stored)) {
          if (typeof text === 'string' && text !== '') {
            this.drafts.set(key, text);
          }
        }
      }
    } catch {
      // A damaged copy is only not restored.
    }
  }

  /** The draft of a tab (empty when none). */
  get(key: string): string {
    return this.drafts.get(key) ?? '';
  }

  /** Keeps a tab's draft; an empty one is forgotten. */
  set(key: string, text: string): void {
    if (text === '') {
      this.drafts.delete(key);
    } else {
      this.drafts.set(key, text);
    }
    this.scheduleSave();
  }

  /** Writes the copy now (the page is going away). */
  save(): void {
    this.saveScheduled = false;
    const kept = Object.fromEntries(
      [...this.drafts].filter(([, text]) => text.length <= MAX_STORED_CHARS),
    );
    try {
      this.storage?.setItem(DRAFTS_STORAGE_KEY, JSON.stringify(kept));
    } catch {
      // Storage may be full or off: the drafts are still in memory.
    }
  }

  private scheduleSave(): void {
    if (this.saveScheduled) {
      return;
    }
    this.saveScheduled = true;
    // Once per burst of typing, not once per key.
    setTimeout(() => {
      if (this.saveScheduled) {
        this.save();
      }
    }, 250);
  }
}

function sessionStorageOrNone(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** The page's drafts. */
export const composerDrafts = new ComposerDrafts(sessionStorageOrNone());

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => composerDrafts.save());
}
