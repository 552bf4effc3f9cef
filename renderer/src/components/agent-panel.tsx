/**
 * What the user can do about the agent itself: sign in, restart it after it exited or failed,
 * and read its stderr log.
 */
import { useState } from 'react';
import type { AirlockApi, SessionSummary } from '../../../preload/contract';

/** The log viewer: the file's path and its last part. */
export function AgentLog({ api, agentName }: { api: AirlockApi; agentName: string }) {
  const [log, setLog] = useState<{ path: string; text: string } | { error: string } | undefined>();
  if (!log) {
    return (
      <button
        type="button"
        onClick={() =>
          api
            .invoke('agent:readLog', { agentName })
            .then(setLog, (error: unknown) => setLog({ error: (error as Error).message }))
        }
      >
        Show agent log
      </button>
    );
  }
  return (
    <section className="agent-log" aria-label="Agent log">
      {'error' in log ? (
        <p role="alert">{log.error}</p>
      ) : (
        <>
          <p>
            Log file: <code>{log.path}</code>
          </p>
          <pre tabIndex={0}>{log.text || '(empty)'}</pre>
        </>
      )}
      <button type="button" onClick={() => setLog(undefined)}>
        Hide agent log
      </button>
    </section>
  );
}

/** The panel above the transcript when the agent needs attention. */
export function AgentPanel({ api, session }: { api: AirlockApi; session: SessionSummary }) {
  const [error, setError] = useState<string | undefined>();
  const run = (action: Promise<unknown>) => {
    setError(undefined);
    action.catch((failure: unknown) => setError((failure as Error).message));
  };
  const restart = () => run(api.invoke('session:restart', { key: session.key }));

  if (session.status === 'auth_required') {
    return (
      <section className="agent-panel" aria-label="Authentication required">
        <h3>Authentication required</h3>
        <p>{session.agentName} needs you to sign in before it can start a session.</p>
        {session.authMethods.length === 0 ? (
          <p>The agent offered no sign-in method. Check its documentation.</p>
        ) : null}
        <ul className="auth-methods">
          {session.authMethods.map((method) => (
            <li key={method.id}>
              <strong>{method.name}</strong>
              {method.description ? <span> · {method.description}</span> : null}
              {method.kind === 'agent' ? (
                <button
                  type="button"
                  onClick={() =>
                    run(api.invoke('agent:authenticate', { key: session.key, methodId: method.id }))
                  }
                >
                  Sign in with {method.name}
                </button>
              ) : method.kind === 'env_var' ? (
                <p className="hint">
                  Set <code>{method.varName ?? 'the variable the agent names'}</code> in the agent's{' '}
                  <code>env</code> in your settings file, then restart.
                </p>
              ) : (
                <p className="hint">
                  Run <code>{method.terminalCommand}</code> in a terminal, then restart.
                </p>
              )}
            </li>
          ))}
        </ul>
        <button type="button" onClick={restart}>
          Restart agent
        </button>
        {error ? <p role="alert">{error}</p> : null}
      </section>
    );
  }

  if (session.status === 'failed' || session.status === 'exited') {
    return (
      <section className="agent-panel" aria-label="Agent stopped">
        <h3>{session.status === 'failed' ? 'The session could not start' : 'The agent exited'}</h3>
        {session.error ? <p role="alert">{session.error}</p> : null}
        {session.exit ? (
          <>
            <p>
              {session.agentName} {session.exit.reason}.
            </p>
            {session.exit.stderrTail.length ? (
              <pre className="stderr-tail">{session.exit.stderrTail.slice(-10).join('\n')}</pre>
            ) : null}
          </>
        ) : null}
        <div className="panel-actions">
          <button type="button" onClick={restart}>
            Restart agent
          </button>
        </div>
        {error ? <p role="alert">{error}</p> : null}
      </section>
    );
  }
  return null;
}
