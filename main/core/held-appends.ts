/**
 * The transcript events of tabs that no UI shows, held so that they go out together (the outbox
 * then joins their runs of text: see joinChunks in updates.ts), so the UI ends with the same
 * transcript from far fewer events. A tab's held events are released (handed on, in order) when
 * a card that waits on the user comes, which never waits; when the tab holds {@link HOLD_CHARS}
 * characters or {@link HOLD_EVENTS} events, which bounds the memory a tab holds; or when the
 * owner asks.
 */
import type { TranscriptEvent } from '../../preload/shared/contract.js';

/** How many characters of text a tab holds at most before its events are released. */
export const HOLD_CHARS = 256 * 1024;

/** How many events a tab holds at most before they are released. */
export const HOLD_EVENTS = 4_096;

/** Events that open a card waiting on the user: they, and what came before them, go at once. */
const CARD_EVENTS = new Set<TranscriptEvent['type']>([
  'permission',
  'elicitation',
  'url_elicitation',
]);

/** What one tab holds. */
type Held = { events: TranscriptEvent[]; chars: number };

/** The held events of every tab that holds some. */
export class HeldAppends {
  private readonly tabs = new Map<string, Held>();

  /** @param release takes a tab's held events, in order, when they are released. */
  constructor(private readonly release: (key: string, events: TranscriptEvent[]) => void) {}

  /** Holds `event` of tab `key`, or releases it at once with what the tab held before it. */
  add(key: string, event: TranscriptEvent): void {
    let held = this.tabs.get(key);
    if (!held) {
      held = { events: [], chars: 0 };
      this.tabs.set(key, held);
    }
    held.events.push(event);
    if (event.type === 'chunk') {
      held.chars += event.text.length;
    }
    if (
      CARD_EVENTS.has(event.type) ||
      held.chars >= HOLD_CHARS ||
      held.events.length >= HOLD_EVENTS
    ) {
      this.releaseTab(key);
    }
  }

  /** Releases what tab `key` holds, if it holds anything. */
  releaseTab(key: string): void {
    const held = this.tabs.get(key);
    if (!held) {
      return;
    }
    this.tabs.delete(key);
    this.release(key, held.events);
  }

  /** Releases what every tab holds, tab by tab. */
  releaseAll(): void {
    for (const key of [...this.tabs.keys()]) {
      this.releaseTab(key);
    }
  }
}
