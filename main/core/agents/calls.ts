/**
 * An agent's own calls, apart from any tab: forgetting the sign-in values saved for it, and
 * reading the end of its log.
 */
import { open } from 'node:fs/promises';
import { agentLogPath } from '../agent-connection.js';
import { UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import type { SecretStore } from '../secrets.js';
import type { AgentCatalog } from '../settings/catalog.js';

/** How much of the end of an agent's log `agent:readLog` gives. */
const LOG_TAIL_BYTES = 64 * 1024;

/** What the agent calls need from the core. */
export type AgentCallDeps = {
  catalog: () => AgentCatalog;
  secrets: SecretStore;
  logsDir: string;
};

/** The agent calls' handlers (`agent:forgetSecrets`, `agent:readLog`). */
export function agentHandlers(
  deps: AgentCallDeps,
): Handlers<'agent:forgetSecrets' | 'agent:readLog'> {
  const known = (agentName: string) => {
    if (!deps.catalog().agents.some((agent) => agent.name === agentName)) {
      throw new UserFacingError(`No agent named "${agentName}"`);
    }
  };
  return {
    'agent:forgetSecrets': async ({ agentName }) => {
      known(agentName);
      await deps.secrets.forget(agentName);
      return {};
    },
    'agent:readLog': async ({ agentName }) => {
      known(agentName);
      const path = agentLogPath(deps.logsDir, agentName);
      return { path, text: await readTail(path, LOG_TAIL_BYTES) };
    },
  };
}

/** The last `bytes` of the file at `path`; empty when there is none. */
async function readTail(path: string, bytes: number): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
