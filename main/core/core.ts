/**
 * The host-independent core: agents, connections and sessions behind the contract.
 *
 * Hosts (Electron, web) pass every call here through {@link AirlockCore.invoke}, which
 * validates the payload against the contract, and forward every event it emits.
 */
import * as acp from '@agentclientprotocol/sdk';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  calls,
  HostCommand,
  isCallChannel,
  type AgentEntry,
  type ConfigOptionView,
  type EventPayload,
} from '../../preload/contract.js';
import {
  agentLogPath,
  DEFAULT_TIMEOUTS,
  type AgentConnection,
  type ConnectionTimeouts,
} from './agent-connection.js';
import { AgentPool } from './agents/pool.js';
import { AgentRouting } from './agents/routing.js';
import { Attention, type AttentionListener } from './attention.js';
import { AgentRequestError, AUTH_REQUIRED, UserFacingError } from './errors.js';
import { ElicitationBroker } from './elicitation/broker.js';
import { FileService } from './files/service.js';
import type { Handlers } from './handlers.js';
import { mcpServersFor } from './mcp-servers.js';
import { Outbox, type CoreListener } from './outbox.js';
import { completeFiles } from './files/complete.js';
import { checkWorkingFolder, RecentFolders } from './recent-folders.js';
import { NO_SECRET_STORE, type SecretStore } from './secrets.js';
import { authMethodsWithEnv, readyEnvMethod } from './sign-in.js';
import { attachedContent, promptAccepts } from './prompt-content.js';
import { Session, type Choice } from './session.js';
import { lastingCapabilities } from './sessions/history.js';
import { LastingSessions } from './sessions/service.js';
import {
  commandLine,
  loadAgentCatalog,
  type AgentCatalog,
  type AgentSpec,
} from './settings/catalog.js';
import { watchSettings, type SettingsWatcher } from './settings/file.js';
import { TerminalService } from './terminals/service.js';
import { AgentSettings } from './settings/service.js';
import { configViews } from './updates.js';
import { duplicateNewSession, heldByAnotherTab } from './session-ids.js';

/** What a host provides to the core. */
export type CoreOptions = {
  settingsPath: string;
  logsDir: string;
  demoAgent: AgentSpec;
  defaultCwd: string;
  /** Shows a folder picker; absent on hosts that have none. */
  pickFolder?: () => Promise<string | null>;
  timeouts?: ConnectionTimeouts;
  /** The largest single message accepted from an agent (tests use a small one). */
  maxMessageBytes?: number;
  /** Where sign-in values the user enters are kept; none by default (the web host). */
  secrets?: SecretStore;
  /**
   * Opens a URL the user consented to, in the isolated window or the system browser (the
   * desktop app). Without it, the page opens URL elicitations in a new browser tab.
   */
  openUrl?: (url: string, where: 'window' | 'browser') => Promise<void>;
  /** How long the settings view's "Test" of an agent may take; a minute by default. */
  testDeadlineMs?: number;
  /**
   * How long a process started for no tab (to list an agent's history) waits for one before it
   * stops; a minute by default.
   */
  idleAgentMs?: number;
  /**
   * Settles once agents may start: the desktop app takes the login shell's `PATH` meanwhile
   * (shell-env.ts), so that no agent starts with a desktop launcher's shorter one. The window
   * opens without waiting for it.
   */
  agentsReady?: Promise<unknown>;
};

export type { CoreListener } from './outbox.js';

/** The core. One per app. */
export class AirlockCore {
  private catalog: AgentCatalog = { agents: [], urlElicitation: 'isolated_window' };
  private readonly sessions = new Map<string, Session>();
  /** The agent processes the tabs run on. */
  private readonly pool: AgentPool;
  /** The events for the hosts, sent in batches. */
  private readonly outbox = new Outbox((key) => this.sessions.get(key)?.summary);
  /** The `env_var` sign-in running or done on a connection, shared by its sessions. */
  private readonly envSignIns = new WeakMap<AgentConnection, Promise<void>>();
  private nextId = 1;
  private readonly timeouts: ConnectionTimeouts;
  private readonly secrets: SecretStore;
  private readonly elicitations: ElicitationBroker;
  /** The working folders used recently, in the config folder beside the settings file. */
  private readonly recentFolders: RecentFolders;
  /** Watches the settings file once `init` has run. */
  private settingsWatcher: SettingsWatcher | undefined;
  /** The latest reload of the settings file (see `reloadAgents`). */
  private agentsReload: Promise<void> = Promise.resolve();
  /** Every call's handler: the core's own and each room's. */
  private readonly handlers: Handlers;
  /** The settings view's calls. */
  private readonly agentSettings: AgentSettings;
  /** Tabs kept across restarts, history and reopening (see sessions/service.ts). */
  private readonly lasting: LastingSessions;
  /** Each agent message to the tab it is for. */
  private readonly routing = new AgentRouting({
    tabs: () => this.sessions.values(),
    nextPromptKey: () => `p${(this.nextId++).toString(36)}`,
  });
  /** The cards waiting on the user, for the host's notifications and badge. */
  private readonly attention = new Attention((key) => this.sessions.get(key)?.summary.agentName);
  /** The agent's file requests, served inside each session's folder. */
  private readonly files = new FileService({
    find: (connection, sessionId) => this.routing.sessionOn(connection, sessionId),
    askBeforeWrites: () => this.catalog.askBeforeWrites === true,
    nextPromptKey: () => `p${(this.nextId++).toString(36)}`,
  });

  /** The commands agents run (`terminal/*`), each ended with its session, agent or the app. */
  private readonly terminals = new TerminalService((connection, sessionId) =>
    this.routing.sessionOn(connection, sessionId),
  );

  constructor(private readonly options: CoreOptions) {
    this.recentFolders = new RecentFolders(
      join(dirname(options.settingsPath), 'recent-folders.json'),
    );
    this.timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    this.secrets = options.secrets ?? NO_SECRET_STORE;
    this.elicitations = new ElicitationBroker({
      sessionOn: (connection, sessionId) => this.routing.sessionOn(connection, sessionId),
      tab: (key) => this.sessions.get(key),
      nextCardKey: () => `e${(this.nextId++).toString(36)}`,
      openUrl: options.openUrl,
    });
    this.agentSettings = new AgentSettings({
      path: options.settingsPath,
      catalog: () => this.catalog,
      reload: () => this.reloadAgents(),
      logsDir: options.logsDir,
      cwd: options.defaultCwd,
      timeouts: this.timeouts,
      testDeadlineMs: options.testDeadlineMs,
      agentsReady: options.agentsReady,
      savedEnv: (agentName) => this.secrets.get(agentName),
    });
    this.pool = new AgentPool({
      catalog: () => this.catalog,
      tabs: () => this.sessions.values(),
      secrets: this.secrets,
      settingsPath: options.settingsPath,
      logsDir: options.logsDir,
      timeouts: this.timeouts,
      maxMessageBytes: options.maxMessageBytes,
      agentsReady: options.agentsReady,
      idleAgentMs: options.idleAgentMs,
      delegate: (started) => ({
        onUpdate: (notification) => {
          const connection = started();
          if (connection) {
            this.routing.update(connection, notification);
          }
        },
        onPermission: (request, signal) => this.routing.permission(started(), request, signal),
        onElicitation: async (params, signal) => {
          const connection = started();
          if (!connection) {
            throw acp.RequestError.invalidParams(
              undefined,
              'no session or request of this connection is waiting yet.',
            );
          }
          return this.elicitations.create(connection, params, signal);
        },
        onElicitationComplete: (params) => {
          const connection = started();
          if (connection) {
            this.elicitations.complete(connection, params);
          }
        },
        onReadTextFile: (params) => this.files.read(started(), params),
        onWriteTextFile: (params, signal) => this.files.write(started(), params, signal),
        terminals: this.terminals.handlersFor(started),
      }),
      exited: (connection, exit) => {
        if (connection) {
          this.elicitations.connectionEnded(connection);
          void this.terminals.connectionEnded(connection);
        }
        for (const session of this.sessions.values()) {
          if (session.connection === connection) {
            session.agentExited(exit);
          }
        }
      },
    });
    this.onEvent((channel, payload) => {
      if (channel === 'session:onDidAppend') {
        this.attention.appended(payload as EventPayload<'session:onDidAppend'>);
      }
    });
    this.lasting = new LastingSessions({
      file: join(dirname(options.settingsPath), 'sessions.json'),
      connectionFor: (agentName, cwd) => this.pool.connectionFor(agentName, cwd),
      stopWhenIdle: (agentName) => this.pool.stopWhenIdle(agentName),
      newTab: async (agentName, typed) => {
        if (!this.catalog.agents.some((agent) => agent.name === agentName)) {
          throw new UserFacingError(`No agent named "${agentName}"`);
        }
        const cwd = await checkWorkingFolder(typed);
        const key = `s${(this.nextId++).toString(36)}`;
        const session = new Session(key, agentName, cwd, this.outbox.sink);
        this.sessions.set(key, session);
        this.outbox.sink.changed(key);
        return session;
      },
      startNew: (session) => void this.startSession(session),
      // The very servers `session/new` gets (see openSession).
      mcpServers: (agentName, connection) =>
        mcpServersFor(
          this.catalog,
          this.catalog.agents.find((agent) => agent.name === agentName),
          connection.capabilities,
        ),
      tabs: () => this.sessions.values(),
    });
    this.handlers = {
      ...this.ownHandlers,
      ...this.agentSettings.handlers,
      ...this.elicitations.handlers,
      ...this.lasting.handlers,
    };
    // Summary changes only (never a transcript append): the kept tabs follow their tabs.
    this.onEvent((channel, payload) => {
      if (channel === 'session:onDidChange') {
        const summary = payload as EventPayload<'session:onDidChange'>;
        this.lasting.tabChanged(summary, this.sessions.get(summary.key)?.acpSessionId);
      }
    });
  }

  /**
   * Loads the settings file, and from the first call on watches it: a change made by hand is
   * picked up while the app runs. Call once before serving.
   */
  async init(): Promise<void> {
    this.catalog = await loadAgentCatalog(this.options.settingsPath, this.options.demoAgent);
    this.settingsWatcher ??= watchSettings(this.options.settingsPath, () => this.reloadAgents());
    await this.lasting.load();
  }

  /**
   * Loads the settings file again and tells the UI when anything in it changed. Sessions that
   * run keep the agent they started with.
   */
  private reloadAgents(): Promise<void> {
    // One at a time, in order: a slow read of the old text never lands after a newer one.
    const reload = this.agentsReload.then(async () => {
      const catalog = await loadAgentCatalog(this.options.settingsPath, this.options.demoAgent);
      if (JSON.stringify(catalog) !== JSON.stringify(this.catalog)) {
        this.catalog = catalog;
        this.emitAgents();
      }
    });
    this.agentsReload = reload.catch(() => undefined);
    return reload;
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(listener: CoreListener): () => void {
    return this.outbox.listen(listener);
  }

  /**
   * Subscribes to the cards waiting on the user, across sessions: their count, and what a
   * notification says of each card as it opens (see attention.ts). Returns the unsubscribe
   * function.
   */
  onAttention(listener: AttentionListener): () => void {
    return this.attention.subscribe(listener);
  }

  /**
   * Gives the window a command of the host's own (its application menu, a notification's
   * click): checked against the contract, then emitted as the `app:onCommand` event, the path
   * every core event takes to the UI on both hosts. One that fails the check is a bug in the
   * host: it throws, naming what is wrong, and nothing is sent.
   */
  hostCommand(command: HostCommand): void {
    const parsed = HostCommand.safeParse(command);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
      throw new Error(`Invalid host command${where}: ${issue?.message ?? 'wrong shape'}`);
    }
    this.outbox.emit('app:onCommand', parsed.data);
  }

  /**
   * Runs a call from the UI. The channel and payload are untrusted: both are checked against
   * the contract, and a failure rejects with a user-facing message.
   */
  async invoke(channel: unknown, payload: unknown): Promise<unknown> {
    if (!isCallChannel(channel)) {
      throw new UserFacingError('Unknown call');
    }
    const parsed = calls[channel].request.safeParse(payload);
    if (!parsed.success) {
      throw new UserFacingError(
        `Invalid ${channel} request: ${parsed.error.issues[0]?.message ?? 'wrong shape'}`,
      );
    }
    const handler = this.handlers[channel] as (request: unknown) => Promise<unknown>;
    return handler(parsed.data);
  }

  /**
   * Closes every session and stops every agent; resolves once all their processes have ended
   * (each gets SIGTERM, then SIGKILL after a grace period).
   */
  async dispose(): Promise<void> {
    // First: the tabs closing below must not leave the kept list empty for the next start.
    const kept = this.lasting.quit();
    this.settingsWatcher?.close();
    this.agentSettings.dispose();
    // Each tab is closed and dropped, as `session:close` does: its process's end, which follows,
    // is no longer reported on it.
    for (const [key, session] of this.sessions) {
      session.close();
      this.outbox.tabClosed(key, session.summary);
    }
    this.sessions.clear();
    const stopped = this.pool.dispose();
    // No command an agent ran outlives the app.
    await Promise.all([kept, this.terminals.dispose(), stopped]);
  }

  /** The calls the core answers itself; with each room's, every call (see `handlers`). */
  private readonly ownHandlers: Omit<
    Handlers,
    | keyof AgentSettings['handlers']
    | keyof ElicitationBroker['handlers']
    | keyof LastingSessions['handlers']
  > = {
    'app:getState': async () => ({
      agents: this.agentEntries(),
      settingsPath: this.options.settingsPath,
      settingsError: this.catalog.error,
      defaultCwd: this.options.defaultCwd,
      canPickFolder: this.options.pickFolder !== undefined,
      secretStorage: {
        available: this.secrets.available,
        description: this.secrets.description,
      },
      urlElicitation: {
        default: this.catalog.urlElicitation,
        opener: this.options.openUrl ? 'host' : 'page',
      },
      sessions: [...this.sessions.values()].map((session) => session.summary),
    }),
    'app:pickFolder': async () => ({
      path: this.options.pickFolder ? await this.options.pickFolder() : null,
    }),
    'app:getRecentFolders': async () => ({ folders: await this.recentFolders.existing() }),
    'session:create': async ({ agentName, cwd: typed }) => {
      const spec = this.catalog.agents.find((agent) => agent.name === agentName);
      if (!spec) {
        throw new UserFacingError(`No agent named "${agentName}"`);
      }
      // Refused before anything starts: no tab, no process.
      const cwd = await checkWorkingFolder(typed);
      await this.recentFolders.add(cwd);
      const key = `s${(this.nextId++).toString(36)}`;
      const session = new Session(key, agentName, cwd, this.outbox.sink);
      this.sessions.set(key, session);
      this.outbox.sink.changed(key);
      void this.startSession(session);
      return { key };
    },
    'session:getTranscript': async ({ key }) => {
      const events = this.session(key).events();
      // Send what is queued first, so a UI can take this snapshot plus every later event.
      this.outbox.flush();
      return { events };
    },
    'session:prompt': async ({ key, text, attachments }) => {
      const session = this.session(key);
      const notReady = () =>
        new UserFacingError(
          session.prompting
            ? 'The agent is still answering; cancel the turn first'
            : 'The session is not ready',
        );
      if (session.summary.status !== 'ready') {
        throw notReady();
      }
      // Only what this agent advertised (prompt-content.ts); checked again after the reads.
      const attached = await attachedContent(attachments, {
        cwd: session.summary.cwd,
        accepts: promptAccepts(session.connection?.capabilities),
        agentName: session.summary.agentName,
      });
      if (session.summary.status !== 'ready') {
        throw notReady();
      }
      void session.runTurn(text, attached);
      return {};
    },
    'files:complete': async ({ key, query }) => completeFiles(this.session(key).summary.cwd, query),
    'session:cancel': async ({ key }) => {
      this.session(key).cancelTurn();
      return {};
    },
    'session:restart': async ({ key }) => {
      const session = this.session(key);
      if (session.connection && !session.connection.exit) {
        throw new UserFacingError('The agent is running');
      }
      await this.restart(session);
      return {};
    },
    'session:stopStart': async ({ key }) => {
      const session = this.session(key);
      if (session.summary.status !== 'starting') {
        throw new UserFacingError('The session is not starting');
      }
      this.abandonStart(session);
      session.update({
        status: 'failed',
        error: `You stopped ${session.summary.agentName} while it was starting.`,
        errorDetail: undefined,
      });
      return {};
    },
    'session:close': async ({ key }) => {
      const session = this.session(key);
      this.lasting.closing(session);
      this.abandonStart(session);
      session.close();
      this.elicitations.tabClosed(key, session);
      void this.terminals.sessionEnded(session);
      this.sessions.delete(key);
      this.outbox.tabClosed(key, session.summary);
      // The process stays while any other tab is ready on it or still starting on it.
      if (session.connection) {
        this.pool.release(session.summary.agentName, session.connection);
      }
      return {};
    },
    'session:rename': async ({ key, title }) => {
      this.session(key).rename(title);
      return {};
    },
    'session:setMode': async ({ key, modeId }) => {
      const { session, connection, acpSessionId } = this.runningSession(key);
      await connection.request('session/set_mode', { sessionId: acpSessionId, modeId });
      session.update({ currentModeId: modeId });
      const mode = session.offeredModes.find((candidate) => candidate.id === modeId);
      session.choices.mode = { name: 'Mode', value: modeId, valueName: mode?.name ?? modeId };
      return {};
    },
    'session:setConfigOption': async ({ key, configId, value }) => {
      const { session, connection, acpSessionId } = this.runningSession(key);
      const option = session.summary.configOptions.find((candidate) => candidate.id === configId);
      if (!option) {
        throw new UserFacingError(`The agent offers no option "${configId}"`);
      }
      if (typeof value !== typeof option.currentValue) {
        throw new UserFacingError(
          `"${option.name}" takes ${typeof option.currentValue === 'boolean' ? 'on or off' : 'one of its choices'}`,
        );
      }
      const { configOptions } = await connection.request(
        'session/set_config_option',
        typeof value === 'boolean'
          ? { sessionId: acpSessionId, configId, type: 'boolean', value }
          : { sessionId: acpSessionId, configId, value },
      );
      // The answer holds every option's state: setting one may change others.
      session.update({ configOptions: configViews(configOptions) });
      session.choices.options.set(configId, {
        name: option.name,
        value,
        valueName: valueName(option, value),
      });
      return {};
    },
    'terminal:kill': async ({ key, terminalId }) => {
      await this.terminals.kill(this.session(key), terminalId);
      return {};
    },
    'permission:respond': async ({ key, promptKey, outcome }) => {
      if (!this.session(key).answerPermission(promptKey, outcome)) {
        throw new UserFacingError('That permission request is no longer pending');
      }
      return {};
    },
    'agent:authenticate': async ({ key, methodId }) => {
      const session = this.session(key);
      const method = session.summary.authMethods.find((candidate) => candidate.id === methodId);
      if (!method || method.kind !== 'agent') {
        throw new UserFacingError('That sign-in method is not one Airlock can run');
      }
      const connection = await this.pool.connectionFor(
        session.summary.agentName,
        session.summary.cwd,
      );
      const run = ++session.startRun;
      session.startingOn = connection;
      session.update({ status: 'starting', error: undefined, errorDetail: undefined });
      try {
        await connection.request('authenticate', { methodId }, session.key);
      } catch (error) {
        if (session.startRun === run) {
          session.startingOn = undefined;
          session.update({ status: 'auth_required', ...shownError(error) });
        }
        return {};
      }
      if (session.startRun === run) {
        await this.openSession(session, connection, run);
      }
      return {};
    },
    'agent:saveSecrets': async ({ key, methodId, values }) => {
      const session = this.session(key);
      if (!this.secrets.available) {
        throw new UserFacingError(this.secrets.description);
      }
      const method = session.summary.authMethods.find((candidate) => candidate.id === methodId);
      if (!method || method.kind !== 'env_var' || !method.vars) {
        throw new UserFacingError('That sign-in method takes no values');
      }
      const wanted = new Set(method.vars.map((variable) => variable.name));
      const unknown = Object.keys(values).find((name) => !wanted.has(name));
      if (unknown) {
        throw new UserFacingError(`${method.name} does not use ${unknown}`);
      }
      const missing = method.vars.find(
        (variable) => !variable.optional && !variable.set && !values[variable.name],
      );
      if (missing) {
        throw new UserFacingError(`Enter a value for ${missing.label ?? missing.name}`);
      }
      await this.secrets.set(session.summary.agentName, values);
      // The agent reads its variables when it starts: restart it with them, then sign in. Other
      // tabs of that agent waiting to sign in start again on the new process too.
      await this.restart(session);
      for (const other of this.sessions.values()) {
        if (
          other !== session &&
          other.summary.agentName === session.summary.agentName &&
          other.summary.status === 'auth_required'
        ) {
          other.update({ status: 'starting', error: undefined, errorDetail: undefined });
          void this.startSession(other);
        }
      }
      return {};
    },
    'agent:forgetSecrets': async ({ agentName }) => {
      if (!this.catalog.agents.some((agent) => agent.name === agentName)) {
        throw new UserFacingError(`No agent named "${agentName}"`);
      }
      await this.secrets.forget(agentName);
      return {};
    },
    'agent:readLog': async ({ agentName }) => {
      if (!this.catalog.agents.some((agent) => agent.name === agentName)) {
        throw new UserFacingError(`No agent named "${agentName}"`);
      }
      const path = agentLogPath(this.options.logsDir, agentName);
      return { path, text: await readTail(path, 64 * 1024) };
    },
  };

  /**
   * Starts the session again on a fresh agent process, picking up settings changes (an API key
   * added to `env`, say), unless other sessions are still working with the running one.
   */
  private async restart(session: Session): Promise<void> {
    await this.init();
    const agentName = session.summary.agentName;
    this.pool.releaseCurrent(agentName);
    this.emitAgents();
    // One line that says what is happening and then how it ended (see `resolveRestart`).
    const line = `restart-${(this.nextId++).toString(36)}`;
    session.restartLine = line;
    session.append({ type: 'system', id: line, text: `Restarting ${agentName}…` });
    session.update({
      status: 'starting',
      error: undefined,
      errorDetail: undefined,
      exit: undefined,
    });
    void this.startSession(session);
  }

  /** Replaces the session's "Restarting…" line, if one is waiting, with how it ended. */
  private resolveRestart(session: Session, text: string): void {
    const id = session.restartLine;
    if (id !== undefined) {
      session.restartLine = undefined;
      session.append({ type: 'system', id, text });
    }
  }

  /** Ends a start that failed: the tab shows why, and what lies behind it under Details. */
  private startFailed(session: Session, error: unknown): void {
    session.startingOn = undefined;
    const shown = shownError(error);
    session.update({ status: 'failed', ...shown });
    this.resolveRestart(session, `${session.summary.agentName} could not restart: ${shown.error}`);
  }

  /**
   * Drops the start running in `session` (the user stopped it, or closed its tab): whatever it
   * was waiting for is ignored when it comes, and the agent process is stopped at once unless
   * another tab uses it or waits for it too.
   */
  private abandonStart(session: Session): void {
    if (session.summary.status !== 'starting') {
      return;
    }
    session.startRun += 1;
    // A start that got as far as a session (setting the user's choices again) lets it go too.
    const on = session.startingOn ?? session.connection;
    session.startingOn = undefined;
    session.connection = undefined;
    session.acpSessionId = undefined;
    this.resolveRestart(session, `Stopped restarting ${session.summary.agentName}.`);
    if (on) {
      this.pool.release(session.summary.agentName, on, session);
    }
  }

  /**
   * Sets the mode and options the user had chosen on the session's new ACP session (after a
   * restart). Each one the agent no longer offers, or refuses, gets a line in the transcript and
   * is forgotten if it cannot come back. Returns what is as the user chose, for the restart line.
   */
  private async reapplyChoices(session: Session, connection: AgentConnection): Promise<string[]> {
    const applied: string[] = [];
    const sessionId = session.acpSessionId;
    if (sessionId === undefined) {
      return applied;
    }
    const said = (choice: Choice) => `${choice.name}: ${choice.valueName}`;
    const couldNot = (choice: Choice, why: string) =>
      session.append({
        type: 'system',
        text: `Could not set ${choice.name} back to ${choice.valueName}: ${why}`.slice(0, 10_000),
      });
    const mode = session.choices.mode;
    if (mode && typeof mode.value === 'string') {
      if (session.summary.currentModeId === mode.value) {
        applied.push(said(mode));
      } else if (!session.offeredModes.some((offered) => offered.id === mode.value)) {
        couldNot(mode, `${session.summary.agentName} no longer offers it.`);
        session.choices.mode = undefined;
      } else {
        try {
          await connection.request('session/set_mode', { sessionId, modeId: mode.value });
          session.update({ currentModeId: mode.value });
          applied.push(said(mode));
        } catch (error) {
          couldNot(mode, (error as Error).message);
        }
      }
    }
    for (const [configId, choice] of session.choices.options) {
      const option = session.summary.configOptions.find((candidate) => candidate.id === configId);
      if (!option) {
        couldNot(choice, `${session.summary.agentName} no longer offers this option.`);
        session.choices.options.delete(configId);
        continue;
      }
      if (option.currentValue === choice.value) {
        applied.push(said(choice));
        continue;
      }
      const value = choice.value;
      const fits =
        typeof value === 'boolean'
          ? typeof option.currentValue === 'boolean'
          : typeof option.currentValue === 'string' &&
            option.choices.some((offered) => offered.value === value);
      if (!fits) {
        couldNot(choice, `${session.summary.agentName} no longer offers that value.`);
        session.choices.options.delete(configId);
        continue;
      }
      try {
        const { configOptions } = await connection.request(
          'session/set_config_option',
          typeof value === 'boolean'
            ? { sessionId, configId, type: 'boolean', value }
            : { sessionId, configId, value },
        );
        session.update({ configOptions: configViews(configOptions) });
        applied.push(said(choice));
      } catch (error) {
        couldNot(choice, (error as Error).message);
      }
    }
    return applied;
  }

  private emitAgents(): void {
    this.outbox.emit('app:onDidChangeAgents', {
      agents: this.agentEntries(),
      settingsError: this.catalog.error,
    });
  }

  private agentEntries(): AgentEntry[] {
    return this.catalog.agents.map((agent) => ({
      name: agent.name,
      commandLine: commandLine(agent),
      builtIn: agent.builtIn,
    }));
  }

  private session(key: string): Session {
    const session = this.sessions.get(key);
    if (!session) {
      throw new UserFacingError('That session is closed');
    }
    return session;
  }

  /** A session with its agent connection and ACP session id, or a clear error. */
  private runningSession(key: string): {
    session: Session;
    connection: AgentConnection;
    acpSessionId: string;
  } {
    const session = this.session(key);
    const { connection, acpSessionId } = session;
    if (!connection || !acpSessionId) {
      throw new UserFacingError('The session is not running');
    }
    return { session, connection, acpSessionId };
  }

  /**
   * Starts the session: the agent's process (or the running one), then `session/new`. Every
   * step checks that this start is still the session's (the user can stop it at any point).
   */
  private async startSession(session: Session): Promise<void> {
    const run = ++session.startRun;
    const pending = this.pool.connectionFor(session.summary.agentName, session.summary.cwd);
    session.startingOn = pending;
    let connection: AgentConnection;
    try {
      connection = await pending;
    } catch (error) {
      if (session.startRun === run) {
        this.startFailed(session, error);
      }
      return;
    }
    if (session.startRun === run) {
      await this.openSession(session, connection, run);
    }
  }

  private async openSession(
    session: Session,
    connection: AgentConnection,
    run: number,
    afterSignIn = false,
  ): Promise<void> {
    session.startingOn = connection;
    try {
      const spec = this.catalog.agents.find((agent) => agent.name === session.summary.agentName);
      const mcp = mcpServersFor(this.catalog, spec, connection.capabilities);
      const params = { cwd: session.summary.cwd, mcpServers: mcp.mcpServers };
      const resumed = await this.resumeExited(session, connection, params);
      const response = resumed ?? (await connection.request('session/new', params, session.key));
      if (session.startRun !== run) {
        return;
      }
      if (typeof response?.sessionId !== 'string' || response.sessionId.length === 0) {
        throw new UserFacingError(
          `${session.summary.agentName} did not say which session it started`,
          'The answer to session/new has no sessionId',
        );
      }
      if (heldByAnotherTab(this.sessions.values(), session, connection, response.sessionId)) {
        throw new UserFacingError(duplicateNewSession(session.summary.agentName));
      }
      if (session.summary.status === 'closed') {
        return;
      }
      // The user's earlier choices go back on first: the tab is ready once they have.
      const { choices } = session;
      const reapply = choices.mode !== undefined || choices.options.size > 0;
      session.attach(
        connection,
        response,
        configViews(response.configOptions),
        reapply ? 'starting' : 'ready',
      );
      for (const note of mcp.notes) {
        session.append(note);
      }
      this.routing.bound(session, connection, response.sessionId);
      const applied = reapply ? await this.reapplyChoices(session, connection) : [];
      // Stopped or closed meanwhile (both end this start).
      if (session.startRun !== run) {
        return;
      }
      session.startingOn = undefined;
      if (reapply) {
        session.update({ status: 'ready' });
      }
      const agentName = session.summary.agentName;
      const where = resumed ? ', in the same session' : '';
      this.resolveRestart(
        session,
        applied.length > 0
          ? `Restarted ${agentName}${where} with your choices: ${applied.join('; ')}.`
          : `Restarted ${agentName}${where}.`,
      );
    } catch (error) {
      if (session.startRun !== run) {
        return;
      }
      if (error instanceof AgentRequestError && error.code === AUTH_REQUIRED) {
        await this.signInAndRetry(session, connection, run, afterSignIn);
      } else {
        this.startFailed(session, error);
      }
    }
  }

  /**
   * After the agent exited, its new process resumes the tab's session (`session/resume`, where
   * it is offered): the agent keeps the conversation, and nothing is replayed into a transcript
   * that still shows it. `undefined` when there is nothing to resume or the agent cannot (it
   * may have lost the session with its process): a new session is started instead.
   */
  private async resumeExited(
    session: Session,
    connection: AgentConnection,
    params: { cwd: string; mcpServers: acp.McpServer[] },
  ): Promise<acp.NewSessionResponse | undefined> {
    const sessionId = session.exitedSessionId;
    session.exitedSessionId = undefined;
    if (sessionId === undefined || !lastingCapabilities(connection).resume) {
      return undefined;
    }
    try {
      const response = await connection.request(
        'session/resume',
        { ...params, sessionId },
        session.key,
      );
      return { ...response, sessionId };
    } catch (error) {
      console.warn(`airlock: session/resume failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  /**
   * Handles "authentication required" on `session/new`. When an `env_var` method's variables
   * are all set, the agent wants `authenticate` with that method before it uses them (the
   * auth-methods RFD): Airlock sends it once per connection and retries. Otherwise, or when
   * that fails, the session waits for the user to sign in.
   */
  private async signInAndRetry(
    session: Session,
    connection: AgentConnection,
    run: number,
    afterSignIn: boolean,
  ): Promise<void> {
    const methods = authMethodsWithEnv(connection);
    const waitForUser = (error?: unknown) => {
      session.startingOn = undefined;
      session.update({
        status: 'auth_required',
        authMethods: methods,
        agent: connection.identity,
        ...(error === undefined ? { error: undefined, errorDetail: undefined } : shownError(error)),
      });
      this.resolveRestart(
        session,
        `Restarted ${session.summary.agentName}; it asks you to sign in.`,
      );
    };
    if (afterSignIn) {
      waitForUser(
        new UserFacingError(
          `${connection.identity.configName} still asks to sign in after signing in`,
        ),
      );
      return;
    }
    let signIn = this.envSignIns.get(connection);
    if (!signIn) {
      const ready = readyEnvMethod(methods);
      if (!ready) {
        waitForUser();
        return;
      }
      signIn = connection
        .request('authenticate', { methodId: ready.id }, session.key)
        .then(() => undefined);
      this.envSignIns.set(connection, signIn);
    }
    try {
      // Sessions that start together share one sign-in.
      await signIn;
    } catch (error) {
      if (session.startRun === run) {
        waitForUser(error);
      }
      return;
    }
    if (session.startRun === run && session.summary.status !== 'closed') {
      await this.openSession(session, connection, run, true);
    }
  }
}

/** How a value of `option` reads to the user: its choice's name, or on and off. */
function valueName(option: ConfigOptionView, value: string | boolean): string {
  if (typeof value === 'boolean') {
    return value ? 'on' : 'off';
  }
  return option.choices.find((choice) => choice.value === value)?.name ?? value;
}

async function readTail(path: string, bytes: number): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A failure as a tab shows it: the sentence, and apart from it what lies behind it (a
 * {@link UserFacingError}'s `detail`), which the tab keeps under Details.
 */
function shownError(error: unknown): { error: string; errorDetail: string | undefined } {
  return {
    error: (error as Error).message,
    errorDetail: error instanceof UserFacingError ? error.detail : undefined,
  };
}
