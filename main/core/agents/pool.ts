/**
 * The agent process pool: which process each agent's new tabs start on, starting one when
 * there is none (or its settings changed), and stopping each once no tab uses it.
 *
 * A process is named by the promise its start returned: a tab waiting on a start holds that
 * promise (`startingOn`), a tab running on it holds the connection it resolved to, and
 * `pendingOf` leads from the one to the other.
 */
import type { AgentExit } from '../../../preload/shared/contract.js';
import {
  AgentConnection,
  sessionElicitationModes,
  type ConnectionDelegate,
  type ConnectionTimeouts,
} from '../agent-connection.js';
import { UserFacingError } from '../errors.js';
import type { SecretStore } from '../secrets.js';
import type { Session } from '../session.js';
import { demoStateEnv } from '../sessions/service.js';
import type { AgentCatalog } from '../settings/catalog.js';
import type { ReadPace } from './read-pace.js';
import type { AgentSpec, PrepareAgent } from './spec.js';

/** How long a process started for no tab waits for one before it stops (`idleAgentMs`). */
const IDLE_AGENT_MS = 60_000;

/** A process, as a tab holds it: the start's promise, or the connection it resolved to. */
export type AgentProcessRef = Promise<AgentConnection> | AgentConnection;

/** What the pool needs from the core. */
export type PoolDeps = {
  catalog: () => AgentCatalog;
  /** Every open tab. */
  tabs: () => Iterable<Session>;
  secrets: SecretStore;
  settingsPath: string;
  logsDir: string;
  timeouts: ConnectionTimeouts;
  maxMessageBytes?: number;
  /** The pace the agents' output is read at; as fast as it comes without one. */
  pace?: ReadPace;
  /** Settles once agents may start (see CoreOptions in options.ts). */
  agentsReady?: Promise<unknown>;
  idleAgentMs?: number;
  /**
   * Works out the command of an agent from the ACP registry before it starts (see
   * {@link PrepareAgent}); without it, such an agent does not start and its tabs say why.
   */
  prepare?: PrepareAgent;
  /** What a new process's messages go to; `started` is its connection once it has started. */
  delegate: (started: () => AgentConnection | undefined) => Omit<ConnectionDelegate, 'onExit'>;
  /**
   * `agentName`'s process ended; `connection` is undefined when it ended before it started.
   * `crashed`: it had started, and ended without Airlock stopping it.
   */
  exited: (
    connection: AgentConnection | undefined,
    exit: AgentExit,
    crash: { agentName: string; crashed: boolean },
  ) => void;
};

/** The core's agent processes. One per core. */
export class AgentPool {
  /** The process a new tab of each agent starts on: the latest, started with its settings. */
  private readonly connections = new Map<string, Promise<AgentConnection>>();
  /**
   * Every process started and not ended, with the settings it started with. A process started
   * before its agent's settings changed keeps its tabs, but no new tab starts on it.
   */
  private readonly running = new Map<Promise<AgentConnection>, string>();
  /** Stops an agent process that is still starting (its `initialize` has not answered). */
  private readonly startAborts = new Map<Promise<AgentConnection>, AbortController>();
  /** The promise each started connection came from, as `connections` holds it. */
  private readonly pendingOf = new WeakMap<AgentConnection, Promise<AgentConnection>>();
  /** Processes waiting to stop unless a tab starts on them (see `stopWhenIdle`). */
  private readonly idleTimers = new Map<Promise<AgentConnection>, NodeJS.Timeout>();
  /** Numbers each start's progress line (see `prepared`). */
  private preparations = 0;

  constructor(private readonly deps: PoolDeps) {}

  /**
   * Whether any tab runs on the process `process` names, or waits on it to start (a tab
   * starting on a running process waits on it for `session/new`).
   */
  inUse(process: AgentProcessRef): boolean {
    const pending = this.pendingOfRef(process);
    const same = (on: AgentProcessRef | undefined) =>
      on !== undefined &&
      (on === process || (pending !== undefined && this.pendingOfRef(on) === pending));
    for (const tab of this.deps.tabs()) {
      if (same(tab.startingOn) || same(tab.connection)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Stops the process `process` names unless a tab uses it: no new tab of `agentName` starts on
   * it, a start still running is aborted, and the process ends. A tab letting go of the process
   * lets go of it first (`Session.letGo`), so it no longer counts.
   */
  release(agentName: string, process: AgentProcessRef): void {
    if (this.inUse(process)) {
      return;
    }
    const pending = this.pendingOfRef(process);
    if (pending && this.connections.get(agentName) === pending) {
      this.connections.delete(agentName);
    }
    if (pending) {
      this.startAborts.get(pending)?.abort();
    }
    void Promise.resolve(process).then(
      (connection) => connection.stop(),
      () => undefined,
    );
  }

  /**
   * Stops `agentName`'s current process unless a tab uses that very process: a tab left on an
   * older one (the agent's settings changed since it started) does not keep the newer one from
   * starting again.
   */
  releaseCurrent(agentName: string): void {
    const current = this.connections.get(agentName);
    if (current) {
      this.release(agentName, current);
    }
  }

  /**
   * Stops `agentName`'s current process `idleAgentMs` from now unless a tab uses it or starts
   * on it by then. A later call starts the wait again.
   */
  stopWhenIdle(agentName: string): void {
    const pending = this.connections.get(agentName);
    if (!pending) {
      return;
    }
    clearTimeout(this.idleTimers.get(pending));
    const timer = setTimeout(() => {
      this.idleTimers.delete(pending);
      this.release(agentName, pending);
    }, this.deps.idleAgentMs ?? IDLE_AGENT_MS);
    timer.unref();
    this.idleTimers.set(pending, timer);
  }

  /** The running agent, or a new process started in `cwd` (the first session's folder). */
  connectionFor(agentName: string, cwd: string): Promise<AgentConnection> {
    const spec = this.deps.catalog().agents.find((agent) => agent.name === agentName);
    const existing = this.connections.get(agentName);
    const settings = spec && launchSettings(spec);
    // The settings changed since it started (an edit in the app or by hand): a new process.
    if (existing && (!spec || this.running.get(existing) === settings)) {
      return existing;
    }
    if (!spec || settings === undefined) {
      return Promise.reject(new UserFacingError(`No agent named "${agentName}"`));
    }
    let started: AgentConnection | undefined;
    // The user may stop a start that hangs (`session:stopStart`, or closing its tab).
    const abort = new AbortController();
    // Values the user saved for this agent join its environment (and win over the settings
    // file's: they are what the user entered last, in the app).
    const pending: Promise<AgentConnection> = Promise.all([
      this.deps.secrets.get(agentName).catch(() => ({})),
      this.deps.agentsReady?.catch(() => undefined),
    ])
      .then(async ([saved]) => {
        const launched = spec.registry ? await this.prepared(spec, pending, abort.signal) : spec;
        return { saved, launched };
      })
      .then(({ saved, launched }) =>
        AgentConnection.start(
          {
            ...launched,
            // The registry's environment, then the settings file's, then the user's saved values.
            env: { ...launched.env, ...spec.env, ...saved, ...demoStateEnv(spec, this.deps) },
            cwd: launched.cwd ?? cwd,
          },
          {
            logsDir: this.deps.logsDir,
            timeouts: this.deps.timeouts,
            maxMessageBytes: this.deps.maxMessageBytes,
            pace: this.deps.pace,
            elicitation: sessionElicitationModes(this.deps.catalog().urlElicitation),
            signal: abort.signal,
            delegate: {
              ...this.deps.delegate(() => started),
              onExit: (exit) => {
                this.running.delete(pending);
                if (this.connections.get(agentName) === pending) {
                  this.connections.delete(agentName);
                }
                this.deps.exited(started, exit, {
                  agentName,
                  crashed: started !== undefined && !started.stoppedByAirlock,
                });
              },
            },
          },
        ),
      )
      .then((connection) => {
        started = connection;
        this.pendingOf.set(connection, pending);
        return connection;
      });
    pending.catch(() => {
      this.running.delete(pending);
      if (this.connections.get(agentName) === pending) {
        this.connections.delete(agentName);
      }
    });
    this.startAborts.set(pending, abort);
    void pending.then(
      () => this.startAborts.delete(pending),
      () => this.startAborts.delete(pending),
    );
    this.connections.set(agentName, pending);
    this.running.set(pending, settings);
    return pending;
  }

  /**
   * Stops every process, a start that hangs at once (not when its timeout ends); resolves once
   * all have ended.
   */
  async dispose(): Promise<void> {
    for (const abort of this.startAborts.values()) {
      abort.abort();
    }
    for (const timer of this.idleTimers.values()) {
      clearTimeout(timer);
    }
    this.idleTimers.clear();
    const pending = [...this.running.keys()];
    this.connections.clear();
    this.running.clear();
    await Promise.all(
      pending.map((started) =>
        started.then((connection) => connection.stop()).catch(() => undefined),
      ),
    );
  }

  /**
   * An agent from the ACP registry, its command worked out by `prepare`; each line it reports
   * shows in the tabs waiting on `pending`, one line that each report replaces.
   */
  private async prepared(
    spec: AgentSpec,
    pending: Promise<AgentConnection>,
    signal: AbortSignal,
  ): Promise<AgentSpec> {
    const couldNot = (why: string, detail?: string) =>
      new UserFacingError(`Airlock could not start ${spec.name}: ${why}`, detail);
    const prepare = this.deps.prepare;
    if (!prepare) {
      throw couldNot('this copy of Airlock cannot run agents from the ACP registry.');
    }
    const lineId = `prepare-${++this.preparations}`;
    const report = (line: string) => {
      if (signal.aborted) {
        return;
      }
      for (const tab of this.deps.tabs()) {
        if (tab.startingOn === pending) {
          tab.append({ type: 'system', id: lineId, text: String(line).slice(0, 1_000) });
        }
      }
    };
    let launched: AgentSpec;
    try {
      launched = await prepare(spec, report);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw couldNot(
        message.replace(/\.?$/, '.'),
        error instanceof UserFacingError ? error.detail : undefined,
      );
    }
    if (signal.aborted) {
      throw new UserFacingError(`${spec.name} was stopped while it was starting.`);
    }
    if (launched.command === '') {
      throw couldNot('no command to run it was found.');
    }
    return launched;
  }

  /** The start's promise a tab's process came from. */
  private pendingOfRef(process: AgentProcessRef): Promise<AgentConnection> | undefined {
    return process instanceof Promise ? process : this.pendingOf.get(process);
  }
}

/** What an agent's process is started with from the settings, to tell when they change. */
function launchSettings(spec: AgentSpec): string {
  return JSON.stringify([spec.command, spec.args, Object.entries(spec.env).sort()]);
}
