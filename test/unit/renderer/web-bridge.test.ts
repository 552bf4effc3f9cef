import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECONNECT_DELAYS_MS } from '../../../renderer/src/bridge/backoff.js';
import { createWebBridge } from '../../../renderer/src/bridge/web-bridge.js';

/** A WebSocket the test opens, closes and answers by hand. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  readonly sent: { id: number; channel: string }[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; channel: string });
  }
  open(): void {
    this.dispatchEvent(new Event('open'));
  }
  close(): void {
    this.dispatchEvent(new Event('close'));
  }
  answer(id: number, value: unknown): void {
    const event = new MessageEvent('message', {
      data: JSON.stringify({ t: 'result', id, ok: true, value }),
    });
    this.dispatchEvent(event);
  }
}

const latest = () => FakeSocket.all.at(-1)!;

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the web bridge', () => {
  it('says when the link drops and when a new one is open, and works on the new one', async () => {
    const bridge = createWebBridge('ws://127.0.0.1:1/ws');
    const changes: boolean[] = [];
    bridge.onLinkChange((connected) => changes.push(connected));
    latest().open();
    await bridge.ready;
    const lost = bridge.invoke('app:getRecentFolders', {});
    await vi.waitFor(() => expect(latest().sent).toHaveLength(1));

    latest().close();
    await expect(lost).rejects.toThrow('The connection to Airlock was lost');
    expect(changes).toEqual([false]);
    await expect(bridge.invoke('app:getRecentFolders', {})).rejects.toThrow(
      'The connection to Airlock was lost',
    );

    // A new socket after the first pause.
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0]!);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(changes).toEqual([false, true]);
    const answered = bridge.invoke('app:getRecentFolders', {});
    await vi.waitFor(() => expect(latest().sent).toHaveLength(1));
    latest().answer(latest().sent[0]!.id, { folders: ['/a'] });
    await expect(answered).resolves.toEqual({ folders: ['/a'] });
  });

  it('waits longer after each failed try, and tries at once when asked', () => {
    const bridge = createWebBridge('ws://127.0.0.1:1/ws');
    latest().open();
    latest().close();
    for (const delay of RECONNECT_DELAYS_MS.slice(0, 3)) {
      const before = FakeSocket.all.length;
      vi.advanceTimersByTime(delay - 1);
      expect(FakeSocket.all).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.all).toHaveLength(before + 1);
      latest().close();
    }
    const before = FakeSocket.all.length;
    bridge.reconnect();
    expect(FakeSocket.all).toHaveLength(before + 1);
    // Asking again while a try is under way opens no second socket.
    bridge.reconnect();
    expect(FakeSocket.all).toHaveLength(before + 1);
  });

  it('ignores a socket it replaced', () => {
    const bridge = createWebBridge('ws://127.0.0.1:1/ws');
    const changes: boolean[] = [];
    bridge.onLinkChange((connected) => changes.push(connected));
    const first = latest();
    first.open();
    first.close();
    bridge.reconnect();
    latest().open();
    first.close();
    expect(changes).toEqual([false, true]);
  });
});
