/**
 * `window.airlock` for the web host: the contract over a WebSocket to the page's own origin.
 *
 * Like the Electron preload, it validates every result and event against the contract before
 * the UI sees it. The session token travels in an HttpOnly cookie the server set, so a new
 * socket to the same origin is let in again: when the link drops, the bridge says so and opens
 * a new one, after a growing pause or at once when asked, and says when it is back. A first
 * link that cannot open is down in the same way, and is tried again in the same way.
 */
import {
  calls,
  events,
  isEventChannel,
  type AirlockApi,
  type CallChannel,
  type CallRequest,
  type CallResponse,
  type EventChannel,
  type EventPayload,
} from '../../../preload/contract';
import { reconnectDelay } from './backoff';

type Pending = {
  channel: CallChannel;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
};

/** What the bridge says about its link. */
export type LinkListener = (connected: boolean) => void;

/** A bridge plus its connection state, which the UI shows when the link drops. */
export type WebBridge = AirlockApi & {
  /**
   * Tells `listener` when the link drops (`false`) and when a new one is open again (`true`).
   * Events sent while it was down are lost: load the state again on `true`.
   */
  onLinkChange(listener: LinkListener): () => void;
  /** Tries a new link now, if the bridge is waiting to (the banner's Reconnect). */
  reconnect(): void;
  /** The first link: resolves once it is open, rejects if it closes first. */
  ready: Promise<void>;
};

/** Connects to the web host that served this page (`url` for tests). */
export function createWebBridge(
  url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
): WebBridge {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const linkListeners = new Set<LinkListener>();
  let nextId = 1;
  let socket: WebSocket;
  /** Whether a socket is open; calls made while none is fail at once. */
  let open = false;
  /** Whether a socket was ever open: until then, calls wait for the first one. */
  let opened = false;
  /** Whether the UI was told the link is down (and not yet that it is back). */
  let down = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // A rejected `ready` nobody awaited must not surface as an unhandled rejection.
  ready.catch(() => undefined);

  const tell = (connected: boolean) => {
    for (const listener of linkListeners) {
      listener(connected);
    }
  };

  const onMessage = (message: MessageEvent) => {
    let data: {
      t?: unknown;
      id?: unknown;
      ok?: unknown;
      value?: unknown;
      error?: unknown;
      channel?: unknown;
      payload?: unknown;
    };
    try {
      data = JSON.parse(String(message.data)) as typeof data;
    } catch {
      console.error('airlock: malformed message from the host');
      return;
    }
    // The host answers: this link works, so the next drop starts the pauses afresh.
    failures = 0;
    if (data.t === 'result' && typeof data.id === 'number') {
      const call = pending.get(data.id);
      if (!call) {
        return;
      }
      pending.delete(data.id);
      if (data.ok === true) {
        const parsed = calls[call.channel].response.safeParse(data.value);
        if (parsed.success) {
          call.resolve(parsed.data);
        } else {
          call.reject(new Error(`Airlock sent an invalid ${call.channel} result`));
        }
      } else {
        call.reject(new Error(typeof data.error === 'string' ? data.error : 'The call failed'));
      }
    } else if (data.t === 'event' && isEventChannel(data.channel)) {
      const parsed = events[data.channel].safeParse(data.payload);
      if (!parsed.success) {
        console.error(`airlock: dropped an invalid ${data.channel} event`);
        return;
      }
      for (const listener of listeners.get(data.channel) ?? []) {
        listener(parsed.data);
      }
    }
  };

  const connect = () => {
    retry = undefined;
    const current = new WebSocket(url);
    socket = current;
    current.addEventListener('open', () => {
      if (socket !== current) {
        return;
      }
      open = true;
      opened = true;
      resolveReady();
      if (down) {
        down = false;
        tell(true);
      }
    });
    current.addEventListener('message', (message) => {
      if (socket === current) {
        onMessage(message);
      }
    });
    current.addEventListener('close', () => {
      if (socket !== current) {
        return;
      }
      open = false;
      rejectReady(new Error('Could not connect to Airlock'));
      for (const call of pending.values()) {
        call.reject(new Error('The connection to Airlock was lost'));
      }
      pending.clear();
      if (!down) {
        down = true;
        tell(false);
      }
      const delay = reconnectDelay(failures);
      failures += 1;
      retry = setTimeout(connect, delay);
    });
  };
  connect();

  return {
    ready,
    async invoke<C extends CallChannel>(
      channel: C,
      request: CallRequest<C>,
    ): Promise<CallResponse<C>> {
      if (!opened) {
        await ready;
      }
      if (!open) {
        throw new Error('The connection to Airlock was lost');
      }
      const id = nextId++;
      return new Promise<CallResponse<C>>((resolve, reject) => {
        pending.set(id, { channel, resolve: resolve as (value: unknown) => void, reject });
        socket.send(JSON.stringify({ t: 'call', id, channel, payload: request }));
      });
    },
    on<E extends EventChannel>(
      channel: E,
      listener: (payload: EventPayload<E>) => void,
    ): () => void {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
    onLinkChange(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    reconnect() {
      if (retry !== undefined) {
        clearTimeout(retry);
        connect();
      }
    },
  };
}
