/**
 * One running agent: its process, its stderr log, and the ACP connection over its stdio.
 *
 * The connection advertises exactly what Airlock implements, checks the agent's `initialize`
 * result itself (the SDK does not), bounds every request that must not hang, and reports the
 * process's end once, with its exit code and the last lines of stderr.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { AgentExit, AgentIdentity, AuthMethodView } from '../../preload/shared/contract.js';
import type { PacedReader, ReadPace } from './agents/read-pace.js';
import { AgentRequestError, UserFacingError } from './errors.js';
import { noAnswer } from './request-words.js';
import { parseInitializeResponse, type InitializeResult } from './initialize.js';
import {
  commandLine,
  type AgentLauncher,
  type AgentProcess,
  type AgentSpec,
} from './agents/spec.js';
import type { UrlElicitation } from './settings/catalog.js';
import { StderrTail, type StderrMark } from './stderr-tail.js';

/** Airlock's own name and version, sent as `clientInfo`. */
export const CLIENT_INFO = { name: 'airlock', title: 'Airlock', version: '0.1.0' } as const;

/** The elicitation modes a host can honour, and so advertises. */
export type ElicitationModes = { form: boolean; url: boolean };

/** What Airlock advertises by default: form mode (URL mode needs a host that opens URLs). */
export const DEFAULT_ELICITATION_MODES: ElicitationModes = { form: true, url: false };

/**
 * The modes a session advertises under the settings' `url_elicitation`: form always, URL mode
 * unless it is `off` (the desktop app opens URLs itself, the web host's page in a new tab).
 * Both sessions and Test ask here, so Test reports what a session offers.
 */
export function sessionElicitationModes(
  urlElicitation: UrlElicitation = 'isolated_window',
): ElicitationModes {
  return { form: true, url: urlElicitation !== 'off' };
}

/**
 * What Airlock implements; nothing more is advertised. Each elicitation mode is present only
 * when the host honours it (ACP: an omitted mode is not supported).
 */
export function clientCapabilities(modes: ElicitationModes): acp.ClientCapabilities {
  return {
    // Served inside the session's working folder only (see files/).
    fs: { readTextFile: true, writeTextFile: true },
    // Commands run in the session's working folder, without a shell (see terminals/).
    terminal: true,
    elicitation: {
      ...(modes.form ? { form: {} } : {}),
      ...(modes.url ? { url: {} } : {}),
    },
  };
}

/**
 * Starts an agent as a child process with piped stdio. On POSIX it leads a process group of its
 * own, and stopping it signals the whole group: agents are often launched through a wrapper
 * (`npx`, an npm bin script) that runs the real program as its child and exits alone, which
 * would leave the program running.
 */
export const spawnAgent: AgentLauncher = (spec) => {
  const ownGroup = process.platform !== 'win32';
  const child = spawn(spec.command, spec.args, {
    env: { ...process.env, ...spec.env },
    // A folder that is not there would fail the start with a misleading "not found".
    cwd: spec.cwd !== undefined && isFolder(spec.cwd) ? spec.cwd : undefined,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
    detached: ownGroup,
  });
  if (!ownGroup) {
    return child as AgentProcess;
  }
  return {
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    get exitCode() {
      return child.exitCode;
    },
    get signalCode() {
      return child.signalCode;
    },
    kill: (signal) => {
      try {
        // The negative pid names the group: the agent and everything it started.
        return child.pid !== undefined && process.kill(-child.pid, signal);
      } catch {
        return child.kill(signal);
      }
    },
    once: (event: 'error' | 'close', listener: (...args: never[]) => void) =>
      child.once(event, listener as never),
  } as AgentProcess;
};

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What the connection asks of the sessions that run on it. */
export type ConnectionDelegate = {
  onUpdate(notification: acp.SessionNotification): void;
  onPermission(
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse>;
  onExit(exit: AgentExit): void;
  /** `elicitation/create`, with its raw params (Airlock checks them itself). */
  onElicitation(params: unknown, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** `elicitation/complete`, with its raw params. */
  onElicitationComplete(params: unknown): void;
  /** `fs/read_text_file`. */
  onReadTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  /** `fs/write_text_file`. */
  onWriteTextFile(
    params: acp.WriteTextFileRequest,
    signal: AbortSignal,
  ): Promise<acp.WriteTextFileResponse>;
  /** `terminal/create`, `terminal/output`, `terminal/wait_for_exit`, `terminal/kill`, `terminal/release`. */
  terminals: TerminalRequests;
};

/** What a connection asks of Airlock for `terminal/*` (see terminals/service.ts). */
export type TerminalRequests = {
  create(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
  output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForExit(
    params: acp.WaitForTerminalExitRequest,
    signal: AbortSignal,
  ): Promise<acp.WaitForTerminalExitResponse>;
  kill(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse>;
  release(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse>;
};

/** Limits that keep a misbehaving agent from hanging the app. */
export type ConnectionTimeouts = {
  /** `initialize`, `authenticate`, `session/new` and other short requests. */
  requestMs: number;
  /** How long a cancelled turn may take to answer before Airlock ends it itself. */
  cancelGraceMs: number;
};

/** Defaults for {@link ConnectionTimeouts}. */
export const DEFAULT_TIMEOUTS: ConnectionTimeouts = { requestMs: 30_000, cancelGraceMs: 5_000 };

/** The largest single message Airlock accepts from an agent, unless told otherwise. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** How {@link AgentConnection.start} runs an agent. */
export type ConnectionOptions = {
  logsDir: string;
  delegate: ConnectionDelegate;
  timeouts?: ConnectionTimeouts;
  /** The largest single message accepted from the agent; {@link MAX_MESSAGE_BYTES} by default. */
  maxMessageBytes?: number;
  /** The elicitation modes to advertise; {@link DEFAULT_ELICITATION_MODES} by default. */
  elicitation?: ElicitationModes;
  /** Aborting it before `initialize` has answered stops the process and fails the start. */
  signal?: AbortSignal;
  /** The pace its output is read at (agents/read-pace.ts); as fast as it comes without one. */
  pace?: ReadPace;
};

/** One of Airlock's requests to the agent that has not been answered yet. */
export type OutstandingRequest = {
  method: string;
  /** The tab it was sent for, if any. */
  tab?: string;
};

/** A started agent process with an initialized ACP connection. */
export class AgentConnection {
  readonly identity: AgentIdentity;
  readonly authMethods: AuthMethodView[];
  /** The API-key provider each sign-in method names in `_meta["api-key"]`, by method id. */
  readonly apiKeyProviders: ReadonlyMap<string, string>;
  /** How each `terminal` sign-in method runs the agent's command, by method id. */
  readonly terminalLaunches: InitializeResult['terminalLaunches'];
  readonly capabilities: acp.AgentCapabilities;
  private exited: AgentExit | undefined;
  /** Set by `stop`. */
  private stopAsked = false;
  /** The tab each request in flight was sent for, by its params object (see `start`). */
  private readonly tabs: WeakMap<object, string>;

  private constructor(
    private readonly child: AgentProcess,
    private readonly connection: acp.ClientConnection,
    private readonly tail: StderrTail,
    private readonly ended: Promise<AgentExit>,
    init: InitializeResult,
    readonly timeouts: ConnectionTimeouts,
    private readonly env: Readonly<Record<string, string>>,
    private readonly outstanding: Map<acp.JsonRpcId, { method: string; params: object }>,
    tabs: WeakMap<object, string>,
    /** The elicitation modes advertised on this connection. */
    readonly elicitationModes: ElicitationModes,
    /** The domains the user expects this agent's URLs on (its spec's `urlDomains`), or none. */
    readonly urlDomains: readonly string[],
    /** Its output's reader, at its core's pace (agents/read-pace.ts), if it has one. */
    readonly reader: PacedReader | undefined,
  ) {
    this.tabs = tabs;
    this.identity = init.identity;
    this.authMethods = init.authMethods;
    this.apiKeyProviders = init.apiKeyProviders;
    this.terminalLaunches = init.terminalLaunches;
    this.capabilities = init.capabilities;
  }

  /**
   * Spawns the agent and runs `initialize`.
   *
   * Rejects with a {@link UserFacingError} when the process cannot start, exits, never
   * answers, or answers with something Airlock cannot use; the process is stopped then.
   */
  static async start(spec: AgentSpec, options: ConnectionOptions): Promise<AgentConnection> {
    const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    const maxMessageBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    const modes = options.elicitation ?? DEFAULT_ELICITATION_MODES;
    const log = openLog(options.logsDir, spec.name);
    log?.write(`\n--- ${new Date().toISOString()} started: ${commandLine(spec)}\n`);
    const tail = new StderrTail(50);
    const child = (spec.launch ?? spawnAgent)(spec);
    child.stderr.on('data', (chunk: Buffer) => {
      tail.push(chunk);
      log?.write(chunk);
    });
    // Writing to an agent that has exited must not crash Airlock: the exit is reported instead.
    child.stdin.on('error', () => undefined);

    // Set when Airlock stops a still-running agent because its stream broke; the exit says why.
    let broken: string | undefined;
    const exit = watchExit(child, tail, log, () => broken, spec);
    let initDone = false;
    const client = acp
      .client({ name: 'airlock' })
      .onNotification(acp.methods.client.session.update, ({ params }) =>
        options.delegate.onUpdate(params),
      )
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) =>
        options.delegate.onPermission(params, signal),
      )
      // Raw params: the SDK neither gates modes nor keeps the keys Airlock must refuse.
      .onRequest(
        acp.methods.client.elicitation.create,
        (params: unknown) => params,
        ({ params, signal }) => options.delegate.onElicitation(params, signal),
      )
      .onNotification(
        acp.methods.client.elicitation.complete,
        (params: unknown) => params,
        ({ params }) => options.delegate.onElicitationComplete(params),
      )
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) =>
        options.delegate.onReadTextFile(params),
      )
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params, signal }) =>
        options.delegate.onWriteTextFile(params, signal),
      )
      .onRequest(acp.methods.client.terminal.create, ({ params }) =>
        options.delegate.terminals.create(params),
      )
      .onRequest(acp.methods.client.terminal.output, ({ params }) =>
        options.delegate.terminals.output(params),
      )
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params, signal }) =>
        options.delegate.terminals.waitForExit(params, signal),
      )
      .onRequest(acp.methods.client.terminal.kill, ({ params }) =>
        options.delegate.terminals.kill(params),
      )
      .onRequest(acp.methods.client.terminal.release, ({ params }) =>
        options.delegate.terminals.release(params),
      );
    const reader = options.pace?.reader();
    const output = Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>;
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      reader ? output.pipeThrough(reader.stream) : output,
      { maxMessageBytes },
    );
    // The SDK keeps the ids of the requests it sends to itself; a request-scoped elicitation
    // names one of them, so note each as it crosses the stream.
    const outstanding = new Map<acp.JsonRpcId, { method: string; params: object }>();
    const tabs = new WeakMap<object, string>();
    const connection = client.connect({
      readable: stream.readable,
      writable: observeRequests(stream.writable, outstanding),
    });
    void connection.closed.then(() => {
      // An oversized message ends the SDK's stream but not the process: stop the agent, or it
      // would linger with a dead connection that every later request fails on.
      const reason: unknown = connection.signal.reason;
      if (reason instanceof acp.MessageTooLargeError && !broken) {
        broken = `sent a message larger than ${formatBytes(reason.maxMessageBytes)}`;
        stopProcess(child);
        return;
      }
      // Any other close (its output ended, say) is normally the agent exiting. One that keeps
      // running without a connection is stopped after the grace period, so it cannot linger.
      const grace = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null && !broken) {
          broken = 'closed its connection but kept running';
          stopProcess(child);
        }
      }, timeouts.cancelGraceMs);
      grace.unref();
      void exit.then(() => clearTimeout(grace));
    });

    const exitDuringInit = exit.then((info) => {
      if (!initDone) {
        const lastLine = info.stderrTail.at(-1);
        // A process that never ran (no exit code, no signal) has nothing more to say.
        const when =
          info.code === null && info.signal === null ? '' : ' before it finished starting';
        throw new UserFacingError(
          `${spec.name} ${info.reason}${when}${lastLine ? `: ${lastLine}` : ''}`,
        );
      }
      return new Promise<never>(() => undefined);
    });
    // The user may stop a start that hangs instead of waiting for the timeout.
    const signal = options.signal;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(new UserFacingError(`${spec.name} was stopped while it was starting`));
      if (signal?.aborted) {
        onAbort();
      } else {
        signal?.addEventListener('abort', onAbort, { once: true });
      }
    });
    stopped.catch(() => undefined);
    try {
      const raw = await Promise.race([
        withTimeout(
          connection.agent.request(acp.methods.agent.initialize, {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: clientCapabilities(modes),
            clientInfo: { ...CLIENT_INFO },
          }),
          timeouts.requestMs,
          noAnswer(spec.name, acp.methods.agent.initialize, timeouts.requestMs),
        ),
        exitDuringInit,
        stopped,
      ]);
      const init = parseInitializeResponse(raw, spec);
      initDone = true;
      const connected = new AgentConnection(
        child,
        connection,
        tail,
        exit,
        init,
        timeouts,
        spec.env,
        outstanding,
        tabs,
        modes,
        spec.urlDomains ?? [],
        reader,
      );
      void exit.then((info) => {
        connected.exited = info;
        connection.close(new Error(info.reason));
        options.delegate.onExit(info);
      });
      return connected;
    } catch (error) {
      initDone = true;
      connection.close();
      stopProcess(child);
      if (signal?.aborted) {
        // Stopped on purpose (the user, or Airlock quitting): resolve once it is gone.
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, STOP_GRACE_MS * 2);
        });
        await Promise.race([exit, deadline]).finally(() => clearTimeout(timer));
      }
      throw toUserFacing(error, spec.name, acp.methods.agent.initialize);
    } finally {
      if (onAbort) {
        signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  /** The process's end, once it has ended. */
  /** Whether Airlock stopped the process (`stop`): an exit it did not ask for is a crash. */
  get stoppedByAirlock(): boolean {
    return this.stopAsked;
  }

  get exit(): AgentExit | undefined {
    return this.exited;
  }

  /**
   * Whether the agent was started with a value for an environment variable: from its spec
   * (settings file or keychain) or inherited from Airlock's own environment.
   */
  hasEnv(name: string): boolean {
    return Boolean(Object.hasOwn(this.env, name) ? this.env[name] : process.env[name]);
  }

  /** The last lines the agent wrote to stderr. */
  get stderrTail(): string[] {
    return this.tail.lines();
  }

  /**
   * Sends a bounded request and turns its failure into a user-facing error. `tab` names the tab
   * it is sent for, so an elicitation scoped to this request can be shown there. `onUser`: the
   * answer waits on the user (a sign-in they chose, done in a browser or on a page the agent
   * asks them to open), so it is not bounded; the user can stop it.
   */
  async request<M extends keyof acp.AgentRequestParamsByMethod>(
    method: M,
    params: acp.AgentRequestParamsByMethod[M],
    tab?: string,
    { onUser = false }: { onUser?: boolean } = {},
  ): Promise<acp.AgentRequestResponsesByMethod[M]> {
    this.assertRunning();
    const mark = this.tail.mark();
    if (tab !== undefined && params !== null && typeof params === 'object') {
      this.tabs.set(params, tab);
    }
    try {
      const answer = this.connection.agent.request(method, params);
      return await (onUser
        ? answer
        : withTimeout(
            answer,
            this.timeouts.requestMs,
            noAnswer(this.identity.configName, method, this.timeouts.requestMs),
          ));
    } catch (error) {
      throw await this.failure(error, mark, method);
    } finally {
      this.forget(params);
    }
  }

  /** The request with this JSON-RPC id, if it is Airlock's and still unanswered. */
  outstandingRequest(id: string | number): OutstandingRequest | undefined {
    const request = this.outstanding.get(id);
    return request && { method: request.method, tab: this.tabs.get(request.params) };
  }

  private forget(params: unknown): void {
    for (const [id, request] of this.outstanding) {
      if (request.params === params) {
        this.outstanding.delete(id);
      }
    }
  }

  /** Sends `session/prompt`; not bounded in time (a turn can be long) but cancellable by the caller. */
  async prompt(params: acp.PromptRequest): Promise<acp.PromptResponse> {
    this.assertRunning();
    const mark = this.tail.mark();
    try {
      const response: unknown = await this.connection.agent.request(
        acp.methods.agent.session.prompt,
        params,
      );
      const stopReason = (response as { stopReason?: unknown } | null)?.stopReason;
      if (typeof stopReason !== 'string') {
        throw new UserFacingError(
          `${this.identity.configName} ended the turn without saying why it stopped`,
          'The answer to session/prompt has no stopReason',
        );
      }
      return { stopReason: stopReason as acp.StopReason };
    } catch (error) {
      throw await this.failure(error, mark, acp.methods.agent.session.prompt);
    } finally {
      this.forget(params);
    }
  }

  /** Sends `session/cancel`. */
  async cancel(sessionId: string): Promise<void> {
    if (this.exited) {
      return;
    }
    await this.connection.agent
      .notify(acp.methods.agent.session.cancel, { sessionId })
      .catch(() => undefined);
  }

  /**
   * Stops the agent process and closes the connection. Resolves once the process has ended
   * (SIGTERM first, SIGKILL after a grace period), or at the latest twice that period later.
   */
  async stop(): Promise<void> {
    this.stopAsked = true;
    this.connection.close();
    stopProcess(this.child, this.exited !== undefined);
    // A descendant that left the agent's process group can hold its output open after the
    // agent is gone; give up waiting for that once SIGKILL has had its time.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_GRACE_MS * 2);
    });
    await Promise.race([this.ended, deadline]).finally(() => clearTimeout(timer));
  }

  /**
   * Turns a failed request into a user-facing error. When the connection closed under it, the
   * process is usually exiting: its output ends a moment before the exit is known, so wait
   * briefly and blame the exit rather than report a bare "connection closed". When the agent
   * wrote to stderr while the request ran, its last line goes with the error: agents often
   * answer "Internal error" and say why only there.
   */
  private async failure(
    error: unknown,
    mark: StderrMark,
    method: string,
  ): Promise<UserFacingError> {
    if (this.connection.signal.aborted && !this.exited) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.timeouts.cancelGraceMs);
      });
      await Promise.race([this.ended, grace]).finally(() => clearTimeout(timer));
    }
    if (this.exited && !(error instanceof UserFacingError)) {
      return new UserFacingError(`${this.identity.configName} ${this.exited.reason}`);
    }
    const failure = toUserFacing(error, this.identity.configName, method);
    // What the agent wrote to stderr before its answer may be read just after it: stdout and
    // stderr are two pipes, read in the same turn of the event loop in either order.
    await new Promise((resolve) => setImmediate(resolve));
    const said = this.tail.since(mark).at(-1);
    if (!said || this.exited) {
      // An exit is reported with its whole stderr tail already.
      return failure;
    }
    const message = `${failure.message}. Its log ends with: ${said}`;
    return failure instanceof AgentRequestError
      ? new AgentRequestError(failure.code, message, failure.detail)
      : new UserFacingError(message, failure.detail);
  }

  private assertRunning(): void {
    if (this.exited) {
      throw new UserFacingError(
        `${this.identity.configName} is not running (${this.exited.reason})`,
      );
    }
  }
}

/**
 * Passes messages on to `writable`, noting each request that carries params by its id. The
 * connection drops an entry when its request settles, so the map holds only requests in flight.
 */
function observeRequests(
  writable: WritableStream<acp.AnyMessage>,
  outstanding: Map<acp.JsonRpcId, { method: string; params: object }>,
): WritableStream<acp.AnyMessage> {
  const writer = writable.getWriter();
  return new WritableStream<acp.AnyMessage>({
    write(message) {
      if (
        'method' in message &&
        'id' in message &&
        message.params &&
        typeof message.params === 'object'
      ) {
        outstanding.set(message.id, { method: message.method, params: message.params });
      }
      return writer.write(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
}

function openLog(dir: string, agentName: string): WriteStream | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    const stream = createWriteStream(agentLogPath(dir, agentName), { flags: 'a' });
    // A log that cannot be written must not take the agent down with it.
    stream.on('error', () => undefined);
    return stream;
  } catch {
    return undefined;
  }
}

/** The stderr log file of an agent. */
export function agentLogPath(dir: string, agentName: string): string {
  return join(dir, `${agentName.replace(/[^A-Za-z0-9._-]+/g, '_')}.log`);
}

/** The longest PATH an error quotes. */
const MAX_PATH_QUOTED = 1_000;

/**
 * Why an agent's process could not be started, in words that say what to fix: a program not
 * found names the PATH searched (an app started from a desktop launcher may get a shorter one
 * than a terminal), a file that is there but cannot be run says so.
 */
export function startFailure(error: NodeJS.ErrnoException, spec: AgentSpec): string {
  const isPath = spec.command.includes('/') || spec.command.includes('\\');
  if (error.code === 'ENOENT') {
    if (isPath) {
      return `could not be started: ${spec.command} does not exist`;
    }
    const searched = spec.env.PATH ?? process.env.PATH ?? '';
    const shown =
      searched.length > MAX_PATH_QUOTED ? `${searched.slice(0, MAX_PATH_QUOTED - 1)}…` : searched;
    return (
      `could not be started: no program named "${spec.command}" was found on the PATH ` +
      `(${shown || 'empty'}); give its full path as the command, or add its folder to PATH`
    );
  }
  if (error.code === 'EACCES') {
    return `could not be started: ${spec.command} cannot be run (permission denied); make it executable`;
  }
  return `could not be started (${error.message})`;
}

function watchExit(
  child: AgentProcess,
  tail: StderrTail,
  log: WriteStream | undefined,
  broken: () => string | undefined,
  spec: AgentSpec,
): Promise<AgentExit> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (code: number | null, signal: string | null, reason: string) => {
      if (settled) {
        return;
      }
      settled = true;
      log?.write(`--- ${new Date().toISOString()} ${reason}\n`);
      log?.end();
      resolve({ code, signal, reason, stderrTail: tail.lines() });
    };
    child.once('error', (error) => finish(null, null, startFailure(error, spec)));
    // 'close' comes after stdio has drained, so the stderr tail is complete.
    child.once('close', (code, signal) => {
      const why = broken();
      const ended = signal ? `was stopped by ${signal}` : `exited with code ${code ?? 'unknown'}`;
      finish(code, signal, why ? `was stopped because it ${why}` : ended);
    });
  });
}

/** How long an agent has to exit after SIGTERM before it gets SIGKILL. */
export const STOP_GRACE_MS = 3000;

/**
 * Stops an agent: SIGTERM to it and its group, then SIGKILL to what has not closed after
 * `STOP_GRACE_MS`. `closed`: the process has closed (exited, and its output ended), so nothing
 * it started holds its output either. It still gets SIGTERM for what it left in its group, but
 * no SIGKILL: the group may be gone, and a late signal could reach another program that got
 * its number. Until then something lives in the group, the agent or what it started (an agent
 * run through a wrapper that exits alone), so its number cannot be taken.
 */
function stopProcess(child: AgentProcess, closed = false): void {
  child.kill('SIGTERM');
  if (closed) {
    return;
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  timer.unref();
  child.once('close', () => clearTimeout(timer));
}

/**
 * Rejects with `failure` (a sentence, or a sentence and its detail) when `promise` has not
 * settled within `ms`.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  failure: string | { message: string; detail: string },
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const { message, detail } = typeof failure === 'string' ? { message: failure } : failure;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new UserFacingError(message, detail)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A failure as a sentence a person reads. A JSON-RPC error's code, the request's method and the
 * agent's raw `data` go to the error's `detail` (shown under Details), never into the sentence.
 */
function toUserFacing(error: unknown, agentName: string, method: string): UserFacingError {
  if (error instanceof UserFacingError) {
    return error;
  }
  if (error instanceof acp.RequestError) {
    const detail = errorDetail(error.data);
    const message = `${error.message}${detail ? `: ${detail}` : ''}`;
    return new AgentRequestError(
      error.code,
      `${agentName}: ${message}`,
      protocolDetail(error.code, error.data, method),
    );
  }
  if (error instanceof acp.MessageTooLargeError) {
    const limit = formatBytes(error.maxMessageBytes);
    return new UserFacingError(`${agentName} sent a message larger than ${limit}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new UserFacingError(`${agentName}: ${message}`);
}

/**
 * What lies behind a JSON-RPC error, for Details: its code, the request it answered, and the
 * agent's `data` as it sent it (cut to 1,000 characters).
 */
function protocolDetail(code: number, data: unknown, method: string): string {
  const sent = data === undefined ? '' : `; data: ${JSON.stringify(data).slice(0, 1000)}`;
  return `JSON-RPC error ${code} answering ${method}${sent}`;
}

/**
 * The human part of a JSON-RPC error's `data`, if it has one: agents often put the real reason
 * there ("Internal error" with `{ details: "Query closed before response received" }`).
 */
function errorDetail(data: unknown): string | undefined {
  const record =
    data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
  const candidates = typeof data === 'string' ? [data] : [record?.details, record?.message];
  const detail = candidates.find((value) => typeof value === 'string');
  return typeof detail === 'string' && detail.trim() ? detail.trim().slice(0, 500) : undefined;
}

/** A byte count as a user reads it: `64 MB`, `16 KB`, `100 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) {
    return `${bytes / 1024 / 1024} MB`;
  }
  if (bytes >= 1024 && bytes % 1024 === 0) {
    return `${bytes / 1024} KB`;
  }
  return `${bytes} bytes`;
}
