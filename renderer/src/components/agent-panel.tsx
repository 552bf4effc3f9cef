/**
 * What the user can do about the agent itself: sign in, restart it after it exited or failed,
 * and read its stderr log.
 */
import './agent-panel.css';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import type {
  AirlockApi,
  AuthMethodView,
  SecretStorageView,
  SessionSummary,
} from '../../../preload/shared/contract';
import { ariaKeyShortcuts } from '../keyboard';
import { ErrorDetails, LastLines } from './error-details';
import { useShortcuts } from '../use-shortcuts';
import { SignInTerminal } from '../lazy-parts';
import { agentNames } from '../state/agent-names';

/** What the host offers for signing in with variables: a keychain, or the settings file. */
export type SignInHost = { secretStorage: SecretStorageView; settingsPath: string };

/**
 * The agent log: a button that shows, below the session's header, the command that launched the
 * agent, the log file's path and its last part. Esc, the button again, the close button or a
 * click elsewhere hides it, and the focus goes back to the button. Its shortcut (Alt+L) and the desktop menu's Show Agent Log
 * open it too, for the session shown: with none shown, this is not drawn and they do nothing.
 */
export function AgentLog({
  api,
  agentName,
  commandLine,
}: {
  api: AirlockApi;
  agentName: string;
  /** The command that launched the agent, once it runs. */
  commandLine?: string;
}) {
  const [open, setOpen] = useState(false);
  const [log, setLog] = useState<{ path: string; text: string } | { error: string } | undefined>();
  const id = useId();
  const anchor = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const [reading, setReading] = useState(false);

  // It opens once the log is read, with what it says (or why it could not be read).
  const show = () => {
    if (reading) {
      return;
    }
    setReading(true);
    api
      .invoke('agent:readLog', { agentName })
      .then(setLog, (error: unknown) => setLog({ error: (error as Error).message }))
      .finally(() => {
        setReading(false);
        setOpen(true);
      });
  };
  const hide = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) {
      toggle.current?.focus();
    }
  }, []);

  // Open already, it takes the focus again.
  useShortcuts(api, { agentLog: () => (open ? panel.current?.focus() : show()) });

  // The log takes the focus, so it is read out and Esc reaches it.
  useEffect(() => {
    if (open) {
      panel.current?.focus();
    }
  }, [open]);

  // A click elsewhere puts it away (the focus stays where that click put it).
  useEffect(() => {
    if (!open) {
      return undefined;
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!anchor.current?.contains(event.target as Node)) {
        hide(false);
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, hide]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (open && event.key === 'Escape' && !event.defaultPrevented) {
      // Esc hides the log only; the session view's Esc (cancel the turn) skips a handled event.
      event.preventDefault();
      event.stopPropagation();
      hide(true);
    }
  };

  return (
    <div className="agent-log-anchor" ref={anchor} onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-busy={reading}
        aria-keyshortcuts={ariaKeyShortcuts('agentLog')}
        onClick={() => (open ? hide(true) : show())}
      >
        {open ? 'Hide agent log' : 'Show agent log'}
      </button>
      {open ? (
        <section id={id} ref={panel} className="agent-log" aria-label="Agent log" tabIndex={-1}>
          <div className="agent-log-head">
            <h3>Agent log</h3>
            <button type="button" aria-label="Close agent log" onClick={() => hide(true)}>
              ×
            </button>
          </div>
          {commandLine !== undefined ? (
            <p className="agent-log-path">
              Launched with <code>{commandLine}</code>
            </p>
          ) : null}
          {log === undefined ? null : 'error' in log ? (
            <p role="alert">{log.error}</p>
          ) : (
            <>
              <p className="agent-log-path">
                Log file: <code>{log.path}</code>
              </p>
              <pre tabIndex={0}>{log.text || '(empty)'}</pre>
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}

/**
 * The sign-in method whose terminal each tab shows, by tab key: the panel is drawn anew when the
 * user comes back to the tab, and shows the same terminal again (its command ran meanwhile).
 */
const shownTerminals = new Map<string, string>();

/** The panel above the transcript when the agent needs attention. */
export function AgentPanel({
  api,
  session,
  signIn,
}: {
  api: AirlockApi;
  session: SessionSummary;
  signIn: SignInHost;
}) {
  const [error, setError] = useState<string | undefined>();
  /** The `terminal` method whose terminal is open, if any. */
  const [terminal, setShownTerminal] = useState<AuthMethodView | undefined>(() =>
    session.authMethods.find(
      (method) => method.kind === 'terminal' && method.id === shownTerminals.get(session.key),
    ),
  );
  /** Whether the user opened the terminal here (it takes the focus), not shown again. */
  const [openedHere, setOpenedHere] = useState(false);
  const setTerminal = (method: AuthMethodView | undefined) => {
    if (method) {
      shownTerminals.set(session.key, method.id);
    } else {
      shownTerminals.delete(session.key);
    }
    setShownTerminal(method);
  };
  // Signed in, or restarted: a later sign-in starts with no terminal shown.
  useEffect(() => {
    if (session.status !== 'auth_required') {
      shownTerminals.delete(session.key);
    }
  }, [session.status, session.key]);
  const terminalButtons = useRef(new Map<string, HTMLButtonElement>());
  const run = (action: Promise<unknown>) => {
    setError(undefined);
    action.catch((failure: unknown) => setError((failure as Error).message));
  };
  const restart = () => run(api.invoke('session:restart', { key: session.key }));

  if (session.status === 'auth_required') {
    return (
      <section className="agent-panel" aria-label="Authentication required">
        <h3>Authentication required</h3>
        <p>
          {agentNames.of(session.agentName)} needs you to sign in before it can start a session.
        </p>
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
                <EnvVarSignIn api={api} session={session} method={method} host={signIn} />
              ) : (
                <>
                  <button
                    type="button"
                    ref={(button) => {
                      if (button) {
                        terminalButtons.current.set(method.id, button);
                      } else {
                        terminalButtons.current.delete(method.id);
                      }
                    }}
                    aria-expanded={terminal?.id === method.id}
                    onClick={() => {
                      setOpenedHere(true);
                      setTerminal(method);
                    }}
                  >
                    Sign in in terminal
                  </button>
                  {method.terminalCommand ? (
                    <details className="terminal-command">
                      <summary>Details</summary>
                      <p className="hint">
                        Runs <code>{method.terminalCommand}</code> in the session’s folder.
                      </p>
                    </details>
                  ) : null}
                </>
              )}
            </li>
          ))}
        </ul>
        {terminal ? (
          <SignInTerminal
            // A key per method: another method's terminal starts afresh.
            key={terminal.id}
            api={api}
            sessionKey={session.key}
            agentName={agentNames.of(session.agentName)}
            methodId={terminal.id}
            methodName={terminal.name}
            takeFocus={openedHere}
            onClose={() => {
              const id = terminal.id;
              setTerminal(undefined);
              terminalButtons.current.get(id)?.focus();
            }}
          />
        ) : null}
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
        {session.error ? (
          <ErrorDetails message={session.error} detail={session.errorDetail} />
        ) : null}
        {session.exit ? (
          <>
            <p>
              {agentNames.of(session.agentName)} {session.exit.reason}.
            </p>
            <LastLines lines={session.exit.stderrTail} />
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

/**
 * An `env_var` sign-in: which variables the agent reads and whether each is set, and, where the
 * host has a keychain, masked fields to enter them (kept there, never in the settings file).
 */
function EnvVarSignIn({
  api,
  session,
  method,
  host,
}: {
  api: AirlockApi;
  session: SessionSummary;
  method: AuthMethodView;
  host: SignInHost;
}) {
  const id = useId();
  const vars = method.vars ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  if (vars.length === 0) {
    return (
      <p className="hint">The agent did not name the variable it reads. Check its documentation.</p>
    );
  }
  const status = (
    <ul className="env-vars">
      {vars.map((variable) => (
        <li key={variable.name}>
          <code>{variable.name}</code>
          {variable.label ? <span> ({variable.label})</span> : null}:{' '}
          {variable.set ? 'set' : variable.optional ? 'not set (optional)' : 'not set'}
        </li>
      ))}
    </ul>
  );
  if (!host.secretStorage.available) {
    return (
      <div className="hint">
        {status}
        <p>{host.secretStorage.description}</p>
        <p>
          The settings file is <code>{host.settingsPath}</code>; restart the agent after you change
          it.
        </p>
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filled = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
    setError(undefined);
    setSaving(true);
    api
      .invoke('agent:saveSecrets', { key: session.key, methodId: method.id, values: filled })
      .catch((failure: unknown) => setError((failure as Error).message))
      .finally(() => setSaving(false));
  };
  return (
    <form className="env-sign-in" onSubmit={submit} aria-label={method.name}>
      {vars.map((variable) => (
        <label key={variable.name} htmlFor={`${id}-${variable.name}`}>
          <span>
            {variable.label ?? variable.name}
            {variable.label ? <code> {variable.name}</code> : null}
            <span className="hint">
              {variable.set ? ' · set' : variable.optional ? ' · optional' : ''}
            </span>
          </span>
          <input
            id={`${id}-${variable.name}`}
            type={variable.secret ? 'password' : 'text'}
            autoComplete="off"
            spellCheck={false}
            value={values[variable.name] ?? ''}
            placeholder={variable.set ? 'Enter a new value to replace it' : ''}
            onChange={(event) => {
              const value = event.target.value;
              setValues((current) => ({ ...current, [variable.name]: value }));
            }}
          />
        </label>
      ))}
      <p className="hint">Kept in {host.secretStorage.description}, never in the settings file.</p>
      <button type="submit" disabled={saving}>
        Save and sign in
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </form>
  );
}
