/**
 * Finds and focuses the card that waits on the user in the shown session: the one the dock
 * shows (a permission request, a form or a URL to open).
 */

// As the dock focuses a card when it appears: a URL card itself (no keystroke opens anything by
// accident), else a form's first field, else a permission card's first choice.
// Only the shown pane's dock: the panes of tabs shown before stay drawn, hidden.
const CARD_CONTROLS = [
  '.session:not([hidden]) .dock .url-card',
  '.session:not([hidden]) .dock :is(.card-form, .card-actions) :is(input:not([type=hidden]), select, textarea, button):not(:disabled)',
  '.session:not([hidden]) .dock .permission-options button:not(:disabled)',
];

/** Whether `element` is inside a card that waits on the user. */
export function inWaitingCard(element: Element | null): boolean {
  return element?.closest('.dock.has-card') != null;
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
 * Focuses the first control of the card waiting in the shown session, and brings it into view;
 * whether there was one to focus.
 */
export function focusShownCard(): boolean {
  const control = cardControl();
  if (!control) {
    return false;
  }
  control.focus({ preventScroll: true });
  control.scrollIntoView({ block: 'nearest' });
  return document.activeElement === control;
}

/**
 * Focuses the first control of the waiting card of session `key` once that session is shown and
 * its card can take it (React draws the session a moment after its tab is picked).
 * Gives up after about a second; while another session is shown, it does nothing.
 */
export function focusWaitingCard(key: string, frames = 60): void {
  const attempt = (left: number) => {
    const shown = document.querySelector<HTMLElement>('[role=tab][aria-selected=true]');
    const control = shown?.dataset.session === key ? cardControl() : null;
    // The session the tab shows may not be drawn yet: try again until its card has the focus.
    control?.focus({ preventScroll: true });
    if (control && document.activeElement === control) {
      // A permission card's choices stick to the dock's foot: they are in view already.
      if (!control.closest('.permission-answer')) {
        control.scrollIntoView({ block: 'nearest' });
      }
      return;
    }
    if (left > 0) {
      requestAnimationFrame(() => attempt(left - 1));
    }
  };
  requestAnimationFrame(() => attempt(frames));
}
