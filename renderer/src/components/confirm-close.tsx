/**
 * Asks before closing a session that is busy: a turn running, or cards waiting on the user.
 * Enter closes it (the Close button has the focus), Esc keeps it open.
 */
import type { SessionSummary } from '../../../preload/shared/contract';
import { tabLabel } from '../state/tabs';
import { ModalDialog } from './modal-dialog';

type Props = {
  session: SessionSummary;
  onConfirm(): void;
  onCancel(): void;
};

function whatStops(session: SessionSummary): string {
  const waiting = session.pendingCards;
  const them = waiting === 1 ? 'it' : 'them';
  const cards = waiting === 1 ? 'a question waits for you' : `${waiting} questions wait for you`;
  if (session.status === 'prompting' && waiting > 0) {
    return `The agent is working and ${cards}. Closing the session cancels the turn and answers ${them} “cancelled”.`;
  }
  if (waiting > 0) {
    return `${waiting === 1 ? 'A question waits' : `${waiting} questions wait`} for you. Closing the session answers ${them} “cancelled”.`;
  }
  return 'The agent is working. Closing the session cancels the turn.';
}

/** The confirmation. */
export function ConfirmClose({ session, onConfirm, onCancel }: Props) {
  return (
    <ModalDialog
      title={`Close “${tabLabel(session)}”?`}
      description={whatStops(session)}
      className="confirm-close"
      onClose={onCancel}
    >
      <div className="dialog-actions">
        <button type="button" className="danger" data-autofocus onClick={onConfirm}>
          Close session
        </button>
        <button type="button" onClick={onCancel}>
          Keep it open
        </button>
      </div>
    </ModalDialog>
  );
}
