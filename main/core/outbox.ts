/**
 * The core's outbox: what the tabs report, gathered and sent to every listener in batches.
 *
 * A tab's transcript appends and summary changes are queued as they happen and emitted once per
 * macrotask (an agent's flood of updates becomes one `session:onDidAppend` per tab, not one
 * per line); the core's own events (agents changed, a host command) go out at once. A flood the
 * SDK reads in one long macrotask goes out every {@link SEND_AT} events rather than at its end:
 * the UI sees it sooner, and the queue never holds more than that many.
 */
import type { EventChannel, EventPayload, TranscriptEvent } from '../../preload/shared/contract.js';
import type { SessionSink } from './session.js';

/** A listener for every event the core emits. */
export type CoreListener = <E extends EventChannel>(channel: E, payload: EventPayload<E>) => void;

type Summary = EventPayload<'session:onDidChange'>;

/** How many queued transcript events send the appends at once, before the macrotask ends. */
export const SEND_AT = 256;

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

  /** @param summaryOf the summary of the open tab `key`, if it is open. */
  constructor(private readonly summaryOf: (key: string) => Summary | undefined) {}

  /** What each tab reports to: collects events and summary changes for the next flush. */
  readonly sink: SessionSink = {
    append: (key, event) => {
      let queue = this.appended.get(key);
      if (!queue) {
        queue = [];
        this.appended.set(key, queue);
      }
      queue.push(event);
      if (++this.waiting >= SEND_AT) {
        // Appends only: the summaries still go at the macrotask's end, after every append.
        this.sendAppended();
      }
      this.scheduleFlush();
    },
    changed: (key) => {
      this.changed.add(key);
      this.scheduleFlush();
    },
  };

  /** Subscribes to every event; returns the unsubscribe function. */
  listen(listener: CoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps a closed tab's last summary until the next flush has sent its changes. */
  tabClosed(key: string, summary: Summary): void {
    this.closedSummaries.set(key, summary);
  }

  /** Sends everything queued now. */
  flush(): void {
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

  /** Sends the transcript events queued so far, one `session:onDidAppend` per tab. */
  private sendAppended(): void {
    const appended = [...this.appended.entries()];
    this.appended.clear();
    this.waiting = 0;
    for (const [key, queued] of appended) {
      this.emit('session:onDidAppend', { key, events: queued });
    }
  }

  /** Sends one event to every listener at once. */
  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) {
      listener(channel, payload);
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) {
      return;
    }
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }
}
