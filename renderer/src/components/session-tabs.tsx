/**
 * The open sessions, as a vertical tab list: Up and Down move between them (wrapping), Home and
 * End go to the first and the last, and only the shown session's tab is in the Tab order.
 */
import { useRef, type KeyboardEvent } from 'react';
import type { SessionSummary } from '../../../preload/contract';
import { SESSION_PANEL_ID } from './session-view';

type Props = {
  sessions: SessionSummary[];
  activeKey: string | undefined;
  onActivate(key: string): void;
  onClose(key: string): void;
};

/** The session tab list. */
export function SessionTabs({ sessions, activeKey, onActivate, onClose }: Props) {
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const tabbable = sessions.some((session) => session.key === activeKey)
    ? activeKey
    : sessions[0]?.key;

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const target: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: sessions.length - 1,
    };
    const to = target[event.key];
    if (to === undefined) {
      return;
    }
    event.preventDefault();
    const next = sessions[(to + sessions.length) % sessions.length]!;
    onActivate(next.key);
    tabs.current.get(next.key)?.focus();
  };

  return (
    // A tablist holds only tabs, so each tab's close button sits in a column beside it.
    <div className="session-list">
      <div role="tablist" aria-orientation="vertical" aria-label="Open sessions">
        {sessions.map((session, index) => (
          <button
            key={session.key}
            ref={(element) => {
              if (element) {
                tabs.current.set(session.key, element);
              } else {
                tabs.current.delete(session.key);
              }
            }}
            type="button"
            role="tab"
            className="session-tab"
            aria-selected={session.key === activeKey}
            aria-controls={session.key === activeKey ? SESSION_PANEL_ID : undefined}
            tabIndex={session.key === tabbable ? 0 : -1}
            onClick={() => onActivate(session.key)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            <span className="tab-title">
              {session.title ?? session.agent?.title ?? session.agentName}
            </span>
            <span className={`tab-status status-${session.status}`}>
              {session.status.replace('_', ' ')}
            </span>
            {session.pendingCards > 0 ? (
              <span className="tab-waiting">{session.pendingCards} waiting</span>
            ) : null}
          </button>
        ))}
      </div>
      <div className="session-closers">
        {sessions.map((session) => (
          <button
            key={session.key}
            type="button"
            className="close"
            aria-label={`Close session with ${session.agentName}`}
            onClick={() => onClose(session.key)}
          >
            ×
          </button>
        ))}
      </div>
    </div>
  );
}
