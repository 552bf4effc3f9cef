/**
 * The sign-in terminal: a `terminal` sign-in method's command, run by the core in a
 * pseudo-terminal, drawn here as text from the screen the core sends (the core emulates the
 * terminal; see main/core/sign-in-terminal/). Keys typed in it go to the command; its size
 * follows the panel's.
 */
import './sign-in-terminal.css';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
} from 'react';
import {
  MAX_TERMINAL_INPUT_CHARS,
  type AirlockApi,
  type TerminalScreen,
} from '../../../preload/shared/contract';
import { newRows } from '../state/terminal-announce';
import { pastedData, terminalKeyData } from '../state/terminal-keys';
import { TerminalLines } from './terminal-lines';

/** The rows the terminal shows; its columns follow the panel's width. */
const ROWS = 14;
const MIN_COLS = 20;
const MAX_COLS = 200;

/** A `terminal` sign-in method of the tab `sessionKey`, running in the panel. */
export function SignInTerminal({
  api,
  sessionKey,
  agentName,
  methodId,
  methodName,
  takeFocus,
  onClose,
}: {
  api: AirlockApi;
  sessionKey: string;
  agentName: string;
  methodId: string;
  methodName: string;
  /** Whether it takes the focus when it opens: not when shown again on the user's return. */
  takeFocus: boolean;
  /** The user closed the terminal (its command is ended). */
  onClose: () => void;
}) {
  const [screen, setScreen] = useState<TerminalScreen | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const grid = useRef<HTMLDivElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  const size = useRef<{ cols: number; rows: number } | undefined>(undefined);
  const hintId = useId();

  const announced = useAnnounced(screen);
  const fail = (failure: unknown) => setError((failure as Error).message);

  // The screen as the core sends it; only this tab's.
  useEffect(
    () =>
      api.on('agent:onDidChangeTerminal', (next) => {
        if (next.key === sessionKey && next.methodId === methodId) {
          setScreen(next);
        }
      }),
    [api, sessionKey, methodId],
  );

  // Starts the command (or shows its terminal again; Try again: anew) at the panel's size, and
  // takes the focus.
  useLayoutEffect(() => {
    const measured = measure(grid.current, probe.current);
    size.current = measured;
    setError(undefined);
    api
      .invoke('agent:startTerminalSignIn', {
        key: sessionKey,
        methodId,
        ...measured,
        // The first time, the terminal shown again if it runs (or ended) already.
        ...(attempt > 0 ? { again: true } : {}),
      })
      .then(setScreen, fail);
    if (takeFocus || attempt > 0) {
      grid.current?.focus();
    }
    // The focus is taken when it opens or starts again, never when `takeFocus` alone changes.
  }, [api, sessionKey, methodId, attempt]);

  // The panel's width decides the columns: the command is told when they change.
  useEffect(() => {
    const element = grid.current;
    if (!element || typeof ResizeObserver === 'undefined') {
      return undefined;
    }
    const observer = new ResizeObserver(() => {
      const next = measure(element, probe.current);
      if (next.cols !== size.current?.cols || next.rows !== size.current.rows) {
        size.current = next;
        api.invoke('agent:terminalResize', { key: sessionKey, ...next }).catch(() => undefined);
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [api, sessionKey]);

  const send = (data: string) => {
    api.invoke('agent:terminalInput', { key: sessionKey, data }).catch(fail);
  };
  const exited = screen?.exited;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (exited) {
      return;
    }
    const data = terminalKeyData(event, screen?.appCursorKeys);
    if (data !== undefined) {
      // The key is the command's: no shortcut of the page (Esc cancelling a turn) takes it.
      event.preventDefault();
      event.stopPropagation();
      send(data);
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    event.preventDefault();
    if (!exited) {
      pastedData(event.clipboardData.getData('text'), MAX_TERMINAL_INPUT_CHARS).forEach(send);
    }
  };
  const close = () => {
    api.invoke('agent:closeTerminalSignIn', { key: sessionKey }).catch(() => undefined);
    onClose();
  };

  return (
    <section className="sign-in-terminal" aria-label={`Sign in with ${methodName}`}>
      <div className="sign-in-terminal-head">
        <span className="sign-in-terminal-title">
          <span className="sign-in-terminal-dot" aria-hidden="true" data-state={state(exited)} />
          {methodName}
        </span>
        <span className="sign-in-terminal-status">
          {exited ? 'Ended' : screen ? 'Running' : 'Starting…'}
        </span>
        <button type="button" className="sign-in-terminal-close" onClick={close}>
          Close
        </button>
      </div>
      <div
        ref={grid}
        className="sign-in-terminal-screen"
        role="application"
        aria-roledescription="terminal"
        aria-label={`${agentName} sign-in terminal`}
        aria-describedby={hintId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      >
        <span ref={probe} className="sign-in-terminal-probe" aria-hidden="true">
          0000000000
        </span>
        {screen ? <TerminalLines screen={screen} /> : null}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announced}
      </p>
      <p id={hintId} className="sign-in-terminal-hint">
        Keys you type go to the sign-in command. Tab moves on; Ctrl+I types a Tab.
      </p>
      {exited ? (
        exited.code === 0 ? (
          <p role="status" className="sign-in-terminal-exit sign-in-terminal-exit-ok">
            Signed in. Restarting {agentName}…
          </p>
        ) : (
          <div className="sign-in-terminal-exit" role="alert">
            <p>
              {exited.code === null
                ? 'The sign-in command was stopped.'
                : `The sign-in command ended with code ${exited.code}.`}
            </p>
            <button type="button" onClick={() => setAttempt((count) => count + 1)}>
              Try again
            </button>
          </div>
        )
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}

/** How long the screen stays still before a screen reader hears what is new on it. */
const ANNOUNCE_AFTER_MS = 400;

/**
 * The text a screen reader is to hear of the screen: once it has stayed still a moment, its rows
 * that are new since it last heard them (see state/terminal-announce.ts).
 */
function useAnnounced(screen: TerminalScreen | undefined): string {
  const [announced, setAnnounced] = useState('');
  const heard = useRef<string[]>([]);
  useEffect(() => {
    if (!screen) {
      return undefined;
    }
    const rows = screen.lines.map((runs) => runs.map((run) => run.text).join(''));
    const timer = setTimeout(() => {
      const fresh = newRows(heard.current, rows);
      heard.current = rows;
      if (fresh.length > 0) {
        setAnnounced(fresh.join('\n'));
      }
    }, ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [screen]);
  return announced;
}

function state(exited: TerminalScreen['exited']): string {
  return exited ? (exited.code === 0 ? 'ok' : 'failed') : 'running';
}

/** The columns the screen's width holds, measured with the probe's ten characters. */
function measure(
  element: HTMLElement | null,
  probe: HTMLElement | null,
): { cols: number; rows: number } {
  const charWidth = (probe?.getBoundingClientRect().width ?? 0) / 10;
  const style = element ? getComputedStyle(element) : undefined;
  const padding = style ? parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) : 0;
  const width = (element?.clientWidth ?? 0) - padding;
  const cols = charWidth > 0 ? Math.floor(width / charWidth) : 80;
  return { cols: Math.min(MAX_COLS, Math.max(MIN_COLS, cols)), rows: ROWS };
}
