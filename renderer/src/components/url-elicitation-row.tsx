/**
 * A URL elicitation as a compact transcript row: who asked to open which URL (in full, never a
 * link), and how it went: declined, cancelled, waiting for the page, completed, or closed and why.
 * While it waits for the user's answer the row says only that, with a way to the card on the
 * stage (the dock above the composer).
 */
import './url-card.css';
import type { CardEnd } from '../../../preload/shared/contract';
import type { UrlDone, UrlElicitationRow } from '../state/transcript';
import { askerName } from './card-head';
import { shownHost, UrlText } from './url-analysis-view';
import { WaitingLine } from './waiting-row';

const ENDED: Record<CardEnd, string> = {
  withdrawn: 'Withdrawn by the agent',
  turn_cancelled: 'Closed: the turn was cancelled',
  tab_closed: 'Closed: the tab was closed',
  agent_exited: 'Closed: the agent exited',
};

const DONE: Record<UrlDone, string> = {
  completed: 'The agent marked this step done',
  done: 'Done: you said you finished on the page',
  dismissed: 'Dismissed: you stopped waiting for the page',
  agent_exited: 'Closed while waiting for the page: the agent exited',
  tab_closed: 'Closed while waiting for the page: the tab was closed',
};

/** How the card stands, in a few words, and the class that styles it. */
function outcome(row: UrlElicitationRow): [text: string, state: string] {
  const { resolved, done } = row;
  if (!resolved) {
    return ['Waiting for your answer', 'waiting'];
  }
  if (resolved.action === 'accept') {
    if (done === undefined) {
      return [`Opened; waiting for you to finish on ${shownHost(row.url)}, below`, 'waiting'];
    }
    return [DONE[done], done === 'completed' || done === 'done' ? 'accept' : 'ended'];
  }
  if (done === 'completed') {
    return ['Closed: the agent marked this step done before you opened it', 'ended'];
  }
  if (resolved.ended) {
    return [ENDED[resolved.ended], 'ended'];
  }
  return resolved.action === 'decline' ? ['Declined', 'decline'] : ['Cancelled', 'cancel'];
}

/** The transcript row of a URL elicitation. */
export function UrlElicitationRowView({ row }: { row: UrlElicitationRow }) {
  const [text, state] = outcome(row);
  if (!row.resolved) {
    return (
      <div
        className="elicitation-row url-row open"
        role="group"
        aria-label={`Request from ${askerName(row.agent)} to open a web page`}
      >
        <WaitingLine
          text={`${askerName(row.agent)} asks you to open a web page. Waiting for your answer`}
          go="Go to the request"
        />
      </div>
    );
  }
  return (
    <div
      className={`elicitation-row url-row${state === 'waiting' ? ' open' : ''}`}
      role="group"
      aria-label={`Request from ${askerName(row.agent)} to open a web page`}
    >
      <p className="elicitation-row-head">
        <span className="card-asker">{askerName(row.agent)}</span>{' '}
        {row.scope === 'request' ? 'asked while the tab started' : 'asked'} to open a web page
        {row.toolCallId !== undefined ? ', about a tool call' : ''}
      </p>
      <p className="card-message">{row.message}</p>
      <p className="url-line">
        <UrlText url={row.url} />
      </p>
      <p className={`elicitation-outcome outcome-${state}`}>{text}</p>
    </div>
  );
}
