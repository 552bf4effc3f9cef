/**
 * What a card's transcript row says while the card waits: only that it waits, with a button that
 * takes the focus to the card on the stage (the card itself is shown once, there).
 */
import { ArrowDown } from 'lucide-react';
import { focusShownCard } from '../waiting-card';

/** The waiting line of a card's row: `text` says what waits, `go` names the button. */
export function WaitingLine({ text, go }: { text: string; go: string }) {
  return (
    <p className="row-waiting outcome-waiting">
      <span>{text}</span>
      <button type="button" className="row-go" onClick={() => focusShownCard()}>
        <ArrowDown size={14} aria-hidden="true" />
        {go}
      </button>
    </p>
  );
}
