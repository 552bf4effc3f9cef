/** Errors that carry a message meant for the user. */

/**
 * An error meant to be shown to the user as it is. `message` is the sentence a person reads;
 * `detail`, when there is one, is what lies behind it for whoever opens "Details" (a JSON-RPC
 * code, the agent's raw error data, a protocol method), never part of the sentence.
 */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** A JSON-RPC error from the agent, with its code kept for decisions such as "auth required". */
export class AgentRequestError extends UserFacingError {
  constructor(
    readonly code: number,
    message: string,
    detail = `JSON-RPC error ${code}`,
  ) {
    super(message, detail);
  }
}

/** JSON-RPC code an agent uses for "authentication required". */
export const AUTH_REQUIRED = -32000;
