/**
 * Starts a session: a small dialog with the agent (the last one chosen, else the first, or one
 * more from the ACP registry's catalogue), the
 * working folder (typed, one of the folders used recently, most recent first, or picked with the
 * host's dialog where it has one), and Start session.
 *
 * Enter starts from any of its fields, the agent's and the folders' radio buttons included
 * (arrow keys move between those); Esc and Cancel close it and start nothing. The core checks
 * the folder before anything starts; when it refuses, the dialog stays and says why beside the
 * field. Once a session has started the dialog closes and leaves the focus to the new session.
 */
import { FolderOpen } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { AgentEntry, AirlockApi } from '../../../preload/shared/contract';
import { initialChoice, keepChoice } from '../state/new-session-choice';
import { folderName } from '../state/tabs';
import { focusWhenReady } from './composer';
import { ModalDialog } from './modal-dialog';
import './new-session.css';
import { shownName } from '../state/agent-names';

type Props = {
  api: AirlockApi;
  agents: AgentEntry[];
  defaultCwd: string;
  canPickFolder: boolean;
  /** A session started: show it (the dialog is closed by then). */
  onCreated(key: string): void;
  /** Closed without starting anything. */
  onClose(): void;
  /** Closes the dialog and opens the ACP registry's catalogue, to add an agent. */
  onAddAgent?(): void;
};

/** How many recent folders the dialog offers. */
const RECENT_SHOWN = 5;

/** The new-session dialog; mounted while it is open. */
export function NewSessionDialog({
  api,
  agents,
  defaultCwd,
  canPickFolder,
  onCreated,
  onClose,
  onAddAgent,
}: Props) {
  const [initial] = useState(() =>
    initialChoice(
      agents.map((agent) => agent.name),
      defaultCwd,
    ),
  );
  const [agentName, setAgentName] = useState(initial.agentName);
  const [cwd, setCwd] = useState(initial.cwd);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [recent, setRecent] = useState<string[]>([]);
  const folderField = useRef<HTMLInputElement>(null);
  const started = useRef(false);
  const id = useId();
  const folderId = `${id}-folder`;
  const errorId = `${id}-error`;

  // The list lives in the core (other windows add to it too): read it each time the dialog opens.
  const loadRecent = useCallback(() => {
    api.invoke('app:getRecentFolders', {}).then(
      ({ folders }) => setRecent(folders.slice(0, RECENT_SHOWN)),
      () => undefined,
    );
  }, [api]);
  useEffect(loadRecent, [loadRecent]);

  const folder = cwd.trim();
  const ready = !busy && agentName !== '' && folder !== '';

  const submit = async () => {
    if (!ready) {
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const { key } = await api.invoke('session:create', { agentName, cwd: folder });
      keepChoice({ agentName, cwd: folder });
      // The new session takes the focus once it is shown and ready, not the button that opened
      // this dialog.
      started.current = true;
      focusWhenReady(key);
      onCreated(key);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
      folderField.current?.focus();
    }
  };

  // Enter starts from every field: a radio button's Enter would otherwise do nothing, and the
  // folder field's would submit the form a second time. Buttons keep their own Enter.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    if (
      event.key !== 'Enter' ||
      event.defaultPrevented ||
      event.nativeEvent.isComposing ||
      event.altKey ||
      event.ctrlKey ||
      event.metaKey ||
      event.shiftKey ||
      target instanceof HTMLButtonElement
    ) {
      return;
    }
    event.preventDefault();
    void submit();
  };

  return (
    <ModalDialog
      title="New session"
      className="new-session-dialog"
      onClose={onClose}
      returnFocus={() => !started.current}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        onKeyDown={onKeyDown}
      >
        <fieldset className="new-session-agents">
          <legend>Agent</legend>
          {agents.map((agent) => (
            <label key={agent.name} className="new-session-option">
              <input
                type="radio"
                name={`${id}-agent`}
                value={agent.name}
                checked={agent.name === agentName}
                onChange={() => setAgentName(agent.name)}
                data-autofocus={agent.name === agentName ? true : undefined}
              />
              <span className="new-session-option-name">{shownName(agent)}</span>
            </label>
          ))}
          {onAddAgent ? (
            <button type="button" className="new-session-add-agent" onClick={onAddAgent}>
              Add an agent from the registry…
            </button>
          ) : null}
        </fieldset>
        <label className="new-session-field-label" htmlFor={folderId}>
          Working folder
        </label>
        <div className="new-session-folder">
          <input
            id={folderId}
            ref={folderField}
            value={cwd}
            onChange={(event) => {
              setCwd(event.target.value);
              setError(undefined);
            }}
            spellCheck={false}
            autoComplete="off"
            required
            aria-invalid={error !== undefined}
            aria-describedby={error !== undefined ? errorId : undefined}
          />
          {canPickFolder ? (
            <button
              type="button"
              onClick={() =>
                api.invoke('app:pickFolder', {}).then(
                  ({ path }) => {
                    if (path) {
                      setCwd(path);
                      setError(undefined);
                    }
                  },
                  (failure: unknown) => setError((failure as Error).message),
                )
              }
            >
              <FolderOpen aria-hidden="true" size={16} />
              Choose folder…
            </button>
          ) : null}
        </div>
        {error ? (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {recent.length > 0 ? (
          <fieldset className="new-session-recent">
            <legend>Recent folders</legend>
            {recent.map((path) => (
              <label key={path} className="new-session-option" title={path}>
                <input
                  type="radio"
                  name={`${id}-recent`}
                  value={path}
                  // Named by the whole path: two folders may share their last name.
                  aria-label={path}
                  checked={path === folder}
                  onChange={() => {
                    setCwd(path);
                    setError(undefined);
                  }}
                />
                <span className="new-session-option-name">{folderName(path)}</span>
                <span className="new-session-option-path">{path}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!ready}>
            Start session
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
