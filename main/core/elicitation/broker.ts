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
} from '../../../preload/contract.js';
import type { FormModel } from '../../../preload/form-model.js';
import type { AgentConnection } from '../agent-connection.js';
import type { CardEnd } from '../cards.js';
import { UserFacingError } from '../errors.js';
import type { Session } from '../session.js';
import { checkAnswer } from './answer-check.js';
import { normaliseFormSchema } from './form-schema.js';
import { MAX_PENDING_ELICITATIONS_PER_CONNECTION } from './limits.js';
import { readElicitationRequest, type ElicitationScope } from './request.js';

/** What the broker needs from the core. */
export type BrokerHost = {
  /** The tab showing `sessionId` on `connection`, if any. */
  sessionOn(connection: AgentConnection, sessionId: string): Session | undefined;
  /** A tab by its key, if it is open. */
  tab(key: string): Session | undefined;
  /** A fresh card key (`e…`). */
  nextCardKey(): string;
};

/** The user's answer to a form card, as the core receives it. */
export type FormAnswer = { action: ElicitationAction; content?: ElicitationContent };

type Pending = { connection: AgentConnection; tab: string; model: FormModel };

/** Holds the elicitations of every connection of one core. */
export class ElicitationBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly counts = new Map<AgentConnection, number>();

  constructor(private readonly host: BrokerHost) {}

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
    if (request.mode !== 'form') {
      // URL mode is not advertised yet, so reading the request refused it already.
      throw invalid('Airlock did not advertise url mode on this connection.');
    }
    const session = this.sessionFor(connection, request.scope);
    if ((this.counts.get(connection) ?? 0) >= MAX_PENDING_ELICITATIONS_PER_CONNECTION) {
      throw invalid(
        `this connection already has ${MAX_PENDING_ELICITATIONS_PER_CONNECTION} elicitations waiting on the user.`,
      );
    }
    const schema = normaliseFormSchema(request.requestedSchema);
    if (!schema.ok) {
      throw invalid(schema.reason);
    }
    const cardKey = this.host.nextCardKey();
    const card: TranscriptEvent = {
      type: 'elicitation',
      cardKey,
      agent: connection.identity,
      scope: request.scope.kind,
      toolCallId: request.scope.kind === 'session' ? request.scope.toolCallId : undefined,
      message: request.message,
      mode: 'form',
      form: schema.model,
    };
    this.pending.set(cardKey, { connection, tab: session.key, model: schema.model });
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
        const { action, content } = result.answered;
        return action === 'accept' ? { action, content: content ?? {} } : { action };
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
    if (answer.action === 'accept') {
      const content = answer.content ?? {};
      const check = checkAnswer(pending.model, content);
      if (!check.ok) {
        const reasons = check.errors.map((error) =>
          error.field
            ? `${fieldTitle(pending.model, error.field)}: ${error.message}`
            : error.message,
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
function endedAnswer(ended: CardEnd): acp.CreateElicitationResponse {
  if (ended === 'withdrawn') {
    throw acp.RequestError.requestCancelled();
  }
  return { action: 'cancel' };
}

function invalid(reason: string): acp.RequestError {
  return acp.RequestError.invalidParams(undefined, reason);
}

function fieldTitle(model: FormModel, name: string): string {
  return model.fields.find((field) => field.name === name)?.title ?? name;
}
