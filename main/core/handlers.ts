/**
 * The shape of a handler table: each room of the core answers its own calls of the contract
 * (the settings view's, the elicitation cards', the kept sessions'...), and the core merges the
 * tables into one that must answer every call.
 */
import type { CallChannel, CallRequest, CallResponse } from '../../preload/shared/contract.js';

/** A handler for each of the calls `C`, each typed by the contract (every call by default). */
export type Handlers<C extends CallChannel = CallChannel> = {
  [K in C]: (request: CallRequest<K>) => Promise<CallResponse<K>>;
};
