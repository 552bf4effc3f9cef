/**
 * One session tab: its state, its transcript, its running turn and its pending permissions.
 *
 * The session is bound to the connection it was created on; updates and requests reach it only
 * through that connection (see core.ts), never by ACP session id alone.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type {
  AgentExit,
  PermissionOutcome,
  SessionSummary,
  TranscriptEvent,
} from '../../preload/contract.js';
import type { AgentConnection } from './agent-connection.js';
import { MAX_CHUNK_CHARS } from './updates.js';

type PendingPermission = { resolve: (outcome: PermissionOutcome) => void };

/** What a session reports to whoever displays it. */
export type SessionSink = {
  append(key: string, event: TranscriptEvent): void;
  changed(key: string): void;
};

/** A session tab's state. */
export class Session {
  summary: SessionSummary;
  connection: AgentConnection | undefined;
  acpSessionId: string | undefined;
  private readonly transcript: TranscriptEvent[] = [];
  private readonly permissions = new Map<string, PendingPermission>();
  private turn: { cancelled: boolean; timer?: NodeJS.Timeout; done: boolean } | undefined;
  /** The modes from `session/new`, shown unless a config option of category `mode` supersedes them. */
  private legacyModes: SessionSummary['modes'] = [];

  constructor(
    readonly key: string,
    agentName: string,
    cwd: string,
    private readonly sink: SessionSink,
  ) {
    this.summary = {
      key,
      agentName,
      cwd,
      status: 'starting',
      authMethods: [],
      commands: [],
      modes: [],
      configOptions: [],
    };
  }

  /** The whole transcript, with consecutive text chunks merged. */
  events(): TranscriptEvent[] {
    return [...this.transcript];
  }

  /** Appends to the transcript and reports it. */
  append(event: TranscriptEvent): void {
    const last = this.transcript.at(-1);
    // Merge streamed text so the stored transcript stays small; the UI still gets every piece.
    if (
      event.type === 'chunk' &&
      last?.type === 'chunk' &&
      last.role === event.role &&
      last.text.length + event.text.length <= MAX_CHUNK_CHARS
    ) {
      this.transcript[this.transcript.length - 1] = { ...last, text: last.text + event.text };
    } else {
      this.transcript.push(event);
    }
    this.sink.append(this.key, event);
  }

  /**
   * Changes summary fields and reports the change. One control per thing: when the agent offers
   * a config option of category `mode`, it supersedes the legacy modes (as Zed does), whichever
   * arrives first.
   */
  update(patch: Partial<SessionSummary>): void {
    const next = { ...this.summary, ...patch };
    const superseded = next.configOptions.some((option) => option.category === 'mode');
    this.summary = { ...next, modes: superseded ? [] : this.legacyModes };
    this.sink.changed(this.key);
  }

  /** Binds the session to a fresh ACP session on `connection`. */
  attach(
    connection: AgentConnection,
    response: acp.NewSessionResponse,
    configOptions: SessionSummary['configOptions'],
  ): void {
    this.connection = connection;
    this.acpSessionId = response.sessionId;
    this.legacyModes = (response.modes?.availableModes ?? []).slice(0, 100).map((mode) => ({
      id: mode.id.slice(0, 10_000),
      name: mode.name.slice(0, 10_000),
      description: mode.description?.slice(0, 10_000) ?? undefined,
    }));
    this.update({
      status: 'ready',
      agent: connection.identity,
      error: undefined,
      exit: undefined,
      authMethods: [],
      currentModeId: response.modes?.currentModeId,
      configOptions,
    });
  }

  /** Whether a turn is running. */
  get prompting(): boolean {
    return this.turn !== undefined && !this.turn.done;
  }

  /**
   * Runs one prompt turn to its end: a stop reason, an error, or a cancel the agent never
   * confirmed. Never rejects.
   */
  async runTurn(text: string): Promise<void> {
    const connection = this.connection;
    const sessionId = this.acpSessionId;
    if (!connection || !sessionId) {
      return;
    }
    const turn: { cancelled: boolean; timer?: NodeJS.Timeout; done: boolean } = {
      cancelled: false,
      done: false,
    };
    this.turn = turn;
    this.append({ type: 'prompt', text });
    this.update({ status: 'prompting' });
    try {
      const response = await connection.prompt({ sessionId, prompt: [{ type: 'text', text }] });
      // The SDK resolves the response before it has run the handlers of updates that came
      // just before it; let them run so the turn ends after its last update.
      await new Promise((resolve) => setImmediate(resolve));
      this.endTurn(turn, { type: 'turn_end', stopReason: response.stopReason });
    } catch (error) {
      await new Promise((resolve) => setImmediate(resolve));
      if (connection.exit) {
        this.endTurn(turn, undefined);
      } else {
        this.endTurn(turn, { type: 'turn_error', message: (error as Error).message });
      }
    }
  }

  /**
   * Cancels the running turn: pending permissions answer `cancelled`, the agent gets
   * `session/cancel`, and if it does not answer within the grace period the turn ends anyway.
   */
  cancelTurn(): void {
    const turn = this.turn;
    if (!turn || turn.done || turn.cancelled) {
      return;
    }
    turn.cancelled = true;
    this.cancelPermissions();
    if (this.connection && this.acpSessionId) {
      void this.connection.cancel(this.acpSessionId);
      turn.timer = setTimeout(() => {
        this.endTurn(turn, { type: 'turn_end', stopReason: 'cancelled' });
        this.append({
          type: 'system',
          text: 'The agent did not confirm the cancel in time; the turn was ended.',
        });
      }, this.connection.timeouts.cancelGraceMs);
    }
  }

  /** Records that the agent process ended; the turn and any permission end with it. */
  agentExited(exit: AgentExit): void {
    this.cancelPermissions();
    if (this.turn && !this.turn.done) {
      this.endTurn(this.turn, undefined);
    }
    this.connection = undefined;
    this.acpSessionId = undefined;
    this.append({ type: 'agent_exit', exit });
    this.update({ status: 'exited', exit });
  }

  /**
   * Shows a permission card and waits for its answer. A cancelled turn, a closed tab, an exited
   * agent or the agent's `$/cancel_request` all answer `cancelled`.
   */
  requestPermission(
    promptKey: string,
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<PermissionOutcome> {
    // The agent's `$/cancel_request` can arrive with the request, before this runs: its abort
    // has already fired then, and a listener added now would never hear it.
    if (signal.aborted || this.turn?.cancelled || this.summary.status === 'closed') {
      return Promise.resolve({ outcome: 'cancelled' });
    }
    return new Promise((resolve) => {
      const finish = (outcome: PermissionOutcome) => {
        if (!this.permissions.delete(promptKey)) {
          return;
        }
        signal.removeEventListener('abort', onAbort);
        this.append({ type: 'permission_resolved', promptKey, outcome });
        resolve(outcome);
      };
      const onAbort = () => finish({ outcome: 'cancelled' });
      this.permissions.set(promptKey, { resolve: finish });
      this.append({
        type: 'permission',
        promptKey,
        toolCallId: request.toolCall.toolCallId.slice(0, 10_000),
        title: request.toolCall.title?.slice(0, 10_000) ?? undefined,
        options: request.options.slice(0, 100).map((option) => ({
          optionId: option.optionId.slice(0, 10_000),
          name: option.name.slice(0, 10_000),
          kind: option.kind,
        })),
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers a pending permission card; false when it is no longer pending. */
  answerPermission(promptKey: string, outcome: PermissionOutcome): boolean {
    const pending = this.permissions.get(promptKey);
    if (!pending) {
      return false;
    }
    pending.resolve(outcome);
    return true;
  }

  /** Cancels the turn and every pending card, for a tab being closed. */
  close(): void {
    this.cancelTurn();
    this.cancelPermissions();
    this.update({ status: 'closed' });
  }

  private cancelPermissions(): void {
    for (const pending of [...this.permissions.values()]) {
      pending.resolve({ outcome: 'cancelled' });
    }
  }

  private endTurn(
    turn: { done: boolean; timer?: NodeJS.Timeout },
    event: TranscriptEvent | undefined,
  ): void {
    if (turn.done) {
      return;
    }
    turn.done = true;
    clearTimeout(turn.timer);
    if (event) {
      this.append(event);
    }
    if (this.summary.status === 'prompting') {
      this.update({ status: 'ready' });
    }
  }
}
