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
import { PendingCards, type CardEnd, type CardResult, type CardSpec } from './cards.js';
import { MAX_CHUNK_CHARS } from './updates.js';

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
  /** Permission and elicitation cards waiting on the user. */
  private readonly cards = new PendingCards((count) => this.update({ pendingCards: count }));
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
      pendingCards: 0,
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
    this.cards.endAll('turn_cancelled');
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
    this.cards.endAll('agent_exited');
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
  async requestPermission(
    promptKey: string,
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<PermissionOutcome> {
    const result = await this.waitOnUser<PermissionOutcome>({
      key: promptKey,
      kind: 'permission',
      endsWithTurn: true,
      signal,
      show: () =>
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
        }),
      settle: (result) =>
        this.append(
          'answered' in result
            ? { type: 'permission_resolved', promptKey, outcome: result.answered }
            : {
                type: 'permission_resolved',
                promptKey,
                outcome: { outcome: 'cancelled' },
                ended: result.ended,
              },
        ),
    });
    return 'answered' in result ? result.answered : { outcome: 'cancelled' };
  }

  /** Answers a pending permission card; false when it is no longer pending. */
  answerPermission(promptKey: string, outcome: PermissionOutcome): boolean {
    return this.cards.answer(promptKey, 'permission', outcome);
  }

  /**
   * Shows a card that waits on the user (see cards.ts). A card about the turn is not shown once
   * the turn is cancelled; no card is shown on a closed tab.
   */
  waitOnUser<T>(spec: CardSpec<T>): Promise<CardResult<T>> {
    const refuse: CardEnd | undefined =
      this.summary.status === 'closed'
        ? 'tab_closed'
        : spec.endsWithTurn && this.turn?.cancelled && !this.turn.done
          ? 'turn_cancelled'
          : undefined;
    return this.cards.wait(spec, refuse);
  }

  /** Answers an open card of `kind`; false when no such card is open. */
  answerCard(key: string, kind: 'elicitation', value: unknown): boolean {
    return this.cards.answer(key, kind, value);
  }

  /** Cancels the turn and every pending card, for a tab being closed. */
  close(): void {
    // Cards first, so each says the tab closed rather than that its turn was cancelled.
    this.cards.endAll('tab_closed');
    this.cancelTurn();
    this.update({ status: 'closed' });
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
