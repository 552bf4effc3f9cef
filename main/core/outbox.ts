/**
 * The core's outbox: what the tabs report, gathered and sent to every listener in batches.
 *
 * A tab's transcript appends and summary changes are queued as they happen and emitted once per
 * macrotask (an agent's flood of updates becomes one `session:onDidAppend` per tab, not one
 * per line); the core's own events (agents changed, a host command) go out at once. A flood the
 * SDK reads in one long macrotask goes out every {@link SEND_AT} events rather than at its end:
 * the UI sees it sooner, and the queue never holds more than that many.
 *
 * Once a UI has named the tab it shows ({@link Outbox.show}), the other tabs' appends wait (see
 * held-appends.ts) and go out together at most {@link HIDDEN_WAIT_MS} later: many agents
 * streaming at once then cost the UI a few large batches, and the shown tab's text goes first.
 * A card that waits on the user, a summary change, a fetched transcript or showing the tab sends
 * what its tab holds at once, in order, before it.
 */
import type { EventChannel, EventPayload, TranscriptEvent } from '../../preload/shared/contract.js';
import { HeldAppends } from './held-appends.js';
import type { SessionSink } from './session.js';
import { joinChunks } from './updates.js';

/** A listener for every event the core emits. */
export type CoreListener = <E extends EventChannel>(channel: E, payload: EventPayload<E>) => void;

type Summary = EventPayload<'session:onDidChange'>;

/** How many queued transcript events send the appends at once, before the macrotask ends. */
export const SEND_AT = 256;

/** The longest a tab not shown holds its transcript events before they go out. */
export const HIDDEN_WAIT_MS = 250;

/** The core's events, queued and sent. One per core. */
export class Outbox {
  private readonly listeners = new Set<CoreListener>();
  private readonly appended = new Map<string, TranscriptEvent[]>();
  private readonly changed = new Set<string>();
  /** The last summary of each tab closed since the latest flush, sent in place of its own. */
  private readonly closedSummaries = new Map<string, Summary>();
  /** How many transcript events wait in `appended`. */
  private waiting = 0;
  private flushScheduled = false;
  /** The tab a UI shows; until one is named, every tab's events go out as they come. */
  private shown: string | undefined;
  /** The transcript events of tabs not shown, waiting to go out together. */
  private readonly held = new HeldAppends((key, events) => this.queueHeld(key, events));
  private heldTimer: NodeJS.Timeout | undefined;

  /** @param summaryOf the summary of the open tab `key`, if it is open. */
  constructor(private readonly summaryOf: (key: string) => Summary | undefined) {}

  /** What each tab reports to: collects events and summary changes for the next flush. */
  readonly sink: SessionSink = {
    append: (key, event) => {
      if (this.shown !== undefined && key !== this.shown) {
        this.hold(key, event);
        return;
      }
      this.queue(key, event);
    },
    changed: (key) => {
      // A summary never goes out before the appends its tab made first.
      this.held.releaseTab(key);
      this.changed.add(key);
      this.scheduleFlush();
    },
  };

  /**
   * Names the tab a UI shows: its events go out as they come, and what it held goes now; the
   * other tabs' events wait (at most {@link HIDDEN_WAIT_MS}). The latest call decides.
   */
  show(key: string): void {
    this.shown = key;
    this.held.releaseTab(key);
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  listen(listener: CoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Keeps a closed tab's last summary until the next flush has sent its changes. When it was
   * the tab shown, no tab waits any longer: every tab's events go out as they come, and what the
   * others held goes now, until a UI names the tab it shows next.
   */
  tabClosed(key: string, summary: Summary): void {
    this.closedSummaries.set(key, summary);
    if (key === this.shown) {
      this.shown = undefined;
      this.held.releaseAll();
    }
  }

  /** Sends everything queued now, the events that tabs not shown hold included. */
  flush(): void {
    clearTimeout(this.heldTimer);
    this.heldTimer = undefined;
    this.held.releaseAll();
    this.sendQueued();
  }

  /** Sends what waits for the end of the macrotask: appends, then summary changes. */
  private sendQueued(): void {
    this.flushScheduled = false;
    this.sendAppended();
    const changed = [...this.changed];
    this.changed.clear();
    for (const key of changed) {
      const summary = this.summaryOf(key) ?? this.closedSummaries.get(key);
      if (summary) {
        this.emit('session:onDidChange', summary);
      }
    }
    this.closedSummaries.clear();
  }

  /** Sends one event to every listener at once. */
  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) {
      listener(channel, payload);
    }
  }

  /** Queues `event` of tab `key` for the end of the macrotask. */
  private queue(key: string, event: TranscriptEvent): void {
    this.tabQueue(key).push(event);
    this.waited(1);
  }

  /** Queues what tab `key` held, in order: it goes in one batch, however many events it held. */
  private queueHeld(key: string, events: readonly TranscriptEvent[]): void {
    const queue = this.tabQueue(key);
    for (const event of events) {
      queue.push(event);
    }
    this.waited(events.length);
  }

  /** The events of tab `key` queued for the next send. */
  private tabQueue(key: string): TranscriptEvent[] {
    let queue = this.appended.get(key);
    if (!queue) {
      queue = [];
      this.appended.set(key, queue);
    }
    return queue;
  }

  /** Counts `count` more queued events, and sends them once there are {@link SEND_AT}. */
  private waited(count: number): void {
    this.waiting += count;
    if (this.waiting >= SEND_AT) {
      // Appends only: the summaries still go at the macrotask's end, after every append.
      this.sendAppended();
    }
    this.scheduleFlush();
  }

  /** Holds an event of a tab not shown, until the held events go out. */
  private hold(key: string, event: TranscriptEvent): void {
    this.held.add(key, event);
    this.heldTimer ??= setTimeout(() => {
      this.heldTimer = undefined;
      this.held.releaseAll();
    }, HIDDEN_WAIT_MS).unref();
  }

  /**
   * Sends the transcript events queued so far, one `session:onDidAppend` per tab, each run of
   * text chunks joined into one (see joinChunks).
   */
  private sendAppended(): void {
    const appended = [...this.appended.entries()];
    this.appended.clear();
    this.waiting = 0;
    for (const [key, queued] of appended) {
      this.emit('session:onDidAppend', { key, events: joinChunks(queued) });
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) {
      return;
    }
    this.flushScheduled = true;
    setImmediate(() => this.sendQueued());
  }
}
