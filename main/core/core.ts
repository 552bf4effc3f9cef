/**
 * The host-independent core: agents, connections and sessions behind the contract.
 *
 * Hosts (Electron, web) pass every call here through {@link AirlockCore.invoke}, which
 * validates the payload against the contract, and forward every event it emits.
 */
import * as acp from '@agentclientprotocol/sdk';
import { open } from 'node:fs/promises';
import {
  calls,
  isCallChannel,
  type AgentEntry,
  type CallChannel,
  type CallRequest,
  type CallResponse,
  type EventChannel,
  type EventPayload,
  type TranscriptEvent,
} from '../../preload/contract.js';
import {
  AgentConnection,
  agentLogPath,
  DEFAULT_TIMEOUTS,
  type ConnectionTimeouts,
} from './agent-connection.js';
import { AgentRequestError, AUTH_REQUIRED, UserFacingError } from './errors.js';
import { ElicitationBroker } from './elicitation/broker.js';
import { NO_SECRET_STORE, type SecretStore } from './secrets.js';
import { authMethodsWithEnv, readyEnvMethod } from './sign-in.js';
import { Session } from './session.js';
import { commandLine, loadAgentCatalog, type AgentCatalog, type AgentSpec } from './settings.js';
import { configViews, mapUpdate } from './updates.js';

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
};

/** A listener for every event the core emits. */
export type CoreListener = <E extends EventChannel>(channel: E, payload: EventPayload<E>) => void;

type Handlers = { [C in CallChannel]: (request: CallRequest<C>) => Promise<CallResponse<C>> };

/** The core. One per app. */
export class AirlockCore {
  private catalog: AgentCatalog = { agents: [], urlElicitation: 'isolated_window' };
  private readonly sessions = new Map<string, Session>();
  private readonly connections = new Map<string, Promise<AgentConnection>>();
  private readonly listeners = new Set<CoreListener>();
  private readonly outbox = new Map<string, TranscriptEvent[]>();
  private readonly changed = new Set<string>();
  /** Updates for a session id not bound yet: `session/new`'s answer can trail its first updates. */
  private readonly early = new WeakMap<AgentConnection, Map<string, acp.SessionNotification[]>>();
  private readonly closedSummaries = new Map<string, EventPayload<'session:onDidChange'>>();
  /** The `env_var` sign-in running or done on a connection, shared by its sessions. */
  private readonly envSignIns = new WeakMap<AgentConnection, Promise<void>>();
  private flushScheduled = false;
  private nextId = 1;
  private readonly timeouts: ConnectionTimeouts;
  private readonly secrets: SecretStore;
  private readonly elicitations: ElicitationBroker;

  constructor(private readonly options: CoreOptions) {
    this.timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    this.secrets = options.secrets ?? NO_SECRET_STORE;
    this.elicitations = new ElicitationBroker({
      sessionOn: (connection, sessionId) => this.sessionOn(connection, sessionId),
      tab: (key) => this.sessions.get(key),
      nextCardKey: () => `e${(this.nextId++).toString(36)}`,
      openUrl: options.openUrl,
    });
  }

  /** Loads the settings file. Call once before serving. */
  async init(): Promise<void> {
    this.catalog = await loadAgentCatalog(this.options.settingsPath, this.options.demoAgent);
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(listener: CoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
    for (const session of this.sessions.values()) {
      session.close();
    }
    const pending = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      pending.map((started) =>
        started.then((connection) => connection.stop()).catch(() => undefined),
      ),
    );
  }

  private readonly handlers: Handlers = {
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
    'session:create': async ({ agentName, cwd }) => {
      const spec = this.catalog.agents.find((agent) => agent.name === agentName);
      if (!spec) {
        throw new UserFacingError(`No agent named "${agentName}"`);
      }
      const key = `s${(this.nextId++).toString(36)}`;
      const session = new Session(key, agentName, cwd, this.sink);
      this.sessions.set(key, session);
      this.sink.changed(key);
      void this.startSession(session);
      return { key };
    },
    'session:getTranscript': async ({ key }) => {
      const events = this.session(key).events();
      // Send what is queued first, so a UI can take this snapshot plus every later event.
      this.flush();
      return { events };
    },
    'session:prompt': async ({ key, text }) => {
      const session = this.session(key);
      if (session.summary.status !== 'ready') {
        throw new UserFacingError(
          session.prompting
            ? 'The agent is still answering; cancel the turn first'
            : 'The session is not ready',
        );
      }
      void session.runTurn(text);
      return {};
    },
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
    'session:close': async ({ key }) => {
      const session = this.session(key);
      session.close();
      this.elicitations.tabClosed(key, session);
      this.sessions.delete(key);
      this.closedSummaries.set(key, session.summary);
      const connection = session.connection;
      if (
        connection &&
        ![...this.sessions.values()].some((other) => other.connection === connection)
      ) {
        this.connections.delete(session.summary.agentName);
        void connection.stop();
      }
      return {};
    },
    'session:setMode': async ({ key, modeId }) => {
      const { session, connection, acpSessionId } = this.runningSession(key);
      await connection.request('session/set_mode', { sessionId: acpSessionId, modeId });
      session.update({ currentModeId: modeId });
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
      return {};
    },
    'permission:respond': async ({ key, promptKey, outcome }) => {
      if (!this.session(key).answerPermission(promptKey, outcome)) {
        throw new UserFacingError('That permission request is no longer pending');
      }
      return {};
    },
    'elicitation:respond': async ({ key, cardKey, action, content }) => {
      this.elicitations.respond(key, cardKey, { action, content });
      return {};
    },
    'elicitation:openUrl': async ({ key, cardKey, where }) => {
      await this.elicitations.openUrl(key, cardKey, where);
      return {};
    },
    'elicitation:finishUrl': async ({ key, cardKey, how }) => {
      this.elicitations.finishUrl(key, cardKey, how);
      return {};
    },
    'agent:authenticate': async ({ key, methodId }) => {
      const session = this.session(key);
      const method = session.summary.authMethods.find((candidate) => candidate.id === methodId);
      if (!method || method.kind !== 'agent') {
        throw new UserFacingError('That sign-in method is not one Airlock can run');
      }
      const connection = await this.connectionFor(session.summary.agentName, session.summary.cwd);
      session.update({ status: 'starting', error: undefined });
      try {
        await connection.request('authenticate', { methodId }, session.key);
      } catch (error) {
        session.update({ status: 'auth_required', error: (error as Error).message });
        return {};
      }
      await this.openSession(session, connection);
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
          other.update({ status: 'starting', error: undefined });
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
    const running = this.connections.get(agentName);
    if (
      running &&
      ![...this.sessions.values()].some(
        (other) => other.summary.agentName === agentName && other.connection,
      )
    ) {
      this.connections.delete(agentName);
      void running.then(
        (connection) => connection.stop(),
        () => undefined,
      );
    }
    this.emitAgents();
    session.append({ type: 'system', text: `Restarting ${agentName}…` });
    session.update({ status: 'starting', error: undefined, exit: undefined });
    void this.startSession(session);
  }

  private emitAgents(): void {
    this.emit('app:onDidChangeAgents', {
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

  private async startSession(session: Session): Promise<void> {
    let connection: AgentConnection;
    try {
      connection = await this.connectionFor(session.summary.agentName, session.summary.cwd);
    } catch (error) {
      session.update({ status: 'failed', error: (error as Error).message });
      return;
    }
    await this.openSession(session, connection);
  }

  private async openSession(
    session: Session,
    connection: AgentConnection,
    afterSignIn = false,
  ): Promise<void> {
    try {
      const response = await connection.request(
        'session/new',
        { cwd: session.summary.cwd, mcpServers: [] },
        session.key,
      );
      if (typeof response?.sessionId !== 'string' || response.sessionId.length === 0) {
        throw new UserFacingError(
          `${session.summary.agentName} answered session/new without a session id`,
        );
      }
      if (session.summary.status === 'closed') {
        return;
      }
      session.attach(connection, response, configViews(response.configOptions));
      const early = this.early.get(connection);
      for (const notification of early?.get(response.sessionId) ?? []) {
        this.applyUpdate(session, notification);
      }
      early?.delete(response.sessionId);
    } catch (error) {
      if (error instanceof AgentRequestError && error.code === AUTH_REQUIRED) {
        await this.signInAndRetry(session, connection, afterSignIn);
      } else {
        session.update({ status: 'failed', error: (error as Error).message });
      }
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
    afterSignIn: boolean,
  ): Promise<void> {
    const methods = authMethodsWithEnv(connection);
    const waitForUser = (error?: string) =>
      session.update({
        status: 'auth_required',
        authMethods: methods,
        agent: connection.identity,
        error,
      });
    if (afterSignIn) {
      waitForUser(`${connection.identity.configName} still asks to sign in after signing in`);
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
      waitForUser((error as Error).message);
      return;
    }
    if (session.summary.status !== 'closed') {
      await this.openSession(session, connection, true);
    }
  }

  /** The running agent, or a new process started in `cwd` (the first session's folder). */
  private connectionFor(agentName: string, cwd: string): Promise<AgentConnection> {
    const existing = this.connections.get(agentName);
    if (existing) {
      return existing;
    }
    const spec = this.catalog.agents.find((agent) => agent.name === agentName);
    if (!spec) {
      return Promise.reject(new UserFacingError(`No agent named "${agentName}"`));
    }
    let started: AgentConnection | undefined;
    // Values the user saved for this agent join its environment (and win over the settings
    // file's: they are what the user entered last, in the app).
    const pending = this.secrets
      .get(agentName)
      .catch(() => ({}))
      .then((saved) =>
        AgentConnection.start(
          { ...spec, env: { ...spec.env, ...saved }, cwd },
          {
            logsDir: this.options.logsDir,
            timeouts: this.timeouts,
            maxMessageBytes: this.options.maxMessageBytes,
            // URL mode unless the settings turn it off: the desktop app opens URLs itself, and
            // the web host's page opens them in a new browser tab.
            elicitation: { form: true, url: this.catalog.urlElicitation !== 'off' },
            delegate: {
              onUpdate: (notification) => started && this.routeUpdate(started, notification),
              onPermission: (request, signal) => this.routePermission(started, request, signal),
              onElicitation: async (params, signal) => {
                if (!started) {
                  throw acp.RequestError.invalidParams(
                    undefined,
                    'no session or request of this connection is waiting yet.',
                  );
                }
                return this.elicitations.create(started, params, signal);
              },
              onElicitationComplete: (params) => {
                if (started) {
                  this.elicitations.complete(started, params);
                }
              },
              onExit: (exit) => {
                if (this.connections.get(agentName) === pending) {
                  this.connections.delete(agentName);
                }
                if (started) {
                  this.elicitations.connectionEnded(started);
                }
                for (const session of this.sessions.values()) {
                  if (session.connection === started) {
                    session.agentExited(exit);
                  }
                }
              },
            },
          },
        ),
      )
      .then((connection) => (started = connection));
    pending.catch(() => {
      if (this.connections.get(agentName) === pending) {
        this.connections.delete(agentName);
      }
    });
    this.connections.set(agentName, pending);
    return pending;
  }

  /** Finds the session an agent message is for, on the connection it came from. */
  private sessionOn(
    connection: AgentConnection | undefined,
    sessionId: string,
  ): Session | undefined {
    for (const session of this.sessions.values()) {
      if (session.connection === connection && session.acpSessionId === sessionId) {
        return session;
      }
    }
    return undefined;
  }

  private routeUpdate(connection: AgentConnection, notification: acp.SessionNotification): void {
    const session = this.sessionOn(connection, notification.sessionId);
    if (!session) {
      this.keepEarly(connection, notification);
      return;
    }
    this.applyUpdate(session, notification);
  }

  private keepEarly(connection: AgentConnection, notification: acp.SessionNotification): void {
    let bySession = this.early.get(connection);
    if (!bySession) {
      bySession = new Map();
      this.early.set(connection, bySession);
    }
    // Bounded: an agent sending updates for sessions that never exist cannot grow this.
    const held = bySession.get(notification.sessionId);
    if (held === undefined && bySession.size >= 16) {
      return;
    }
    const kept = held ?? [];
    if (kept.length < 1000) {
      kept.push(notification);
      bySession.set(notification.sessionId, kept);
    }
  }

  private applyUpdate(session: Session, notification: acp.SessionNotification): void {
    const effect = mapUpdate(notification.update);
    for (const event of effect.events) {
      session.append(event);
    }
    if (effect.summary) {
      session.update(effect.summary);
    }
  }

  private async routePermission(
    connection: AgentConnection | undefined,
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse> {
    const session = this.sessionOn(connection, request.sessionId);
    if (!session) {
      throw acp.RequestError.invalidParams(
        undefined,
        `"${request.sessionId.slice(0, 100)}" is not a session on this connection.`,
      );
    }
    if (request.options.length === 0) {
      session.append({
        type: 'system',
        text: 'The agent asked for permission without any options; Airlock answered cancelled.',
      });
      return { outcome: { outcome: 'cancelled' } };
    }
    const promptKey = `p${(this.nextId++).toString(36)}`;
    const outcome = await session.requestPermission(promptKey, request, signal);
    return { outcome };
  }

  /** Collects events and summary changes, and emits them in batches once per macrotask. */
  private readonly sink = {
    append: (key: string, event: TranscriptEvent) => {
      let queue = this.outbox.get(key);
      if (!queue) {
        queue = [];
        this.outbox.set(key, queue);
      }
      queue.push(event);
      this.scheduleFlush();
    },
    changed: (key: string) => {
      this.changed.add(key);
      this.scheduleFlush();
    },
  };

  private scheduleFlush(): void {
    if (this.flushScheduled) {
      return;
    }
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const appended = [...this.outbox.entries()];
    this.outbox.clear();
    const changed = [...this.changed];
    this.changed.clear();
    for (const [key, queued] of appended) {
      this.emit('session:onDidAppend', { key, events: queued });
    }
    for (const key of changed) {
      const summary = this.sessions.get(key)?.summary ?? this.closedSummaries.get(key);
      if (summary) {
        this.emit('session:onDidChange', summary);
      }
    }
    this.closedSummaries.clear();
  }

  private emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) {
      listener(channel, payload);
    }
  }
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
