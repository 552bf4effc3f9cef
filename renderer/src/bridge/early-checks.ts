/**
 * Starts loading the web bridge's checks (wire-checks.ts) as the page's script starts, before
 * the rest of it runs: the host's first message waits for them, and they load while React and
 * the app are set up. main.tsx imports this first. The Electron window, whose preload checks
 * what crosses, loads none.
 */
import { loadWireChecks } from './web-bridge';

if (!window.airlock) {
  loadWireChecks().catch(() => undefined);
}
