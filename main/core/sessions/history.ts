/**
 * An agent's history for a folder, from `session/list`: every page the agent sends is checked
 * here (the SDK validates no response), bounded, and clipped like other agent strings.
 */
import { z } from 'zod';
import {
  MAX_ACP_SESSION_ID_CHARS,
  MAX_HISTORY_ENTRIES,
  type HistoryEntryView,
} from '../../../preload/shared/lasting-sessions.js';
import { MAX_SESSION_NAME_CHARS } from '../../../preload/shared/contract.js';
import type { AgentConnection } from '../agent-connection.js';
import { UserFacingError } from '../errors.js';
import { oneLine } from '../tab-title.js';

/** The most pages one history call asks for before it answers with a cursor. */
export const MAX_HISTORY_PAGES = 10;
/** The longest cursor passed back to the agent. */
const MAX_CURSOR_CHARS = 10_000;

const page = z
  .object({
    sessions: z.array(z.unknown()),
    nextCursor: z.string().nullish(),
  })
  .loose();

const entry = z
  .object({
    sessionId: z.string().min(1).max(MAX_ACP_SESSION_ID_CHARS),
    cwd: z.string(),
    title: z.string().nullish(),
    updatedAt: z.string().nullish(),
  })
  .loose();

/** What the agent advertises of sessions that last (its capabilities are not validated). */
export type LastingCapabilities = { list: boolean; load: boolean; resume: boolean; close: boolean };

/** Reads the connection's capabilities as sent (see {@link lastingFrom}). */
export function lastingCapabilities(connection: AgentConnection): LastingCapabilities {
  return lastingFrom(connection.capabilities);
}

/**
 * Reads raw `agentCapabilities` as sent: `loadSession` only as a literal `true`, the others only
 * as an object. Sessions and the settings' Test both read them here.
 */
export function lastingFrom(raw: unknown): LastingCapabilities {
  const capabilities = (raw ?? {}) as Record<string, unknown>;
  const session = capabilities.sessionCapabilities as Record<string, unknown> | null | undefined;
  const offered = (value: unknown) => value !== null && typeof value === 'object';
  return {
    list: offered(session?.list),
    load: capabilities.loadSession === true,
    resume: offered(session?.resume),
    close: offered(session?.close),
  };
}

/**
 * Lists the agent's sessions in `cwd`, newest first as the agent sent them, from `cursor` on:
 * page after page until {@link MAX_HISTORY_ENTRIES} entries or {@link MAX_HISTORY_PAGES}
 * pages, then a cursor for the rest. Entries for another folder (an agent that ignores the
 * filter) and malformed ones are left out; a malformed page ends the list with an error.
 */
export async function listHistory(
  connection: AgentConnection,
  cwd: string,
  cursor: string | undefined,
): Promise<{ entries: HistoryEntryView[]; nextCursor?: string }> {
  const entries: HistoryEntryView[] = [];
  const seen = new Set<string>();
  let next = cursor;
  for (let pages = 0; pages < MAX_HISTORY_PAGES && entries.length < MAX_HISTORY_ENTRIES; pages++) {
    const raw: unknown = await connection.request('session/list', {
      cwd,
      ...(next === undefined ? {} : { cursor: next }),
    });
    const parsed = page.safeParse(raw);
    if (!parsed.success) {
      throw new UserFacingError(
        `${connection.identity.configName} sent a list of its sessions that Airlock cannot read`,
        'The answer to session/list does not have the shape the protocol gives it',
      );
    }
    for (const item of parsed.data.sessions) {
      const session = entry.safeParse(item);
      if (
        !session.success ||
        session.data.cwd !== cwd ||
        seen.has(session.data.sessionId) ||
        entries.length >= MAX_HISTORY_ENTRIES
      ) {
        continue;
      }
      seen.add(session.data.sessionId);
      entries.push(toView(session.data));
    }
    const more = parsed.data.nextCursor;
    // A cursor that does not move would loop: the list ends there.
    next = more && more.length <= MAX_CURSOR_CHARS && more !== next ? more : undefined;
    if (next === undefined) {
      break;
    }
  }
  return next === undefined ? { entries } : { entries, nextCursor: next };
}

function toView(session: z.infer<typeof entry>): HistoryEntryView {
  const title = session.title ? oneLine(session.title, MAX_SESSION_NAME_CHARS) : '';
  const time = session.updatedAt ? Date.parse(session.updatedAt.slice(0, 100)) : Number.NaN;
  return {
    sessionId: session.sessionId,
    ...(title === '' ? {} : { title }),
    ...(Number.isFinite(time) ? { updatedAt: time } : {}),
  };
}
