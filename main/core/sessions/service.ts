/**
 * Sessions that last: the tabs kept across restarts and offered again, an agent's history for a
 * folder, reopening a session with `session/load` or `session/resume`, and `session/close` when
 * a tab closes. Only what the agent advertises is used; where it offers nothing, the tab or the
 * history says so.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type {
  CallRequest,
  CallResponse,
  SessionStatus,
  SessionSummary,
  TranscriptEvent,
} from '../../../preload/shared/contract.js';
import { dirname, join } from 'node:path';
import type { AgentConnection } from '../agent-connection.js';
import { UserFacingError } from '../errors.js';
import type { Session } from '../session.js';
import { DUPLICATE_REOPEN, heldByAnotherTab } from '../session-ids.js';
import type { AgentSpec } from '../agents/spec.js';
import { configViews } from '../updates.js';
import { lastingCapabilities, listHistory } from './history.js';
import { SavedTabs, type SavedTab } from './saved-tabs.js';

/** The variable that gives the built-in demo agent a folder to keep its sessions in. */
export const DEMO_STATE_VAR = 'AIRLOCK_DEMO_STATE_DIR';

/**
 * What the built-in demo agent is started with besides its settings: a folder of its own in the
 * config folder (`<configDir>/demo-agent/`), so that its sessions last too. Other agents: none.
 */
export function demoStateEnv(
  spec: Pick<AgentSpec, 'builtIn'>,
  options: { settingsPath: string },
): Record<string, string> {
  return spec.builtIn
    ? { [DEMO_STATE_VAR]: join(dirname(options.settingsPath), 'demo-agent') }
    : {};
}

/** What the service needs of the core. */
export type LastingDeps = {
  /** The file the tabs are kept in (`<configDir>/sessions.json`). */
  file: string;
  /** The running agent, or a new process started in `cwd`. */
  connectionFor(agentName: string, cwd: string): Promise<AgentConnection>;
  /** Stops the agent's process after a while if no tab has started on it by then. */
  stopWhenIdle(agentName: string): void;
  /** Opens a tab for `agentName` in `cwd` (checked first) that starts nothing yet. */
  newTab(agentName: string, cwd: string): Promise<Session>;
  /** Starts a fresh ACP session (`session/new`) in a tab. */
  startNew(session: Session): void;
  /** The MCP servers for a session, as `session/new` gets them, and a note for each left out. */
  mcpServers(
    agentName: string,
    connection: AgentConnection,
  ): { mcpServers: acp.McpServer[]; notes: TranscriptEvent[] };
  /** The open tabs. */
  tabs(): Iterable<Session>;
  debounceMs?: number;
};

/** The sessions that last. One per core. */
export class LastingSessions {
  readonly saved: SavedTabs;
  /** Each open tab's last status, to tell when a turn starts. */
  private readonly statuses = new Map<string, SessionStatus>();
  private loaded: Promise<void> | undefined;

  constructor(private readonly deps: LastingDeps) {
    this.saved = new SavedTabs(deps.file, { debounceMs: deps.debounceMs });
  }

  /** Reads the tabs of the last run, once (the core's `init` runs again on a restart). */
  load(): Promise<void> {
    this.loaded ??= this.saved.load();
    return this.loaded;
  }

  /** Keeps the file in step with a tab's summary (called with every summary change). */
  tabChanged(summary: SessionSummary, acpSessionId: string | undefined): void {
    const was = this.statuses.get(summary.key);
    if (summary.status === 'closed') {
      this.statuses.delete(summary.key);
      this.saved.remove(summary.key);
      return;
    }
    this.statuses.set(summary.key, summary.status);
    this.saved.track(
      summary.key,
      {
        agentName: summary.agentName,
        cwd: summary.cwd,
        acpSessionId,
        title: summary.title ?? summary.firstPrompt,
        userTitle: summary.userTitle,
      },
      summary.status === 'prompting' && was !== 'prompting',
    );
  }

  /**
   * A tab is closing: `session/close` goes to an agent that advertises it, without waiting for
   * its answer; a failure is only logged (the tab closes either way).
   */
  closing(session: Session): void {
    // Now, not when the summary's change is emitted: a quit right after must not keep it.
    this.statuses.delete(session.key);
    this.saved.remove(session.key);
    const { connection, acpSessionId } = session;
    if (!connection || connection.exit || !acpSessionId || !lastingCapabilities(connection).close) {
      return;
    }
    connection.request('session/close', { sessionId: acpSessionId }).catch((error: unknown) => {
      // An agent stopped because this was its last tab cannot answer: nothing to report.
      if (!connection.exit) {
        console.warn(`airlock: session/close failed: ${(error as Error).message}`);
      }
    });
  }

  /** The app quits: the file keeps the tabs open now, for the next start. */
  quit(): Promise<void> {
    return this.saved.freeze();
  }

  readonly handlers = {
    'session:listSaved': async (): Promise<CallResponse<'session:listSaved'>> => ({
      tabs: this.saved.offers(),
    }),
    'session:reopenSaved': async ({
      id,
    }: CallRequest<'session:reopenSaved'>): Promise<CallResponse<'session:reopenSaved'>> => {
      const ids = id === undefined ? this.saved.offers().map((tab) => tab.id) : [id];
      const keys: string[] = [];
      const failures: string[] = [];
      for (const one of ids) {
        const tab = this.saved.take(one);
        if (!tab) {
          throw new UserFacingError('That session is no longer on offer');
        }
        // One that cannot open (its folder is gone, its agent removed) does not stop the rest.
        await this.reopenSaved(tab).then(
          (key) => keys.push(key),
          (error: unknown) => failures.push((error as Error).message),
        );
      }
      if (failures.length > 0) {
        throw new UserFacingError(
          `Could not reopen ${failures.length} of ${ids.length}: ${failures[0]}`.slice(0, 10_000),
        );
      }
      return { keys };
    },
    'session:dismissSaved': async (): Promise<CallResponse<'session:dismissSaved'>> => {
      this.saved.dismiss();
      return {};
    },
    'session:history': async ({
      agentName,
      cwd,
      cursor,
    }: CallRequest<'session:history'>): Promise<CallResponse<'session:history'>> => {
      const connection = await this.deps.connectionFor(agentName, cwd);
      // Listing may be all the process was started for: it does not stay for nothing.
      this.deps.stopWhenIdle(agentName);
      const can = lastingCapabilities(connection);
      const canReopen = can.load || can.resume;
      if (!can.list) {
        return {
          supported: false,
          note: `${agentName} keeps no history of its sessions that Airlock can list.`,
          entries: [],
          canReopen,
        };
      }
      return { supported: true, canReopen, ...(await listHistory(connection, cwd, cursor)) };
    },
    'session:reopen': async ({
      agentName,
      cwd,
      sessionId,
      title,
    }: CallRequest<'session:reopen'>): Promise<CallResponse<'session:reopen'>> => {
      // A session open in a tab already is shown there, not opened twice.
      for (const tab of this.deps.tabs()) {
        if (tab.summary.agentName === agentName && tab.acpSessionId === sessionId) {
          return { key: tab.key };
        }
      }
      const session = await this.deps.newTab(agentName, cwd);
      session.update({ title });
      void this.reopenIn(session, sessionId);
      return { key: session.key };
    },
  };

  private async reopenSaved(tab: SavedTab): Promise<string> {
    const session = await this.deps.newTab(tab.agentName, tab.cwd);
    session.update({ title: tab.title, userTitle: tab.userTitle });
    if (tab.acpSessionId === undefined) {
      // It never had a session: a new one in its folder is all there is to reopen.
      this.deps.startNew(session);
    } else {
      void this.reopenIn(session, tab.acpSessionId);
    }
    return session.key;
  }

  /**
   * Reopens ACP session `sessionId` in the tab: `session/load` when the agent advertises it (the
   * transcript replays from its updates), else `session/resume`; with neither, the tab says so
   * and offers a new session in the folder (its Restart). Never rejects.
   */
  private async reopenIn(session: Session, sessionId: string): Promise<void> {
    const { agentName, cwd } = session.summary;
    // Kept with its id from now on, so a reopen that fails can be tried again after a restart.
    this.saved.track(
      session.key,
      {
        agentName,
        cwd,
        acpSessionId: sessionId,
        title: session.summary.title,
        userTitle: session.summary.userTitle,
      },
      false,
    );
    const pending = this.deps.connectionFor(agentName, cwd);
    const run = session.beginStart(pending);
    const failed = (error: string, errorDetail?: string) => {
      if (session.isCurrentStart(run)) {
        session.letGo();
        session.update({ status: 'failed', error, errorDetail });
      }
    };
    const detailOf = (error: unknown) =>
      error instanceof UserFacingError ? error.detail : undefined;
    let connection: AgentConnection;
    try {
      connection = await pending;
    } catch (error) {
      failed((error as Error).message, detailOf(error));
      return;
    }
    if (!session.isCurrentStart(run)) {
      return;
    }
    session.startWaitsOn(connection);
    const can = lastingCapabilities(connection);
    if (!can.load && !can.resume) {
      failed(
        `${agentName} cannot reopen earlier sessions. Restart starts a new session in ${cwd}.`,
        'The agent offers neither session/load nor session/resume.',
      );
      return;
    }
    // Checked before it is bound or asked for: the replay would land in the tab that holds it.
    if (heldByAnotherTab(this.deps.tabs(), session, connection, sessionId)) {
      failed(DUPLICATE_REOPEN);
      return;
    }
    const mcp = this.deps.mcpServers(agentName, connection);
    // Bound first: the replay of `session/load` arrives before its answer, and reaches the tab
    // through the connection and session id like any update.
    session.bindEarly(connection, sessionId);
    let response: acp.LoadSessionResponse | acp.ResumeSessionResponse | undefined;
    try {
      const params = { sessionId, cwd, mcpServers: mcp.mcpServers };
      response = can.load
        ? await connection.request('session/load', params, session.key)
        : await connection.request('session/resume', params, session.key);
    } catch (error) {
      failed(`Could not reopen this session: ${(error as Error).message}`, detailOf(error));
      return;
    }
    if (!session.isCurrentStart(run) || session.summary.status === 'closed') {
      return;
    }
    session.startSettled();
    for (const note of mcp.notes) {
      session.append(note);
    }
    session.attach(
      connection,
      { sessionId, modes: response?.modes, configOptions: response?.configOptions },
      configViews(response?.configOptions ?? undefined),
    );
    if (!can.load) {
      session.append({
        type: 'system',
        text: `Resumed this session; ${agentName} does not send back its earlier messages.`,
      });
    }
  }
}
