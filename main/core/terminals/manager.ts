/**
 * The terminals of one session: what `terminal/*` does, checked and bounded.
 *
 * Commands run in the session's working folder, or in a folder inside it; a `cwd` anywhere
 * else (after `..` and symlinks are resolved) is refused. A terminal lives until the agent
 * releases it or the session ends; `kill` stops its command but keeps its output readable.
 * Every refusal is a JSON-RPC error that says what is wrong, never a hang.
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isFullPath, isWithin } from '../files/containment.js';
import { showLive, type TerminalShown } from './live.js';
import { Terminal, type StopCause, type TerminalExit } from './terminal.js';

/**
 * How many terminals a session may hold unreleased, running or ended. Agents run one command at
 * a time, or a few side by side (a dev server beside the tests); more than this is an agent out
 * of control, and each one is a process tree and up to 4 MB of kept output.
 */
export const MAX_TERMINALS_PER_SESSION = 16;

/** The longest command line a transcript line or an error quotes. */
const MAX_QUOTED = 300;

/** What the session's transcript is told about its terminals. */
export type TerminalLines = {
  /** A line that a later one with the same id replaces (see the contract's `system` event). */
  line(id: string, text: string): void;
  /** What a terminal shows now (see live.ts): sent even after the session ends, to show how. */
  output(event: TerminalShown): void;
};

/** The terminals of one session. */
export class SessionTerminals {
  private readonly terminals = new Map<string, Terminal>();
  /** Creates under way, counted against the limit until they are done. */
  private starting = 0;
  private closed = false;

  constructor(
    /** The session's working folder. */
    private readonly folder: string,
    private readonly lines: TerminalLines,
  ) {}

  /** `terminal/create`: starts the command and answers at once with its id. */
  async create(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    if (this.closed) {
      throw acp.RequestError.invalidRequest(undefined, 'the session has ended.');
    }
    if (this.terminals.size + this.starting >= MAX_TERMINALS_PER_SESSION) {
      throw acp.RequestError.invalidRequest(
        undefined,
        `Airlock keeps at most ${MAX_TERMINALS_PER_SESSION} terminals per session; release one first (terminal/release).`,
      );
    }
    this.starting += 1;
    let started: { terminal: Terminal; cwd: string; shown: string };
    try {
      started = await this.start(params);
    } finally {
      this.starting -= 1;
    }
    const { terminal, cwd, shown } = started;
    // Checked again: the session may have ended while the command started.
    if (this.closed) {
      await terminal.stop('airlock');
      throw acp.RequestError.invalidRequest(undefined, 'the session has ended.');
    }
    const terminalId = `term_${randomUUID()}`;
    this.terminals.set(terminalId, terminal);
    showLive(terminal, terminalId, (event) => this.lines.output(event));
    const lineId = `terminal-${terminalId}`.slice(0, 100);
    this.lines.line(lineId, `Running: ${shown} in ${cwd}`);
    void terminal.exited.then((exit) => {
      if (!this.closed) {
        this.lines.line(lineId, `Ran: ${shown} in ${cwd}: ${exitText(exit, terminal.stoppedBy)}`);
      }
    });
    return { terminalId };
  }

  private async start(
    params: acp.CreateTerminalRequest,
  ): Promise<{ terminal: Terminal; cwd: string; shown: string }> {
    const shown = commandText(params.command, params.args ?? []);
    const cwd = await this.workingFolder(params.cwd ?? undefined, shown);
    const env = environment(params.env ?? []);
    try {
      const terminal = await Terminal.start({
        command: params.command,
        args: params.args ?? [],
        cwd,
        env,
        outputByteLimit: params.outputByteLimit,
      });
      return { terminal, cwd, shown };
    } catch (error) {
      throw acp.RequestError.invalidParams(undefined, startFailure(error, params.command));
    }
  }

  /** `terminal/output`: what the command wrote so far, and how it ended if it has. */
  async output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse> {
    const terminal = this.terminal(params.terminalId);
    const exit = terminal.exit;
    return {
      output: terminal.output.text(exit !== undefined),
      truncated: terminal.output.truncated,
      ...(exit ? { exitStatus: exit } : {}),
    };
  }

  /** `terminal/wait_for_exit`: answers once the command has ended. */
  async waitForExit(
    params: acp.WaitForTerminalExitRequest,
    signal?: AbortSignal,
  ): Promise<acp.WaitForTerminalExitResponse> {
    const terminal = this.terminal(params.terminalId);
    // The agent may withdraw the request ($/cancel_request); it still gets an answer.
    const withdrawn = new Promise<never>((_resolve, reject) => {
      const onAbort = () =>
        reject(acp.RequestError.requestCancelled(undefined, 'the wait was withdrawn.'));
      if (signal?.aborted) {
        onAbort();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      void terminal.exited.then(() => signal?.removeEventListener('abort', onAbort));
    });
    withdrawn.catch(() => undefined);
    return Promise.race([terminal.exited, withdrawn]);
  }

  /**
   * `terminal/kill`: stops the command; its output and exit status stay readable. `by` is the
   * agent unless the user's Stop button sent it.
   */
  async kill(
    params: acp.KillTerminalRequest,
    by: StopCause = 'agent',
  ): Promise<acp.KillTerminalResponse> {
    await this.terminal(params.terminalId).stop(by);
    return {};
  }

  /** `terminal/release`: stops the command if it runs and forgets the terminal. */
  async release(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse> {
    const terminal = this.terminal(params.terminalId);
    this.terminals.delete(params.terminalId);
    await terminal.stop('agent');
    return {};
  }

  /** Whether the session holds terminal `terminalId` (created and not released). */
  has(terminalId: string): boolean {
    return this.terminals.has(terminalId);
  }

  /** How many terminals are held (not released). */
  get size(): number {
    return this.terminals.size;
  }

  /**
   * Stops every command and forgets every terminal (the session ended, its agent exited, or the
   * app quits); no later `terminal/create` is taken. Resolves once all have stopped.
   */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.terminals.values()];
    this.terminals.clear();
    await Promise.all(all.map((terminal) => terminal.stop('airlock')));
  }

  private terminal(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) {
      throw acp.RequestError.invalidParams(
        { terminalId: terminalId.slice(0, 100) },
        `no terminal "${terminalId.slice(0, 100)}" in this session (it was never created, or was released).`,
      );
    }
    return terminal;
  }

  /**
   * The folder to run in: the session's, or `cwd` when it is an existing folder inside it. Both
   * are compared as real paths, so neither `..` nor a symlink leads outside.
   */
  private async workingFolder(cwd: string | undefined, shown: string): Promise<string> {
    const root = await realpath(this.folder);
    if (cwd === undefined) {
      return root;
    }
    const refuse = (why: string) => {
      this.lines.line(
        `terminal-refused-${randomUUID()}`,
        `Refused to run ${shown} in ${quote(cwd)}: ${why}`,
      );
      return acp.RequestError.invalidParams({ cwd: quote(cwd) }, `cwd ${quote(cwd)} ${why}`);
    };
    if (!isFullPath(cwd, path)) {
      throw refuse('is not an absolute path.');
    }
    let real: string;
    try {
      real = await realpath(cwd);
    } catch {
      throw refuse('does not exist.');
    }
    // The same rule as files: on Windows, case-insensitive and across drives.
    if (!isWithin(root, real, path)) {
      throw refuse(`is outside the session's folder (${root}).`);
    }
    if (!(await stat(real)).isDirectory()) {
      throw refuse('is not a folder.');
    }
    return real;
  }
}

/**
 * The agent's `env` entries as variables. A name that is empty or holds `=` or NUL, or a value
 * that holds NUL, cannot be set as asked and is refused rather than set as something else.
 */
function environment(entries: acp.EnvVariable[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value } of entries) {
    if (name === '' || name.includes('=') || name.includes('\0') || value.includes('\0')) {
      throw acp.RequestError.invalidParams(
        undefined,
        `env: ${JSON.stringify(name.slice(0, 100))} cannot be set as an environment variable.`,
      );
    }
    env[name] = value;
  }
  return env;
}

/** Why a command could not start, for the agent. */
function startFailure(error: unknown, command: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  const name = quote(command);
  if (code === 'ENOENT') {
    return `${name} was not found (no such file, or no program of that name on the PATH; commands run without a shell).`;
  }
  if (code === 'EACCES') {
    return `${name} cannot be run (permission denied).`;
  }
  return `${name} could not be started (${(error as Error).message.slice(0, MAX_QUOTED)}).`;
}

/**
 * How a command ended, in words a person reads: stopped (and by whom, unless the user), ended by
 * the system when a signal nobody here sent ended it, or its exit code.
 */
export function exitText(exit: TerminalExit, stoppedBy?: StopCause): string {
  switch (stoppedBy) {
    case 'user':
      return 'stopped';
    case 'agent':
      return 'stopped by the agent';
    case 'airlock':
      return 'stopped when the session ended';
  }
  return exit.signal
    ? `ended by the system (${exit.signal})`
    : `exited with code ${exit.exitCode ?? '?'}`;
}

/** A command line as a user would type it: an argument with spaces or quotes is quoted. */
export function commandText(command: string, args: readonly string[]): string {
  const text = [command, ...args]
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(' ');
  return quote(text);
}

/** Text as a line or an error quotes it: shortened, control characters shown as `?`. */
function quote(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > MAX_QUOTED ? `${clean.slice(0, MAX_QUOTED - 1)}…` : clean;
}
