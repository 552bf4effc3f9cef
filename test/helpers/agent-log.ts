/** Waiting on what an agent fixture writes to its log. */
import { expect } from 'vitest';
import type { AirlockCore } from '../../main/core/core.js';
import { DEFAULT_DEADLINE_MS } from './core-harness.js';

/**
 * Waits until the agent's log (its stderr, as the UI reads it) contains `text`: an agent
 * fixture says there what it has received. Fails after 10 s, showing the log.
 */
export async function agentLogContains(
  core: AirlockCore,
  agentName: string,
  text: string,
): Promise<void> {
  await expect
    .poll(
      async () => ((await core.invoke('agent:readLog', { agentName })) as { text: string }).text,
      { timeout: DEFAULT_DEADLINE_MS },
    )
    .toContain(text);
}
