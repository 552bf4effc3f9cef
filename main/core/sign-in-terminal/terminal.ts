/**
 * One sign-in terminal: a command in a pseudo-terminal, its screen (screen.ts), and what it
 * tells the UI, at most every {@link FRAME_MS} ms.
 *
 * Ending it is hard to refuse: closing the pseudo-terminal hangs up on the command (SIGHUP), and
 * one still there after {@link KILL_GRACE_MS} gets SIGKILL, with its process group.
 */
import type * as NodePty from '@lydell/node-pty';
import type { IPty } from '@lydell/node-pty';
import { onFirstUse } from '../on-first-use.js';
import { TerminalScreenModel, type ScreenView } from './screen.js';

/** The pseudo-terminal library (native), loaded with the first sign-in terminal. */
const nodePty = onFirstUse<typeof NodePty>('@lydell/node-pty');

/** The shortest time between two screens sent to the UI. */
export const FRAME_MS = 30;
/** How long a command hung up on may take to end before it is killed. */
export const KILL_GRACE_MS = 2_000;

/** What a sign-in terminal runs. */
export type TerminalCommand = {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  cols: number;
  rows: number;
};

/** The screen with how the command ended, once it has. */
export type TerminalFrame = ScreenView & { exited?: { code: number | null } };

/** A command running in a pseudo-terminal, and its screen. */
export class SignInTerminal {
  private readonly pty: IPty;
  private readonly screen: TerminalScreenModel;
  private exitCode: { code: number | null } | undefined;
  private frameTimer: NodeJS.Timeout | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private lastFrame = 0;
  private closed = false;
  /** Settles once the command has ended and its last screen has been sent. */
  readonly ended: Promise<{ code: number | null }>;

  /**
   * Starts `command`; throws when it cannot start (no such program, say).
   * @param onFrame receives each screen to send, the last one with `exited`.
   */
  constructor(
    command: TerminalCommand,
    private readonly onFrame: (frame: TerminalFrame) => void,
  ) {
    this.screen = new TerminalScreenModel(command.cols, command.rows);
    this.pty = nodePty().spawn(command.command, command.args, {
      name: 'xterm-256color',
      cols: command.cols,
      rows: command.rows,
      cwd: command.cwd,
      env: { ...command.env, TERM: 'xterm-256color' },
    });
    this.pty.onData((data) => {
      if (!this.closed) {
        this.screen.write(data, () => this.scheduleFrame());
      }
    });
    this.ended = new Promise((resolve) => {
      this.pty.onExit(({ exitCode, signal }) => {
        clearTimeout(this.killTimer);
        const exited = { code: signal ? null : exitCode };
        // The emulator takes in what came before the exit, then the last screen goes out.
        this.screen.write('', () => {
          this.exitCode = exited;
          this.sendFrame();
          resolve(exited);
        });
      });
    });
  }

  /** How the command ended, once it has. */
  get exited(): { code: number | null } | undefined {
    return this.exitCode;
  }

  /** The screen now. */
  frame(): TerminalFrame {
    return { ...this.screen.view(), ...(this.exitCode ? { exited: this.exitCode } : {}) };
  }

  /** Types `data` into the command (a key's bytes, a paste). */
  input(data: string): void {
    if (!this.exitCode && !this.closed) {
      this.pty.write(data);
    }
  }

  /** Resizes the screen and tells the command (SIGWINCH). */
  resize(cols: number, rows: number): void {
    if (this.closed) {
      return;
    }
    this.screen.resize(cols, rows);
    if (!this.exitCode) {
      try {
        this.pty.resize(cols, rows);
      } catch {
        // The command ended and its exit is on its way: there is nothing left to tell.
      }
    }
    this.scheduleFrame();
  }

  /**
   * Ends the command if it still runs (SIGHUP, then SIGKILL after {@link KILL_GRACE_MS}) and
   * sends no more screens. Resolves once it has ended.
   */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      clearTimeout(this.frameTimer);
      if (!this.exitCode) {
        this.signal('SIGHUP');
        this.killTimer = setTimeout(() => this.signal('SIGKILL'), KILL_GRACE_MS);
      }
    }
    await this.ended;
    this.screen.dispose();
  }

  /** Signals the command's process group (its children too), else the command alone. */
  private signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pty.pid, signal);
    } catch {
      try {
        this.pty.kill(signal);
      } catch {
        // Gone already.
      }
    }
  }

  private scheduleFrame(): void {
    if (this.frameTimer || this.closed) {
      return;
    }
    const wait = Math.max(0, this.lastFrame + FRAME_MS - Date.now());
    this.frameTimer = setTimeout(() => this.sendFrame(), wait);
  }

  private sendFrame(): void {
    clearTimeout(this.frameTimer);
    this.frameTimer = undefined;
    if (this.closed) {
      return;
    }
    this.lastFrame = Date.now();
    this.onFrame(this.frame());
  }
}
