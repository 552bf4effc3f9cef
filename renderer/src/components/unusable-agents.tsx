/**
 * The `agent_servers` entries of the settings file that Airlock cannot use, each with why (the
 * file, the line and the field), so the user can fix them; every other agent is still offered.
 * An entry can be removed from here unless it takes the built-in agent's name.
 */
import { useId } from 'react';
import type { UnusableAgent } from '../../../preload/shared/contract';
import './unusable-agents.css';

/** The list of unusable entries; nothing when there are none. */
export function UnusableAgents({
  entries,
  reserved,
  removable,
  lockedBy,
  onRemove,
}: {
  entries: UnusableAgent[] | undefined;
  /** Names no entry can be removed by (the built-in agent's). */
  reserved: string[];
  removable: boolean;
  lockedBy: string | undefined;
  onRemove(name: string): void;
}) {
  const headingId = useId();
  if (!entries?.length) {
    return null;
  }
  return (
    <section className="agent-settings-section unusable-agents" aria-labelledby={headingId}>
      <h3 id={headingId}>Agents that cannot be used</h3>
      <p className="agent-settings-hint">
        These entries of the settings file are left out; every other agent is offered. Fix them in
        the file, or remove them.
      </p>
      <ul className="unusable-agent-list" aria-label="Unusable entries">
        {entries.map((entry, index) => (
          <li key={`${index}:${entry.name}`} className="unusable-agent">
            <div className="unusable-agent-text">
              <strong className="unusable-agent-name">{entry.name || '(no name)'}</strong>
              <p className="unusable-agent-reason">{entry.reason}</p>
            </div>
            {reserved.includes(entry.name) ? null : (
              <button
                type="button"
                aria-label={`Remove ${entry.name}`}
                disabled={!removable}
                aria-describedby={lockedBy}
                onClick={() => onRemove(entry.name)}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
