/**
 * What an empty session's transcript shows: what this agent offers (a few of its commands, that
 * "/" lists them all, attaching, its modes), as plain text. The agent's words are text, never
 * markup.
 */
import { createContext, useContext } from 'react';
import type { SessionSummary } from '../../../preload/shared/contract';
import './stage.css';
import { agentNames } from '../state/agent-names';

/** The session whose empty transcript is shown (the list draws its placeholder itself). */
export const EmptySession = createContext<SessionSummary | undefined>(undefined);

/** How many of the agent's commands the empty state names. */
const SHOWN_COMMANDS = 4;

/** The empty state, for the transcript list's placeholder. */
export function SessionEmpty() {
  const session = useContext(EmptySession);
  if (!session || session.status === 'starting') {
    return null;
  }
  const who = session.agent?.title ?? session.agent?.name ?? agentNames.of(session.agentName);
  const commands = session.commands.slice(0, SHOWN_COMMANDS);
  const images = session.promptCapabilities?.image === true;
  return (
    <section className="session-empty" aria-label={`What ${who} offers`}>
      <h3>What {who} offers</h3>
      {commands.length > 0 ? (
        <>
          <ul className="session-empty-commands">
            {commands.map((command) => (
              <li key={command.name}>
                <code>/{command.name}</code>
                {command.description ? <span>{command.description}</span> : null}
              </li>
            ))}
          </ul>
          <p>
            Type <kbd>/</kbd> in the message box to list all {session.commands.length}{' '}
            {session.commands.length === 1 ? 'command' : 'commands'}.
          </p>
        </>
      ) : null}
      <p>
        Type <kbd>@</kbd> to attach a file from the folder
        {images ? '; paste, drop or attach images too' : ''}.
      </p>
      {session.modes.length > 0 ? (
        <p>Modes: {session.modes.map((mode) => mode.name).join(', ')}.</p>
      ) : null}
    </section>
  );
}
