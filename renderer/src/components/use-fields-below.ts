/**
 * How many of a card's questions lie below its footer: a form taller than the stage shows its
 * Accept while some fields are out of view, and the footer says so in words ("9 questions · 3
 * more below"). Measured from the layout when the stage scrolls or changes size (tabbing through
 * the fields scrolls it too); no timers.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

/** Where the card's questions stand: undefined while every one fits between head and footer. */
export type FieldsBelow = { total: number; below: number } | undefined;

/** The footer's words for `state`, or undefined when there is nothing to say. */
export function belowText(state: FieldsBelow): string | undefined {
  if (state === undefined) {
    return undefined;
  }
  const questions = state.total === 1 ? '1 question' : `${state.total} questions`;
  return state.below === 0
    ? `${questions} · none below`
    : `${questions} · ${state.below} more below`;
}

// A card's questions: a field that stands alone, or a question with its "Other" or note.
const QUESTIONS = '.card-fields > .field, .card-fields > .question';

/** The part of the card between its head and its footer, in the page's pixels. */
function viewOf(card: HTMLElement, foot: Element): { top: number; bottom: number } {
  const scroller = card.closest('.dock');
  const head = card.querySelector('.card-head');
  const view = scroller?.getBoundingClientRect();
  return {
    top: Math.max(view?.top ?? 0, head?.getBoundingClientRect().bottom ?? 0),
    bottom: Math.min(view?.bottom ?? window.innerHeight, foot.getBoundingClientRect().top),
  };
}

/**
 * The first of the card's questions, other than the one holding the focus, that reaches below
 * its footer, if any.
 */
export function firstBelow(card: HTMLElement): HTMLElement | undefined {
  const foot = card.querySelector('.card-actions');
  if (!foot) {
    return undefined;
  }
  const { bottom } = viewOf(card, foot);
  // The question the user is in has been seen: only the ones after it count.
  return [...card.querySelectorAll<HTMLElement>(QUESTIONS)].find(
    (question) =>
      !question.contains(document.activeElement) &&
      question.getBoundingClientRect().bottom > bottom + 1,
  );
}

function measure(card: HTMLElement): FieldsBelow {
  const fields = card.querySelectorAll<HTMLElement>(QUESTIONS);
  const foot = card.querySelector('.card-actions');
  if (fields.length === 0 || !foot) {
    return undefined;
  }
  const { top, bottom } = viewOf(card, foot);
  let below = 0;
  let fits = true;
  for (const field of fields) {
    const box = field.getBoundingClientRect();
    if (box.bottom > bottom + 1) {
      below += 1;
      fits = false;
    } else if (box.top < top - 1) {
      fits = false;
    }
  }
  // A form scrolled to its end has fields above the head: it does not fit, though none is below.
  return fits ? undefined : { total: fields.length, below };
}

const same = (a: FieldsBelow, b: FieldsBelow) =>
  a === b || (a !== undefined && b !== undefined && a.total === b.total && a.below === b.below);

/** The questions of the card in `card` that are below its footer, kept up as the stage moves. */
export function useFieldsBelow(card: RefObject<HTMLElement | null>): FieldsBelow {
  const [state, setState] = useState<FieldsBelow>(undefined);
  useLayoutEffect(() => {
    const element = card.current;
    if (!element) {
      return undefined;
    }
    const update = () => {
      const next = measure(element);
      setState((current) => (same(current, next) ? current : next));
    };
    update();
    const scroller = element.closest('.dock');
    scroller?.addEventListener('scroll', update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(element);
    if (scroller) {
      resized.observe(scroller);
    }
    return () => {
      scroller?.removeEventListener('scroll', update);
      resized.disconnect();
    };
  }, [card]);
  return state;
}
