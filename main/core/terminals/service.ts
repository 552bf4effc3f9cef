/**
 * The core's terminals: each agent request goes to the terminals of the session it names, on
 * the connection it came from, and every terminal ends with its session, its agent, or the app.
 *
 * A session id alone proves nothing (another agent could name it), so a request is routed only
 * to a session of its own connection, as permission requests are (see agents/routing.ts).
 */
import * as acp from '@agentclientprotocol/sdk';
import type { AgentConnection, TerminalRequests } from '../agent-connection.js';
import { UserFacingError } from '../errors.js';
import type { Session } from '../session.js';
import { SessionTerminals } from './manager.js';

type Held = { connection: AgentConnection; terminals: SessionTerminals };

/** Every session's terminals. One per core. */
export class TerminalService {
  private readonly held = new Map<Session, Held>();
  /** Stops under way, so that `dispose` waits for the ones already started too. */
  private readonly stopping = new Set<Promise<void>>();

  constructor(
    /** The session `sessionId` names on `connection`, if any. */
    private readonly sessionOn: (
      connection: AgentConnection | undefined,
      sessionId: string,
    ) => Session | undefined,
  ) {}

  /** The handlers for one connection; `connection` is read when a request comes. */
  handlersFor(connection: () => AgentConnection | undefined): TerminalRequests {
    const of = (sessionId: string) => this.terminalsOf(connection(), sessionId);
    return {
      create: (params) => of(params.sessionId).create(params),
      output: (params) => of(params.sessionId).output(params),
      waitForExit: (params, signal) => of(params.sessionId).waitForExit(params, signal),
      kill: (params) => of(params.sessionId).kill(params),
      release: (params) => of(params.sessionId).release(params),
    };
  }

  /**
   * Stops a command at the user's request (its Stop button), as `terminal/kill` does: the agent
   * sees it end, and its output stays readable. Resolves once it has stopped.
   */
  async kill(session: Session, terminalId: string): Promise<void> {
    const held = this.held.get(session);
    if (!held?.terminals.has(terminalId)) {
      throw new UserFacingError(
        'That command is no longer running here (the agent released its terminal, or the session ended)',
      );
    }
    await held.terminals.kill({ sessionId: '', terminalId }, 'user');
  }

  /** Stops the terminals of a session that closed. */
  sessionEnded(session: Session): Promise<void> {
    const held = this.held.get(session);
    this.held.delete(session);
    return held ? this.track(held.terminals.close()) : Promise.resolve();
  }

  /** Stops the terminals of every session on a connection whose agent exited. */
  connectionEnded(connection: AgentConnection): Promise<void> {
    const ended = [...this.held].filter(([, held]) => held.connection === connection);
    return Promise.all(ended.map(([session]) => this.sessionEnded(session))).then(() => undefined);
  }

  /** Stops every terminal (the app quits); resolves once all have stopped. */
  async dispose(): Promise<void> {
    const all = [...this.held.keys()].map((session) => this.sessionEnded(session));
    await Promise.all([...all, ...this.stopping]);
  }

  private track(stop: Promise<void>): Promise<void> {
    this.stopping.add(stop);
    return stop.finally(() => this.stopping.delete(stop));
  }

  private terminalsOf(
    connection: AgentConnection | undefined,
    sessionId: string,
  ): SessionTerminals {
    const session = connection && this.sessionOn(connection, sessionId);
    if (!connection || !session) {
      throw acp.RequestError.invalidParams(
        undefined,
        `"${sessionId.slice(0, 100)}" is not a session on this connection.`,
      );
    }
    const held = this.held.get(session);
    if (held?.connection === connection) {
      return held.terminals;
    }
    if (held) {
      // The session runs on a new agent process now: the old one's terminals end.
      void this.sessionEnded(session);
    }
    const terminals = new SessionTerminals(session.summary.cwd, {
      line: (id, text) => {
        if (session.summary.status !== 'closed') {
          session.append({ type: 'system', id, text });
        }
      },
      output: (event) => {
        if (session.summary.status !== 'closed') {
          session.append(event);
        }
      },
    });
    this.held.set(session, { connection, terminals });
    return terminals;
  }
}
