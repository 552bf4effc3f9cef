/**
 * Agent-to-tab routing: each message an agent sends about a session goes to the tab that runs
 * that session on that very connection.
 *
 * A session id alone proves nothing (another agent could name it), so a message is routed only
 * to a tab of its own connection. Updates for a session id no tab has bound yet are held a
 * while: `session/new`'s answer can trail the session's first updates. Each connection's
 * delegate is built here: updates and permissions go to the tab, elicitations to the broker,
 * file and terminal requests to their services, and the process's end to all of them.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AgentExit } from '../../../preload/shared/contract.js';
import type { AgentConnection, ConnectionDelegate } from '../agent-connection.js';
import type { ElicitationBroker } from '../elicitation/broker.js';
import type { FileService } from '../files/service.js';
import type { Session } from '../session.js';
import type { TerminalService } from '../terminals/service.js';
import { mapUpdate } from '../updates.js';

/** What routing needs from the core. */
export type RoutingDeps = {
  /** Every open tab. */
  tabs: () => Iterable<Session>;
  /** A key for a new permission card, unique in the core. */
  nextPromptKey: () => string;
  elicitations: ElicitationBroker;
  files: FileService;
  terminals: TerminalService;
};

/** Routes one core's agent messages to its tabs. */
export class AgentRouting {
  /** Updates for a session id not bound yet, by connection and session id. */
  private readonly early = new WeakMap<AgentConnection, Map<string, acp.SessionNotification[]>>();

  constructor(private readonly deps: RoutingDeps) {}

  /** The tab an agent message is for, on the connection it came from. */
  sessionOn(connection: AgentConnection | undefined, sessionId: string): Session | undefined {
    for (const session of this.deps.tabs()) {
      if (session.connection === connection && session.acpSessionId === sessionId) {
        return session;
      }
    }
    return undefined;
  }

  /**
   * What a new process's messages go to, but its end (see `exited`); `started` is its
   * connection once it has started.
   */
  delegateFor(started: () => AgentConnection | undefined): Omit<ConnectionDelegate, 'onExit'> {
    const { elicitations, files, terminals } = this.deps;
    return {
      onUpdate: (notification) => {
        const connection = started();
        if (connection) {
          this.update(connection, notification);
        }
      },
      onPermission: (request, signal) => this.permission(started(), request, signal),
      onElicitation: async (params, signal) => {
        const connection = started();
        if (!connection) {
          throw acp.RequestError.invalidParams(
            undefined,
            'no session or request of this connection is waiting yet.',
          );
        }
        return elicitations.create(connection, params, signal);
      },
      onElicitationComplete: (params) => {
        const connection = started();
        if (connection) {
          elicitations.complete(connection, params);
        }
      },
      onReadTextFile: (params) => files.read(started(), params),
      onWriteTextFile: (params, signal) => files.write(started(), params, signal),
      terminals: terminals.handlersFor(started),
    };
  }

  /**
   * A process ended (`connection` is undefined when it ended before it started): its cards
   * end, its terminals stop, and its tabs say so. Returns those tabs.
   */
  exited(connection: AgentConnection | undefined, exit: AgentExit): Session[] {
    if (connection) {
      this.deps.elicitations.connectionEnded(connection);
      void this.deps.terminals.connectionEnded(connection);
    }
    const told: Session[] = [];
    for (const session of this.deps.tabs()) {
      if (session.connection === connection) {
        session.agentExited(exit);
        told.push(session);
      }
    }
    return told;
  }

  /** `session/update`: to its tab, or held until a tab binds its session id. */
  update(connection: AgentConnection, notification: acp.SessionNotification): void {
    const session = this.sessionOn(connection, notification.sessionId);
    if (!session) {
      this.keepEarly(connection, notification);
      return;
    }
    if (session.replayIsQuiet) {
      return;
    }
    applyUpdate(session, notification);
  }

  /** Gives `session`, just bound to `sessionId` on `connection`, the updates held for it. */
  bound(session: Session, connection: AgentConnection, sessionId: string): void {
    const early = this.early.get(connection);
    for (const notification of early?.get(sessionId) ?? []) {
      applyUpdate(session, notification);
    }
    early?.delete(sessionId);
  }

  /** `session/request_permission`: a card on its tab, answered when the user chooses. */
  async permission(
    connection: AgentConnection | undefined,
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse> {
    const session = this.sessionOn(connection, request.sessionId);
    if (!session) {
      throw acp.RequestError.invalidParams(
        undefined,
        `"${request.sessionId.slice(0, 100)}" is not a session on this connection.`,
      );
    }
    if (request.options.length === 0) {
      session.append({
        type: 'system',
        text: 'The agent asked for permission without any options; Airlock answered cancelled.',
      });
      return { outcome: { outcome: 'cancelled' } };
    }
    const promptKey = this.deps.nextPromptKey();
    const outcome = await session.requestPermission(promptKey, request, signal);
    return { outcome };
  }

  private keepEarly(connection: AgentConnection, notification: acp.SessionNotification): void {
    let bySession = this.early.get(connection);
    if (!bySession) {
      bySession = new Map();
      this.early.set(connection, bySession);
    }
    // Bounded: an agent sending updates for sessions that never exist cannot grow this.
    const held = bySession.get(notification.sessionId);
    if (held === undefined && bySession.size >= 16) {
      return;
    }
    const kept = held ?? [];
    if (kept.length < 1000) {
      kept.push(notification);
      bySession.set(notification.sessionId, kept);
    }
  }
}

/** Shows one update in its tab: transcript events, then summary changes. */
function applyUpdate(session: Session, notification: acp.SessionNotification): void {
  const effect = mapUpdate(notification.update);
  for (const event of effect.events) {
    session.append(event);
  }
  if (effect.summary) {
    session.update(effect.summary);
  }
}
