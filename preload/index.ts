/**
 * The app window's preload: the contract as `window.airlock`, and nothing else.
 *
 * Runs sandboxed and context-isolated. The page gets two functions: `invoke` for the
 * contract's calls and `on` for its events. Channels outside the contract are refused here,
 * every response and event payload is validated against the contract before the page sees
 * it, and `ipcRenderer` itself (or any IPC event object) never reaches the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { z } from 'zod';
import {
  calls,
  events,
  isCallChannel,
  isEventChannel,
  type AirlockApi,
  type CallChannel,
  type CallResponse,
  type EventChannel,
  type EventPayload,
} from './shared/contract.js';
import { IpcReply } from './shared/ipc-reply.js';

// The page's CSP has no 'unsafe-eval', and zod would otherwise probe `new Function` to
// compile its parsers (a CSP violation each time); interpreted parsing is enough here.
z.config({ jitless: true });

/** Runs a contract call in the main process and returns its validated response. */
async function invoke<C extends CallChannel>(
  channel: C,
  request: unknown,
): Promise<CallResponse<C>> {
  if (!isCallChannel(channel)) {
    throw new Error('Unknown call');
  }
  const reply = IpcReply.safeParse(await ipcRenderer.invoke(channel, request));
  if (!reply.success) {
    throw new Error(`Invalid reply to ${channel}`);
  }
  if (!reply.data.ok) {
    throw new Error(reply.data.error);
  }
  const response = calls[channel].response.safeParse(reply.data.value);
  if (!response.success) {
    throw new Error(
      `Invalid ${channel} response: ${response.error.issues[0]?.message ?? 'wrong shape'}`,
    );
  }
  return response.data as CallResponse<C>;
}

/** Subscribes to a contract event; invalid payloads are dropped. Returns the unsubscribe function. */
function on<E extends EventChannel>(
  channel: E,
  listener: (payload: EventPayload<E>) => void,
): () => void {
  if (!isEventChannel(channel)) {
    throw new Error('Unknown event');
  }
  if (typeof listener !== 'function') {
    throw new Error('The listener must be a function');
  }
  const schema = events[channel];
  // Only the payload crosses over: the IPC event object would hand the page `ipcRenderer`.
  const receive = (_event: IpcRendererEvent, payload: unknown) => {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      console.error(
        `airlock: dropped an invalid ${channel} event:`,
        parsed.error.issues[0]?.message,
      );
      return;
    }
    listener(parsed.data as EventPayload<E>);
  };
  ipcRenderer.on(channel, receive);
  return () => {
    ipcRenderer.removeListener(channel, receive);
  };
}

// Nothing is exported: the bundle runs in Electron's sandboxed preload wrapper, and the
// page's only way in is this one object.
const airlockApi: AirlockApi = { invoke, on };
contextBridge.exposeInMainWorld('airlock', airlockApi);
