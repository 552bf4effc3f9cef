/**
 * When an agent process ends that Airlock did not stop (it crashed, was killed, or broke the
 * protocol), its tabs heal by themselves: the agent is started again and each tab resumes its
 * session, as a person would by pressing Restart in every tab.
 *
 * Like a language server in VS Code, it is restarted at once the first time, then after a
 * growing wait, and at most {@link MAX_RESTARTS} times in {@link RESTART_WINDOW_MS}: an agent
 * that keeps crashing is left stopped, and its tabs say so (their Restart tries again).
 */
import type { Session } from '../session.js';

/** The most restarts Airlock makes by itself within {@link RESTART_WINDOW_MS}. */
export const MAX_RESTARTS = 3;
/** The window the restarts are counted in: 3 minutes. */
export const RESTART_WINDOW_MS = 3 * 60_000;
/** The wait before the second restart in the window; it doubles each time after. */
export const FIRST_BACKOFF_MS = 1_000;

/** What recovery does to tabs; the core's session starts do it. */
export type RecoveryDeps = {
  /** Starts `tabs` again on a new process of their agent, resuming their sessions. */
  restart(tabs: Session[]): void;
  /** Says in each tab that Airlock restarts its agent after `delayMs` (0: now). */
  restarting(tabs: Session[], delayMs: number): void;
  /** Says in each tab that Airlock stopped restarting its agent, and why. */
  gaveUp(tabs: Session[], why: string): void;
  /** The time now, in ms; `Date.now` unless a test says. */
  now?: () => number;
};

/** Restarts crashed agents for their tabs, within the budget. One per core. */
export class CrashRecovery {
  /** When each agent was restarted by recovery, oldest first, within the window. */
  private readonly restarts = new Map<string, number[]>();
  /** The waits before a restart, to clear when the core goes. */
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: RecoveryDeps) {}

  /**
   * `agentName`'s process ended by itself while `tabs` ran on it: restarts it for them, at
   * once or after the backoff, or gives up when it crashed too often.
   */
  crashed(agentName: string, tabs: Session[]): void {
    if (tabs.length === 0) {
      return;
    }
    const now = (this.deps.now ?? Date.now)();
    const recent = (this.restarts.get(agentName) ?? []).filter(
      (at) => now - at < RESTART_WINDOW_MS,
    );
    if (recent.length >= MAX_RESTARTS) {
      this.restarts.set(agentName, recent);
      this.deps.gaveUp(
        tabs,
        `${agentName} stopped unexpectedly ${recent.length + 1} times in ${RESTART_WINDOW_MS / 60_000} minutes, so Airlock stopped restarting it. Restart tries again.`,
      );
      return;
    }
    const delayMs = recent.length === 0 ? 0 : FIRST_BACKOFF_MS * 2 ** (recent.length - 1);
    this.restarts.set(agentName, [...recent, now + delayMs]);
    this.deps.restarting(tabs, delayMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // A tab closed, or restarted by the user, meanwhile is left as it is.
      const waiting = tabs.filter((tab) => tab.summary.status === 'exited');
      if (waiting.length > 0) {
        this.deps.restart(waiting);
      }
    }, delayMs);
    this.timers.add(timer);
  }

  /** The user restarted `agentName` themselves: its count starts again. */
  forget(agentName: string): void {
    this.restarts.delete(agentName);
  }

  /** Cancels every restart still waiting. */
  dispose(): void {
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }
}
