/**
 * The renderer's entry: find the host's `window.airlock` (the Electron preload) or connect to
 * the web host, then show the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AirlockApi } from '../../preload/contract';
import { App } from './app';
import { createWebBridge } from './bridge/web-bridge';
import { Store } from './state/store';

declare global {
  interface Window {
    airlock?: AirlockApi;
  }
}

function connect(): { api: AirlockApi; onDisconnect(listener: () => void): void } {
  if (window.airlock) {
    return { api: window.airlock, onDisconnect: () => undefined };
  }
  const bridge = createWebBridge();
  return { api: bridge, onDisconnect: (listener) => bridge.onDisconnect(listener) };
}

const { api, onDisconnect } = connect();
const store = new Store(api);
onDisconnect(() => store.disconnect());
void store.load();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  );
}
