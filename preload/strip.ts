/**
 * The address strip's preload: `window.airlockStrip`, and nothing else.
 *
 * Runs sandboxed and context-isolated in the strip on top of an isolated URL window (never in
 * the isolated page itself, which has no preload). The strip page gets three functions:
 * `onState` for what to show, `close` and `openInBrowser`. Every state payload is validated
 * before the page sees it, and `ipcRenderer` itself (or any IPC event object) never reaches
 * the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { z } from 'zod';
import { IpcReply } from './shared/ipc-reply.js';
import { STRIP_CHANNELS, StripState, type AirlockStripApi } from './shared/strip-contract.js';

// The page's CSP has no 'unsafe-eval'; see preload/index.ts.
z.config({ jitless: true });

const listeners = new Set<(state: StripState) => void>();
// The main process sends the state once the page has loaded, possibly before the page has
// subscribed: keep the latest so a late listener still gets it.
let latest: StripState | undefined;

ipcRenderer.on(STRIP_CHANNELS.onDidChangeState, (_event: IpcRendererEvent, payload: unknown) => {
  const parsed = StripState.safeParse(payload);
  if (!parsed.success) {
    console.error('airlock: dropped an invalid strip state:', parsed.error.issues[0]?.message);
    return;
  }
  latest = parsed.data;
  for (const listener of listeners) {
    listener(parsed.data);
  }
});

function onState(listener: (state: StripState) => void): () => void {
  if (typeof listener !== 'function') {
    throw new Error('The listener must be a function');
  }
  listeners.add(listener);
  if (latest) {
    listener(latest);
  }
  return () => {
    listeners.delete(listener);
  };
}

async function call(channel: string): Promise<void> {
  const reply = IpcReply.safeParse(await ipcRenderer.invoke(channel));
  if (!reply.success) {
    throw new Error(`Invalid reply to ${channel}`);
  }
  if (!reply.data.ok) {
    throw new Error(reply.data.error);
  }
}

const airlockStrip: AirlockStripApi = {
  onState,
  close: () => call(STRIP_CHANNELS.close),
  openInBrowser: () => call(STRIP_CHANNELS.openInBrowser),
};
contextBridge.exposeInMainWorld('airlockStrip', airlockStrip);
