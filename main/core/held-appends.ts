/**
 * The transcript events of tabs that no UI shows, held so that they go out together.
 *
 * Consecutive text of one role is merged into chunks of about {@link MERGED_CHARS}, so the UI
 * ends with the same transcript from far fewer events. A tab's held events are released (handed on, in order) when a card that
 * waits on the user comes, which never waits; when the tab holds {@link HOLD_CHARS} characters
 * or {@link HOLD_EVENTS} events, which bounds the memory a tab holds; or when the owner asks.
 */
import type { TranscriptEvent } from '../../preload/shared/contract.js';

type Chunk = Extract<TranscriptEvent, { type: 'chunk' }>;

/**
 * The most characters of text merged into one chunk. A UI cuts a message into parts at
 * paragraph breaks as its text arrives, each part a little longer than its pieces (the renderer's
 * transcript.ts, parts of about 2,000 characters): pieces this small keep those parts as small as
 * a streaming agent's, while a tab's 1 MB reply still takes a thousand events, not ten thousand.
 */
export const MERGED_CHARS = 1_000;

/** How many characters of text a tab holds at most before its events are released. */
export const HOLD_CHARS = 256 * 1024;

/** How many events a tab holds at most (merged text counting once) before they are released. */
export const HOLD_EVENTS = 512;

/** Events that open a card waiting on the user: they, and what came before them, go at once. */
const CARD_EVENTS = new Set<TranscriptEvent['type']>([
  'permission',
  'elicitation',
  'url_elicitation',
]);

/** What one tab holds. */
type Held = {
  events: TranscriptEvent[];
  /** The text chunk at the end while more text of its role may join it. */
  growing: { role: Chunk['role']; pieces: string[]; length: number } | undefined;
  chars: number;
};

/** The held events of every tab that holds some. */
export class HeldAppends {
  private readonly tabs = new Map<string, Held>();

  /** @param release takes a tab's held events, in order, when they are released. */
  constructor(private readonly release: (key: string, events: TranscriptEvent[]) => void) {}

  /** Holds `event` of tab `key`, or releases it at once with what the tab held before it. */
  add(key: string, event: TranscriptEvent): void {
    let held = this.tabs.get(key);
    if (!held) {
      held = { events: [], growing: undefined, chars: 0 };
      this.tabs.set(key, held);
    }
    if (event.type === 'chunk') {
      addText(held, event);
      held.chars += event.text.length;
    } else {
      endGrowing(held);
      held.events.push(event);
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
    endGrowing(held);
    this.release(key, held.events);
  }

  /** Releases what every tab holds, tab by tab. */
  releaseAll(): void {
    for (const key of [...this.tabs.keys()]) {
      this.releaseTab(key);
    }
  }
}

/** Adds a text chunk to what a tab holds: merged into the chunk before it while that stays short. */
function addText(held: Held, event: Chunk): void {
  const growing = held.growing;
  if (growing?.role === event.role && growing.length + event.text.length <= MERGED_CHARS) {
    growing.pieces.push(event.text);
    growing.length += event.text.length;
    return;
  }
  endGrowing(held);
  held.growing = { role: event.role, pieces: [event.text], length: event.text.length };
}

/** Ends the chunk growing at the end of what a tab holds: nothing more joins it. */
function endGrowing(held: Held): void {
  const growing = held.growing;
  if (growing) {
    held.events.push({
      type: 'chunk',
      role: growing.role,
      text: growing.pieces.length === 1 ? growing.pieces[0]! : growing.pieces.join(''),
    });
    held.growing = undefined;
  }
}
