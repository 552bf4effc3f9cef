/** The catalogue's search: which agents of the registry a query finds. */
import type { RegistryAgentView } from '../../../preload/shared/registry-view';

/**
 * Whether `agent` matches every word of `query`, in any case, in its name, id, description or
 * authors; an empty query matches every agent.
 */
export function matches(agent: RegistryAgentView, query: string): boolean {
  const haystack = [agent.name, agent.id, agent.description, ...agent.authors]
    .join('\n')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
