/**
 * `window.airlock` for the web host: the contract over a WebSocket to the page's own origin.
 *
 * Like the Electron preload, it validates every result and event against the contract before
 * the UI sees it. Each socket's first message lets the page in (preload/shared/web-wire.ts): the link
 * token from the page's address the first time, then the key the host gave for it, so a new
 * socket is let in again: when the link drops, the bridge says so and opens a new one, after a
 * growing pause or at once when asked, and says when it is back. A first link that cannot open
 * is down in the same way, and is tried again in the same way. A page the host refuses (its
 * link used already, or from an Airlock started since) stops trying and says why.
 */
import type {
  AirlockApi,
  CallChannel,
  CallRequest,
  CallResponse,
  EventChannel,
  EventPayload,
} from '../../../preload/shared/contract';
import {
  callsNeedingProof,
  proofMessage,
  type RefusalReason,
} from '../../../preload/shared/web-wire-plain';
import { reconnectDelay } from './backoff';
import type * as checksModule from './wire-checks';
import type { PageCredentials } from './page-credentials';

type Pending = {
  channel: CallChannel;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
};

/** The schemas every message from the host is checked against (wire-checks.ts). */
type WireChecks = typeof checksModule;

let wireChecks: WireChecks | undefined;
let wireChecksLoading: Promise<WireChecks> | undefined;

/**
 * Loads the checks, once; a load that failed is made again on the next call. Until they are
 * loaded, no message from the host reaches the page: each waits for them, in order.
 */
export function loadWireChecks(): Promise<WireChecks> {
  return (wireChecksLoading ??= import('./wire-checks').then(
    (loaded) => (wireChecks = loaded),
    (error: unknown) => {
      wireChecksLoading = undefined;
      throw error;
    },
  ));
}

/** What the bridge says about its link. */
export type LinkListener = (connected: boolean) => void;

/** The host would not let this page in, and says why; the bridge tries no more. */
export class LinkRefusedError extends Error {
  constructor(readonly reason: RefusalReason) {
    super('Airlock did not let this page in');
  }
}

/** Signs a call's proof with the page's key: HMAC-SHA256, base64url. */
async function signer(key: string): Promise<(text: string) => Promise<string>> {
  const encoder = new TextEncoder();
  const hmac = await crypto.subtle.importKey(
    'raw',
    encoder.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return async (text) => {
    const signature = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, encoder.encode(text)));
    return btoa(String.fromCharCode(...signature))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  };
}

/** A bridge plus its connection state, which the UI shows when the link drops. */
export type WebBridge = AirlockApi & {
  /**
   * Tells `listener` when the link drops (`false`) and when a new one is open again (`true`).
   * Events sent while it was down are lost: load the state again on `true`.
   */
  onLinkChange(listener: LinkListener): () => void;
  /**
   * Tries a new link now, if the bridge is waiting to (the banner's Reconnect); asked while a
   * try is under way, the next try follows that one at once if it fails.
   */
  reconnect(): void;
  /** Tells `listener` when the host refused this page, and why. */
  onRefused(listener: (reason: RefusalReason) => void): () => void;
  /** The first link: resolves once it is open, rejects if it closes first. */
  ready: Promise<void>;
};

/** Connects to the web host that served this page (`url` for tests). */
export function createWebBridge(
  credentials: PageCredentials,
  url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
): WebBridge {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const linkListeners = new Set<LinkListener>();
  const refusedListeners = new Set<(reason: RefusalReason) => void>();
  let nextId = 1;
  let socket: WebSocket;
  /** The open socket's proof signer, once the host let it in. */
  let sign: ((text: string) => Promise<string>) | undefined;
  /** This socket's nonce, which every proof on it signs. */
  let nonce = '';
  /** Why the host refused this page, once it did: no socket is opened again. */
  let refused: RefusalReason | undefined;
  /** Calls go out in the order they were made, though a proof takes a moment to sign. */
  let outbox: Promise<void> = Promise.resolve();
  /** Whether a socket is open; calls made while none is fail at once. */
  let open = false;
  /** Whether a socket was ever open: until then, calls wait for the first one. */
  let opened = false;
  /** Whether the UI was told the link is down (and not yet that it is back). */
  let down = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** Whether Retry was asked for while a try was under way: if it fails, the next is at once. */
  let retryAtOnce = false;
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

  const onMessage = (message: MessageEvent, checks: WireChecks) => {
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
    if (!open) {
      admission(data, checks);
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
        const parsed = checks.calls[call.channel].response.safeParse(data.value);
        if (parsed.success) {
          call.resolve(parsed.data);
        } else {
          call.reject(new Error(`Airlock sent an invalid ${call.channel} result`));
        }
      } else {
        call.reject(new Error(typeof data.error === 'string' ? data.error : 'The call failed'));
      }
    } else if (data.t === 'event' && checks.isEventChannel(data.channel)) {
      const parsed = checks.events[data.channel].safeParse(data.payload);
      if (!parsed.success) {
        console.error(`airlock: dropped an invalid ${data.channel} event`);
        return;
      }
      for (const listener of listeners.get(data.channel) ?? []) {
        listener(parsed.data);
      }
    }
  };

  /** The host's answer to the socket's hello: let in, or refused. */
  const admission = (data: unknown, checks: WireChecks) => {
    const welcome = checks.WelcomeMessage.safeParse(data);
    if (welcome.success) {
      credentials.keep(welcome.data.key);
      // The key is imported once per socket; a call that needs a proof waits for it.
      const signing = signer(welcome.data.key);
      signing.catch(() => undefined);
      sign = (text) => signing.then((signText) => signText(text));
      nonce = welcome.data.nonce;
      open = true;
      opened = true;
      failures = 0;
      resolveReady();
      if (down) {
        down = false;
        tell(true);
      }
      return;
    }
    const refusal = checks.RefusedMessage.safeParse(data);
    if (refusal.success) {
      refused = refusal.data.reason;
      rejectReady(new LinkRefusedError(refused));
      for (const listener of refusedListeners) {
        listener(refused);
      }
    }
  };

  const connect = () => {
    retry = undefined;
    const current = new WebSocket(url);
    socket = current;
    /** Whether this socket closed: a message still waiting for the checks is then dropped. */
    let closed = false;
    /** This socket's messages that wait for the checks to load, in the order they came. */
    let waiting: Promise<void> | undefined;
    let waitingCount = 0;
    current.addEventListener('open', () => {
      if (socket === current) {
        // JSON leaves out what the page does not have.
        current.send(
          JSON.stringify({ t: 'hello', link: credentials.link, key: credentials.key() }),
        );
      }
    });
    current.addEventListener('message', (message) => {
      if (socket !== current) {
        return;
      }
      if (wireChecks && waitingCount === 0) {
        onMessage(message, wireChecks);
        return;
      }
      waitingCount += 1;
      waiting = (waiting ?? Promise.resolve())
        .then(loadWireChecks)
        .then(
          (checks) => {
            waitingCount -= 1;
            if (socket === current && !closed) {
              onMessage(message, checks);
            }
          },
          () => {
            waitingCount -= 1;
            // Nothing unchecked reaches the page: without its checks, this link is lost, and
            // the next one loads them again.
            if (!closed) {
              closed = true;
              console.error('airlock: could not load the checks of the link to Airlock');
              current.close();
            }
          },
        )
        // A listener that throws holds up no later message.
        .catch((error: unknown) => console.error(error));
    });
    current.addEventListener('close', () => {
      closed = true;
      if (socket !== current) {
        return;
      }
      open = false;
      sign = undefined;
      rejectReady(new Error('Could not connect to Airlock'));
      for (const call of pending.values()) {
        call.reject(new Error('The connection to Airlock was lost'));
      }
      pending.clear();
      if (refused !== undefined) {
        return;
      }
      if (!down) {
        down = true;
        tell(false);
      }
      const delay = retryAtOnce ? 0 : reconnectDelay(failures);
      retryAtOnce = false;
      failures += 1;
      retry = setTimeout(connect, delay);
    });
  };
  // The checks load alongside the first socket, not after it.
  loadWireChecks().catch(() => undefined);
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
      const current = socket;
      const signing = callsNeedingProof.has(channel) ? sign : undefined;
      const callNonce = nonce;
      return new Promise<CallResponse<C>>((resolve, reject) => {
        pending.set(id, { channel, resolve: resolve as (value: unknown) => void, reject });
        const send = async () => {
          const proof = await signing?.(proofMessage(callNonce, id, channel));
          // A link that dropped meanwhile has already failed the call.
          if (socket === current && pending.has(id)) {
            current.send(JSON.stringify({ t: 'call', id, channel, payload: request, proof }));
          }
        };
        outbox = outbox.then(send).catch(() => {
          // No Web Crypto to sign with, or a socket that failed to send.
          pending.delete(id);
          reject(new Error('This page could not send the call to Airlock'));
        });
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
    onRefused(listener) {
      refusedListeners.add(listener);
      return () => refusedListeners.delete(listener);
    },
    onLinkChange(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    reconnect() {
      if (retry !== undefined) {
        clearTimeout(retry);
        connect();
      } else if (!open) {
        retryAtOnce = true;
      }
    },
  };
}
