/**
 * Cards: requests from the agent that wait on the user (a permission, an elicitation).
 *
 * Every card ends exactly once: with the user's answer, or because the agent withdrew it
 * (`$/cancel_request`), the user cancelled the turn it belongs to, the tab closed or the agent
 * exited. Whoever opened the card turns that end into the agent's answer, so nothing is ever
 * left pending.
 */

/** Why a card ended without the user's answer. */
export type CardEnd = 'withdrawn' | 'turn_cancelled' | 'tab_closed' | 'agent_exited';

/** The kinds of card; an answer meant for one kind never ends another. */
export type CardKind = 'permission' | 'elicitation';

/** How a card ended: the user's answer, or why there was none. */
export type CardResult<T> = { answered: T } | { ended: CardEnd };

/** What opening a card takes. */
export type CardSpec<T> = {
  key: string;
  kind: CardKind;
  /** Whether cancelling the turn ends it (a card about a turn), or only the tab and the agent. */
  endsWithTurn: boolean;
  /**
   * Aborts when the agent withdraws the request (`$/cancel_request`, reason code -32800), or
   * when its connection closes (any other reason).
   */
  signal: AbortSignal;
  /** Shows the card (appends it to the transcript); called once, only when it opens. */
  show(): void;
  /** Records how it ended (appends that to the transcript); called once. */
  settle(result: CardResult<T>): void;
};

type Open = {
  kind: CardKind;
  endsWithTurn: boolean;
  finish(result: CardResult<unknown>): void;
};

/** The open cards of one session, in the order they opened. */
export class PendingCards {
  private readonly open = new Map<string, Open>();

  /** @param changed called whenever the number of open cards changes */
  constructor(private readonly changed: (count: number) => void) {}

  /** How many cards wait on the user. */
  get count(): number {
    return this.open.size;
  }

  /**
   * Opens a card and resolves with how it ended. When `refuse` names a reason (the tab is
   * closing, say) or the agent withdrew the request already, the card is never shown.
   */
  wait<T>(spec: CardSpec<T>, refuse?: CardEnd): Promise<CardResult<T>> {
    // The agent's `$/cancel_request` can arrive with the request, before this runs: its abort
    // has fired already then, and a listener added now would never hear it.
    const early: CardEnd | undefined = spec.signal.aborted ? abortedAs(spec.signal) : refuse;
    if (early) {
      return Promise.resolve({ ended: early });
    }
    return new Promise((resolve) => {
      const finish = (result: CardResult<unknown>) => {
        if (!this.open.delete(spec.key)) {
          return;
        }
        spec.signal.removeEventListener('abort', onAbort);
        spec.settle(result as CardResult<T>);
        this.changed(this.open.size);
        resolve(result as CardResult<T>);
      };
      const onAbort = () => finish({ ended: abortedAs(spec.signal) });
      this.open.set(spec.key, { kind: spec.kind, endsWithTurn: spec.endsWithTurn, finish });
      spec.show();
      this.changed(this.open.size);
      spec.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers an open card of `kind`; false when no such card is open. */
  answer(key: string, kind: CardKind, value: unknown): boolean {
    const card = this.open.get(key);
    if (!card || card.kind !== kind) {
      return false;
    }
    card.finish({ answered: value });
    return true;
  }

  /** Whether a card of `kind` is open under `key`. */
  has(key: string, kind: CardKind): boolean {
    return this.open.get(key)?.kind === kind;
  }

  /** Ends every open card (only those about the turn, for `turn_cancelled`), oldest first. */
  endAll(why: CardEnd): void {
    for (const card of [...this.open.values()]) {
      if (why !== 'turn_cancelled' || card.endsWithTurn) {
        card.finish({ ended: why });
      }
    }
  }
}

/** JSON-RPC's "request cancelled", the reason the SDK gives when the agent withdraws a request. */
const REQUEST_CANCELLED = -32800;

/**
 * Why an aborted request ended: withdrawn by the agent, or cut off with its connection (the
 * agent exiting, or its stream breaking).
 */
function abortedAs(signal: AbortSignal): CardEnd {
  const reason: unknown = signal.reason;
  const code =
    reason !== null && typeof reason === 'object' ? (reason as { code?: unknown }).code : undefined;
  return code === REQUEST_CANCELLED ? 'withdrawn' : 'agent_exited';
}
