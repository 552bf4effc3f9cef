/**
 * The settings view's Test results, kept while the page lives: leaving the view and coming
 * back shows them again, and a test still running when the view closed lands here all the same.
 *
 * A result holds for the agent's settings as they were when it ran: once they change (in the
 * view or by hand), it is not shown any more. A secret's new value does not show in the
 * settings the page sees (it stays masked), so a result survives that change only.
 */
import type { AgentSettingsView, AgentTestReport } from '../../../preload/shared/contract';

/** A test of an agent: running, or what it found, or why it could not be asked. */
export type AgentTest =
  { busy: true } | { busy: false; report: AgentTestReport } | { busy: false; error: string };

/** What identifies an agent's settings, for telling that they changed. */
function settingsOf(agent: AgentSettingsView): string {
  return JSON.stringify(agent);
}

/** The results, by agent name. */
export class AgentTests {
  private readonly tests = new Map<string, { settings: string; test: AgentTest }>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  /** The test of `agent` as its settings are now, if there is one. */
  get(agent: AgentSettingsView): AgentTest | undefined {
    const entry = this.tests.get(agent.name);
    return entry?.settings === settingsOf(agent) ? entry.test : undefined;
  }

  /** Records a test of `agent` (as its settings were when it started). */
  set(agent: AgentSettingsView, test: AgentTest): void {
    this.tests.set(agent.name, { settings: settingsOf(agent), test });
    this.version += 1;
    for (const listener of this.listeners) {
      listener();
    }
  }

  /** For `useSyncExternalStore`: subscribes to every change. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** For `useSyncExternalStore`: changes whenever a result does. */
  readonly snapshot = (): number => this.version;
}

/** The page's results. */
export const agentTests = new AgentTests();
