/**
 * Opens the link to the web host as the page's script starts, before the rest of it runs:
 * the host's welcome, the checks of what it sends (wire-checks.ts) and the first calls then
 * travel while React and the app are set up. main.tsx imports this first. The Electron window,
 * whose preload is `window.airlock`, opens none.
 */
import { pageCredentials } from './page-credentials';
import { createWebBridge, type WebBridge } from './web-bridge';

/** The web host's bridge, opened at once; absent in the Electron window. */
export const earlyBridge: WebBridge | undefined = window.airlock
  ? undefined
  : createWebBridge(pageCredentials(location, history, sessionStorage));
