/** An outbox for tests: its tabs all open, and everything it sent, in order, with the time. */
import { Outbox } from '../../main/core/outbox.js';
import type { EventPayload, TranscriptEvent } from '../../preload/shared/contract.js';

type Summary = EventPayload<'session:onDidChange'>;

/** What the outbox sent: a tab's appends, or a tab's summary change; `at` is `Date.now()`. */
export type Sent =
  | { channel: 'append'; key: string; events: TranscriptEvent[]; at: number }
  | { channel: 'change'; key: string; at: number };

/** An outbox whose tabs are all open, what it sent, and the events it sent to each tab. */
export function recordingOutbox() {
  const outbox = new Outbox((key) => ({ key, status: 'ready' }) as Summary);
  const sent: Sent[] = [];
  outbox.listen((channel, payload) => {
    if (channel === 'session:onDidAppend') {
      const { key, events } = payload as EventPayload<'session:onDidAppend'>;
      sent.push({ channel: 'append', key, events, at: Date.now() });
    } else if (channel === 'session:onDidChange') {
      sent.push({ channel: 'change', key: (payload as Summary).key, at: Date.now() });
    }
  });
  /** The events sent to tab `key`, in order. */
  const eventsOf = (key: string) =>
    sent.flatMap((item) => (item.channel === 'append' && item.key === key ? item.events : []));
  return { outbox, sent, eventsOf };
}
