/**
 * The form that adds or edits an agent: its name, command, arguments (one a line), environment
 * variables (a row each) and the domains of its URL requests (one a line).
 *
 * A value the core masked as secret is never in the page unless the user reveals it; left
 * untouched it is sent as "keep" and the core writes the stored value back. What the core finds
 * wrong comes back field by field: each problem shows beside its field, and the first one takes
 * the focus. Esc cancels.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type {
  AgentEnvInput,
  AgentSettingsInput,
  AgentSettingsView,
  AirlockApi,
  FieldProblem,
} from '../../../preload/shared/contract';

/** One row of the environment: a value the user sees, or a secret the core keeps. */
type EnvRow = {
  id: number;
  name: string;
  value: string;
  /** The variable the core keeps the value of, while the user has neither revealed nor typed one. */
  keptFrom?: string;
  /** Whether the value came masked: it shows as dots until shown. */
  secret: boolean;
  shown: boolean;
};

type Props = {
  api: AirlockApi;
  headingId: string;
  /** The agent edited; none for a new one. */
  agent?: AgentSettingsView;
  editable: boolean;
  settingsPath: string;
  fileError?: string;
  onSaved(name: string): void;
  onCancel(): void;
};

let nextRowId = 0;

function rowsOf(agent: AgentSettingsView | undefined): EnvRow[] {
  return (agent?.env ?? []).map((variable) =>
    variable.secret
      ? {
          id: nextRowId++,
          name: variable.name,
          value: '',
          keptFrom: variable.name,
          secret: true,
          shown: false,
        }
      : { id: nextRowId++, name: variable.name, value: variable.value, secret: false, shown: true },
  );
}

/** Lines of a text area, the blank ones left out. */
const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** The form. */
export function AgentForm({
  api,
  headingId,
  agent,
  editable,
  settingsPath,
  fileError,
  onSaved,
  onCancel,
}: Props) {
  const [name, setName] = useState(agent?.name ?? '');
  const [command, setCommand] = useState(agent?.command ?? '');
  const [args, setArgs] = useState((agent?.args ?? []).join('\n'));
  const [env, setEnv] = useState<EnvRow[]>(() => rowsOf(agent));
  const [domains, setDomains] = useState((agent?.urlDomains ?? []).join('\n'));
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  /** Bumped on each refusal, so the first problem takes the focus once it is drawn. */
  const [refusals, setRefusals] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const lockedId = `${id}-locked`;

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input')?.focus();
  }, []);
  useEffect(() => {
    if (refusals > 0) {
      (
        form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        form.current?.querySelector<HTMLElement>('.agent-form-failure')
      )?.focus();
    }
  }, [refusals]);

  const problemsOf = (test: (field: string) => boolean) =>
    problems.filter((problem) => test(problem.field)).map((problem) => problem.message);
  const placed = (field: string) =>
    ['name', 'command', 'env'].includes(field) ||
    /^(args|urlDomains|env\.\d+\.(name|value))/.test(field);
  const unplaced = problems.filter((problem) => !placed(problem.field));

  const updateRow = (rowId: number, change: Partial<EnvRow>) =>
    setEnv((rows) => rows.map((row) => (row.id === rowId ? { ...row, ...change } : row)));

  const reveal = async (row: EnvRow) => {
    if (row.keptFrom === undefined || agent === undefined) {
      updateRow(row.id, { shown: !row.shown });
      return;
    }
    try {
      const { value } = await api.invoke('settings:revealEnv', {
        agentName: agent.name,
        envName: row.keptFrom,
      });
      updateRow(row.id, { value, keptFrom: undefined, shown: true });
    } catch (error) {
      setFailure((error as Error).message);
    }
  };

  const save = async () => {
    setFailure(undefined);
    setBusy(true);
    const input: AgentSettingsInput = {
      name,
      command,
      args: lines(args),
      env: env.map((row): AgentEnvInput =>
        row.keptFrom !== undefined
          ? {
              name: row.name,
              keep: true,
              ...(row.keptFrom === row.name ? {} : { from: row.keptFrom }),
            }
          : { name: row.name, value: row.value },
      ),
      urlDomains: lines(domains).map((line) => line.trim()),
    };
    try {
      const answer = await api.invoke('settings:saveAgent', {
        ...(agent === undefined ? {} : { originalName: agent.name }),
        agent: input,
      });
      if (answer.ok) {
        onSaved(answer.name);
        return;
      }
      setProblems(answer.problems);
    } catch (error) {
      setProblems([]);
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
    setRefusals((count) => count + 1);
  };

  const disabled = !editable || busy;

  return (
    <form
      ref={form}
      className="agent-form"
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <h2 id={headingId} ref={heading}>
        {agent === undefined ? 'Add agent' : `Edit ${agent.name}`}
      </h2>
      <p className="agent-settings-path">
        Saved to <code>{settingsPath}</code>, keeping its comments and order.
      </p>
      {!editable ? (
        <div id={lockedId} className="agent-settings-file-error locked" role="alert">
          <p>
            <strong>The settings file cannot be read, so this agent cannot be saved.</strong>
          </p>
          {fileError ? <p className="agent-settings-error-text">{fileError}</p> : null}
          <p>Fix the file in a text editor and save it, then come back.</p>
        </div>
      ) : null}
      <fieldset disabled={disabled} aria-describedby={editable ? undefined : lockedId}>
        <legend className="visually-hidden">The agent</legend>
        <Field label="Name" messages={problemsOf((field) => field === 'name')}>
          {(props) => (
            <input
              {...props}
              value={name}
              onChange={(event) => setName(event.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <Field
          label="Command"
          hint="The program that starts the agent: npx, a name on the PATH, or a full path."
          messages={problemsOf((field) => field === 'command')}
        >
          {(props) => (
            <input
              {...props}
              value={command}
              onChange={(event) => setCommand(event.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <Field
          label="Arguments"
          hint="One a line, as the command takes them."
          messages={problemsOf((field) => field === 'args' || field.startsWith('args.'))}
        >
          {(props) => (
            <textarea
              {...props}
              value={args}
              rows={Math.min(Math.max(args.split('\n').length, 2), 8)}
              onChange={(event) => setArgs(event.target.value)}
              spellCheck={false}
            />
          )}
        </Field>
        <EnvRows
          rows={env}
          problems={problems}
          onChange={updateRow}
          onRemove={(rowId) => setEnv((rows) => rows.filter((row) => row.id !== rowId))}
          onAdd={() =>
            setEnv((rows) => [
              ...rows,
              { id: nextRowId++, name: '', value: '', secret: false, shown: true },
            ])
          }
          onReveal={(row) => void reveal(row)}
        />
        <Field
          label="Domains of its sign-in pages (optional)"
          hint="One a line. Pages the agent asks you to open outside these domains are flagged."
          messages={problemsOf(
            (field) => field === 'urlDomains' || field.startsWith('urlDomains.'),
          )}
        >
          {(props) => (
            <textarea
              {...props}
              value={domains}
              rows={Math.min(Math.max(domains.split('\n').length, 2), 6)}
              onChange={(event) => setDomains(event.target.value)}
              spellCheck={false}
            />
          )}
        </Field>
      </fieldset>
      {agent?.mcpServers?.length ? (
        <p className="agent-field-hint">
          Its own MCP servers ({agent.mcpServers.map((server) => server.name).join(', ')}) are kept
          as they are; edit them in the settings file.
        </p>
      ) : null}
      {failure || unplaced.length > 0 ? (
        <div className="agent-form-failure" role="alert" tabIndex={-1}>
          {failure ? <p>{failure}</p> : null}
          {unplaced.map((problem) => (
            <p key={problem.field}>{problem.message}</p>
          ))}
        </div>
      ) : null}
      <div className="agent-form-actions">
        <button
          type="submit"
          className="primary"
          disabled={disabled}
          aria-describedby={editable ? undefined : lockedId}
        >
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The props a field's control takes from its label and its problems. */
type ControlProps = {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
};

/** A labelled control, its hint, and what the core found wrong with it. */
function Field({
  label,
  hint,
  messages,
  children,
}: {
  label: string;
  hint?: string;
  messages: string[];
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const described = [hint ? hintId : '', messages.length > 0 ? problemId : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="agent-field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': messages.length > 0,
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint ? (
        <p id={hintId} className="agent-field-hint">
          {hint}
        </p>
      ) : null}
      {messages.length > 0 ? (
        <p id={problemId} className="agent-field-problem">
          {messages.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

/** The environment variables, a row each. */
function EnvRows({
  rows,
  problems,
  onChange,
  onRemove,
  onAdd,
  onReveal,
}: {
  rows: EnvRow[];
  problems: FieldProblem[];
  onChange(rowId: number, change: Partial<EnvRow>): void;
  onRemove(rowId: number): void;
  onAdd(): void;
  onReveal(row: EnvRow): void;
}) {
  const id = useId();
  const groupProblems = problems.filter((problem) => problem.field === 'env');
  return (
    <fieldset className="agent-env" aria-describedby={`${id}-hint`}>
      <legend>Environment variables</legend>
      <p id={`${id}-hint`} className="agent-field-hint">
        Values that look secret are hidden until you reveal them, and kept as they are unless you
        type a new one.
      </p>
      {rows.length > 0 ? (
        <ol className="agent-env-rows">
          {rows.map((row, index) => {
            const nameProblems = problems
              .filter((problem) => problem.field === `env.${index}.name`)
              .map((problem) => problem.message);
            const valueProblems = problems
              .filter((problem) => problem.field === `env.${index}.value`)
              .map((problem) => problem.message);
            const rowId = `${id}-${row.id}`;
            const label = row.name || `variable ${index + 1}`;
            const masked = row.secret && !row.shown;
            return (
              <li key={row.id} className="agent-env-row">
                <div className="agent-field">
                  <label htmlFor={`${rowId}-name`}>Name</label>
                  <input
                    id={`${rowId}-name`}
                    value={row.name}
                    onChange={(event) => onChange(row.id, { name: event.target.value })}
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={nameProblems.length > 0}
                    aria-describedby={nameProblems.length > 0 ? `${rowId}-name-problem` : undefined}
                  />
                  {nameProblems.length > 0 ? (
                    <p id={`${rowId}-name-problem`} className="agent-field-problem">
                      {nameProblems.join(' ')}
                    </p>
                  ) : null}
                </div>
                <div className="agent-field">
                  <label htmlFor={`${rowId}-value`}>Value</label>
                  <input
                    id={`${rowId}-value`}
                    type={masked ? 'password' : 'text'}
                    value={row.value}
                    placeholder={row.keptFrom !== undefined ? '••••••••  (set, hidden)' : undefined}
                    onChange={(event) =>
                      onChange(row.id, { value: event.target.value, keptFrom: undefined })
                    }
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={valueProblems.length > 0}
                    aria-describedby={
                      [
                        row.keptFrom !== undefined ? `${rowId}-kept` : '',
                        valueProblems.length > 0 ? `${rowId}-value-problem` : '',
                      ]
                        .filter(Boolean)
                        .join(' ') || undefined
                    }
                  />
                  {row.keptFrom !== undefined ? (
                    <p id={`${rowId}-kept`} className="visually-hidden">
                      A secret value is set and hidden; it is kept unless you type a new one.
                    </p>
                  ) : null}
                  {valueProblems.length > 0 ? (
                    <p id={`${rowId}-value-problem`} className="agent-field-problem">
                      {valueProblems.join(' ')}
                    </p>
                  ) : null}
                </div>
                <div className="agent-env-buttons">
                  {row.secret ? (
                    <button
                      type="button"
                      aria-label={`${masked ? 'Reveal' : 'Hide'} the value of ${label}`}
                      onClick={() => onReveal(row)}
                    >
                      {masked ? 'Reveal' : 'Hide'}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    aria-label={`Remove ${label}`}
                    onClick={() => onRemove(row.id)}
                  >
                    Remove
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
      {groupProblems.length > 0 ? (
        <p className="agent-field-problem">
          {groupProblems.map((problem) => problem.message).join(' ')}
        </p>
      ) : null}
      <button type="button" className="agent-env-add" onClick={onAdd}>
        Add variable
      </button>
    </fieldset>
  );
}
