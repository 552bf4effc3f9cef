/**
 * One ACP session id, one tab, on each connection.
 *
 * Updates and requests reach a tab by its connection and ACP session id together
 * (agents/routing.ts), so a tab that took an id another tab of the same connection holds would
 * see its own messages and cards land in that other tab. Every place a tab takes an id checks
 * it here first: the answer to `session/new`, and the id a tab asks `session/load` or
 * `session/resume` for.
 */
import type { AgentConnection } from './agent-connection.js';
import type { Session } from './session.js';

/** Why a tab did not start: the agent's new session has an id another tab holds. */
export function duplicateNewSession(agentName: string): string {
  return `${agentName} gave a session id that another tab uses, so this tab did not start.`;
}

/** Why a tab did not reopen a session: another tab has that session open. */
export const DUPLICATE_REOPEN = 'Another tab has this session open, so it was not reopened here.';

/** Whether a tab other than `self` holds ACP session `sessionId` on `connection`. */
export function heldByAnotherTab(
  tabs: Iterable<Session>,
  self: Session,
  connection: AgentConnection,
  sessionId: string,
): boolean {
  for (const tab of tabs) {
    if (tab !== self && tab.connection === connection && tab.acpSessionId === sessionId) {
      return true;
    }
  }
  return false;
}
