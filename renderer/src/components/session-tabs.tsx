/**
 * The open sessions, as a vertical tab list: Up and Down move between them (wrapping), Home and
 * End go to the first and the last, and only the shown session's tab is in the Tab order.
 *
 * Each tab names its session (see tabLabel), shows its folder and agent, and says when the
 * session waits for the user. Double-click, F2 or its Rename button puts a text field over the
 * tab: Enter saves the name, Esc keeps the old one.
 */
import './session-tabs.css';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import type { SessionSummary } from '../../../preload/shared/contract';
import { MAX_SESSION_NAME_CHARS } from '../../../preload/shared/contract-plain';
import { ariaKeyShortcuts } from '../keyboard';
import { folderName, tabLabel, waitsForUser } from '../state/tabs';
import { SESSION_PANEL_ID } from './session-panel-id';
import { ShownAgentName } from '../state/agent-names';

type Props = {
  sessions: SessionSummary[];
  activeKey: string | undefined;
  onActivate(key: string): void;
  /** Asked to close a session (the app asks first when it is busy). */
  onClose(key: string): void;
  /** The session whose name is being edited, if one is. */
  renaming: string | undefined;
  onRenameStart(key: string): void;
  /** Ends the edit: with the name typed, or `undefined` to keep the old one. */
  onRenameEnd(key: string, title: string | undefined): void;
  /** Whether the link to the core is down: no tab can tell its session's state then. */
  disconnected?: boolean;
};

const STATUS_TEXT: Record<SessionSummary['status'], string> = {
  starting: 'Starting…',
  auth_required: 'Sign-in required',
  ready: 'Ready',
  prompting: 'Working…',
  exited: 'Agent exited',
  failed: 'Failed',
  closed: 'Closed',
};

/** The session tab list. */
export function SessionTabs({
  sessions,
  activeKey,
  onActivate,
  onClose,
  renaming,
  onRenameStart,
  onRenameEnd,
  disconnected = false,
}: Props) {
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const tabbable = sessions.some((session) => session.key === activeKey)
    ? activeKey
    : sessions[0]?.key;

  // When an edit ends with the focus nowhere (its field went away), the focus goes back to the
  // tab; an edit left by clicking elsewhere leaves the focus there.
  const edited = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (renaming !== undefined) {
      edited.current = renaming;
      return;
    }
    const key = edited.current;
    edited.current = undefined;
    if (key !== undefined && (document.activeElement ?? document.body) === document.body) {
      tabs.current.get(key)?.focus();
    }
  }, [renaming]);

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const target: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: sessions.length - 1,
    };
    const to = target[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    event.preventDefault();
    const next = sessions[(to + sessions.length) % sessions.length]!;
    onActivate(next.key);
    tabs.current.get(next.key)?.focus();
  };

  return (
    // A tablist holds only tabs, so each tab's buttons sit in a column beside it, and the field
    // that renames a tab lies over it in a layer of its own.
    <div className="session-list">
      <div role="tablist" aria-orientation="vertical" aria-label="Open sessions">
        {sessions.map((session, index) => {
          const waiting = waitsForUser(session);
          return (
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
              className={`session-tab${waiting ? ' waits' : ''}`}
              data-session={session.key}
              aria-selected={session.key === activeKey}
              aria-controls={session.key === activeKey ? SESSION_PANEL_ID : undefined}
              tabIndex={session.key === tabbable ? 0 : -1}
              // The full path, as a tooltip and the tab's description.
              title={session.cwd}
              onClick={() => onActivate(session.key)}
              onDoubleClick={() => onRenameStart(session.key)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              <span className="tab-title">{tabLabel(session)}</span>
              <span className="tab-where">
                <span className="tab-folder">{folderName(session.cwd)}</span>
                <span className="tab-agent">
                  <ShownAgentName name={session.agentName} />
                </span>
              </span>
              {disconnected ? (
                <span className="tab-status status-disconnected">Disconnected</span>
              ) : (
                <span className={`tab-status status-${session.status}`}>
                  {waiting ? 'Waits for you' : STATUS_TEXT[session.status]}
                </span>
              )}
              {waiting ? <span className="tab-waiting">{session.pendingCards} waiting</span> : null}
            </button>
          );
        })}
      </div>
      {renaming !== undefined ? (
        <div className="session-rename-layer">
          {sessions.map((session) =>
            session.key === renaming ? (
              <RenameField
                key={session.key}
                session={session}
                onEnd={(title) => onRenameEnd(session.key, title)}
              />
            ) : (
              <div key={session.key} />
            ),
          )}
        </div>
      ) : null}
      <div className="session-closers">
        {sessions.map((session) => {
          const label = tabLabel(session);
          const shown = session.key === activeKey;
          return (
            <div key={session.key} className="tab-actions">
              <button
                type="button"
                className="close"
                aria-label={`Close session “${label}”`}
                aria-keyshortcuts={shown ? ariaKeyShortcuts('closeSession') : undefined}
                title="Close"
                onClick={() => onClose(session.key)}
              >
                ×
              </button>
              <button
                type="button"
                className="rename"
                aria-label={`Rename session “${label}”`}
                aria-keyshortcuts={shown ? ariaKeyShortcuts('renameSession') : undefined}
                title="Rename"
                onClick={() => onRenameStart(session.key)}
              >
                ✎
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * The text field that renames a tab. Enter saves, Esc cancels, leaving it saves; a name left as
 * it was changes nothing, and an empty one gives the tab back its own name.
 */
function RenameField({
  session,
  onEnd,
}: {
  session: SessionSummary;
  onEnd(title: string | undefined): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const hint = useId();
  const initial = session.userTitle ?? tabLabel(session);
  const ended = useRef(false);

  useEffect(() => {
    const field = input.current;
    field?.focus();
    // All of it selected, with its start in view.
    field?.setSelectionRange(0, field.value.length, 'backward');
  }, []);

  const end = (save: boolean) => {
    if (ended.current) {
      return;
    }
    ended.current = true;
    const typed = input.current?.value ?? initial;
    onEnd(save && typed !== initial ? typed : undefined);
  };

  return (
    <form
      className="session-rename"
      onSubmit={(event) => {
        event.preventDefault();
        end(true);
      }}
    >
      <input
        ref={input}
        aria-label={`New name for session “${tabLabel(session)}”`}
        aria-describedby={hint}
        defaultValue={initial}
        maxLength={MAX_SESSION_NAME_CHARS}
        spellCheck={false}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Only the edit ends: nothing behind it (a running turn's Esc) takes the key.
            event.preventDefault();
            event.stopPropagation();
            end(false);
          }
        }}
        onBlur={() => end(true)}
      />
      <span id={hint} className="visually-hidden">
        Enter saves, Esc cancels. An empty name gives the session back its own.
      </span>
    </form>
  );
}
