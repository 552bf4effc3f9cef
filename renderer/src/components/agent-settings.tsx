/**
 * The agents' settings: the list of agents from the settings file (and the built-in one, which
 * cannot be changed), with Edit, Duplicate, Remove and Test for each; "Add agent", which opens
 * the ACP registry's catalogue (agent-catalogue.tsx) and from there the form for a custom
 * agent; the form that adds or edits one; the MCP servers every agent gets and each agent's own (listed; they are edited in
 * the file); and whether file writes ask first (`ask_before_writes`). Every decision is the core's: the view sends what the user typed and shows what the
 * core answers, field by field. It reads the list again whenever the agents change, a hand edit
 * of the file included.
 */
import { useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { AgentSettingsView, AirlockApi, CallResponse } from '../../../preload/shared/contract';
import { agentTests, type AgentTest } from '../state/agent-tests';
import { AgentCatalogue } from './agent-catalogue';
import { shownName } from '../state/agent-names';
import { AgentForm } from './agent-settings-form';
import { TestResult } from './agent-test-report';
import { McpServerList } from './mcp-server-list';
import { ModalDialog } from './modal-dialog';
import { UnusableAgents } from './unusable-agents';
// After the dialog's rules: a dialog in the settings takes the settings' headings and paragraphs.
import './agent-settings.css';

type Listing = CallResponse<'settings:getAgents'>;

/** An agent to remove: its name (the key), the name it shows with, whether it has files to go. */
type Removing = Pick<AgentSettingsView, 'name' | 'label' | 'source'>;

/** What the form shows: a new agent, or one of the list's. */
type Editing = { agent?: AgentSettingsView };

/**
 * The settings view. `onClose` goes back to the sessions; `onInstalled` goes on to a session
 * with an agent just installed from the registry.
 */
export function AgentSettings({
  api,
  onClose,
  onInstalled,
  catalogueFirst = false,
}: {
  api: AirlockApi;
  onClose(): void;
  onInstalled?(agentName: string): void;
  /** Opens on the registry's catalogue rather than the list. */
  catalogueFirst?: boolean;
}) {
  const [listing, setListing] = useState<Listing | undefined>();
  // "Add agent" opens the registry's catalogue first; a custom agent is one step further.
  const [catalogue, setCatalogue] = useState(catalogueFirst);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [editing, setEditing] = useState<Editing | undefined>();
  /** The agent whose Remove asks for confirmation: one of the list, or an unusable entry's name. */
  const [removing, setRemoving] = useState<Removing | undefined>();
  // Kept beyond the view: leaving it and coming back shows the results again.
  useSyncExternalStore(agentTests.subscribe, agentTests.snapshot);
  const [notice, setNotice] = useState('');
  const [failure, setFailure] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  const view = useRef<HTMLElement>(null);
  const headingId = useId();
  const lockedId = useId();
  const writesId = useId();
  const mcpId = useId();
  /** The checkbox's new state while it is being saved, so it does not flick back meanwhile. */
  const [askSaving, setAskSaving] = useState<boolean | undefined>();

  const load = useCallback(
    () =>
      api.invoke('settings:getAgents', {}).then(
        (answer) => {
          setListing(answer);
          setLoadError(undefined);
        },
        (error: unknown) => setLoadError((error as Error).message),
      ),
    [api],
  );
  useEffect(() => {
    void load();
    // A change to the file, by this view or by hand, is read again.
    return api.on('app:onDidChangeAgents', () => void load());
  }, [api, load]);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  /** A control of the view to focus once it is drawn (a saved agent's shows once listed). */
  const [focusTarget, focusLater] = useState<string | undefined>();
  useEffect(() => {
    const target =
      focusTarget === undefined ? null : view.current?.querySelector<HTMLElement>(focusTarget);
    if (target) {
      target.focus();
      focusLater(undefined);
    }
  }, [focusTarget, listing, editing]);

  const act = async (what: () => Promise<string>) => {
    setFailure(undefined);
    try {
      setNotice(await what());
    } catch (error) {
      setFailure((error as Error).message);
    }
    await load();
  };

  const test = (agent: AgentSettingsView) => {
    agentTests.set(agent, { busy: true });
    api.invoke('settings:testAgent', { agentName: agent.name }).then(
      (report) => agentTests.set(agent, { busy: false, report }),
      (error: unknown) => agentTests.set(agent, { busy: false, error: (error as Error).message }),
    );
  };

  const editable = listing?.editable ?? false;
  const locked = listing !== undefined && !listing.editable;
  const lockedBy = locked ? lockedId : undefined;

  if (catalogue) {
    return (
      <AgentCatalogue
        api={api}
        onClose={() => {
          setCatalogue(false);
          focusLater('[data-agent-add]');
        }}
        onCustom={() => {
          setCatalogue(false);
          setEditing({});
        }}
        onInstalled={(name) => {
          setCatalogue(false);
          onInstalled?.(name);
        }}
      />
    );
  }

  if (editing && listing) {
    return (
      <main className="agent-settings" ref={view} aria-labelledby={headingId}>
        <AgentForm
          api={api}
          headingId={headingId}
          agent={editing.agent}
          editable={editable}
          settingsPath={listing.path}
          fileError={listing.error}
          onSaved={(name) => {
            setEditing(undefined);
            setNotice(`Saved ${name}.`);
            void load();
            focusLater(`[data-agent-edit="${CSS.escape(name)}"]`);
          }}
          onCancel={() => {
            const name = editing.agent?.name;
            setEditing(undefined);
            focusLater(
              name === undefined ? '[data-agent-add]' : `[data-agent-edit="${CSS.escape(name)}"]`,
            );
          }}
        />
      </main>
    );
  }

  return (
    <main className="agent-settings" ref={view} aria-labelledby={headingId}>
      <header className="agent-settings-header">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          Agents
        </h2>
        <button type="button" onClick={onClose}>
          Back to sessions
        </button>
      </header>
      {listing ? (
        <p className="agent-settings-path">
          Settings file: <code>{listing.path}</code>
        </p>
      ) : null}
      {loadError ? (
        <p className="agent-settings-problem" role="alert">
          Could not read the agents: {loadError}
        </p>
      ) : null}
      {listing?.error ? (
        <div
          id={lockedId}
          className={`agent-settings-file-error${locked ? ' locked' : ''}`}
          role="alert"
        >
          <p>
            <strong>
              {locked
                ? 'The settings file cannot be read, so agents cannot be changed here.'
                : 'Part of the settings file is not used.'}
            </strong>
          </p>
          <p className="agent-settings-error-text">{listing.error}</p>
          <p>
            {locked
              ? 'Fix the file in a text editor and save it; this list follows as soon as it can be read.'
              : 'Fix the file in a text editor, or edit the agent here.'}
          </p>
        </div>
      ) : null}
      <div className="agent-settings-actions">
        <button
          type="button"
          className="primary"
          data-agent-add
          disabled={!editable}
          aria-describedby={lockedBy}
          onClick={() => setCatalogue(true)}
        >
          Add agent
        </button>
      </div>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {failure ? (
        <p className="agent-settings-problem" role="alert">
          {failure}
        </p>
      ) : null}
      {listing ? (
        <ul className="agent-list" aria-label="Agents">
          {listing.agents.map((agent) => (
            <AgentItem
              key={agent.name}
              agent={agent}
              editable={editable}
              lockedBy={lockedBy}
              test={agentTests.get(agent)}
              onEdit={() => setEditing({ agent })}
              onDuplicate={() =>
                void act(async () => {
                  const { name } = await api.invoke('settings:duplicateAgent', {
                    agentName: agent.name,
                  });
                  focusLater(`[data-agent-edit="${CSS.escape(name)}"]`);
                  return `Copied ${agent.name} as ${name}.`;
                })
              }
              onRemove={() => setRemoving(agent)}
              onTest={() => test(agent)}
            />
          ))}
        </ul>
      ) : loadError ? null : (
        <p>Loading the agents…</p>
      )}
      {listing ? (
        <UnusableAgents
          entries={listing.unusable}
          reserved={listing.agents.filter((agent) => agent.builtIn).map((agent) => agent.name)}
          removable={editable}
          lockedBy={lockedBy}
          onRemove={(name) => setRemoving({ name })}
        />
      ) : null}
      {listing ? (
        <section className="agent-settings-section" aria-labelledby={mcpId}>
          <h3 id={mcpId}>MCP servers for every agent</h3>
          {listing.mcpServers?.length ? (
            <McpServerList servers={listing.mcpServers} label="MCP servers for every agent" />
          ) : (
            <p>None.</p>
          )}
          <p className="agent-settings-hint">
            Edit them as context_servers in the settings file above: at its top level for every
            agent, or inside an agent for that agent alone (a server of the same name replaces the
            shared one).
          </p>
        </section>
      ) : null}
      {listing ? (
        <section className="agent-settings-section" aria-labelledby={writesId}>
          <h3 id={writesId}>File writes</h3>
          <label className="agent-settings-check">
            <input
              type="checkbox"
              checked={askSaving ?? listing.askBeforeWrites}
              disabled={!editable}
              aria-describedby={[`${writesId}-hint`, lockedBy].filter(Boolean).join(' ')}
              onChange={(event) => {
                const value = event.target.checked;
                setAskSaving(value);
                void act(async () => {
                  await api.invoke('settings:setAskBeforeWrites', { value });
                  return value ? 'File writes now ask first.' : 'File writes no longer ask first.';
                }).finally(() => setAskSaving(undefined));
              }}
            />
            Ask before an agent writes a file
          </label>
          <p id={`${writesId}-hint`} className="agent-settings-hint">
            Each write waits for your permission, with the change shown as a diff (ask_before_writes
            in the settings file).
          </p>
        </section>
      ) : null}
      {removing !== undefined ? (
        <ModalDialog
          title={`Remove “${shownName(removing)}”?`}
          description={
            removing.source === 'registry'
              ? `${shownName(removing)} is taken out of the settings file and its installed files are deleted. Sessions already running with it go on.`
              : `${shownName(removing)} is taken out of the settings file. Sessions already running with it go on.`
          }
          className="confirm-remove"
          onClose={() => setRemoving(undefined)}
        >
          <div className="dialog-actions">
            <button
              type="button"
              className="danger"
              onClick={() => {
                const { name } = removing;
                const shown = shownName(removing);
                setRemoving(undefined);
                void act(async () => {
                  await api.invoke('settings:removeAgent', { agentName: name });
                  focusLater('[data-agent-add]');
                  return `Removed ${shown}.`;
                });
              }}
            >
              Remove agent
            </button>
            <button type="button" data-autofocus onClick={() => setRemoving(undefined)}>
              Keep it
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </main>
  );
}

/** One agent of the list, with its actions and its test's result. */
function AgentItem({
  agent,
  editable,
  lockedBy,
  test,
  onEdit,
  onDuplicate,
  onRemove,
  onTest,
}: {
  agent: AgentSettingsView;
  editable: boolean;
  lockedBy: string | undefined;
  test: AgentTest | undefined;
  onEdit(): void;
  onDuplicate(): void;
  onRemove(): void;
  onTest(): void;
}) {
  const nameId = useId();
  const changeable = editable && !agent.builtIn;
  // An agent from the registry has no command to edit here: the catalogue installs and updates it.
  const fromRegistry = agent.source === 'registry';
  const commandLine = [agent.command, ...agent.args].join(' ');
  // Shown by the registry's name; the id (the settings key) beside it, as the file says it.
  const shown = shownName(agent);
  return (
    <li className="agent-item" aria-labelledby={nameId}>
      <div className="agent-item-head">
        <h3 id={nameId}>{shown}</h3>
        {shown !== agent.name ? <code className="agent-id">{agent.name}</code> : null}
        {agent.builtIn ? <span className="agent-tag">Built in, cannot be changed</span> : null}
        {fromRegistry ? (
          <span className={`agent-tag${agent.notInRegistry ? ' agent-tag-problem' : ''}`}>
            {agent.notInRegistry ? 'Not in the registry' : 'ACP registry'}
          </span>
        ) : null}
      </div>
      <p className="agent-command">
        {agent.builtIn ? (
          // How Airlock runs its own agent is not the user's to read or change.
          'Comes with Airlock: try sessions, questions and sign-in with no account.'
        ) : agent.notInRegistry ? (
          'The ACP registry Airlock could read has no agent with this id, so it cannot start. Check the id in the settings file, or connect to the internet.'
        ) : fromRegistry ? (
          'From the ACP registry: Airlock installs and runs it.'
        ) : (
          <code>{commandLine}</code>
        )}
      </p>
      {agent.env.length > 0 ? (
        <p className="agent-env-names">
          Variables: {agent.env.map((variable) => variable.name).join(', ')}
        </p>
      ) : null}
      {agent.mcpServers?.length ? (
        <div className="agent-mcp">
          <p>Its own MCP servers (edit them in the settings file):</p>
          <McpServerList servers={agent.mcpServers} label={`MCP servers of ${shown}`} />
        </div>
      ) : null}
      <div className="agent-item-actions">
        {agent.builtIn ? null : (
          <>
            {fromRegistry ? null : (
              <>
                <button
                  type="button"
                  data-agent-edit={agent.name}
                  aria-label={`Edit ${shown}`}
                  disabled={!changeable}
                  aria-describedby={lockedBy}
                  onClick={onEdit}
                >
                  Edit
                </button>
                <button
                  type="button"
                  aria-label={`Duplicate ${shown}`}
                  disabled={!changeable}
                  aria-describedby={lockedBy}
                  onClick={onDuplicate}
                >
                  Duplicate
                </button>
              </>
            )}
            <button
              type="button"
              aria-label={`Remove ${shown}`}
              disabled={!changeable}
              aria-describedby={lockedBy}
              onClick={onRemove}
            >
              Remove
            </button>
          </>
        )}
        <button
          type="button"
          aria-label={`Test ${shown}`}
          // Not disabled: the focus stays on it while the test runs.
          aria-disabled={test?.busy === true}
          onClick={() => test?.busy !== true && onTest()}
        >
          {test?.busy ? 'Testing…' : 'Test'}
        </button>
      </div>
      {test ? <TestResult name={shown} test={test} /> : null}
    </li>
  );
}
