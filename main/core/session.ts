/**
 * One session tab: its state, its transcript, its running turn and its pending permissions.
 *
 * The session is bound to the connection it was created on; updates and requests reach it only
 * through that connection (see agents/routing.ts), never by ACP session id alone.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type {
  AgentExit,
  PermissionOptionView,
  PermissionOutcome,
  PermissionReply,
  SessionSummary,
  TranscriptEvent,
} from '../../preload/shared/contract.js';
import type { AgentConnection } from './agent-connection.js';
import { PendingCards, type CardEnd, type CardResult, type CardSpec } from './cards.js';
import { firstPromptName, userTabName } from './tab-title.js';
import { promptAccepts, type AttachedContent } from './prompt-content.js';
import { UserFacingError } from './errors.js';
import { permissionAnswer, permissionEvents, ToolCallLog } from './tool-calls.js';
import { Transcript } from './transcript.js';
import { clip, modeViews } from './updates.js';

/** What a session reports to whoever displays it. */
export type SessionSink = {
  append(key: string, event: TranscriptEvent): void;
  changed(key: string): void;
};

/** A mode or option value the user chose, with the names to tell them about it. */
export type Choice = { name: string; value: string | boolean; valueName: string };

/** A session tab's state. */
export class Session {
  summary: SessionSummary;
  /** The agent connection the tab's ACP session is on (see `attach` and `bindEarly`). */
  private agentConnection: AgentConnection | undefined;
  /** The tab's ACP session, on `connection`. */
  private acpId: string | undefined;
  /**
   * The ACP session the agent had when it exited: a restart asks the new process to resume it
   * (where the agent offers `session/resume`), so the conversation goes on where it was.
   */
  private exitedSessionId: string | undefined;
  /**
   * What the user chose in this tab, set again on the agent's new session after a restart: the
   * mode, and each config option by id.
   */
  readonly choices: { mode?: Choice; options: Map<string, Choice> } = { options: new Map() };
  /**
   * Numbers the starts of this tab. A start checks it after each wait: once the user stopped it
   * (or a newer start began), its outcome is dropped.
   */
  private startRun = 0;
  /** What the running start waits on: the agent process starting, or its connection. */
  private waitingOn: Promise<AgentConnection> | AgentConnection | undefined;
  /** The id of the transcript's "Restarting…" line while the restart has not ended. */
  private restartLine: string | undefined;
  /** Set while a `session/load` replays what the transcript shows (see `bindEarly`). */
  private quietReplay = false;
  private readonly transcript = new Transcript();
  /** Permission and elicitation cards waiting on the user. */
  private readonly cards = new PendingCards((count) => this.update({ pendingCards: count }));
  /** The options of each open permission card, by its key. */
  private readonly permissionCards = new Map<string, PermissionOptionView[]>();
  /** What the transcript says of each tool call so far, for the permission cards about one. */
  private readonly toolCalls = new ToolCallLog();
  private turn: { cancelled: boolean; timer?: NodeJS.Timeout; done: boolean } | undefined;
  /** When the latest turn started (ms), unique in this session: it names the turn's writes. */
  private turnStartedAt = 0;
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

  /** The agent connection the tab's ACP session is on; none until it starts, or once it ended. */
  get connection(): AgentConnection | undefined {
    return this.agentConnection;
  }

  /** The tab's ACP session id, on `connection`. */
  get acpSessionId(): string | undefined {
    return this.acpId;
  }

  /** What the running start waits on: the agent process starting, or its connection. */
  get startingOn(): Promise<AgentConnection> | AgentConnection | undefined {
    return this.waitingOn;
  }

  /** The whole transcript, with consecutive text chunks merged (see transcript.ts). */
  events(): TranscriptEvent[] {
    return this.transcript.events();
  }

  /** Appends to the transcript and reports it. */
  append(event: TranscriptEvent): void {
    this.transcript.add(event);
    this.toolCalls.record(event);
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

  /**
   * Begins a start of this tab, waiting on `on` (the agent process starting, or its
   * connection); a start begun before it is dropped. Returns its number for `isCurrentStart`.
   */
  beginStart(on: Promise<AgentConnection> | AgentConnection): number {
    this.waitingOn = on;
    return ++this.startRun;
  }

  /** Whether start `run` is still this tab's: not stopped, and no newer one began. */
  isCurrentStart(run: number): boolean {
    return this.startRun === run;
  }

  /** The running start goes on with the agent's `connection` (its process has started). */
  startWaitsOn(connection: AgentConnection): void {
    this.waitingOn = connection;
  }

  /** The running start waits on nothing more: the tab is ready, failed or waits for the user. */
  startSettled(): void {
    this.waitingOn = undefined;
  }

  /**
   * Binds the tab to ACP session `sessionId` on `connection` before the agent answers for it
   * (a `session/load` replays its updates before its answer).
   */
  bindEarly(
    connection: AgentConnection | undefined,
    sessionId: string | undefined,
    options: { quiet?: boolean } = {},
  ): void {
    this.agentConnection = connection;
    this.acpId = sessionId;
    this.quietReplay = options.quiet === true;
  }

  /**
   * Whether the agent's updates are a replay of what the transcript already shows (a
   * `session/load` after the agent crashed), to be left out.
   */
  get replayIsQuiet(): boolean {
    return this.quietReplay;
  }

  /**
   * Lets go of the agent: whatever the start waits on, and a session it got as far as. Returns
   * what the tab was on, the start's wait first.
   */
  letGo(): Promise<AgentConnection> | AgentConnection | undefined {
    const on = this.waitingOn ?? this.agentConnection;
    this.waitingOn = undefined;
    this.agentConnection = undefined;
    this.acpId = undefined;
    return on;
  }

  /** Drops the running start (whatever it was waiting for is ignored) and lets go of the agent. */
  dropStart(): Promise<AgentConnection> | AgentConnection | undefined {
    this.startRun += 1;
    return this.letGo();
  }

  /** The ACP session the agent had when it exited, once: a restart resumes it only once. */
  takeExitedSessionId(): string | undefined {
    const sessionId = this.exitedSessionId;
    this.exitedSessionId = undefined;
    return sessionId;
  }

  /** Shows the line `text` that says a restart is under way, which `restartEnded` replaces. */
  restarting(lineId: string, text: string): void {
    // A restart line still waiting (recovery's "Restarting in 2 s…") says the new news.
    this.restartLine ??= lineId;
    this.append({ type: 'system', id: this.restartLine, text });
  }

  /** Replaces the "Restarting…" line, if one is waiting, with how the restart ended. */
  restartEnded(text: string): void {
    const id = this.restartLine;
    if (id !== undefined) {
      this.restartLine = undefined;
      this.append({ type: 'system', id, text });
    }
  }

  /** The legacy modes the agent offered in `session/new`, even while an option supersedes them. */
  get offeredModes(): SessionSummary['modes'] {
    return this.legacyModes;
  }

  /**
   * Binds the session to a fresh ACP session on `connection`. It is `ready` unless `status` says
   * it still has something to do first (set the user's choices again, say).
   */
  attach(
    connection: AgentConnection,
    response: acp.NewSessionResponse,
    configOptions: SessionSummary['configOptions'],
    status: 'ready' | 'starting' = 'ready',
  ): void {
    this.agentConnection = connection;
    this.acpId = response.sessionId;
    this.legacyModes = modeViews(response.modes);
    this.update({
      status,
      agent: connection.identity,
      error: undefined,
      errorDetail: undefined,
      exit: undefined,
      authMethods: [],
      currentModeId: response.modes?.currentModeId,
      configOptions,
      promptCapabilities: promptAccepts(connection.capabilities),
    });
  }

  /** Names the tab as the user typed it (see tab-title.ts); an empty name clears it. */
  rename(typed: string): void {
    this.update({ userTitle: userTabName(typed) });
  }

  /** Whether a turn is running. */
  get prompting(): boolean {
    return this.turn !== undefined && !this.turn.done;
  }

  /** The running turn, named by when it started; `null` between turns. */
  get turnId(): number | null {
    return this.prompting ? this.turnStartedAt : null;
  }

  /**
   * Runs one prompt turn to its end: a stop reason, an error, or a cancel the agent never
   * confirmed. Never rejects.
   */
  async runTurn(text: string, attached?: AttachedContent): Promise<void> {
    const connection = this.agentConnection;
    const sessionId = this.acpId;
    if (!connection || !sessionId) {
      return;
    }
    const turn: { cancelled: boolean; timer?: NodeJS.Timeout; done: boolean } = {
      cancelled: false,
      done: false,
    };
    this.turn = turn;
    this.turnStartedAt = Math.max(Date.now(), this.turnStartedAt + 1);
    this.append({ type: 'prompt', text });
    for (const content of attached?.views ?? []) {
      this.append({ type: 'content', role: 'user', content });
    }
    this.update({
      status: 'prompting',
      firstPrompt: this.summary.firstPrompt ?? firstPromptName(text, this.summary.commands),
    });
    try {
      const response = await connection.prompt({
        sessionId,
        prompt: [{ type: 'text', text }, ...(attached?.blocks ?? [])],
      });
      // The SDK resolves the response before it has run the handlers of updates that came
      // just before it; let them run so the turn ends after its last update.
      await new Promise((resolve) => setImmediate(resolve));
      this.endTurn(turn, { type: 'turn_end', stopReason: response.stopReason });
    } catch (error) {
      await new Promise((resolve) => setImmediate(resolve));
      if (connection.exit) {
        this.endTurn(turn, undefined);
      } else {
        this.endTurn(turn, {
          type: 'turn_error',
          message: (error as Error).message,
          detail: error instanceof UserFacingError ? error.detail : undefined,
        });
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
    if (this.agentConnection && this.acpId) {
      void this.agentConnection.cancel(this.acpId);
      turn.timer = setTimeout(() => {
        this.endTurn(turn, { type: 'turn_end', stopReason: 'cancelled' });
        this.append({
          type: 'system',
          text: 'The agent did not confirm the cancel in time; the turn was ended.',
        });
      }, this.agentConnection.timeouts.cancelGraceMs);
    }
  }

  /** Records that the agent process ended; the turn and any permission end with it. */
  agentExited(exit: AgentExit): void {
    this.cards.endAll('agent_exited');
    if (this.turn && !this.turn.done) {
      this.endTurn(this.turn, undefined);
    }
    this.agentConnection = undefined;
    this.exitedSessionId = this.acpId;
    this.acpId = undefined;
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
    const agent = this.agentConnection?.identity;
    if (!agent) {
      // Requests reach a session only through its connection (agents/routing.ts): this cannot
      // happen.
      throw new Error('A permission request reached a session that has no agent');
    }
    const { update, card } = permissionEvents(
      promptKey,
      agent,
      request,
      this.toolCalls.get(clip(request.toolCall.toolCallId)),
    );
    const result = await this.waitOnUser<PermissionOutcome>({
      key: promptKey,
      kind: 'permission',
      endsWithTurn: true,
      signal,
      show: () => {
        this.permissionCards.set(promptKey, card.options);
        // The tool call's row shows what is asked first; the card then shows it all again.
        this.append(update);
        this.append(card);
      },
      settle: (result) => {
        this.permissionCards.delete(promptKey);
        const outcome: PermissionOutcome =
          'answered' in result ? result.answered : { outcome: 'cancelled' };
        this.append(
          'answered' in result
            ? { type: 'permission_resolved', promptKey, outcome }
            : { type: 'permission_resolved', promptKey, outcome, ended: result.ended },
        );
        this.append({
          type: 'tool_call_update',
          toolCallId: update.toolCallId,
          fields: { permission: permissionAnswer(outcome, card.options) },
        });
      },
    });
    return 'answered' in result ? result.answered : { outcome: 'cancelled' };
  }

  /**
   * Answers a pending permission card; false when it is no longer pending. An option the card
   * does not offer is refused. A dismissal (Esc on the card) ends that card only, with the
   * answer the protocol gives a dismissed request (see `dismissal`); the turn goes on.
   */
  answerPermission(promptKey: string, reply: PermissionReply): boolean {
    const options = this.permissionCards.get(promptKey);
    if (reply.outcome === 'dismissed') {
      return (
        options !== undefined && this.cards.answer(promptKey, 'permission', dismissal(options))
      );
    }
    const outcome: PermissionOutcome = reply;
    if (
      options &&
      outcome.outcome === 'selected' &&
      !options.some((option) => option.optionId === outcome.optionId)
    ) {
      throw new UserFacingError('That is not one of the answers the agent offered.');
    }
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

/**
 * The answer to a permission request the user dismissed: its reject choice (`reject_once`
 * before `reject_always`) when it offers one, else `cancelled`.
 */
export function dismissal(options: readonly PermissionOptionView[]): PermissionOutcome {
  const reject =
    options.find((option) => option.kind === 'reject_once') ??
    options.find((option) => option.kind === 'reject_always');
  return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
}
