/**
 * Starts a session: pick an agent (the demo agent is the default) and a working folder, typed,
 * chosen from the folders used recently, or picked with the host's dialog where it has one.
 *
 * The core checks the folder (an existing one, by an absolute path) before anything starts; when
 * it refuses, the form says why beside the field and nothing is started.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { AgentEntry, AirlockApi } from '../../../preload/contract';
import { SessionHistory } from './session-history';

type Props = {
  api: AirlockApi;
  agents: AgentEntry[];
  defaultCwd: string;
  canPickFolder: boolean;
  onCreated(key: string): void;
};

/** The new-session form. */
export function NewSession({ api, agents, defaultCwd, canPickFolder, onCreated }: Props) {
  const [agentName, setAgentName] = useState(agents[0]?.name ?? '');
  const [cwd, setCwd] = useState(defaultCwd);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [recent, setRecent] = useState<string[]>([]);
  const folderField = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-recent`;
  const errorId = `${id}-error`;

  // The list lives in the core (other windows add to it too): read it now and on each visit.
  const loadRecent = useCallback(() => {
    api.invoke('app:getRecentFolders', {}).then(
      ({ folders }) => setRecent(folders),
      () => undefined,
    );
  }, [api]);
  useEffect(loadRecent, [loadRecent]);

  const submit = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const { key } = await api.invoke('session:create', { agentName, cwd: cwd.trim() });
      onCreated(key);
      loadRecent();
    } catch (failure) {
      setError((failure as Error).message);
      folderField.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="new-session"
      aria-label="New session"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label>
        Agent
        <select value={agentName} onChange={(event) => setAgentName(event.target.value)}>
          {agents.map((agent) => (
            <option key={agent.name} value={agent.name} title={agent.commandLine}>
              {agent.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Working folder
        <input
          ref={folderField}
          value={cwd}
          list={listId}
          onChange={(event) => {
            setCwd(event.target.value);
            setError(undefined);
          }}
          onFocus={loadRecent}
          spellCheck={false}
          autoComplete="off"
          required
          aria-invalid={error !== undefined}
          aria-describedby={error !== undefined ? errorId : undefined}
        />
      </label>
      <datalist id={listId}>
        {recent.map((folder) => (
          <option key={folder} value={folder} />
        ))}
      </datalist>
      {canPickFolder ? (
        <button
          type="button"
          onClick={() =>
            api.invoke('app:pickFolder', {}).then(
              ({ path }) => path && setCwd(path),
              (failure: unknown) => setError((failure as Error).message),
            )
          }
        >
          Choose folder…
        </button>
      ) : null}
      <button type="submit" disabled={busy || !agentName || !cwd.trim()}>
        Start session
      </button>
      {error ? (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <SessionHistory api={api} agentName={agentName} cwd={cwd} onReopened={onCreated} />
    </form>
  );
}
