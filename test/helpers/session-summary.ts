/** A tab's summary, for tests that give a host or the renderer one by hand. */
import type { SessionSummary } from '../../preload/shared/contract.js';

/**
 * The summary of a ready tab `s1` of the demo agent in `/work` that offers nothing and has no
 * card waiting, with `fields` over it.
 */
export function sessionSummary(fields: Partial<SessionSummary> = {}): SessionSummary {
  return {
    key: 's1',
    agentName: 'Demo Agent',
    cwd: '/work',
    status: 'ready',
    authMethods: [],
    commands: [],
    modes: [],
    configOptions: [],
    pendingCards: 0,
    ...fields,
  };
}
