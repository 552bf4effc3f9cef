/**
 * What the user has entered on open elicitation cards, kept outside React.
 *
 * A card's component can unmount while the card is still open (the user switches tabs, and the
 * session view is rebuilt), so its values live here, by card key, until the card ends.
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

const drafts = new Map<string, CardDraft>();
const ended = new Set<string>();

/** The card's draft, or a fresh one (kept) when it has none. */
export function loadDraft(cardKey: string, fresh: () => CardDraft): CardDraft {
  const draft = drafts.get(cardKey);
  if (draft) {
    return draft;
  }
  const created = fresh();
  if (!ended.has(cardKey)) {
    drafts.set(cardKey, created);
  }
  return created;
}

/** Keeps the card's draft; a card that has ended keeps nothing. */
export function saveDraft(cardKey: string, draft: CardDraft): void {
  if (!ended.has(cardKey)) {
    drafts.set(cardKey, draft);
  }
}

/** Forgets the card's draft for good: the card has ended. */
export function endDraft(cardKey: string): void {
  drafts.delete(cardKey);
  ended.add(cardKey);
}
