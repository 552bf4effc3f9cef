/**
 * The head every card from the agent carries: who asks, for which tab and tool call, where the
 * card stands among those waiting, and, behind Details, the command that launched the agent (the
 * spec: clients MUST clearly identify who asks).
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { AgentIdentity } from '../../../preload/shared/contract';
import './stage.css';

/** How a card names who asks: the agent's title (or name) and version. */
export function askerName(agent: AgentIdentity): string {
  const who = agent.title ?? agent.name ?? agent.configName;
  return agent.version ? `${who} ${agent.version}` : who;
}

/**
 * Where the shown card stands among the cards waiting ("1 of 3 waiting", "1 question waiting"),
 * as the stage gives it to the card it shows; none outside the stage.
 */
export const CardPosition = createContext<string | undefined>(undefined);

/** The stage's count of waiting cards, as the card's head shows it. */
export function CardCount() {
  const position = useContext(CardPosition);
  return position === undefined ? null : <p className="dock-count">{position}</p>;
}

/** A card's head; `heading` is its title, with `headingId` for the card's accessible name. */
export function CardHead({
  headingId,
  heading,
  agent,
  scope,
  sessionLabel,
  toolTitle,
}: {
  headingId: string;
  heading: ReactNode;
  agent: AgentIdentity;
  scope: 'session' | 'request';
  sessionLabel: string;
  /** The title of the tool call the card is about, when the transcript knows that call. */
  toolTitle?: string;
}) {
  return (
    <header className="card-head">
      <CardCount />
      <h3 id={headingId} className="card-asker">
        {heading}
      </h3>
      <div className="card-meta">
        <p className="card-context">
          For {sessionLabel}
          {scope === 'request' ? ', asked while this tab starts' : ''}
          {toolTitle !== undefined ? (
            <>
              {' · '}about the tool call <span className="card-tool">{toolTitle}</span>
            </>
          ) : null}
        </p>
        <details className="card-details">
          <summary>Details</summary>
          <p className="card-command">
            Launched with <code>{agent.commandLine}</code>
          </p>
        </details>
      </div>
    </header>
  );
}
