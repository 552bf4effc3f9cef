/**
 * The head every card from the agent carries: who asks, for which tab and tool call, and the
 * command that launched the agent (the spec: clients MUST clearly identify who asks).
 */
import type { ReactNode } from 'react';
import type { AgentIdentity } from '../../../preload/contract';

/** How a card names who asks: the agent's title (or name) and version. */
export function askerName(agent: AgentIdentity): string {
  const who = agent.title ?? agent.name ?? agent.configName;
  return agent.version ? `${who} ${agent.version}` : who;
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
  toolTitle?: string;
}) {
  return (
    <header className="card-head">
      <h3 id={headingId} className="card-asker">
        {heading}
      </h3>
      <p className="card-context">
        For {sessionLabel}
        {scope === 'request' ? ', asked while this tab starts' : ''}
        {toolTitle !== undefined ? (
          <>
            {' · '}about the tool call <span className="card-tool">{toolTitle}</span>
          </>
        ) : null}
      </p>
      <p className="card-command">
        Launched with <code>{agent.commandLine}</code>
      </p>
    </header>
  );
}
