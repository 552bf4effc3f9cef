/** Scripted agents that say their process id, for tests about which process a tab runs on. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AgentSpec } from '../../main/core/agents/spec.js';
import { fixtureSpec } from './agents.js';
import { DEFAULT_DEADLINE_MS, type CoreRun } from './core-harness.js';

/** A scripted agent playing `scenario` that writes its pid to a file of its own at each start. */
export async function withPid(
  scenario: string,
  name: string,
  env: Record<string, string> = {},
): Promise<AgentSpec & { pidFile: string }> {
  const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), `${name}.pid`);
  return { ...fixtureSpec(scenario, name), env: { ...env, SCRIPTED_PID_FILE: pidFile }, pidFile };
}

/** The pid the agent last wrote, once there is one other than `not` (an earlier process's). */
export async function pidOf(pidFile: string, not?: number): Promise<number> {
  const read = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8') || 0) : 0);
  await expect
    .poll(() => read() !== 0 && read() !== not, { timeout: DEFAULT_DEADLINE_MS })
    .toBe(true);
  return read();
}

/** Opens a tab of `agent` in `run`'s folder; resolves, while it starts, with its key and the pid. */
export async function tabStarting(
  run: CoreRun,
  agent: { name: string; pidFile: string },
): Promise<{ key: string; pid: number }> {
  const key = await run.create(agent.name);
  return { key, pid: await pidOf(agent.pidFile) };
}
