/**
 * The renderer's entry: find the host's `window.airlock` (the Electron preload) or connect to
 * the web host, then show the app.
 */
// First, so that the link to the web host opens while the rest of the script runs.
import { earlyBridge } from './bridge/early-link';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AirlockApi } from '../../preload/shared/contract';
import { App } from './app';
import type { WebBridge } from './bridge/web-bridge';
import { LinkRefused } from './components/link-refused';
import { preloadParts } from './lazy-parts';
import { Store } from './state/store';

declare global {
  interface Window {
    airlock?: AirlockApi;
  }
}

function connect(): { api: AirlockApi; bridge?: WebBridge } {
  // Without the Electron preload's `window.airlock`, early-link.ts opened the web bridge.
  if (earlyBridge) {
    return { api: earlyBridge, bridge: earlyBridge };
  }
  return { api: window.airlock as AirlockApi };
}

const { api, bridge } = connect();
const store = new Store(api);
// The web host's link can drop and come back: show it down, then attach again.
bridge?.onLinkChange((connected) => (connected ? void store.reattach() : store.disconnect()));
void store.load();

const root = document.getElementById('root');
if (root) {
  const view = createRoot(root);
  view.render(
    <StrictMode>
      <App store={store} onReconnect={bridge ? () => bridge.reconnect() : undefined} />
    </StrictMode>,
  );
  // A page the web host would not let in shows why, and nothing of the app.
  bridge?.onRefused((reason) => view.render(<LinkRefused reason={reason} />));
  // What the first screen does not show loads once it is up (lazy-parts.tsx).
  preloadParts(
    new Promise((resolve) => {
      const stop = store.subscribe(() => {
        const state = store.getState();
        if (state.loaded) {
          stop();
          resolve({ sessionShown: state.activeKey !== undefined });
        }
      });
    }),
  );
}
