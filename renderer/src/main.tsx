/**
 * The renderer's entry: find the host's `window.airlock` (the Electron preload) or connect to
 * the web host, then show the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AirlockApi } from '../../preload/contract';
import { App } from './app';
import { createWebBridge, type WebBridge } from './bridge/web-bridge';
import { Store } from './state/store';

declare global {
  interface Window {
    airlock?: AirlockApi;
  }
}

function connect(): { api: AirlockApi; bridge?: WebBridge } {
  if (window.airlock) {
    return { api: window.airlock };
  }
  const bridge = createWebBridge();
  return { api: bridge, bridge };
}

const { api, bridge } = connect();
const store = new Store(api);
// The web host's link can drop and come back: show it down, then attach again.
bridge?.onLinkChange((connected) => (connected ? void store.reattach() : store.disconnect()));
void store.load();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={store} onReconnect={bridge ? () => bridge.reconnect() : undefined} />
    </StrictMode>,
  );
}
