/**
 * The app: sessions on the left, the active session on the right (a welcome while none is
 * open). Sessions start from a dialog (the sidebar's "+", the welcome, Alt+N).
 */
import './app.css';
import { Plus } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { LinkConsentProvider } from './components/link-consent';
import { LoadFailed } from './components/load-failed';
import { ReopenOffer } from './components/reopen-offer';
import { SessionHistory } from './components/session-history';
import { SessionPanes } from './components/session-panes';
import { SessionTabs } from './components/session-tabs';
import { SidebarToggle, useSidebar } from './components/sidebar';
import { Welcome } from './components/welcome';
import { AgentSettings } from './lazy-parts';
import { initialChoice, keepChoice, lastChoice } from './state/new-session-choice';
import type { Store } from './state/store';
import { ariaKeyShortcuts } from './keyboard';
import { useTabCommands } from './tab-commands';
import { useShortcuts } from './use-shortcuts';

/**
 * The root component. `onReconnect` tries the link to the core again at once (the web host);
 * without it, Reconnect reloads the page.
 */
export function App({ store, onReconnect }: { store: Store; onReconnect?: () => void }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const active = state.sessions.find((session) => session.key === state.activeKey);
  const sidebar = useSidebar();
  // One object for as long as what it is made of holds: the session panes draw again only for
  // what they show.
  const { secretStorage, settingsPath } = state;
  const signIn = useMemo(() => ({ secretStorage, settingsPath }), [secretStorage, settingsPath]);
  const commands = useTabCommands(store, state, sidebar, () => openAgentSettings(true));
  const toggle = useRef<HTMLButtonElement>(null);
  // The agents' settings show in place of the session until closed or a session is picked.
  const [agentSettings, setAgentSettings] = useState(false);
  /**
   * How many times the settings were opened on the registry's catalogue (from the new-session
   * dialog): each such opening starts the view afresh, on the catalogue.
   */
  const [catalogueOpenings, setCatalogueOpenings] = useState(0);
  const [catalogueFirst, setCatalogueFirst] = useState(false);
  const settingsButton = useRef<HTMLButtonElement>(null);
  const openAgentSettings = (catalogue = false) => {
    setCatalogueFirst(catalogue);
    if (catalogue) {
      setCatalogueOpenings((count) => count + 1);
    }
    setAgentSettings(true);
    sidebar.picked();
    document.querySelector<HTMLElement>('.agent-settings h2')?.focus();
  };
  useShortcuts(store.api, { agentSettings: () => openAgentSettings() });
  const shownKey = useRef(state.activeKey);
  useEffect(() => {
    if (shownKey.current !== state.activeKey) {
      shownKey.current = state.activeKey;
      setAgentSettings(false);
    }
  }, [state.activeKey]);
  // A narrow window's sidebar lies over the session: while it shows, the session waits behind it.
  const overlay = sidebar.narrow && sidebar.expanded;
  const hideOverlay = () => {
    sidebar.picked();
    toggle.current?.focus();
  };
  // Esc puts the overlay away, before anything else hears it (it cancels no turn).
  const picked = sidebar.picked;
  useEffect(() => {
    if (!overlay) {
      return undefined;
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        picked();
        toggle.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [overlay, picked]);

  if (state.loadError && !state.loaded) {
    return (
      <LoadFailed
        error={state.loadError}
        webHost={onReconnect !== undefined}
        // While the link is down, its reconnect tries now (and loads once it is up).
        onRetry={() => (state.disconnected && onReconnect ? onReconnect() : void store.load())}
      />
    );
  }
  if (!state.loaded) {
    return <p className="loading">Loading…</p>;
  }
  return (
    <>
      {/* Above the app, in its flow: it pushes the layout down and covers nothing. */}
      {state.disconnected ? (
        <div className="connection-banner" role="alert">
          <p>
            <strong>Lost the connection to Airlock.</strong> Your sessions go on there; what this
            page shows of them may be out of date, and nothing can be sent, until it reconnects.
            Trying again…
          </p>
          <button type="button" onClick={onReconnect ?? (() => location.reload())}>
            Reconnect
          </button>
        </div>
      ) : null}
      <div
        className={`app${sidebar.expanded ? '' : ' sidebar-collapsed'}${sidebar.narrow ? ' narrow' : ''}`}
      >
        <SidebarToggle sidebar={sidebar} controls="sidebar" buttonRef={toggle} />
        <nav
          id="sidebar"
          className="sidebar"
          aria-label="Sessions"
          hidden={!sidebar.expanded}
          onClick={(event) => {
            // Picking a session (a click, Enter or Space on its tab) shows it; arrow keys only move.
            if (overlay && (event.target as Element).closest('[role="tab"]')) {
              hideOverlay();
            }
          }}
        >
          <h1>Airlock</h1>
          <div className="sessions-head">
            {/* The sidebar is named "Sessions" already: this only shows it. */}
            <span className="sessions-label" aria-hidden="true">
              Sessions
            </span>
            <button
              type="button"
              className="new-session-button"
              aria-label="New session"
              aria-keyshortcuts={ariaKeyShortcuts('newSession')}
              title="New session (Alt+N)"
              onClick={commands.openNewSession}
            >
              <Plus aria-hidden="true" size={18} />
            </button>
          </div>
          {state.sessions.length === 0 ? <p className="sessions-none">No sessions open.</p> : null}
          <ReopenOffer api={store.api} onReopened={(key) => store.activate(key)} />
          {state.settingsError ? (
            <p className="settings-error" role="alert">
              {state.settingsError}
            </p>
          ) : null}
          <SessionTabs
            sessions={state.sessions}
            activeKey={state.activeKey}
            onActivate={(key) => {
              setAgentSettings(false);
              store.activate(key);
            }}
            onClose={commands.requestClose}
            renaming={commands.renaming}
            onRenameStart={commands.startRename}
            onRenameEnd={commands.endRename}
            disconnected={state.disconnected}
          />
          <SessionHistory
            api={store.api}
            {...(active
              ? { agentName: active.agentName, cwd: active.cwd }
              : initialChoice(
                  state.agents.map((agent) => agent.name),
                  state.defaultCwd,
                ))}
            onReopened={(key) => {
              store.activate(key);
              if (overlay) {
                hideOverlay();
              }
            }}
          />
          <button
            type="button"
            className="shortcuts-button"
            aria-keyshortcuts={ariaKeyShortcuts('help')}
            onClick={commands.openHelp}
          >
            Keyboard shortcuts <kbd>?</kbd>
          </button>
          <button
            ref={settingsButton}
            type="button"
            className="shortcuts-button"
            aria-keyshortcuts={ariaKeyShortcuts('agentSettings')}
            onClick={() => openAgentSettings()}
          >
            Agent settings <kbd>Alt+,</kbd>
          </button>
          <p className="settings-path">
            Agents are configured in <code>{state.settingsPath}</code>
          </p>
        </nav>
        {overlay ? (
          <div className="sidebar-scrim" aria-hidden="true" onClick={() => hideOverlay()} />
        ) : null}
        <div className="app-main" inert={overlay}>
          <LinkConsentProvider api={store.api} opener={state.urlElicitation.opener}>
            {agentSettings ? (
              <AgentSettings
                key={catalogueOpenings}
                api={store.api}
                catalogueFirst={catalogueFirst}
                onClose={() => {
                  setAgentSettings(false);
                  settingsButton.current?.focus();
                }}
                onInstalled={(agentName) => {
                  // On to a session with the agent just installed, chosen in the dialog.
                  setAgentSettings(false);
                  keepChoice({ agentName, cwd: lastChoice()?.cwd || state.defaultCwd });
                  commands.openNewSession();
                }}
              />
            ) : active ? null : (
              <Welcome onNewSession={commands.openNewSession} />
            )}
            <SessionPanes
              api={store.api}
              sessions={state.sessions}
              transcripts={state.transcripts}
              shownKey={agentSettings ? undefined : active?.key}
              signIn={signIn}
              urlElicitation={state.urlElicitation}
              disconnected={state.disconnected}
            />
          </LinkConsentProvider>
        </div>
        {commands.overlays}
      </div>
    </>
  );
}
