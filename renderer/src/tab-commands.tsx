/**
 * What the user does to session tabs, from the keyboard map and the tabs' own buttons: start
 * (the new-session dialog), close (asking first while a session is busy), move between, rename, go to the card that waits,
 * and the help overlay. Also keeps the window's title counting the cards that wait.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { ConfirmClose } from './components/confirm-close';
import { NewSessionDialog } from './components/new-session';
import { HelpOverlay } from './lazy-parts';
import { waitingInFragment } from '../../preload/shared/contract-plain';
import type { Sidebar } from './components/sidebar';
import type { AppState, Store } from './state/store';
import { isBusy, nextWaiting, stepSession, windowTitle } from './state/tabs';
import { useShortcuts } from './use-shortcuts';
import { focusWaitingCard, inWaitingCard } from './waiting-card';

/** What the app wires into its tabs, and the dialogs it shows. */
export type TabCommands = {
  requestClose(key: string): void;
  renaming: string | undefined;
  startRename(key: string): void;
  endRename(key: string, title: string | undefined): void;
  openHelp(): void;
  /** Opens the new-session dialog. */
  openNewSession(): void;
  /** The dialogs and the announcements, to render once. */
  overlays: ReactNode;
};

function focusShownTab(): void {
  (
    document.querySelector<HTMLElement>('[role=tablist] [role=tab][tabindex="0"]') ??
    document.querySelector<HTMLElement>('.welcome-start')
  )?.focus();
}

/** The commands, bound to the store; call it once, in the app. */
export function useTabCommands(
  store: Store,
  state: AppState,
  sidebar: Sidebar,
  /** Opens the ACP registry's catalogue (the new-session dialog's "Add an agent…"). */
  addAgent?: () => void,
): TabCommands {
  const [help, setHelp] = useState(false);
  const [starting, setStarting] = useState(false);
  const [closing, setClosing] = useState<string | undefined>();
  const [renaming, setRenaming] = useState<string | undefined>();
  const [notice, setNotice] = useState('');
  const { sessions, activeKey } = state;

  const title = windowTitle(sessions);
  useEffect(() => {
    document.title = title;
  }, [title]);

  // A session that closes with the focus in it leaves the focus nowhere: put it on the tab that
  // is shown now (or, with none left, where a new session starts).
  const keys = sessions.map((session) => session.key).join(' ');
  const before = useRef(keys);
  useEffect(() => {
    const gone = before.current.split(' ').some((key) => key && !keys.split(' ').includes(key));
    before.current = keys;
    if (gone && (document.activeElement ?? document.body) === document.body) {
      focusShownTab();
    }
  }, [keys]);

  const close = (key: string) =>
    // The one refusal is a session that is already closed: nothing is left to do.
    void store.api.invoke('session:close', { key }).catch(() => undefined);

  const requestClose = (key: string) => {
    const session = sessions.find((candidate) => candidate.key === key);
    if (session && isBusy(session)) {
      setClosing(key);
    } else {
      close(key);
    }
  };

  const startRename = (key: string) => {
    // The field is in the sidebar: show it if it is hidden.
    sidebar.setExpanded(true);
    store.activate(key);
    setRenaming(key);
  };

  const endRename = (key: string, typed: string | undefined) => {
    setRenaming(undefined);
    if (typed !== undefined) {
      store.api
        .invoke('session:rename', { key, title: typed })
        .catch((failure: unknown) => setNotice((failure as Error).message));
    }
  };

  const show = (key: string | undefined) => {
    if (key !== undefined) {
      store.activate(key);
      sidebar.picked();
    }
  };

  const jumpToWaiting = (named?: string) => {
    const key =
      named === undefined
        ? nextWaiting(sessions, activeKey, inWaitingCard(document.activeElement))
        : sessions.find((session) => session.key === named)?.key;
    if (key === undefined) {
      setNotice('Nothing waits for you.');
      return;
    }
    setNotice('');
    show(key);
    focusWaitingCard(key);
  };

  // A window opened for a card (a notification clicked while no window was open) names its
  // session in its address: shown once the sessions have loaded, then taken off the address.
  const { loaded } = state;
  const latestJump = useRef(jumpToWaiting);
  latestJump.current = jumpToWaiting;
  useEffect(() => {
    const named = loaded ? waitingInFragment(window.location.hash) : undefined;
    if (named !== undefined) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
      latestJump.current(named);
    }
  }, [loaded]);

  useShortcuts(store.api, {
    newSession: () => setStarting(true),
    closeSession: () => activeKey !== undefined && requestClose(activeKey),
    nextSession: () => show(stepSession(sessions, activeKey, 1)),
    previousSession: () => show(stepSession(sessions, activeKey, -1)),
    focusComposer: () => {
      flushSync(() => sidebar.picked());
      // The shown session's: the panes of tabs shown before may stay drawn, hidden.
      document.querySelector<HTMLElement>('#session-panel textarea[aria-label="Message"]')?.focus();
    },
    // A host command names its session (a notification's); the keys go to the next that waits.
    jumpToWaiting,
    renameSession: () => activeKey !== undefined && startRename(activeKey),
    help: () => setHelp(true),
  });

  const closingSession = sessions.find((session) => session.key === closing);
  const overlays = (
    <>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
      {starting ? (
        <NewSessionDialog
          api={store.api}
          agents={state.agents}
          defaultCwd={state.defaultCwd}
          canPickFolder={state.canPickFolder}
          onCreated={(key) => {
            setStarting(false);
            show(key);
          }}
          onClose={() => setStarting(false)}
          {...(addAgent
            ? {
                onAddAgent: () => {
                  setStarting(false);
                  addAgent();
                },
              }
            : {})}
        />
      ) : null}
      {closingSession ? (
        <ConfirmClose
          session={closingSession}
          onConfirm={() => {
            setClosing(undefined);
            close(closingSession.key);
          }}
          onCancel={() => setClosing(undefined)}
        />
      ) : null}
    </>
  );

  return {
    requestClose,
    renaming: sessions.some((session) => session.key === renaming) ? renaming : undefined,
    startRename,
    endRename,
    openHelp: () => setHelp(true),
    openNewSession: () => setStarting(true),
    overlays,
  };
}
