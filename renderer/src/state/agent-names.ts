/**
 * The name the UI shows for an agent: its `label` (the ACP registry's name of an agent from the
 * registry, "Claude Agent" for `claude-acp`), else its `name`, which stays the agent's key in
 * every call and every lookup. The store keeps the agent list here as it changes, so views that
 * hold only a session's `agentName` can show the agent by the name people know it by.
 */
import { useSyncExternalStore } from 'react';
import type { AgentEntry } from '../../../preload/shared/contract';

/** The shown name of agent entry `agent` (or one of the settings view's, which has the same fields). */
export function shownName(agent: Pick<AgentEntry, 'name' | 'label'>): string {
  return agent.label ?? agent.name;
}

/** The agents' shown names, by name, as the store last had them. */
class AgentNames {
  private labels = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  /** Takes the agent list anew (the store calls this with each one it gets). */
  set(agents: readonly AgentEntry[]): void {
    const labels = new Map(
      agents.flatMap((agent) => (agent.label === undefined ? [] : [[agent.name, agent.label]])),
    );
    if (
      labels.size === this.labels.size &&
      [...labels].every(([k, v]) => this.labels.get(k) === v)
    ) {
      return;
    }
    this.labels = labels;
    this.version += 1;
    for (const listener of this.listeners) {
      listener();
    }
  }

  /** The name the UI shows for the agent named `name`: its label, else `name` itself. */
  of(name: string): string {
    return this.labels.get(name) ?? name;
  }

  /** For `useSyncExternalStore`: subscribes to every change. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** For `useSyncExternalStore`: changes whenever a shown name does. */
  readonly snapshot = (): number => this.version;
}

/** The one list of shown names of the page. */
export const agentNames = new AgentNames();

/** The name the UI shows for agent `name`, drawn again when it changes. */
export function useShownAgentName(name: string): string {
  useSyncExternalStore(agentNames.subscribe, agentNames.snapshot);
  return agentNames.of(name);
}

/** Agent `name` as the UI shows it, as an element that follows its changes. */
export function ShownAgentName({ name }: { name: string }) {
  return useShownAgentName(name);
}
