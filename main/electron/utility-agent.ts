/**
 * Agents run with Electron's `utilityProcess`, presented as the core's {@link AgentProcess}.
 *
 * The packaged app turns the RunAsNode fuse off, so it cannot re-run its own binary as Node
 * to start the demo agent; a utility process is Electron's way to run a Node script. It has
 * stdout and stderr pipes but no stdin, so the agent's input goes over `postMessage` (the
 * agent reads it from `process.parentPort`; see main/demo-agent/parent-port-input.ts).
 */
import { utilityProcess } from 'electron';
import { EventEmitter } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import type { AgentLauncher, AgentProcess } from '../core/agents/spec.js';
import type { InputMessage } from '../demo-agent/parent-port-input.js';

/** How long 'close' waits, after the exit, for the output still in the pipes. */
export const STDIO_DRAIN_MS = 250;

/** The part of Electron's `UtilityProcess` the adapter uses. */
export type UtilityChild = {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: InputMessage): void;
  kill(): boolean;
  on(event: 'spawn', listener: () => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (type: string) => void): unknown;
};

/**
 * A utility process with the shape of a child process with piped stdio.
 *
 * - `stdin` forwards each chunk to the child with `postMessage`; ending it sends `null`.
 * - `stdout` and `stderr` carry the child's output.
 * - `close` follows the child's exit once its output has drained, as with a child process.
 * - `kill()` asks Electron to end the child; `kill('SIGKILL')` signals its pid directly. Before
 *   the child has spawned it has no pid and Electron cannot end it: the kill waits for the spawn.
 */
export class UtilityAgentProcess extends EventEmitter implements AgentProcess {
  readonly stdin: Writable;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  private code: number | null = null;
  private signal: NodeJS.Signals | null = null;
  private exited = false;
  private killedWith: NodeJS.Signals | undefined;
  /** A kill asked for before the child had spawned, carried out when it does. */
  private pendingKill: NodeJS.Signals | undefined;

  constructor(private readonly child: UtilityChild) {
    super();
    const outputs = [forward(child.stdout, this.stdout), forward(child.stderr, this.stderr)];
    this.stdin = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        if (this.exited) {
          callback(new Error('The agent has exited'));
          return;
        }
        // A copy: cloning a view clones its whole backing memory, which for a pooled Buffer
        // holds other data too.
        child.postMessage(new Uint8Array(chunk));
        callback();
      },
      final: (callback) => {
        if (!this.exited) {
          child.postMessage(null);
        }
        callback();
      },
    });
    child.on('spawn', () => {
      if (this.pendingKill !== undefined) {
        this.end(this.pendingKill);
        this.pendingKill = undefined;
      }
    });
    // A fatal error is always followed by 'exit'; without a listener it would throw here.
    child.on('error', () => undefined);
    child.on('exit', (code) => {
      this.exited = true;
      if (this.killedWith) {
        this.signal = this.killedWith;
      } else {
        this.code = code;
      }
      // Electron drops every listener on the output streams right after 'exit', while
      // output can still be in the pipes: listen again once it has, then wait for the end.
      queueMicrotask(() => {
        const drained = Promise.all(outputs.map((output) => output.resume()));
        void withDeadline(drained, STDIO_DRAIN_MS).then(() => this.finish());
      });
    });
  }

  /** The exit code, once the child has exited on its own. */
  get exitCode(): number | null {
    return this.code;
  }

  /** The signal that ended the child, once it has exited after {@link kill}. */
  get signalCode(): string | null {
    return this.signal;
  }

  /** Ends the child: gracefully, or with `SIGKILL` at once. */
  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.exited) {
      return false;
    }
    this.killedWith = signal;
    if (this.child.pid === undefined) {
      // Not spawned yet: Electron's kill() would do nothing, and the agent would run on.
      this.pendingKill = signal;
      return true;
    }
    return this.end(signal);
  }

  private end(signal: NodeJS.Signals): boolean {
    const pid = this.child.pid;
    if (signal === 'SIGKILL' && pid !== undefined) {
      // Electron's kill() only asks nicely; this is the escalation after it did not work.
      try {
        process.kill(pid, 'SIGKILL');
        return true;
      } catch {
        return false;
      }
    }
    return this.child.kill();
  }

  private finish(): void {
    this.stdout.end();
    this.stderr.end();
    this.emit('close', this.code, this.signal);
  }
}

/**
 * Starts `spec.command` (a script path) in a utility process; `spec.args` are its arguments.
 *
 * Use it as `AgentSpec.launch` for scripts shipped with the app, such as the demo agent.
 */
export const forkUtilityAgent: AgentLauncher = (spec) =>
  new UtilityAgentProcess(
    utilityProcess.fork(spec.command, spec.args, {
      stdio: 'pipe',
      serviceName: spec.name,
      env: { ...process.env, ...spec.env },
    }),
  );

type Forwarded = {
  /** Listens again (if the listeners were removed) and resolves when the source has ended. */
  resume(): Promise<void>;
};

/** Copies `source` into `target`, with backpressure, until `source` ends. */
function forward(source: NodeJS.ReadableStream | null, target: PassThrough): Forwarded {
  let ended = source === null;
  let resolveEnd: () => void = () => undefined;
  const end = new Promise<void>((resolve) => (resolveEnd = resolve));
  const markEnded = () => {
    ended = true;
    resolveEnd();
  };
  const onData = (chunk: Buffer) => {
    if (!target.write(chunk)) {
      source?.pause();
      target.once('drain', () => source?.resume());
    }
  };
  const listen = () => {
    if (!source || ended) {
      return;
    }
    source.removeListener('data', onData).removeListener('end', markEnded);
    source.on('data', onData).on('end', markEnded);
  };
  listen();
  return {
    resume: () => {
      if (source && (source as { readableEnded?: boolean }).readableEnded) {
        markEnded();
      }
      listen();
      return ended ? Promise.resolve() : end;
    },
  };
}

function withDeadline(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
