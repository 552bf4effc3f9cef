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
  type TerminalRun,
  type TerminalScreen,
} from '../../../preload/shared/contract';
import { pastedData, terminalKeyData } from '../state/terminal-keys';

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
  onClose,
}: {
  api: AirlockApi;
  sessionKey: string;
  agentName: string;
  methodId: string;
  methodName: string;
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

  // Starts the command (again, for Try again) at the panel's size, and takes the focus.
  useLayoutEffect(() => {
    const measured = measure(grid.current, probe.current);
    size.current = measured;
    setError(undefined);
    api
      .invoke('agent:startTerminalSignIn', { key: sessionKey, methodId, ...measured })
      .then(setScreen, fail);
    grid.current?.focus();
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
        {screen ? <Lines screen={screen} /> : null}
      </div>
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

function state(exited: TerminalScreen['exited']): string {
  return exited ? (exited.code === 0 ? 'ok' : 'failed') : 'running';
}

/** The screen's rows, the cursor drawn over the cell it is on while the command runs. */
function Lines({ screen }: { screen: TerminalScreen }) {
  const { cursor } = screen;
  const showCursor = cursor.visible && !screen.exited;
  return (
    <div className="sign-in-terminal-lines">
      {screen.lines.map((runs, row) => (
        // The rows are positions on the screen: their index is what they are.
        <div className="sign-in-terminal-row" key={row}>
          {showCursor && row === cursor.row ? withCursor(runs, cursor.col) : runs.map(drawRun)}
          {'\n'}
        </div>
      ))}
    </div>
  );
}

function runClass(run: Omit<TerminalRun, 'text'>): string | undefined {
  const names = [
    run.fg !== undefined ? `term-fg-${run.fg}` : '',
    run.bold ? 'term-bold' : '',
    run.inverse ? 'term-inverse' : '',
  ].filter(Boolean);
  return names.length ? names.join(' ') : undefined;
}

function drawRun(run: TerminalRun, index: number) {
  return (
    <span key={index} className={runClass(run)}>
      {run.text}
    </span>
  );
}

/** The row's runs with the character at `col` (a space past the end) drawn as the cursor. */
function withCursor(runs: TerminalRun[], col: number) {
  const out = [];
  let at = 0;
  let drawn = false;
  runs.forEach((run, index) => {
    const chars = [...run.text];
    if (!drawn && col >= at && col < at + chars.length) {
      const before = chars.slice(0, col - at).join('');
      const under = chars[col - at];
      const after = chars.slice(col - at + 1).join('');
      out.push(
        <span key={index} className={runClass(run)}>
          {before}
          <span className="term-cursor">{under}</span>
          {after}
        </span>,
      );
      drawn = true;
    } else {
      out.push(drawRun(run, index));
    }
    at += chars.length;
  });
  if (!drawn) {
    out.push(
      <span key="pad">{' '.repeat(Math.max(0, col - at))}</span>,
      <span key="cursor" className="term-cursor">
        {' '}
      </span>,
    );
  }
  return out;
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
