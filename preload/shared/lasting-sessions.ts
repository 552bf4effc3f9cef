/**
 * The contract's part about sessions that last: the tabs kept from the last run, an agent's
 * history for a folder (`session/list`), and reopening one. Imports only zod, as the contract
 * does.
 */
import { z } from 'zod';

/** The most tabs `sessions.json` keeps (the newest). */
export const MAX_SAVED_TABS = 50;
/** The most history entries one `session:history` answer holds. */
export const MAX_HISTORY_ENTRIES = 200;
/** The longest ACP session id Airlock keeps or sends back. */
export const MAX_ACP_SESSION_ID_CHARS = 1_000;
/** The longest title a history entry or saved tab shows (the tab name's bound). */
const MAX_TITLE_CHARS = 200;

const title = z.string().max(MAX_TITLE_CHARS);
const folder = z.string().min(1).max(4096);
const agentName = z.string().min(1).max(200);

/** Names a tab kept from the last run, while it is on offer. */
export const SavedTabId = z.string().regex(/^t[0-9a-z]{1,32}$/);

/** A tab kept from the last run, as the reopen offer lists it. */
export const SavedTabView = z.object({
  id: SavedTabId,
  agentName,
  cwd: folder,
  title: title.optional(),
  /** When it last opened or ran a turn, in ms since the epoch. */
  lastActivity: z.number().int().nonnegative(),
  /** Whether it had an ACP session to reopen (one that never started reopens as a new one). */
  reopenable: z.boolean(),
});
export type SavedTabView = z.infer<typeof SavedTabView>;

/** One of an agent's earlier sessions in a folder, from its `session/list`. */
export const HistoryEntryView = z.object({
  sessionId: z.string().min(1).max(MAX_ACP_SESSION_ID_CHARS),
  title: title.optional(),
  /** The agent's time of last activity, in ms since the epoch, when it gave a valid one. */
  updatedAt: z.number().int().optional(),
});
export type HistoryEntryView = z.infer<typeof HistoryEntryView>;

/** What the new-session form's History shows for an agent and a folder. */
export const HistoryView = z.object({
  /** Whether the agent keeps a history Airlock can list (it advertises `session/list`). */
  supported: z.boolean(),
  /** Why there is nothing to list, in words (an agent without history, say). */
  note: z.string().max(10_000).optional(),
  entries: z.array(HistoryEntryView).max(MAX_HISTORY_ENTRIES),
  /** Passed back to list further; absent at the end. */
  nextCursor: z.string().max(10_000).optional(),
  /** Whether the agent can reopen an entry (`session/load` or `session/resume`). */
  canReopen: z.boolean(),
});
export type HistoryView = z.infer<typeof HistoryView>;

/** A request naming an agent and a folder, as the history calls take. */
export const AgentFolder = z.object({ agentName, cwd: folder });

/** A session to reopen from the history. */
export const ReopenRequest = z
  .object({
    agentName,
    cwd: folder,
    sessionId: z.string().min(1).max(MAX_ACP_SESSION_ID_CHARS),
    title: title.optional(),
  })
  .strict();
