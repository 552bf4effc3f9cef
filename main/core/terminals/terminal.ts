/**
 * One command an agent runs through `terminal/create`: its process, its output and its end.
 *
 * The command runs without a shell (its arguments reach it as they are, never interpreted), as
 * the user running Airlock, with stdin closed. On POSIX it leads a process group of its own, and
 * stopping it signals the whole group: a command that starts children of its own (a build, a
 * test runner, `sh -c 'server &'`) leaves none of them behind. On Windows `taskkill /T` ends the
 * process tree instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { TerminalOutput } from './output.js';

/** How a command ended: its exit code, or the signal that ended it. */
export type TerminalExit = { exitCode: number | null; signal: string | null };

/**
 * Who asked for a command to stop: the user (its Stop button), the agent (`terminal/kill` or
 * `terminal/release`), or Airlock itself (the session ended, the app quits). Kept beside the exit
 * rather than in it: the agent's `exitStatus` stays exactly what ACP defines.
 */
export type StopCause = 'user' | 'agent' | 'airlock';

/** What to run, already checked (see manager.ts). */
export type TerminalCommand = {
  command: string;
  args: string[];
  cwd: string;
  /** Added to Airlock's own environment. */
  env: Record<string, string>;
  outputByteLimit?: number | null;
};

/** How long a command has to exit after SIGTERM before its group gets SIGKILL. */
export const TERMINAL_STOP_GRACE_MS = 2000;

/**
 * How long the end of a command waits for its output to close after it exited: a child it left
 * running in the background can hold the pipe open for as long as it runs.
 */
const OUTPUT_DRAIN_MS = 200;

/** A running or ended command. */
export class Terminal {
  readonly output: TerminalOutput;
  /** Settles once the command has ended (never rejects). */
  readonly exited: Promise<TerminalExit>;
  private ended: TerminalExit | undefined;
  private stopCause: StopCause | undefined;

  private constructor(
    private readonly child: ChildProcess,
    output: TerminalOutput,
    exited: Promise<TerminalExit>,
    /** Called after each piece of output the command writes. */
    private readonly wrote: Set<() => void>,
  ) {
    this.output = output;
    this.exited = exited.then((exit) => (this.ended = exit));
  }

  /**
   * Starts the command; resolves once it runs. Rejects with Node's error (`ENOENT` for a program
   * that is not there, say) when it cannot start.
   */
  static start(spec: TerminalCommand): Promise<Terminal> {
    const posix = process.platform !== 'win32';
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Never a shell: `$(…)`, `;`, globs and quotes in an argument stay text.
      shell: false,
      windowsHide: true,
      // Its own process group, so stopping it reaches everything it started.
      detached: posix,
    });
    const output = new TerminalOutput(spec.outputByteLimit);
    const wrote = new Set<() => void>();
    const append = (chunk: Buffer) => {
      output.append(chunk);
      for (const listener of wrote) {
        listener();
      }
    };
    // Both streams in the order they come, as a terminal shows them.
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    const exited = new Promise<TerminalExit>((resolve) => {
      let drain: NodeJS.Timeout | undefined;
      const finish = (code: number | null, signal: string | null) => {
        clearTimeout(drain);
        resolve({ exitCode: code, signal });
      };
      // 'close' comes once the output has ended too; a background child may keep it open.
      child.once('close', finish);
      child.once('exit', (code, signal) => {
        drain = setTimeout(() => finish(code, signal), OUTPUT_DRAIN_MS);
        drain.unref();
      });
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(new Terminal(child, output, exited, wrote)));
      // Kept for the process's life: an 'error' event with no listener would end Airlock.
      child.on('error', (error) => {
        if (child.pid === undefined) {
          reject(error);
        }
      });
    });
  }

  /** Calls `listener` after each piece of output the command writes, until it is removed. */
  onOutput(listener: () => void): () => void {
    this.wrote.add(listener);
    return () => this.wrote.delete(listener);
  }

  /** The process id of the command (the group id of everything it started, on POSIX). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How the command ended, once it has. */
  get exit(): TerminalExit | undefined {
    return this.ended;
  }

  /** Who first asked for the command to stop while it ran; undefined if nobody did. */
  get stoppedBy(): StopCause | undefined {
    return this.stopCause;
  }

  /**
   * Stops the command and everything it started: SIGTERM to its group, then, once the command
   * has ended or the grace period is over, SIGKILL to whatever is left in the group (a child
   * that ignores SIGTERM, or one left running in the background). Resolves after that. `by`
   * says who asked, for how the end is told to the user.
   */
  async stop(by: StopCause, graceMs = TERMINAL_STOP_GRACE_MS): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) {
      return;
    }
    // A command that ended on its own was not stopped, whoever asks afterwards.
    if (this.ended === undefined) {
      this.stopCause ??= by;
    }
    if (process.platform === 'win32') {
      // No process groups: taskkill ends the tree (/T), at once (/F). Not testable on Linux.
      spawn('taskkill', ['/T', '/F', '/PID', String(pid)], { windowsHide: true, stdio: 'ignore' })
        .once('error', () => this.child.kill())
        .unref();
      await this.exited;
      return;
    }
    signalGroup(pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.exited, grace]).finally(() => clearTimeout(timer));
    // The group outlives the command while anything it started runs; that gets no longer than
    // the command took to go.
    signalGroup(pid, 'SIGKILL');
  }
}

/** Signals a process group; one that is gone already is no error. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // The negative pid names the group.
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left in it.
  }
}
