/**
 * The app: sessions on the left, the active session on the right.
 */
import { useSyncExternalStore } from 'react';
import { NewSession } from './components/new-session';
import { SessionTabs } from './components/session-tabs';
import { SessionView } from './components/session-view';
import type { Store } from './state/store';

/** The root component. */
export function App({ store }: { store: Store }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const active = state.sessions.find((session) => session.key === state.activeKey);

  if (state.loadError) {
    return (
      <p className="fatal" role="alert">
        Airlock could not load: {state.loadError}
      </p>
    );
  }
  if (!state.loaded) {
    return <p className="loading">Loading…</p>;
  }
  return (
    <div className="app">
      {state.disconnected ? (
        <div className="banner" role="alert">
          The connection to Airlock was lost.{' '}
          <button type="button" onClick={() => location.reload()}>
            Reconnect
          </button>
        </div>
      ) : null}
      <nav className="sidebar" aria-label="Sessions">
        <h1>Airlock</h1>
        <NewSession
          api={store.api}
          agents={state.agents}
          defaultCwd={state.defaultCwd}
          canPickFolder={state.canPickFolder}
          onCreated={(key) => store.activate(key)}
        />
        {state.settingsError ? (
          <p className="settings-error" role="alert">
            {state.settingsError}
          </p>
        ) : null}
        <SessionTabs
          sessions={state.sessions}
          activeKey={state.activeKey}
          onActivate={(key) => store.activate(key)}
          onClose={(key) =>
            // The one refusal is a session that is already closed: nothing is left to do.
            void store.api.invoke('session:close', { key }).catch(() => undefined)
          }
        />
        <p className="settings-path">
          Agents are configured in <code>{state.settingsPath}</code>
        </p>
      </nav>
      {active ? (
        <SessionView
          key={active.key}
          api={store.api}
          session={active}
          transcript={state.transcripts[active.key]}
          signIn={{ secretStorage: state.secretStorage, settingsPath: state.settingsPath }}
          urlElicitation={state.urlElicitation}
        />
      ) : (
        <main className="empty">
          <p>Start a session with an agent to begin. The demo agent needs no account.</p>
        </main>
      )}
    </div>
  );
}
