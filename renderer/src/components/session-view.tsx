/**
 * One session: who the agent is, its transcript, the dock of questions waiting on the user, and
 * the composer. While a question waits, the dock is the stage: it takes the pane, the transcript
 * keeps a strip and the message box one line. Esc cancels a running turn (Esc on a question
 * cancels only the question).
 */
import './session-view.css';
import {
  createContext,
  memo,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type {
  AirlockApi,
  PermissionReply,
  SessionSummary,
  UrlElicitationView,
} from '../../../preload/shared/contract';
import { tabLabel } from '../state/tabs';
import type { Row, Transcript } from '../state/transcript';
import { AgentLog, AgentPanel, type SignInHost } from './agent-panel';
import { Composer } from './composer';
import { ElicitationDock, dockCards } from './elicitation-dock';
import { MessageText, messageText } from './message-copy';
import { RowView, WaitingToolCalls } from './rows';
import { EmptySession, SessionEmpty } from './session-empty';
import './stage.css';
import { useStripFit } from './use-strip-fit';
import { StopTerminal } from './terminal-view';
import { UndoCalls } from './write-undo';

type Props = {
  api: AirlockApi;
  session: SessionSummary;
  transcript: Transcript | undefined;
  signIn: SignInHost;
  /** How URL elicitations open on this host. */
  urlElicitation: UrlElicitationView;
  /** Whether the link to the core is down: the session's state is unknown, nothing is sent. */
  disconnected?: boolean;
};

type ViewProps = Props & {
  /**
   * Whether this pane is the one shown. A pane kept drawn for a tab shown before is `hidden` and
   * inert: out of sight, of the Tab order and of the accessibility tree, its rows and scroll
   * position kept, so that showing it again is a change of style, not a new list.
   */
  shown?: boolean;
};

import { SESSION_PANEL_ID } from './session-panel-id';
import { agentNames } from '../state/agent-names';

export { SESSION_PANEL_ID };

function agentLabel(session: SessionSummary): string {
  const agent = session.agent;
  if (!agent) {
    return agentNames.of(session.agentName);
  }
  const who = agent.title ?? agent.name ?? agentNames.of(session.agentName);
  return agent.version ? `${who} ${agent.version}` : who;
}

const STATUS_TEXT: Record<SessionSummary['status'], string> = {
  starting: 'Starting…',
  auth_required: 'Sign-in required',
  ready: 'Ready',
  prompting: 'Working…',
  exited: 'Agent exited',
  failed: 'Failed',
  closed: 'Closed',
};

/** Keys that scroll the transcript up, and down, when it has the focus. */
const UP_KEYS = new Set(['PageUp', 'ArrowUp', 'Home']);
const DOWN_KEYS = new Set(['PageDown', 'ArrowDown', ' ']);

/** A value the user chose for an option, shown until the agent's answer is. */
type PendingOption = { value: string | boolean; answered: boolean };

/**
 * The height the list takes a row it has not drawn yet to have, in pixels. Left to itself, the
 * list takes the first row's (a one-line prompt, say): following a fast stream, it then fits
 * dozens of new rows into the view, draws them all, measures them far taller and drops most,
 * so nearly every row of a long reply is parsed and laid out once without being seen. A row of
 * streamed text (up to SEGMENT_CHARS) is a few hundred pixels tall; a row taken too tall costs
 * one more pass over the few that fit.
 */
const ROW_ESTIMATE_PX = 300;

// The list's callbacks are made once: the list re-runs its scroll setup (reading the scroller's
// size, which lays the page out) whenever its scroller callback is a new function, and the
// session view renders once a frame while a reply streams in.
const rowKey = (_index: number, row: Row) => row.id;
const rowContent = (_index: number, row: Row) => <RowView row={row} />;
const LIST_PARTS = { EmptyPlaceholder: SessionEmpty };

/** Whether a scroller shows the end of its content (to within a pixel of rounding). */
function atBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= 1;
}

/** Whether the pane that holds a part is the one shown. */
const PaneShown = createContext(true);

/**
 * The session's status. Only the shown pane's is named "Session status": the one a look-up of
 * the session's status by its name finds, whatever the panes kept hidden before it in the page.
 */
function SessionStatus({ status, children }: { status: string; children: string }) {
  const shown = useContext(PaneShown);
  return (
    <span
      className={`status status-${status}`}
      role="status"
      aria-label={shown ? 'Session status' : undefined}
    >
      {children}
    </span>
  );
}

/**
 * The session pane. Only its frame depends on whether it is shown: showing or hiding it draws
 * the frame again, and not its contents.
 */
export const SessionView = memo(function SessionView({ shown = true, ...pane }: ViewProps) {
  const staged = dockCards(pane.transcript).open.length > 0;
  return (
    <main
      id={shown ? SESSION_PANEL_ID : undefined}
      className={`session${staged ? ' staged' : ''}`}
      aria-label={`Session with ${agentLabel(pane.session)}`}
      hidden={!shown}
      inert={!shown}
    >
      <PaneShown.Provider value={shown}>
        <SessionPane {...pane} />
      </PaneShown.Provider>
    </main>
  );
});

/** What the session pane holds: its header, transcript, dock and composer. */
const SessionPane = memo(function SessionPane({
  api,
  session,
  transcript,
  signIn,
  urlElicitation,
  disconnected = false,
}: Props) {
  const [error, setError] = useState<string | undefined>();
  const scroller = useRef<HTMLElement | null>(null);
  const list = useRef<VirtuosoHandle>(null);
  /** Whether the list follows the stream: until the user scrolls up, and again at the bottom. */
  const stick = useRef(true);
  /** Which way the user last moved the list by hand, if at all. */
  const lastGesture = useRef<'up' | 'down' | 'drag' | undefined>(undefined);
  const touchY = useRef<number | undefined>(undefined);
  const gesture = useCallback((direction: 'up' | 'down' | 'drag') => {
    lastGesture.current = direction;
    if (direction !== 'down') {
      stick.current = false;
    }
  }, []);
  const rows = transcript?.rows ?? [];
  const prompting = session.status === 'prompting';
  const composer = useRef<HTMLTextAreaElement>(null);
  // Tool rows re-render only when the set of tool calls waiting on a card changes. A URL card
  // the user has answered waits for the page, not for an answer: its tool call is not marked.
  // (A permission's tool call says it waits by its own fields.)
  const openCards = dockCards(transcript).open;
  const staged = openCards.length > 0;
  // While a card waits, the transcript is a strip of whole rows above the stage.
  const strip = useRef<HTMLDivElement>(null);
  useStripFit(strip, scroller, staged);
  const waitingList = JSON.stringify(
    openCards.flatMap((row) =>
      row.kind === 'permission' || row.toolCallId === undefined || row.resolved
        ? []
        : [row.toolCallId],
    ),
  );
  const waitingTools = useMemo(() => new Set(JSON.parse(waitingList) as string[]), [waitingList]);
  // A message's Copy button reads the rows at the click: rows never re-render for it.
  const latestRows = useRef(rows);
  latestRows.current = rows;
  const messageOf = useCallback((rowId: number) => messageText(latestRows.current, rowId), []);

  // While following, the list keeps its end in view as it grows: new rows, a row that grows as
  // text streams in, and rows whose measured height differs from the estimate.
  // Following never pulls the focus out of view: while it is in a row above the last (reached
  // with Tab, a screen reader or a click on a Copy button), the list stays where it is, as if
  // the user had scrolled up.
  const follow = useCallback(() => {
    const element = scroller.current;
    if (!stick.current || !element) {
      return;
    }
    const focused = element.contains(document.activeElement)
      ? document.activeElement?.closest('[data-index]')
      : null;
    if (focused && Number(focused.getAttribute('data-index')) < latestRows.current.length - 1) {
      stick.current = false;
      lastGesture.current = 'up';
      return;
    }
    element.scrollTop = element.scrollHeight;
  }, []);

  const scrollerRef = useCallback((element: HTMLElement | Window | null) => {
    scroller.current = element instanceof HTMLElement ? element : null;
  }, []);

  // The view shrinking (the window, or the dock growing) keeps the end in view too.
  useEffect(() => {
    const element = scroller.current;
    if (!element) {
      return;
    }
    const observer = new ResizeObserver(follow);
    observer.observe(element);
    return () => observer.disconnect();
  }, [follow]);

  // Sending a message shows its reply: the list goes to its end and follows it.
  const followReply = useCallback(() => {
    stick.current = true;
    lastGesture.current = undefined;
    follow();
  }, [follow]);

  const run = useCallback((action: Promise<unknown>) => {
    setError(undefined);
    action.catch((failure: unknown) => setError((failure as Error).message));
  }, []);

  // The write rows' and turn ends' undo calls.
  const undoCalls = useMemo(() => ({ api, sessionKey: session.key }), [api, session.key]);

  // A terminal's Stop button: its error shows beside the button.
  const stopTerminal = useCallback(
    (terminalId: string) => api.invoke('terminal:kill', { key: session.key, terminalId }),
    [api, session.key],
  );

  // Once answered, the card leaves the dock, which then moves the focus on (see there).
  const respondPermission = useCallback(
    (promptKey: string, outcome: PermissionReply) =>
      run(api.invoke('permission:respond', { key: session.key, promptKey, outcome })),
    [api, run, session.key],
  );

  // An option shows its new value at once, until the agent's answer (or refusal) arrives. The
  // core answers a call before it sends the options that answer brought, so a value is dropped
  // at the first change of the options after its own answer: the answer to another option,
  // arriving meanwhile, leaves it shown.
  const [pendingOptions, setPendingOptions] = useState<Record<string, PendingOption>>({});
  useEffect(
    () =>
      setPendingOptions((pending) =>
        Object.fromEntries(Object.entries(pending).filter(([, entry]) => !entry.answered)),
      ),
    [session.configOptions],
  );
  const setOption = (configId: string, value: string | boolean) => {
    setError(undefined);
    const entry: PendingOption = { value, answered: false };
    setPendingOptions((pending) => ({ ...pending, [configId]: entry }));
    const settle = (answered: boolean) =>
      setPendingOptions((pending) => {
        // A later choice for the same option waits for its own answer.
        if (pending[configId] !== entry) {
          return pending;
        }
        const { [configId]: _settled, ...rest } = pending;
        return answered ? { ...rest, [configId]: { value, answered } } : rest;
      });
    api.invoke('session:setConfigOption', { key: session.key, configId, value }).then(
      () => settle(true),
      (failure: unknown) => {
        setError((failure as Error).message);
        settle(false);
      },
    );
  };
  const shownOptions = session.configOptions.map((option) => {
    const pending = pendingOptions[option.id];
    return pending ? { ...option, currentValue: pending.value } : option;
  });

  const cancel = useCallback(() => {
    run(api.invoke('session:cancel', { key: session.key }));
    // The Cancel button goes with the turn: the focus goes back to the message box.
    composer.current?.focus();
  }, [api, run, session.key]);

  // Esc cancels the running turn from anywhere in the window.
  useEffect(() => {
    if (!prompting) {
      return undefined;
    }
    const onKey = (event: globalThis.KeyboardEvent) => {
      // A pane kept drawn for a tab not shown hears nothing.
      if (strip.current?.closest('[hidden]')) {
        return;
      }
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        cancel();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [prompting, cancel]);

  return (
    <>
      <header className="session-header">
        <div>
          <h2>{tabLabel(session)}</h2>
          <p className="session-meta">
            <span aria-label="Agent">{agentLabel(session)}</span>
            <span aria-label="Working folder">{session.cwd}</span>
          </p>
        </div>
        <div className="session-controls">
          {session.modes.length > 0 ? (
            <label>
              Mode{' '}
              <select
                value={session.currentModeId ?? ''}
                disabled={session.status !== 'ready' || disconnected}
                onChange={(event) =>
                  run(
                    api.invoke('session:setMode', { key: session.key, modeId: event.target.value }),
                  )
                }
              >
                {session.modes.map((mode) => (
                  <option key={mode.id} value={mode.id} title={mode.description}>
                    {mode.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {shownOptions.map((option) =>
            typeof option.currentValue === 'boolean' ? (
              <label key={option.id} className="config-option">
                <input
                  type="checkbox"
                  checked={option.currentValue}
                  disabled={session.status !== 'ready' || disconnected}
                  onChange={(event) => setOption(option.id, event.target.checked)}
                />{' '}
                {option.name}
              </label>
            ) : (
              <label key={option.id} className="config-option">
                {option.name}{' '}
                <select
                  value={option.currentValue}
                  disabled={session.status !== 'ready' || disconnected}
                  onChange={(event) => setOption(option.id, event.target.value)}
                >
                  {/* A value the agent reports but does not list is still shown as chosen. */}
                  {option.choices.some((choice) => choice.value === option.currentValue) ? null : (
                    <option value={option.currentValue}>{option.currentValue}</option>
                  )}
                  {option.choices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.name}
                    </option>
                  ))}
                </select>
              </label>
            ),
          )}
          {session.usage ? (
            <span className="usage" aria-label="Context used">
              {Math.round((session.usage.used / Math.max(session.usage.size, 1)) * 100)}% of context
              {session.usage.cost
                ? ` · ${session.usage.cost.amount.toFixed(2)} ${session.usage.cost.currency}`
                : ''}
            </span>
          ) : null}
          <AgentLog
            api={api}
            agentName={session.agentName}
            commandLine={session.agent?.commandLine}
          />
          <SessionStatus status={disconnected ? 'disconnected' : session.status}>
            {disconnected ? 'Disconnected' : STATUS_TEXT[session.status]}
          </SessionStatus>
        </div>
      </header>

      <AgentPanel api={api} session={session} signIn={signIn} />

      <div
        ref={strip}
        className="transcript"
        role="log"
        aria-label="Transcript"
        aria-live="off"
        // Only the user's own gestures change whether the list follows: scrolling up (wheel,
        // keys, a touch drag, the scroll bar) stops it, and scrolling back down to the bottom
        // resumes it. The list also moves by itself (following, rows measured anew, the view
        // growing as the dock empties), and none of that may count as the user's choice.
        onWheel={(event) => gesture(event.deltaY < 0 ? 'up' : 'down')}
        onKeyDown={(event) => {
          const element = scroller.current;
          if (event.key === 'End' && element) {
            // The rows near the end may not be measured yet, so the native End stops short of
            // it as they are: End goes to the end and follows from there.
            event.preventDefault();
            gesture('down');
            element.scrollTop = element.scrollHeight;
          } else if (event.key === 'Home' && list.current) {
            // Rows a fast reply passed by were never drawn: measured on the way up, they move
            // the native Home's stop. The list goes to its first row, wherever that lands.
            event.preventDefault();
            gesture('up');
            list.current.scrollToIndex({ index: 0, align: 'start' });
          } else if (UP_KEYS.has(event.key) || (event.key === ' ' && event.shiftKey)) {
            gesture('up');
          } else if (DOWN_KEYS.has(event.key)) {
            gesture('down');
          }
        }}
        onPointerDown={(event) => {
          // The scroll bar (a press on the scroller itself) and the middle button's autoscroll.
          if (event.target === scroller.current || event.button === 1) {
            gesture('drag');
          }
        }}
        onTouchStart={(event) => {
          touchY.current = event.touches[0]?.clientY;
        }}
        onTouchMove={(event) => {
          const y = event.touches[0]?.clientY;
          if (y !== undefined && touchY.current !== undefined && y !== touchY.current) {
            // A finger moving down drags the content down: the view moves up.
            gesture(y > touchY.current ? 'up' : 'down');
            touchY.current = y;
          }
        }}
        onScrollCapture={() => {
          const element = scroller.current;
          if (element && lastGesture.current !== 'up' && atBottom(element)) {
            stick.current = true;
          }
        }}
      >
        <EmptySession.Provider value={session}>
          <WaitingToolCalls.Provider value={waitingTools}>
            <MessageText.Provider value={messageOf}>
              <StopTerminal.Provider value={disconnected ? undefined : stopTerminal}>
                <UndoCalls.Provider value={disconnected ? undefined : undoCalls}>
                  <Virtuoso
                    ref={list}
                    scrollerRef={scrollerRef}
                    data={rows}
                    computeItemKey={rowKey}
                    totalListHeightChanged={follow}
                    initialTopMostItemIndex={rows.length > 0 ? rows.length - 1 : 0}
                    increaseViewportBy={{ top: 400, bottom: 400 }}
                    defaultItemHeight={ROW_ESTIMATE_PX}
                    itemContent={rowContent}
                    components={LIST_PARTS}
                  />
                </UndoCalls.Provider>
              </StopTerminal.Provider>
            </MessageText.Provider>
          </WaitingToolCalls.Provider>
        </EmptySession.Provider>
      </div>

      <ElicitationDock
        api={api}
        sessionKey={session.key}
        sessionLabel={`the tab “${tabLabel(session)}” in ${session.cwd}`}
        transcript={transcript}
        composer={composer}
        urlElicitation={urlElicitation}
        respondPermission={respondPermission}
      />

      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}

      <Composer
        api={api}
        session={session}
        rows={rows}
        statusText={STATUS_TEXT[session.status]}
        disconnected={disconnected}
        inputRef={composer}
        onError={setError}
        onCancel={cancel}
        onSent={followReply}
        compact={staged}
      />
    </>
  );
});
