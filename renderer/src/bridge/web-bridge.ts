/**
 * `window.airlock` for the web host: the contract over a WebSocket to the page's own origin.
 *
 * Like the Electron preload, it validates every result and event against the contract before
 * the UI sees it. The session token travels in an HttpOnly cookie the server set.
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

type Pending = {
  channel: CallChannel;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
};

/** A bridge plus its connection state, which the UI shows when the link drops. */
export type WebBridge = AirlockApi & {
  onDisconnect(listener: () => void): void;
  ready: Promise<void>;
};

/** Connects to the web host that served this page. */
export function createWebBridge(): WebBridge {
  const socket = new WebSocket(
    `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
  );
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const disconnectListeners = new Set<() => void>();
  let nextId = 1;
  let closed = false;

  const ready = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('close', () => reject(new Error('Could not connect to Airlock')), {
      once: true,
    });
  });
  // A rejected `ready` nobody awaited must not surface as an unhandled rejection.
  ready.catch(() => undefined);

  socket.addEventListener('message', (message) => {
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
  });

  socket.addEventListener('close', () => {
    closed = true;
    for (const call of pending.values()) {
      call.reject(new Error('The connection to Airlock was lost'));
    }
    pending.clear();
    for (const listener of disconnectListeners) {
      listener();
    }
  });

  return {
    ready,
    async invoke<C extends CallChannel>(
      channel: C,
      request: CallRequest<C>,
    ): Promise<CallResponse<C>> {
      await ready;
      if (closed) {
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
    onDisconnect(listener) {
      disconnectListeners.add(listener);
    },
  };
}
