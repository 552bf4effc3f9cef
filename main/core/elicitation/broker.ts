/**
 * The elicitation broker: every elicitation waiting on the user, and every way one ends.
 *
 * An agent's `elicitation/create` is checked (mode, scope, schema, limits) and refused with
 * -32602 when wrong; a good one becomes a card on the tab it is about, and its answer is checked
 * against the schema before it leaves. Each elicitation is bound to the connection it came on:
 * a `sessionId` is looked up among that connection's sessions only, and a `requestId` among
 * that connection's outstanding requests.
 */
import * as acp from '@agentclientprotocol/sdk';
import type {
  ElicitationAction,
  ElicitationContent,
  TranscriptEvent,
} from '../../../preload/shared/contract.js';
import type { FormModel } from '../../../preload/shared/form-model.js';
import type { AgentConnection } from '../agent-connection.js';
import type { CardEnd } from '../cards.js';
import { UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import type { Session } from '../session.js';
import { checkAnswer, prepareAnswerCheck } from './answer-check.js';
import { normaliseFormSchema } from './form-schema.js';
import { presentForm } from './presentation.js';
import { MAX_PENDING_ELICITATIONS_PER_CONNECTION } from './limits.js';
import {
  readElicitationRequest,
  type ElicitationRequest,
  type ElicitationScope,
} from './request.js';
import { analyseUrl } from './url-analysis.js';

/** What the broker needs from the core. */
export type BrokerHost = {
  /** The tab showing `sessionId` on `connection`, if any. */
  sessionOn(connection: AgentConnection, sessionId: string): Session | undefined;
  /** A tab by its key, if it is open. */
  tab(key: string): Session | undefined;
  /** A fresh card key (`e…`). */
  nextCardKey(): string;
  /**
   * Opens a URL the user consented to: in the isolated window or the system browser. Absent on
   * a host whose page opens URLs itself (the web host opens a browser tab).
   */
  openUrl?: (url: string, where: 'window' | 'browser') => Promise<void>;
};

/** Where a URL elicitation stands once the user consented: the page is open, or may be. */
type UrlCard = {
  connection: AgentConnection;
  tab: string;
  elicitationId: string;
  href: string;
  /** `consent`: waiting for the user's yes; `waiting`: opened, waiting for the page to finish. */
  state: 'consent' | 'waiting';
};

/** The user's answer to a form card, as the core receives it. */
export type FormAnswer = { action: ElicitationAction; content?: ElicitationContent };

type Pending = { connection: AgentConnection; tab: string; model?: FormModel };

/** Holds the elicitations of every connection of one core. */
export class ElicitationBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly counts = new Map<AgentConnection, number>();
  /** URL elicitations from the agent's request until the page is done, by card key. */
  private readonly urls = new Map<string, UrlCard>();

  constructor(private readonly host: BrokerHost) {}

  /** The cards' calls (`elicitation:*`), and a link's in an agent's reply (`link:*`). */
  readonly handlers: Handlers<
    | 'elicitation:respond'
    | 'elicitation:openUrl'
    | 'elicitation:finishUrl'
    | 'link:analyse'
    | 'link:open'
  > = {
    'elicitation:respond': async ({ key, cardKey, action, content }) => {
      this.respond(key, cardKey, { action, content });
      return {};
    },
    'elicitation:openUrl': async ({ key, cardKey, where }) => {
      await this.openUrl(key, cardKey, where);
      return {};
    },
    'elicitation:finishUrl': async ({ key, cardKey, how }) => {
      this.finishUrl(key, cardKey, how);
      return {};
    },
    // A link in an agent's reply gets the same analysis and consent as URL mode; its
    // `url_domains` are not applied: they name where sign-in pages belong, not every link.
    'link:analyse': async ({ url }) => {
      const verdict = analyseUrl(url);
      return verdict.ok
        ? { ok: true, analysis: verdict.analysis }
        : { ok: false, reason: verdict.reason };
    },
    'link:open': async ({ url }) => {
      if (!this.host.openUrl) {
        throw new UserFacingError('This host opens links from the page, in a new browser tab');
      }
      const verdict = analyseUrl(url);
      if (!verdict.ok) {
        throw new UserFacingError(verdict.reason);
      }
      await this.host.openUrl(verdict.analysis.href, 'browser');
      return {};
    },
  };

  /**
   * Handles `elicitation/create` from `connection`: resolves with the user's answer, or throws
   * a JSON-RPC error (-32602 for a request Airlock refuses, -32800 when the agent withdraws it).
   */
  async create(
    connection: AgentConnection,
    params: unknown,
    signal: AbortSignal,
  ): Promise<acp.CreateElicitationResponse> {
    const read = readElicitationRequest(params, connection.elicitationModes);
    if (!read.ok) {
      throw invalid(read.reason);
    }
    const request = read.request;
    const session = this.sessionFor(connection, request.scope);
    if ((this.counts.get(connection) ?? 0) >= MAX_PENDING_ELICITATIONS_PER_CONNECTION) {
      throw invalid(
        `this connection already has ${MAX_PENDING_ELICITATIONS_PER_CONNECTION} elicitations waiting on the user.`,
      );
    }
    return request.mode === 'form'
      ? this.createForm(connection, session, request, signal)
      : this.createUrl(connection, session, request, signal);
  }

  private async createForm(
    connection: AgentConnection,
    session: Session,
    request: Extract<ElicitationRequest, { mode: 'form' }>,
    signal: AbortSignal,
  ): Promise<acp.CreateElicitationResponse> {
    const schema = normaliseFormSchema(request.requestedSchema);
    if (!schema.ok) {
      throw invalid(schema.reason);
    }
    // How to show it, from the agent's hints; the answer is checked against the same model.
    const model = presentForm(schema.model, request.requestedSchema, {
      message: request.message,
      meta: request.meta,
      now: Date.now(),
    });
    const cardKey = this.host.nextCardKey();
    const card: TranscriptEvent = {
      type: 'elicitation',
      cardKey,
      agent: connection.identity,
      scope: request.scope.kind,
      toolCallId: toolCallOf(request.scope),
      message: request.message,
      mode: 'form',
      form: model,
    };
    // While the user reads the card, once it has gone out, unless it has ended by then.
    setTimeout(() => {
      if (this.pending.has(cardKey)) {
        prepareAnswerCheck(model);
      }
    }, 0).unref();
    const answer = await this.waitOnUser(connection, session, cardKey, card, request, signal, {
      model,
    });
    return answer.action === 'accept'
      ? { action: 'accept', content: answer.content ?? {} }
      : { action: answer.action };
  }

  /**
   * A URL elicitation: refused at once when the URL may not be opened (see url-analysis.ts) or
   * its id is already outstanding on this connection; otherwise a consent card. `accept` means
   * the user consented and the page was opened, not that it is done: the card then waits for
   * `elicitation/complete` or the user. Nothing is fetched before consent.
   */
  private async createUrl(
    connection: AgentConnection,
    session: Session,
    request: Extract<ElicitationRequest, { mode: 'url' }>,
    signal: AbortSignal,
  ): Promise<acp.CreateElicitationResponse> {
    const verdict = analyseUrl(request.url, { expectedDomains: connection.urlDomains });
    if (!verdict.ok) {
      throw invalid(verdict.reason);
    }
    // MUST be unique among the connection's outstanding URL elicitations; the first one stays.
    if (this.urlCard(connection, request.elicitationId)) {
      throw invalid(
        `elicitationId ${JSON.stringify(request.elicitationId.slice(0, 100))} is already outstanding on this connection.`,
      );
    }
    const cardKey = this.host.nextCardKey();
    const url: UrlCard = {
      connection,
      tab: session.key,
      elicitationId: request.elicitationId,
      href: verdict.analysis.href,
      state: 'consent',
    };
    this.urls.set(cardKey, url);
    const card: TranscriptEvent = {
      type: 'url_elicitation',
      cardKey,
      agent: connection.identity,
      scope: request.scope.kind,
      toolCallId: toolCallOf(request.scope),
      message: request.message,
      url: verdict.analysis,
    };
    let answer: FormAnswer;
    try {
      answer = await this.waitOnUser(connection, session, cardKey, card, request, signal, {});
    } catch (error) {
      this.urls.delete(cardKey);
      throw error;
    }
    if (answer.action === 'accept' && this.urls.has(cardKey)) {
      url.state = 'waiting';
    } else {
      this.urls.delete(cardKey);
    }
    // The URL, the page and what the user does there never reach the agent: only the action.
    return { action: answer.action };
  }

  /** Shows a card, counts it against the connection's limit, and waits for how it ends. */
  private async waitOnUser(
    connection: AgentConnection,
    session: Session,
    cardKey: string,
    card: TranscriptEvent,
    request: ElicitationRequest,
    signal: AbortSignal,
    extra: { model?: FormModel },
  ): Promise<FormAnswer> {
    this.pending.set(cardKey, { connection, tab: session.key, ...extra });
    this.counts.set(connection, (this.counts.get(connection) ?? 0) + 1);
    try {
      const result = await session.waitOnUser<FormAnswer>({
        key: cardKey,
        kind: 'elicitation',
        // A request-scoped card is about starting the tab, not about a turn.
        endsWithTurn: request.scope.kind === 'session',
        signal,
        show: () => session.append(card),
        settle: (outcome) =>
          session.append(
            'answered' in outcome
              ? {
                  type: 'elicitation_resolved',
                  cardKey,
                  action: outcome.answered.action,
                  content: outcome.answered.content,
                }
              : { type: 'elicitation_resolved', cardKey, action: 'cancel', ended: outcome.ended },
          ),
      });
      if ('answered' in result) {
        return result.answered;
      }
      return endedAnswer(result.ended);
    } finally {
      this.pending.delete(cardKey);
      const left = (this.counts.get(connection) ?? 1) - 1;
      if (left > 0) {
        this.counts.set(connection, left);
      } else {
        this.counts.delete(connection);
      }
    }
  }

  /**
   * Opens a URL card's URL where the host can: on first opening the agent hears `accept`
   * (consent); while the card waits for the page, it opens the same URL again. The URL opened
   * is always the one analysed and shown, never one from the page.
   */
  async openUrl(tab: string, cardKey: string, where: 'window' | 'browser'): Promise<void> {
    const url = this.urls.get(cardKey);
    if (!url || url.tab !== tab) {
      throw new UserFacingError('That request is no longer waiting for an answer');
    }
    if (!this.host.openUrl) {
      throw new UserFacingError('This host opens URLs from the page, in a new browser tab');
    }
    await this.host.openUrl(url.href, where);
    if (url.state === 'consent') {
      this.host.tab(tab)?.answerCard(cardKey, 'elicitation', { action: 'accept' });
    }
  }

  /** Ends a URL card's wait for the page: the user is done, or dismisses it. */
  finishUrl(tab: string, cardKey: string, how: 'done' | 'dismissed'): void {
    const url = this.urls.get(cardKey);
    if (!url || url.tab !== tab || url.state !== 'waiting') {
      throw new UserFacingError('That page is no longer waiting');
    }
    this.endUrl(cardKey, url, how);
  }

  /**
   * `elicitation/complete` from `connection`: ends the wait of its outstanding URL elicitation
   * with that id. Unknown, repeated and other connections' ids are ignored, as the spec says.
   */
  complete(connection: AgentConnection, params: unknown): void {
    const id =
      params !== null && typeof params === 'object'
        ? (params as { elicitationId?: unknown }).elicitationId
        : undefined;
    if (typeof id !== 'string') {
      return;
    }
    const found = this.urlCard(connection, id);
    if (!found) {
      return;
    }
    const [cardKey, url] = found;
    if (url.state === 'consent') {
      // Done before the user chose: the card closes, and the request is answered `cancel`.
      this.urls.delete(cardKey);
      this.host.tab(url.tab)?.answerCard(cardKey, 'elicitation', { action: 'cancel' });
      this.host.tab(url.tab)?.append({ type: 'url_elicitation_done', cardKey, how: 'completed' });
      return;
    }
    this.endUrl(cardKey, url, 'completed');
  }

  /** Ends the waits of a connection that is gone (its agent exited). */
  connectionEnded(connection: AgentConnection): void {
    for (const [cardKey, url] of [...this.urls]) {
      if (url.connection === connection && url.state === 'waiting') {
        this.endUrl(cardKey, url, 'agent_exited');
      }
    }
  }

  /** Ends the waits of a tab that closed. */
  tabClosed(tab: string, session: Session): void {
    for (const [cardKey, url] of [...this.urls]) {
      if (url.tab === tab && url.state === 'waiting') {
        this.urls.delete(cardKey);
        session.append({ type: 'url_elicitation_done', cardKey, how: 'tab_closed' });
      }
    }
  }

  private endUrl(
    cardKey: string,
    url: UrlCard,
    how: 'completed' | 'done' | 'dismissed' | 'agent_exited',
  ): void {
    this.urls.delete(cardKey);
    this.host.tab(url.tab)?.append({ type: 'url_elicitation_done', cardKey, how });
  }

  private urlCard(
    connection: AgentConnection,
    elicitationId: string,
  ): [string, UrlCard] | undefined {
    for (const entry of this.urls) {
      if (entry[1].connection === connection && entry[1].elicitationId === elicitationId) {
        return entry;
      }
    }
    return undefined;
  }

  /**
   * Answers a card from the user. An accepted form is checked against its schema here, the
   * authoritative check: a failing answer is refused with the reason and nothing is sent.
   */
  respond(tab: string, cardKey: string, answer: FormAnswer): void {
    const pending = this.pending.get(cardKey);
    const session = this.host.tab(tab);
    if (!pending || pending.tab !== tab || !session) {
      throw new UserFacingError('That request is no longer waiting for an answer');
    }
    let value: FormAnswer = { action: answer.action };
    if (answer.action === 'accept' && !pending.model) {
      // A URL card: the page opened the URL in a new tab itself (the web host); `accept` is
      // the consent, and carries no content.
      if (answer.content !== undefined) {
        throw new UserFacingError('A URL request takes no answers');
      }
    } else if (answer.action === 'accept' && pending.model) {
      const model = pending.model;
      const content = answer.content ?? {};
      const check = checkAnswer(model, content);
      if (!check.ok) {
        const reasons = check.errors.map((error) =>
          error.field ? `${fieldTitle(model, error.field)}: ${error.message}` : error.message,
        );
        throw new UserFacingError(`Nothing was sent. ${reasons.join('; ')}`);
      }
      value = { action: 'accept', content };
    }
    if (!session.answerCard(cardKey, 'elicitation', value)) {
      throw new UserFacingError('That request is no longer waiting for an answer');
    }
  }

  private sessionFor(connection: AgentConnection, scope: ElicitationScope): Session {
    if (scope.kind === 'session') {
      const session = this.host.sessionOn(connection, scope.sessionId);
      if (!session) {
        throw invalid(`"${scope.sessionId.slice(0, 100)}" is not a session on this connection.`);
      }
      return session;
    }
    const outstanding = connection.outstandingRequest(scope.requestId);
    const session = outstanding?.tab === undefined ? undefined : this.host.tab(outstanding.tab);
    if (!session) {
      throw invalid(
        `no request of Airlock's on this connection with id ${JSON.stringify(scope.requestId).slice(0, 100)} is waiting for an answer.`,
      );
    }
    return session;
  }
}

/**
 * What the agent hears when a card ends without the user's answer: `cancel`, or, when the
 * agent itself withdrew it with `$/cancel_request`, the cancelled error the protocol expects.
 */
function endedAnswer(ended: CardEnd): FormAnswer {
  if (ended === 'withdrawn') {
    throw acp.RequestError.requestCancelled();
  }
  return { action: 'cancel' };
}

function toolCallOf(scope: ElicitationScope): string | undefined {
  return scope.kind === 'session' ? scope.toolCallId : undefined;
}

function invalid(reason: string): acp.RequestError {
  return acp.RequestError.invalidParams(undefined, reason);
}

function fieldTitle(model: FormModel, name: string): string {
  return model.fields.find((field) => field.name === name)?.title ?? name;
}
