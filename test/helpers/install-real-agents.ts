/**
 * `npm run agents:install`: fills the cache of real agents the integration suite runs
 * (see real-agents.ts). Prints what it did for each; a failed install is reported, not fatal,
 * and the suite then skips that agent and says why.
 */
import { agentCacheDir, ensureRealAgent, REAL_AGENTS } from './real-agents.js';

async function main(): Promise<void> {
  console.log(`Real agents for the integration suite, in ${agentCacheDir()}:`);
  for (const agent of Object.values(REAL_AGENTS)) {
    const installed = await ensureRealAgent(agent);
    console.log(
      installed.ok
        ? `  ${agent.pkg}@${agent.version}: ready`
        : `  ${agent.pkg}@${agent.version}: not installed (${installed.reason})`,
    );
  }
}

void main();
