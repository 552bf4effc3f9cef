/**
 * The core's outbox: what the tabs report, gathered and sent to every listener in batches.
 *
 * A tab's transcript appends and summary changes are queued as they happen and emitted once per
 * macrotask (an agent's flood of updates becomes one `session:onDidAppend` per tab, not one
 * per line); the core's own events (agents changed, a host command) go out at once.
 */
import type { EventChannel, EventPayload, TranscriptEvent } from '../../preload/shared/contract.js';
import type { SessionSink } from './session.js';

/** A listener for every event the core emits. */
export type CoreListener = <E extends EventChannel>(channel: E, payload: EventPayload<E>) => void;

type Summary = EventPayload<'session:onDidChange'>;

/** The core's events, queued and sent. One per core. */
export class Outbox {
  private readonly listeners = new Set<CoreListener>();
  private readonly appended = new Map<string, TranscriptEvent[]>();
  private readonly changed = new Set<string>();
  /** The last summary of each tab closed since the latest flush, sent in place of its own. */
  private readonly closedSummaries = new Map<string, Summary>();
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
    const appended = [...this.appended.entries()];
    this.appended.clear();
    const changed = [...this.changed];
    this.changed.clear();
    for (const [key, queued] of appended) {
      this.emit('session:onDidAppend', { key, events: queued });
    }
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

  private scheduleFlush(): void {
    if (this.flushScheduled) {
      return;
    }
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }
}
