import { createHmac } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECONNECT_DELAYS_MS } from '../../../renderer/src/bridge/backoff.js';
import type { PageCredentials } from '../../../renderer/src/bridge/page-credentials.js';
import { createWebBridge, loadWireChecks } from '../../../renderer/src/bridge/web-bridge.js';
import { proofMessage } from '../../../preload/shared/web-wire.js';

/** A WebSocket the test opens, closes and answers by hand. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  /** The calls sent on it. */
  readonly sent: { id: number; channel: string; proof?: string }[] = [];
  /** The hellos sent on it. */
  readonly hellos: { link?: string; key?: string }[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
  }
  send(data: string): void {
    const message = JSON.parse(data) as { t: string; id: number; channel: string; link?: string };
    if (message.t === 'hello') {
      this.hellos.push(message);
    } else {
      this.sent.push(message);
    }
  }
  /** Opens the socket, and the host lets the page in. */
  open(key = 'page-key', nonce = 'nonce-1'): void {
    this.dispatchEvent(new Event('open'));
    this.receive({ t: 'welcome', key, nonce });
  }
  receive(message: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
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

/** Credentials as the page would have them, kept in memory. */
function credentials(link?: string): PageCredentials & { kept: string[] } {
  const kept: string[] = [];
  const made = {
    link,
    kept,
    key: () => kept.at(-1),
    keep: (key: string) => {
      kept.push(key);
      made.link = undefined;
    },
  };
  return made;
}

// The checks are loaded once for the page; most tests start with them there.
beforeAll(async () => {
  await loadWireChecks();
});
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
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
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
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
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

  it('tries again at once when Retry came while the try that failed was under way', () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    latest().open();
    latest().close();
    for (const delay of RECONNECT_DELAYS_MS) {
      vi.advanceTimersByTime(delay);
      latest().close();
    }
    // The longest pause is next; Retry during the try under way does not wait it out.
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS.at(-1)!);
    const before = FakeSocket.all.length;
    bridge.reconnect();
    expect(FakeSocket.all).toHaveLength(before);
    latest().close();
    vi.advanceTimersByTime(0);
    expect(FakeSocket.all).toHaveLength(before + 1);
    // Once: the try after that waits its pause again.
    latest().close();
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS.at(-1)! - 1);
    expect(FakeSocket.all).toHaveLength(before + 1);
  });

  it('does not try again at once when Retry came while the link was open', () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    latest().open();
    bridge.reconnect();
    latest().close();
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS[0]! - 1);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('ignores a socket it replaced', () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
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

describe('letting the page in', () => {
  it('presents the link once, then the key the host gave, on every later socket', async () => {
    const held = credentials('link-1');
    const bridge = createWebBridge(held, 'ws://127.0.0.1:1/ws');
    latest().dispatchEvent(new Event('open'));
    expect(latest().hellos).toEqual([{ t: 'hello', link: 'link-1' }]);
    latest().receive({ t: 'welcome', key: 'key-1', nonce: 'n' });
    await bridge.ready;
    expect(held.kept).toEqual(['key-1']);

    latest().close();
    bridge.reconnect();
    latest().dispatchEvent(new Event('open'));
    expect(latest().hellos).toEqual([{ t: 'hello', key: 'key-1' }]);
  });

  it('sends no call before the host lets the page in, nor events to the UI', async () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    const heard = vi.fn();
    bridge.on('app:onCommand', heard);
    const call = bridge.invoke('app:getRecentFolders', {});
    latest().dispatchEvent(new Event('open'));
    latest().receive({ t: 'event', channel: 'app:onCommand', payload: { command: 'agentLog' } });
    expect(heard).not.toHaveBeenCalled();
    expect(latest().sent).toEqual([]);
    latest().receive({ t: 'welcome', key: 'key-1', nonce: 'n' });
    await vi.waitFor(() => expect(latest().sent).toHaveLength(1));
    latest().answer(latest().sent[0]!.id, { folders: [] });
    await expect(call).resolves.toEqual({ folders: [] });
  });

  it('stops when refused: says why, fails what waits, and opens no other socket', async () => {
    const bridge = createWebBridge(credentials('used-link'), 'ws://127.0.0.1:1/ws');
    const reasons: string[] = [];
    const changes: boolean[] = [];
    bridge.onRefused((reason) => reasons.push(reason));
    bridge.onLinkChange((connected) => changes.push(connected));
    const call = bridge.invoke('app:getRecentFolders', {});
    latest().dispatchEvent(new Event('open'));
    latest().receive({ t: 'refused', reason: 'used' });
    latest().close();
    expect(reasons).toEqual(['used']);
    await expect(bridge.ready).rejects.toMatchObject({ reason: 'used' });
    await expect(call).rejects.toThrow();
    vi.advanceTimersByTime(RECONNECT_DELAYS_MS.reduce((sum, delay) => sum + delay, 0));
    expect(FakeSocket.all).toHaveLength(1);
    expect(changes).toEqual([]);
  });

  it('signs the calls that need the page’s proof, bound to the socket, the id and the channel', async () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    latest().open('key-1', 'nonce-1');
    await bridge.ready;
    void bridge.invoke('settings:testAgent', { name: 'Demo Agent' } as never);
    void bridge.invoke('app:getRecentFolders', {});
    await vi.waitFor(() => expect(latest().sent).toHaveLength(2));
    const [guarded, plain] = latest().sent;
    // In the order they were made, though the first waited for its signature.
    expect(guarded!.channel).toBe('settings:testAgent');
    expect(plain!.proof).toBeUndefined();
    const expected = createHmac('sha256', 'key-1')
      .update(proofMessage('nonce-1', guarded!.id, 'settings:testAgent'))
      .digest('base64url');
    expect(guarded!.proof).toBe(expected);
  });
});

describe('checking what the host sends', () => {
  it('refuses a result that breaks the contract, and the call fails in words', async () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    latest().open();
    await bridge.ready;
    const call = bridge.invoke('app:getRecentFolders', {});
    await vi.waitFor(() => expect(latest().sent).toHaveLength(1));
    latest().answer(latest().sent[0]!.id, { folders: [42] });
    await expect(call).rejects.toThrow('Airlock sent an invalid app:getRecentFolders result');
  });

  it('drops an event that breaks the contract, and passes on the next valid one', async () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    const heard = vi.fn();
    bridge.on('app:onCommand', heard);
    latest().open();
    await bridge.ready;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    latest().receive({ t: 'event', channel: 'app:onCommand', payload: { command: 'rm -rf' } });
    latest().receive({ t: 'event', channel: 'app:onCommand', payload: { command: 'agentLog' } });
    expect(heard.mock.calls).toEqual([[{ command: 'agentLog' }]]);
  });

  it('is not let in by a welcome that breaks the wire', async () => {
    const bridge = createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    const call = bridge.invoke('app:getRecentFolders', {});
    latest().dispatchEvent(new Event('open'));
    latest().receive({ t: 'welcome', key: 'k'.repeat(129), nonce: 'n' });
    latest().receive({ t: 'welcome', key: 'key-1', nonce: 'n', extra: true });
    latest().close();
    await expect(call).rejects.toThrow('Could not connect to Airlock');
    expect(latest().sent).toEqual([]);
  });
});

describe('before the checks have loaded', () => {
  /** A bridge module of its own, whose checks have not loaded yet. */
  async function freshBridge() {
    vi.resetModules();
    return await import('../../../renderer/src/bridge/web-bridge.js');
  }
  afterEach(() => {
    vi.doUnmock('../../../renderer/src/bridge/wire-checks.js');
    vi.resetModules();
  });

  it('holds what arrives until they have, then checks it in the order it came', async () => {
    const fresh = await freshBridge();
    const bridge = fresh.createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    const heard = vi.fn();
    bridge.on('app:onCommand', heard);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    latest().open();
    latest().receive({ t: 'event', channel: 'app:onCommand', payload: { command: 'nope' } });
    latest().receive({ t: 'event', channel: 'app:onCommand', payload: { command: 'agentLog' } });
    latest().receive({ t: 'event', channel: 'app:onCommand', payload: { command: 'newSession' } });
    // Nothing reaches the page unchecked.
    expect(heard).not.toHaveBeenCalled();
    await bridge.ready;
    await vi.waitFor(() => expect(heard).toHaveBeenCalledTimes(2));
    expect(heard.mock.calls).toEqual([[{ command: 'agentLog' }], [{ command: 'newSession' }]]);
  });

  it('drops the link when they cannot load, and lets nothing unchecked through', async () => {
    vi.resetModules();
    vi.doMock('../../../renderer/src/bridge/wire-checks.js', () => {
      throw new Error('the file is gone');
    });
    const fresh = await import('../../../renderer/src/bridge/web-bridge.js');
    const bridge = fresh.createWebBridge(credentials('link-1'), 'ws://127.0.0.1:1/ws');
    const changes: boolean[] = [];
    bridge.onLinkChange((connected) => changes.push(connected));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    latest().open();
    await expect(bridge.ready).rejects.toThrow('Could not connect to Airlock');
    expect(changes).toEqual([false]);
  });
});
