/**
 * An elicitation as a compact transcript row: the question where it was asked, and once it has
 * ended, how: accepted with the values sent, declined, cancelled, or closed and why (with what
 * the user had typed, see typed-answers.tsx). While it waits, the row says only that, with a way
 * to the card: the card itself is on the stage (the dock), where the list cannot unmount it, and
 * the question is not shown twice.
 */
import './elicitation-row.css';
import type { CardEnd, ElicitationAction } from '../../../preload/shared/contract';
import { answerLines } from '../forms/answer-text';
import { AgentQuote } from './agent-words';
import { askerName } from './card-head';
import type { ElicitationRow } from './elicitation-card';
import { EndedOutcome } from './typed-answers';
import { WaitingLine } from './waiting-row';

const ENDED: Record<CardEnd, string> = {
  withdrawn: 'Withdrawn by the agent',
  turn_cancelled: 'Closed: the turn was cancelled',
  tab_closed: 'Closed: the tab was closed',
  agent_exited: 'Closed: the agent exited',
};

const ANSWERED: Record<ElicitationAction, string> = {
  accept: 'Accepted',
  decline: 'Declined',
  cancel: 'Cancelled',
};

/** How a card ended, in a few words. */
function outcomeText(resolved: NonNullable<ElicitationRow['resolved']>): string {
  return resolved.ended ? ENDED[resolved.ended] : ANSWERED[resolved.action];
}

function Outcome({
  row,
  resolved,
}: {
  row: ElicitationRow;
  resolved: NonNullable<ElicitationRow['resolved']>;
}) {
  if (resolved.ended) {
    return <EndedOutcome cardKey={row.cardKey} form={row.form} text={outcomeText(resolved)} />;
  }
  const state = resolved.action;
  if (resolved.action !== 'accept') {
    return <p className={`elicitation-outcome outcome-${state}`}>{outcomeText(resolved)}</p>;
  }
  const lines = answerLines(row.form, resolved.content ?? {});
  return (
    <div className="elicitation-outcome outcome-accept">
      <p>{lines.length > 0 ? 'Accepted. Sent:' : 'Accepted, with no answers filled in'}</p>
      {lines.length > 0 ? (
        <dl className="sent-values">
          {lines.map((line) => (
            <div key={line.name}>
              <dt>{line.label}</dt>
              <dd>{line.text}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

/** The transcript row of an elicitation. */
export function ElicitationRowView({ row }: { row: ElicitationRow }) {
  const title = row.form.title;
  if (!row.resolved) {
    return (
      <div
        className="elicitation-row open"
        role="group"
        aria-label={`Question from ${askerName(row.agent)}`}
      >
        <WaitingLine
          text={`${askerName(row.agent)} asks a question. Waiting for your answer`}
          go="Go to the question"
        />
      </div>
    );
  }
  return (
    <div
      className={`elicitation-row${row.resolved ? '' : ' open'}`}
      role="group"
      aria-label={`Question from ${askerName(row.agent)}`}
    >
      <p className="elicitation-row-head">
        <span className="card-asker">{askerName(row.agent)}</span>{' '}
        {/* Nothing of a tool call here: the row cannot tell a known call from a raw id. */}
        {row.scope === 'request' ? 'asked while the tab started' : 'asked'}
        {title ? (
          <>
            : <AgentQuote text={title} className="elicitation-row-title" />
          </>
        ) : null}
      </p>
      <p className="card-message">{row.message}</p>
      <Outcome row={row} resolved={row.resolved} />
    </div>
  );
}
