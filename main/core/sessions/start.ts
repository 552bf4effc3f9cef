/**
 * Starting a tab's session and signing in: the agent's process (or the running one), then
 * `session/new` (or, after the agent exited, `session/resume` or `session/load` of the session it
 * ran), the sign-in an agent asks for, a restart on a fresh process (asked for by the user, or
 * by recovery after a crash: see agents/recovery.ts), and stopping a start the user gives up on.
 *
 * Every step checks that its start is still the tab's (the user can stop it at any point, or
 * begin another): the tab owns that state (`Session.beginStart` and the rest).
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { AuthMethodView } from '../../../preload/shared/contract.js';
import type { AgentConnection } from '../agent-connection.js';
import type { AgentPool } from '../agents/pool.js';
import type { AgentRouting } from '../agents/routing.js';
import { AgentRequestError, AUTH_REQUIRED, UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import { mcpServersFor } from '../mcp-servers.js';
import type { SecretStore } from '../secrets.js';
import { duplicateNewSession, heldByAnotherTab } from '../session-ids.js';
import type { Session } from '../session.js';
import type { AgentCatalog } from '../settings/catalog.js';
import { authMethodsWithEnv, readySignIn, type ReadySignIn } from '../sign-in.js';
import { configViews } from '../updates.js';
import { reapplyChoices } from './choices.js';
import { applyDefaults, hasDefaults } from './defaults.js';
import { lastingCapabilities } from './history.js';

/** What starting sessions needs from the core. */
export type StartDeps = {
  catalog: () => AgentCatalog;
  /** Every open tab. */
  tabs: () => Iterable<Session>;
  /** An open tab by its key, or a user-facing error. */
  tab: (key: string) => Session;
  pool: AgentPool;
  routing: AgentRouting;
  secrets: SecretStore;
  /** Loads the settings again before a restart, which picks up their changes. */
  reload: () => Promise<void>;
  /** Tells the UI the agents may have changed (a restart). */
  agentsChanged: () => void;
  /** A fresh id for a transcript line. */
  nextLineId: () => string;
  /** The user restarted `agentName` themselves (recovery counts its restarts afresh). */
  restartedByUser?: (agentName: string) => void;
  /** The tab's agent is about to restart: what runs for its sign-in ends (sign-in-terminal/). */
  restarting?: (session: Session) => void;
};

/** Starts and signs in one core's tabs. */
export class SessionStarts {
  /**
   * The sign-in Airlock runs unasked on a connection (an `env_var` method, or an API key from
   * the agent's environment), running or done, shared by its sessions.
   */
  private readonly envSignIns = new WeakMap<AgentConnection, Promise<ReadySignIn>>();
  /** The `terminal` method each tab just signed in with, until its agent has restarted. */
  private readonly terminalSignIns = new WeakMap<Session, string>();

  constructor(private readonly deps: StartDeps) {}

  /** The calls that restart, stop a start, and sign in. */
  readonly handlers: Handlers<
    'session:restart' | 'session:stopStart' | 'agent:authenticate' | 'agent:saveSecrets'
  > = {
    'session:restart': async ({ key }) => {
      const session = this.deps.tab(key);
      if (session.connection && !session.connection.exit) {
        throw new UserFacingError('The agent is running');
      }
      // Every tab the same exit stopped restarts with it, on the one new process.
      const { exit, agentName } = session.summary;
      const alike = [...this.deps.tabs()].filter(
        (other) =>
          other !== session &&
          exit !== undefined &&
          other.summary.exit === exit &&
          other.summary.status === 'exited',
      );
      this.deps.restartedByUser?.(agentName);
      await this.restart(session);
      for (const other of alike) {
        this.startAgain(other);
      }
      return {};
    },
    'session:stopStart': async ({ key }) => {
      const session = this.deps.tab(key);
      if (session.summary.status !== 'starting') {
        throw new UserFacingError('The session is not starting');
      }
      this.abandon(session);
      session.update({
        status: 'failed',
        error: `You stopped ${session.summary.agentName} while it was starting.`,
        errorDetail: undefined,
      });
      return {};
    },
    'agent:authenticate': async ({ key, methodId }) => {
      const session = this.deps.tab(key);
      const method = session.summary.authMethods.find((candidate) => candidate.id === methodId);
      if (!method || method.kind !== 'agent') {
        throw new UserFacingError('That sign-in method is not one Airlock can run');
      }
      const connection = await this.deps.pool.connectionFor(
        session.summary.agentName,
        session.summary.cwd,
      );
      const run = session.beginStart(connection);
      session.update({ status: 'starting', error: undefined, errorDetail: undefined });
      try {
        // The user's own sign-in takes as long as they do (a browser, a device-code page).
        await connection.request('authenticate', { methodId }, session.key, { onUser: true });
      } catch (error) {
        if (session.isCurrentStart(run)) {
          session.startSettled();
          session.update({ status: 'auth_required', ...shownError(error) });
        }
        return {};
      }
      if (session.isCurrentStart(run)) {
        await this.open(session, connection, run);
      }
      return {};
    },
    'agent:saveSecrets': async ({ key, methodId, values }) => {
      const session = this.deps.tab(key);
      if (!this.deps.secrets.available) {
        throw new UserFacingError(this.deps.secrets.description);
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
      await this.deps.secrets.set(session.summary.agentName, values);
      // The agent reads its variables when it starts: restart it with them, then sign in. Other
      // tabs of that agent waiting to sign in start again on the new process too.
      await this.restart(session);
      this.startWaiting(session);
      return {};
    },
  };

  /**
   * Starts the session: the agent's process (or the running one), then `session/new`. Every
   * step checks that this start is still the session's (the user can stop it at any point).
   */
  async start(session: Session): Promise<void> {
    const pending = this.deps.pool.connectionFor(session.summary.agentName, session.summary.cwd);
    const run = session.beginStart(pending);
    let connection: AgentConnection;
    try {
      connection = await pending;
    } catch (error) {
      if (session.isCurrentStart(run)) {
        this.failed(session, error);
      }
      return;
    }
    if (session.isCurrentStart(run)) {
      await this.open(session, connection, run);
    }
  }

  /**
   * Drops the start running in `session` (the user stopped it, or closed its tab): whatever it
   * was waiting for is ignored when it comes, and the agent process is stopped at once unless
   * another tab uses it or waits for it too.
   */
  abandon(session: Session): void {
    if (session.summary.status !== 'starting') {
      return;
    }
    // A start that got as far as a session (setting the user's choices again) lets it go too.
    const on = session.dropStart();
    session.restartEnded(`Stopped restarting ${session.summary.agentName}.`);
    if (on) {
      this.deps.pool.release(session.summary.agentName, on);
    }
  }

  /**
   * Starts the session again on a fresh agent process, picking up settings changes (an API key
   * added to `env`, say), unless other sessions are still working with the running one.
   */
  private async restart(session: Session): Promise<void> {
    this.deps.restarting?.(session);
    await this.deps.reload();
    this.deps.pool.releaseCurrent(session.summary.agentName);
    this.deps.agentsChanged();
    this.startAgain(session);
  }

  /**
   * The tab's `terminal` sign-in command exited with 0: its agent restarts, and if it still
   * asks to sign in with that method listed, Airlock sends `authenticate` with it (as Zed does)
   * and starts the session. Other tabs of the agent waiting to sign in start again too.
   */
  async signedInWithTerminal(session: Session, methodId: string): Promise<void> {
    if (session.summary.status === 'closed') {
      return;
    }
    this.terminalSignIns.set(session, methodId);
    await this.restart(session);
    this.startWaiting(session);
  }

  /** Starts `tabs`, whose agent crashed, again on one new process (see agents/recovery.ts). */
  recover(tabs: Session[]): void {
    for (const session of tabs) {
      // Their line already says they restart (see `recovering`).
      this.startAgain(session, false);
    }
  }

  /** Says in each of `tabs` that its agent stopped by itself, and when it restarts. */
  recovering(tabs: Session[], delayMs: number): void {
    for (const session of tabs) {
      const { agentName } = session.summary;
      session.restarting(
        this.deps.nextLineId(),
        delayMs === 0
          ? `${agentName} stopped unexpectedly. Restarting it…`
          : `${agentName} stopped unexpectedly again. Restarting it in ${Math.round(delayMs / 1000)} s…`,
      );
    }
  }

  /** Says in each of `tabs` why Airlock stopped restarting its agent. */
  gaveUp(tabs: Session[], why: string): void {
    for (const session of tabs) {
      // One line: a restart line still waiting becomes it.
      session.restarting(this.deps.nextLineId(), why);
      session.restartEnded(why);
    }
  }

  /** Starts again the other tabs of `session`'s agent that wait for the user to sign in. */
  private startWaiting(session: Session): void {
    for (const other of this.deps.tabs()) {
      if (
        other !== session &&
        other.summary.agentName === session.summary.agentName &&
        other.summary.status === 'auth_required'
      ) {
        other.update({ status: 'starting', error: undefined, errorDetail: undefined });
        void this.start(other);
      }
    }
  }

  /** Starts the tab again on its agent's current process, saying so in one line. */
  private startAgain(session: Session, say = true): void {
    // One line that says what is happening and then how it ended (see `Session.restartEnded`).
    if (say) {
      session.restarting(this.deps.nextLineId(), `Restarting ${session.summary.agentName}…`);
    }
    session.update({
      status: 'starting',
      error: undefined,
      errorDetail: undefined,
      exit: undefined,
    });
    void this.start(session);
  }

  private async open(
    session: Session,
    connection: AgentConnection,
    run: number,
    afterSignIn = false,
  ): Promise<void> {
    session.startWaitsOn(connection);
    try {
      const catalog = this.deps.catalog();
      const spec = catalog.agents.find((agent) => agent.name === session.summary.agentName);
      const mcp = mcpServersFor(catalog, spec, connection.capabilities);
      const params = { cwd: session.summary.cwd, mcpServers: mcp.mcpServers };
      const again = await this.resumeExited(session, connection, params);
      const resumed = again.response;
      const response = resumed ?? (await connection.request('session/new', params, session.key));
      if (!session.isCurrentStart(run)) {
        return;
      }
      if (typeof response?.sessionId !== 'string' || response.sessionId.length === 0) {
        throw new UserFacingError(
          `${session.summary.agentName} did not say which session it started`,
          'The answer to session/new has no sessionId',
        );
      }
      if (heldByAnotherTab(this.deps.tabs(), session, connection, response.sessionId)) {
        throw new UserFacingError(duplicateNewSession(session.summary.agentName));
      }
      if (session.summary.status === 'closed') {
        return;
      }
      // The user's earlier choices go back on first: the tab is ready once they have.
      const { choices } = session;
      // A new session gets the settings' default mode and model first (a picked-up one keeps its own).
      const defaults = resumed === undefined && hasDefaults(spec);
      const reapply = choices.mode !== undefined || choices.options.size > 0 || defaults;
      session.attach(
        connection,
        response,
        configViews(response.configOptions),
        reapply ? 'starting' : 'ready',
      );
      for (const note of mcp.notes) {
        session.append(note);
      }
      this.deps.routing.bound(session, connection, response.sessionId);
      if (defaults && spec) {
        await applyDefaults(session, connection, spec);
      }
      const applied = reapply ? await reapplyChoices(session, connection) : [];
      // Stopped or closed meanwhile (both end this start).
      if (!session.isCurrentStart(run)) {
        return;
      }
      session.startSettled();
      this.terminalSignIns.delete(session);
      if (reapply) {
        session.update({ status: 'ready' });
      }
      const agentName = session.summary.agentName;
      const where = resumed ? ', in the same session' : again.lost ? ' in a new session' : '';
      const chosen = applied.length > 0 ? ` with your choices: ${applied.join('; ')}` : '';
      const lost = again.lost ? ` ${LOST_SESSION}` : '';
      session.restartEnded(`Restarted ${agentName}${where}${chosen}.${lost}`);
    } catch (error) {
      if (!session.isCurrentStart(run)) {
        return;
      }
      if (error instanceof AgentRequestError && error.code === AUTH_REQUIRED) {
        await this.signInAndRetry(session, connection, run, afterSignIn);
      } else {
        this.failed(session, error);
      }
    }
  }

  /**
   * After the agent exited, its new process picks up the tab's session: `session/resume` where
   * it is offered (the agent keeps the conversation, and nothing is replayed), else
   * `session/load`, whose replay of what the transcript still shows is left out. No `response`
   * when there is nothing to pick up, or the agent cannot (it may have lost the session with its
   * process); `lost` then says a session was there, and a new one starts in its place.
   */
  private async resumeExited(
    session: Session,
    connection: AgentConnection,
    params: { cwd: string; mcpServers: acp.McpServer[] },
  ): Promise<{ response?: acp.NewSessionResponse; lost: boolean }> {
    const sessionId = session.takeExitedSessionId();
    const can = lastingCapabilities(connection);
    if (sessionId === undefined) {
      return { lost: false };
    }
    const method = can.resume ? 'session/resume' : can.load ? 'session/load' : undefined;
    try {
      if (method === 'session/resume') {
        const response = await connection.request(method, { ...params, sessionId }, session.key);
        return { response: { ...response, sessionId }, lost: false };
      }
      if (method === 'session/load') {
        // Bound first, as a reopen is: the replay arrives before the answer, and is dropped.
        session.bindEarly(connection, sessionId, { quiet: true });
        try {
          const response = await connection.request(method, { ...params, sessionId }, session.key);
          return { response: { ...response, sessionId }, lost: false };
        } finally {
          session.bindEarly(undefined, undefined);
        }
      }
    } catch (error) {
      console.warn(`airlock: ${method} failed: ${(error as Error).message}`);
    }
    return { lost: true };
  }

  /**
   * Handles "authentication required" on `session/new`. When an `env_var` method's variables
   * are all set, the agent wants `authenticate` with that method before it uses them (the
   * auth-methods RFD); so does a method whose API-key provider's variable is set (see
   * sign-in.ts). Airlock sends it once per connection, says so in the tab, and retries.
   * Otherwise, or when that fails, the session waits for the user to sign in.
   */
  private async signInAndRetry(
    session: Session,
    connection: AgentConnection,
    run: number,
    afterSignIn: boolean,
  ): Promise<void> {
    const methods = authMethodsWithEnv(connection);
    const waitForUser = (error?: unknown) => askToSignIn(session, connection, methods, error);
    if (afterSignIn) {
      waitForUser(
        new UserFacingError(
          `${connection.identity.configName} still asks to sign in after signing in`,
        ),
      );
      return;
    }
    const terminal = this.terminalSignIns.get(session);
    this.terminalSignIns.delete(session);
    if (terminal !== undefined) {
      await this.authenticateAfterTerminal(session, connection, run, methods, terminal);
      return;
    }
    let signIn = this.envSignIns.get(connection);
    if (!signIn) {
      const ready = readySignIn(connection, methods);
      if (!ready) {
        waitForUser();
        return;
      }
      signIn = connection
        .request('authenticate', { methodId: ready.method.id }, session.key)
        .then(() => ready);
      this.envSignIns.set(connection, signIn);
    }
    let signedIn: ReadySignIn;
    try {
      // Sessions that start together share one sign-in.
      signedIn = await signIn;
    } catch (error) {
      if (session.isCurrentStart(run)) {
        waitForUser(error);
      }
      return;
    }
    if (session.isCurrentStart(run) && session.summary.status !== 'closed') {
      session.append({ type: 'system', text: signedInLine(session.summary.agentName, signedIn) });
      await this.open(session, connection, run, true);
    }
  }

  /**
   * After a `terminal` sign-in, the agent still asks to sign in: with the method still listed,
   * `authenticate` with it, then the session; otherwise, or when that fails, the user decides.
   */
  private async authenticateAfterTerminal(
    session: Session,
    connection: AgentConnection,
    run: number,
    methods: AuthMethodView[],
    methodId: string,
  ): Promise<void> {
    const waitForUser = (error?: unknown) => askToSignIn(session, connection, methods, error);
    const method = methods.find((candidate) => candidate.id === methodId);
    if (method?.kind !== 'terminal') {
      waitForUser();
      return;
    }
    try {
      await connection.request('authenticate', { methodId }, session.key, { onUser: true });
    } catch (error) {
      if (session.isCurrentStart(run)) {
        waitForUser(error);
      }
      return;
    }
    if (session.isCurrentStart(run) && session.summary.status !== 'closed') {
      session.append({ type: 'system', text: `Signed in with “${method.name}”.` });
      await this.open(session, connection, run, true);
    }
  }

  /** Ends a start that failed: the tab shows why, and what lies behind it under Details. */
  private failed(session: Session, error: unknown): void {
    session.startSettled();
    const shown = shownError(error);
    session.update({ status: 'failed', ...shown });
    session.restartEnded(`${session.summary.agentName} could not restart: ${shown.error}`);
  }
}

/** Ends a start with the tab waiting for the user to sign in, `error` saying why if given. */
function askToSignIn(
  session: Session,
  connection: AgentConnection,
  methods: AuthMethodView[],
  error?: unknown,
): void {
  session.startSettled();
  session.update({
    status: 'auth_required',
    authMethods: methods,
    agent: connection.identity,
    ...(error === undefined ? { error: undefined, errorDetail: undefined } : shownError(error)),
  });
  session.restartEnded(`Restarted ${session.summary.agentName}; it asks you to sign in.`);
}

/** What a restart says when the agent could not pick up the tab's session. */
export const LOST_SESSION =
  'It could not pick up the session that stopped, so it does not remember the messages above.';

/** The tab's line saying Airlock signed in unasked, and with what from the agent's environment. */
function signedInLine(agentName: string, { method, variables }: ReadySignIn): string {
  return `Signed in with “${method.name}”, from ${variables.join(' and ')} in ${agentName}’s environment.`;
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
