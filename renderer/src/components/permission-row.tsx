/**
 * A permission request as a compact transcript row: what was asked, where it was asked, and
 * once it has ended, how: allowed once or always, rejected, or cancelled and by whom. While it
 * waits, the row says only that, with a way to the card on the stage (the dock), where the list
 * cannot unmount it.
 */
import './permission.css';
import type { CardEnd, PermissionOptionView } from '../../../preload/shared/contract';
import { AgentQuote } from './agent-words';
import { askerName } from './card-head';
import { ASKS, permissionSubject, type PermissionRow } from './permission-card';
import { WaitingLine } from './waiting-row';

const CHOSEN: Record<PermissionOptionView['kind'], string> = {
  allow_once: 'Allowed once',
  allow_always: 'Always allowed',
  reject_once: 'Rejected',
  reject_always: 'Always rejected',
};

// Who ended it, when it was not the user's answer.
const ENDED: Record<CardEnd, string> = {
  turn_cancelled: 'Cancelled: the turn was cancelled',
  withdrawn: 'Cancelled: the agent withdrew the request',
  tab_closed: 'Cancelled: the tab was closed',
  agent_exited: 'Cancelled: the agent exited',
};

/** How a permission request ended, in a few words, and the class its colour comes from. */
export function permissionOutcome(row: PermissionRow): { text: string; tone: string } {
  const outcome = row.outcome;
  if (outcome === undefined) {
    return { text: 'Waiting for your answer', tone: 'waiting' };
  }
  if (outcome.outcome === 'cancelled') {
    return { text: row.ended ? ENDED[row.ended] : 'Cancelled by you', tone: 'ended' };
  }
  const option = row.options.find((choice) => choice.optionId === outcome.optionId);
  if (!option) {
    return { text: 'Answered with an option the card did not offer', tone: 'ended' };
  }
  return {
    text: `${CHOSEN[option.kind]}: you chose “${option.name}”`,
    tone: option.kind.startsWith('allow') ? 'allowed' : 'rejected',
  };
}

/** The transcript row of a permission request. */
export function PermissionRowView({ row }: { row: PermissionRow }) {
  const { title, kind } = permissionSubject(row);
  const { text, tone } = permissionOutcome(row);
  if (tone === 'waiting') {
    return (
      <div
        className="permission-row permission-row-waiting"
        role="group"
        aria-label={`Permission asked: ${title}`}
      >
        <WaitingLine
          text="A permission request is waiting for your answer"
          go="Go to the request"
        />
      </div>
    );
  }
  return (
    <div
      className={`permission-row permission-row-${tone}`}
      role="group"
      aria-label={`Permission asked: ${title}`}
    >
      <p className="permission-row-ask">
        {`${askerName(row.agent)} asked ${ASKS[kind]}: `}
        <AgentQuote text={title} className="permission-title" />
      </p>
      <p className={`permission-row-outcome outcome-${tone}`}>{text}</p>
    </div>
  );
}
