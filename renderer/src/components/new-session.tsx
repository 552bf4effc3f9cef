/**
 * Starts a session: pick an agent (the demo agent is the default) and a working folder.
 */
import { useState } from 'react';
import type { AgentEntry, AirlockApi } from '../../../preload/contract';

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

  const submit = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const { key } = await api.invoke('session:create', { agentName, cwd: cwd.trim() });
      onCreated(key);
    } catch (failure) {
      setError((failure as Error).message);
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
          value={cwd}
          onChange={(event) => setCwd(event.target.value)}
          spellCheck={false}
          required
        />
      </label>
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
      {error ? <p role="alert">{error}</p> : null}
    </form>
  );
}
