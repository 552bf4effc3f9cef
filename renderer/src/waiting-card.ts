/**
 * Finds and focuses the card that waits on the user in the shown session: the question in the
 * dock, else a permission card in the transcript.
 */

// As the dock focuses a card when it appears: a URL card itself (no keystroke opens anything by
// accident), else a form's first field; then a permission card's first choice.
const CARD_CONTROLS = [
  '.dock .url-card',
  '.dock :is(.card-form, .card-actions) :is(input:not([type=hidden]), select, textarea, button):not(:disabled)',
  '.permission .permission-options button:not(:disabled)',
];

/** Whether `element` is inside a card that waits on the user. */
export function inWaitingCard(element: Element | null): boolean {
  return element?.closest('.dock.has-card, .permission:has(.permission-options)') != null;
}

function cardControl(): HTMLElement | null {
  for (const selector of CARD_CONTROLS) {
    const control = document.querySelector<HTMLElement>(selector);
    if (control) {
      return control;
    }
  }
  return null;
}

/**
 * Focuses the first control of the waiting card of session `key` once that session is shown and
 * its card can take it (the transcript draws its rows a few frames after the session appears).
 * Gives up after about a second; while another session is shown, it does nothing.
 */
export function focusWaitingCard(key: string, frames = 60): void {
  const attempt = (left: number) => {
    const shown = document.querySelector<HTMLElement>('[role=tab][aria-selected=true]');
    const control = shown?.dataset.session === key ? cardControl() : null;
    // A control can be drawn before it can take focus (the transcript shows its rows only once
    // it has scrolled to its end): try again until it has it.
    control?.focus({ preventScroll: true });
    if (control && document.activeElement === control) {
      control.scrollIntoView({ block: 'nearest' });
      return;
    }
    if (left > 0) {
      requestAnimationFrame(() => attempt(left - 1));
    }
  };
  requestAnimationFrame(() => attempt(frames));
}
