/** Errors that carry a message meant for the user. */

/** An error meant to be shown to the user as it is. */
export class UserFacingError extends Error {}

/** A JSON-RPC error from the agent, with its code kept for decisions such as "auth required". */
export class AgentRequestError extends UserFacingError {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON-RPC code an agent uses for "authentication required". */
export const AUTH_REQUIRED = -32000;
