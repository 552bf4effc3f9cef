/**
 * What the user has entered on open elicitation cards, kept outside React.
 *
 * A card's component can unmount while the card is still open (the user switches tabs, and the
 * session view is rebuilt), so its values live here, by card key, until the card ends. When a
 * card ends without the user's answer (withdrawn, the turn cancelled, the agent exited, the tab
 * closed), what they had typed stays here for its transcript row to show, for the page's life,
 * for the last KEPT_ENDED such cards; it is never sent anywhere.
 */
import type { FormValues } from '../../../preload/shared/form-validator';

/** An open card's state: the values, which fields were worked on, and its last refusal. */
export type CardDraft = {
  values: FormValues;
  /** Fields the user changed or left: their errors show. */
  touched: readonly string[];
  /** Whether Accept was tried: every error shows. */
  submitted: boolean;
  /** Why the last answer was not taken (main's refusal, say), shown on the card. */
  refusal?: string;
};

/** How many ended cards keep what the user had typed on them, the newest. */
export const KEPT_ENDED = 50;

const drafts = new Map<string, CardDraft>();
/** The values each open card started with: what differs from them is what the user typed. */
const initial = new Map<string, FormValues>();
const ended = new Set<string>();
/** What the user had typed on ended cards, oldest first. */
const typed = new Map<string, FormValues>();

/** No answer: absent, an empty text, or no choice. */
function blank(value: unknown): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The values of `values` that differ from `from`: what the user typed. */
function changedValues(from: FormValues, values: FormValues): FormValues {
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const before = Object.hasOwn(from, name) ? from[name] : undefined;
    if (blank(value) ? !blank(before) : JSON.stringify(value) !== JSON.stringify(before)) {
      changed[name] = value;
    }
  }
  return changed;
}

/** The card's draft, or a fresh one (kept) when it has none. */
export function loadDraft(cardKey: string, fresh: () => CardDraft): CardDraft {
  const draft = drafts.get(cardKey);
  if (draft) {
    return draft;
  }
  const created = fresh();
  if (!ended.has(cardKey)) {
    drafts.set(cardKey, created);
    initial.set(cardKey, created.values);
  }
  return created;
}

/** Keeps the card's draft; a card that has ended keeps nothing. */
export function saveDraft(cardKey: string, draft: CardDraft): void {
  if (!ended.has(cardKey)) {
    drafts.set(cardKey, draft);
  }
}

/** What the user typed on the card, or undefined when they typed nothing. */
function typedOn(cardKey: string): FormValues | undefined {
  const draft = drafts.get(cardKey);
  const changed = draft && changedValues(initial.get(cardKey) ?? {}, draft.values);
  return changed && Object.keys(changed).length > 0 ? changed : undefined;
}

/**
 * Ends the card's draft for good: nothing is kept for the card any more, but what the user had
 * typed on it, which its transcript row shows (typedAnswers).
 */
export function endDraft(cardKey: string): void {
  const kept = ended.has(cardKey) ? undefined : typedOn(cardKey);
  drafts.delete(cardKey);
  initial.delete(cardKey);
  ended.add(cardKey);
  if (kept) {
    typed.set(cardKey, kept);
    for (const oldest of typed.keys()) {
      if (typed.size <= KEPT_ENDED) {
        break;
      }
      typed.delete(oldest);
    }
  }
}

/**
 * What the user had typed on a card (the values they changed), for its transcript row: from its
 * open draft, or once the card has ended, as endDraft kept it. Undefined when nothing was typed,
 * or the card is older than the last KEPT_ENDED ended ones.
 */
export function typedAnswers(cardKey: string): FormValues | undefined {
  return typed.get(cardKey) ?? (ended.has(cardKey) ? undefined : typedOn(cardKey));
}

/**
 * Whether Esc on the open card asks "Discard your answers?" before cancelling it: only when the
 * user changed something on it (typing then erasing back to how it started is no change), and
 * it is not asking already (a second Esc discards).
 */
export function escapeAsks(cardKey: string, asking: boolean): boolean {
  return !asking && typedOn(cardKey) !== undefined;
}
