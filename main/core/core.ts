/**
 * The host-independent core: the facade the hosts call, and the wiring of its rooms.
 *
 * Hosts (Electron, web) pass every call here through {@link AirlockCore.invoke}, which
 * validates the payload against the contract once, at this one entry, then hands it to the
 * room that answers it (each brings its own handler table), and forward every event the
 * outbox emits (outbox.ts). The agent processes are the pool's (agents/pool.ts), their messages
 * reach the tabs through agents/routing.ts, and a tab's start and sign-in are
 * sessions/start.ts's.
 */
import { dirname, join } from 'node:path';
import {
  calls,
  HostCommand,
  isCallChannel,
  type AgentEntry,
  type EventPayload,
} from '../../preload/shared/contract.js';
import { DEFAULT_TIMEOUTS, type ConnectionTimeouts } from './agent-connection.js';
import { agentHandlers } from './agents/calls.js';
import { AgentPool } from './agents/pool.js';
import { ReadPace } from './agents/read-pace.js';
import { AgentRouting } from './agents/routing.js';
import { Attention, type AttentionListener } from './attention.js';
import { UserFacingError } from './errors.js';
import { ElicitationBroker } from './elicitation/broker.js';
import { FileService } from './files/service.js';
import type { Handlers } from './handlers.js';
import { CrashRecovery } from './agents/recovery.js';
import { mcpServersFor } from './mcp-servers.js';
import type { CoreOptions } from './options.js';
import { Outbox, type CoreListener } from './outbox.js';
import { checkWorkingFolder, RecentFolders } from './recent-folders.js';
import { RegistryService } from './registry/service.js';
import { NO_SECRET_STORE, type SecretStore } from './secrets.js';
import { Session } from './session.js';
import { choiceHandlers, type RunningTab } from './sessions/choices.js';
import { LastingSessions } from './sessions/service.js';
import { SessionStarts } from './sessions/start.js';
import { SignInTerminals } from './sign-in-terminal/service.js';
import { tabHandlers } from './sessions/tab-calls.js';
import { loadAgentCatalog, settingsProblems, type AgentCatalog } from './settings/catalog.js';
import { commandLine, type PrepareAgent } from './agents/spec.js';
import { watchSettings, type SettingsWatcher } from './settings/file.js';
import { TerminalService } from './terminals/service.js';
import { AgentSettings } from './settings/service.js';

export type { CoreListener } from './outbox.js';

/** The core. One per app. */
export class AirlockCore {
  private catalog: AgentCatalog = { agents: [], urlElicitation: 'isolated_window' };
  private readonly sessions = new Map<string, Session>();
  /** The agent processes the tabs run on. */
  private readonly pool: AgentPool;
  /** The events for the hosts, sent in batches. */
  private readonly outbox = new Outbox((key) => this.sessions.get(key)?.summary);
  /** The pace the agents' output is read at: the shown tab's agent first (agents/read-pace.ts). */
  private readonly readPace: ReadPace;
  /** Starting each tab's session, and signing in. */
  private readonly starts: SessionStarts;
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
  private readonly routing: AgentRouting;
  /** The cards waiting on the user, for the host's notifications and badge. */
  private readonly attention = new Attention((key) => this.sessions.get(key)?.summary.agentName);
  /** Restarts an agent that crashed, for the tabs it served. */
  private readonly recovery: CrashRecovery;
  /** The agent's file requests, served inside each session's folder. */
  private readonly files: FileService;
  /** The sign-in commands run in a terminal inside the app (`terminal` auth methods). */
  private readonly signInTerminals: SignInTerminals;
  /** The ACP registry's catalogue, and the launch of its agents. */
  private readonly registry: RegistryService;

  /** The commands agents run (`terminal/*`), each ended with its session, agent or the app. */
  private readonly terminals = new TerminalService((connection, sessionId) =>
    this.routing.sessionOn(connection, sessionId),
  );

  /**
   * Works out how to run an agent from the ACP registry, for the pool and the settings' Test
   * alike: the one place to plug the registry service in.
   */
  private readonly prepareAgent: PrepareAgent | undefined;

  constructor(private readonly options: CoreOptions) {
    this.readPace = options.readPace ?? new ReadPace();
    this.prepareAgent =
      options.prepareAgent ?? ((spec, report) => this.registry.prepare(spec, report));
    this.registry = new RegistryService({
      settingsPath: options.settingsPath,
      reload: () => this.reloadAgents(),
      progress: (progress) => this.outbox.emit('registry:onDidProgress', progress),
      namesChanged: () => this.emitAgents(),
    });
    this.files = new FileService({
      find: (connection, sessionId) => this.routing.sessionOn(connection, sessionId),
      askBeforeWrites: () => this.catalog.askBeforeWrites === true,
      nextPromptKey: () => `p${(this.nextId++).toString(36)}`,
      tab: (key) => this.session(key),
      undoDir: join(dirname(options.settingsPath), 'undo'),
    });
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
    this.routing = new AgentRouting({
      tabs: () => this.sessions.values(),
      nextPromptKey: () => `p${(this.nextId++).toString(36)}`,
      elicitations: this.elicitations,
      files: this.files,
      terminals: this.terminals,
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
      prepare: this.prepareAgent,
      shown: (spec) => this.registry.shown(spec),
      removeInstalled: (id) => this.registry.removeFiles(id),
    });
    this.pool = new AgentPool({
      catalog: () => this.catalog,
      tabs: () => this.sessions.values(),
      secrets: this.secrets,
      settingsPath: options.settingsPath,
      logsDir: options.logsDir,
      timeouts: this.timeouts,
      maxMessageBytes: options.maxMessageBytes,
      pace: this.readPace,
      agentsReady: options.agentsReady,
      idleAgentMs: options.idleAgentMs,
      prepare: this.prepareAgent,
      delegate: (started) => this.routing.delegateFor(started),
      exited: (connection, exit, { agentName, crashed }) => {
        const tabs = this.routing.exited(connection, exit);
        if (crashed && options.restartCrashed !== false) {
          this.recovery.crashed(agentName, tabs);
        }
      },
    });
    this.starts = new SessionStarts({
      catalog: () => this.catalog,
      tabs: () => this.sessions.values(),
      tab: (key) => this.session(key),
      pool: this.pool,
      routing: this.routing,
      secrets: this.secrets,
      reload: () => this.init(),
      agentsChanged: () => this.emitAgents(),
      nextLineId: () => `restart-${(this.nextId++).toString(36)}`,
      restartedByUser: (agentName) => this.recovery.forget(agentName),
      restarting: (session) => void this.signInTerminals.close(session.key),
    });
    this.signInTerminals = new SignInTerminals({
      tab: (key) => this.session(key),
      pool: this.pool,
      agentsReady: options.agentsReady,
      emit: (screen) => this.outbox.emit('agent:onDidChangeTerminal', screen),
      signedIn: (session, methodId) => void this.starts.signedInWithTerminal(session, methodId),
    });
    this.recovery = new CrashRecovery({
      restart: (tabs) => this.starts.recover(tabs),
      restarting: (tabs, delayMs) => this.starts.recovering(tabs, delayMs),
      gaveUp: (tabs, why) => this.starts.gaveUp(tabs, why),
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
      newTab: (agentName, typed) => this.newTab(agentName, typed),
      startNew: (session) => void this.starts.start(session),
      // The very servers `session/new` gets (see sessions/start.ts).
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
      ...this.starts.handlers,
      ...this.signInTerminals.handlers,
      ...this.files.handlers,
      ...this.registry.handlers,
      ...choiceHandlers((key) => this.runningSession(key)),
      ...tabHandlers({
        tab: (key) => this.session(key),
        flush: () => this.outbox.flush(),
        show: (key) => {
          this.outbox.show(key);
          this.readPace.show(() => this.sessions.get(key)?.connection?.reader);
        },
      }),
      ...agentHandlers({
        catalog: () => this.catalog,
        secrets: this.secrets,
        logsDir: options.logsDir,
      }),
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
    this.followRegistryNames();
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
        this.followRegistryNames();
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
    // What changed in this macrotask goes out first, so the kept tabs hear of it (a rename, a
    // title): they keep what they were last told.
    this.outbox.flush();
    // Then: the tabs closing below must not leave the kept list empty for the next start.
    const kept = this.lasting.quit();
    this.settingsWatcher?.close();
    this.agentSettings.dispose();
    this.registry.dispose();
    // Each tab is closed and dropped, as `session:close` does: its process's end, which follows,
    // is no longer reported on it.
    for (const [key, session] of this.sessions) {
      session.close();
      this.outbox.tabClosed(key, session.summary);
    }
    this.sessions.clear();
    this.recovery.dispose();
    const stopped = this.pool.dispose();
    // No command an agent ran outlives the app.
    await Promise.all([kept, this.terminals.dispose(), this.signInTerminals.dispose(), stopped]);
  }

  /** The calls the core answers itself; with each room's, every call (see `handlers`). */
  private readonly ownHandlers: Omit<
    Handlers,
    | keyof AgentSettings['handlers']
    | keyof ElicitationBroker['handlers']
    | keyof LastingSessions['handlers']
    | keyof SessionStarts['handlers']
    | keyof SignInTerminals['handlers']
    | keyof FileService['handlers']
    | keyof RegistryService['handlers']
    | keyof ReturnType<typeof choiceHandlers>
    | keyof ReturnType<typeof tabHandlers>
    | keyof ReturnType<typeof agentHandlers>
  > = {
    'app:getState': async () => ({
      agents: this.agentEntries(),
      settingsPath: this.options.settingsPath,
      settingsError: settingsProblems(this.catalog),
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
    'session:create': async ({ agentName, cwd }) => {
      const session = await this.newTab(agentName, cwd, true);
      void this.starts.start(session);
      return { key: session.key };
    },
    'session:close': async ({ key }) => {
      const session = this.session(key);
      this.lasting.closing(session);
      this.starts.abandon(session);
      session.close();
      this.elicitations.tabClosed(key, session);
      void this.terminals.sessionEnded(session);
      void this.signInTerminals.close(key);
      this.sessions.delete(key);
      this.outbox.tabClosed(key, session.summary);
      // The process stays while any other tab is ready on it or still starting on it.
      if (session.connection) {
        this.pool.release(session.summary.agentName, session.connection);
      }
      return {};
    },
    'terminal:kill': async ({ key, terminalId }) => {
      await this.terminals.kill(this.session(key), terminalId);
      return {};
    },
  };

  /** The registry's names of the settings' registry agents, read in the background. */
  private followRegistryNames(): void {
    const ids = this.catalog.agents.flatMap((agent) => (agent.registry ? [agent.registry.id] : []));
    void this.registry.follow(ids);
  }

  private emitAgents(): void {
    this.outbox.emit('app:onDidChangeAgents', {
      agents: this.agentEntries(),
      settingsError: settingsProblems(this.catalog),
      ...(this.catalog.unusable ? { unusable: this.catalog.unusable } : {}),
    });
  }

  private agentEntries(): AgentEntry[] {
    return this.catalog.agents.map((agent) => ({
      name: agent.name,
      commandLine: commandLine(agent),
      builtIn: agent.builtIn,
      ...(agent.registry ? { source: 'registry' as const } : {}),
      ...this.registry.shown(agent),
    }));
  }

  /**
   * Opens a tab for `agentName` in the folder typed, which is checked first: one refused opens
   * no tab and starts no process. The tab starts nothing yet. A folder the user chose joins the
   * recent folders when `remember` says so.
   */
  private async newTab(agentName: string, typed: string, remember = false): Promise<Session> {
    if (!this.catalog.agents.some((agent) => agent.name === agentName)) {
      throw new UserFacingError(`No agent named "${agentName}"`);
    }
    const cwd = await checkWorkingFolder(typed);
    if (remember) {
      await this.recentFolders.add(cwd);
    }
    const key = `s${(this.nextId++).toString(36)}`;
    const session = new Session(key, agentName, cwd, this.outbox.sink);
    this.sessions.set(key, session);
    this.outbox.sink.changed(key);
    return session;
  }

  private session(key: string): Session {
    const session = this.sessions.get(key);
    if (!session) {
      throw new UserFacingError('That session is closed');
    }
    return session;
  }

  /** A session with its agent connection and ACP session id, or a clear error. */
  private runningSession(key: string): RunningTab {
    const session = this.session(key);
    const { connection, acpSessionId } = session;
    if (!connection || !acpSessionId) {
      throw new UserFacingError('The session is not running');
    }
    return { session, connection, acpSessionId };
  }
}
