/**
 * Signing in through a terminal inside the app: a `terminal` auth method runs the agent's own
 * command with the method's args (in place of a registry agent's own, after a custom agent's;
 * see terminalLaunchSpec in initialize.ts) and its env added, in a pseudo-terminal in the tab's
 * folder, with the environment the pool started the agent with (registry and settings env,
 * saved values, the login shell's PATH).
 *
 * One per tab. It ends when the user closes it, the tab closes, the agent restarts or the app
 * quits. When it exits with 0, the tab's agent restarts and signs in (sessions/start.ts).
 */
import type { EventPayload } from '../../../preload/shared/contract.js';
import type { AgentPool } from '../agents/pool.js';
import { UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import type { Session } from '../session.js';
import { SignInTerminal, type TerminalFrame } from './terminal.js';

/** What the sign-in terminals need from the core. */
export type SignInTerminalDeps = {
  /** An open tab by its key, or a user-facing error. */
  tab: (key: string) => Session;
  pool: AgentPool;
  /** Settles once agents may start: the login shell's PATH is in place (see options.ts). */
  agentsReady?: Promise<unknown>;
  /** Sends the tab's screen to the UI. */
  emit: (screen: EventPayload<'agent:onDidChangeTerminal'>) => void;
  /** The command of `methodId` exited with 0 in the tab: restart its agent and sign in. */
  signedIn: (session: Session, methodId: string) => void;
};

type Running = { methodId: string; terminal: SignInTerminal };

/** The core's sign-in terminals, one per tab at most. */
export class SignInTerminals {
  private readonly running = new Map<string, Running>();

  constructor(private readonly deps: SignInTerminalDeps) {}

  /** The sign-in terminal's calls. */
  readonly handlers: Handlers<
    | 'agent:startTerminalSignIn'
    | 'agent:terminalInput'
    | 'agent:terminalResize'
    | 'agent:closeTerminalSignIn'
  > = {
    'agent:startTerminalSignIn': async ({ key, methodId, cols, rows, again }) => {
      const session = this.deps.tab(key);
      const current = this.running.get(key);
      // The panel shown again (the user came back to the tab): the same terminal, as it is.
      if (current && current.methodId === methodId && !(again && current.terminal.exited)) {
        current.terminal.resize(cols, rows);
        return this.screen(key, methodId, current.terminal.frame());
      }
      const method = session.summary.authMethods.find((candidate) => candidate.id === methodId);
      if (session.summary.status !== 'auth_required' || method?.kind !== 'terminal') {
        throw new UserFacingError('That sign-in method does not run in a terminal');
      }
      await this.close(key);
      const { agentName, cwd } = session.summary;
      const connection = await this.deps.pool.connectionFor(agentName, cwd);
      // The command as the agent was started (an agent from the registry: worked out by its
      // `prepare`), with the method's args and env (initialize.ts, terminalLaunchSpec).
      const command = connection.terminalLaunches.get(methodId);
      if (!command) {
        throw new UserFacingError(`${agentName} no longer offers “${method.name}”`);
      }
      await this.deps.agentsReady?.catch(() => undefined);
      // The tab may have closed meanwhile: then nothing starts.
      this.deps.tab(key);
      let terminal: SignInTerminal;
      try {
        terminal = new SignInTerminal(
          {
            command: command.command,
            args: command.args,
            env: { ...inherited(), ...command.env },
            cwd,
            cols,
            rows,
          },
          (frame) => {
            if (this.running.get(key)?.terminal === terminal) {
              this.deps.emit(this.screen(key, methodId, frame));
            }
          },
        );
      } catch (error) {
        throw new UserFacingError(
          `The sign-in command of ${agentName} could not start`,
          (error as Error).message,
        );
      }
      // A start of another method that ran meanwhile gives way: one terminal per tab.
      void this.running.get(key)?.terminal.close();
      this.running.set(key, { methodId, terminal });
      void terminal.ended.then(({ code }) => {
        if (code === 0 && this.running.get(key)?.terminal === terminal) {
          this.running.delete(key);
          this.deps.signedIn(session, methodId);
        }
      });
      return this.screen(key, methodId, terminal.frame());
    },
    'agent:terminalInput': async ({ key, data }) => {
      this.open(key).input(data);
      return {};
    },
    'agent:terminalResize': async ({ key, cols, rows }) => {
      this.open(key).resize(cols, rows);
      return {};
    },
    'agent:closeTerminalSignIn': async ({ key }) => {
      this.deps.tab(key);
      await this.close(key);
      return {};
    },
  };

  /**
   * Ends the tab's sign-in terminal, if it has one (the tab closed, its agent restarts).
   * Resolves once its command has ended.
   */
  async close(key: string): Promise<void> {
    const current = this.running.get(key);
    if (current) {
      this.running.delete(key);
      await current.terminal.close();
    }
  }

  /** Ends every sign-in terminal (the app quits); resolves once their commands have ended. */
  async dispose(): Promise<void> {
    await Promise.all([...this.running.keys()].map((key) => this.close(key)));
  }

  /** The tab's sign-in terminal, or a user-facing error. */
  private open(key: string): SignInTerminal {
    this.deps.tab(key);
    const current = this.running.get(key);
    if (!current) {
      throw new UserFacingError('No sign-in terminal is open in this tab');
    }
    return current.terminal;
  }

  private screen(
    key: string,
    methodId: string,
    frame: TerminalFrame,
  ): EventPayload<'agent:onDidChangeTerminal'> {
    return { key, methodId, ...frame };
  }
}

/** Airlock's own environment (with the login shell's PATH), its unset entries left out. */
function inherited(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
}
