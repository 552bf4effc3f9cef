/**
 * The checks the web bridge runs on what the host sends: the contract's result and event
 * schemas, and the socket's admission messages. Its own script chunk, loaded as the bridge
 * starts and alongside its first socket (see `loadWireChecks` in web-bridge.ts), so that the
 * first screen's script neither carries zod nor builds the contract's schemas before it shows.
 */
export { calls, events, isEventChannel } from '../../../preload/shared/contract';
export { RefusedMessage, WelcomeMessage } from '../../../preload/shared/web-wire';
