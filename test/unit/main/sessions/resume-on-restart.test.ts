/**
 * When a restart tries `session/resume`: only for a tab whose agent exited, only with an agent
 * that offers it, and a resume that fails is said in the log before a new session starts.
 */
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { useCore, type CoreRun, type Recorder } from '../../../helpers/core-harness.js';
import { LOST_SESSION } from '../../../../main/core/sessions/start.js';

/** The demo agent as a user's own agent: no folder to keep sessions in, so no `session/resume`. */
const plainDemo: AgentSpec = { ...demoAgentSpec(), name: 'Plain Demo', builtIn: false };

// Registered before the core's disposal, so it runs after it.
afterEach(() => {
  vi.restoreAllMocks();
});
// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start } = useCore({ options: { restartCrashed: false } });

/** The warnings the core logged about a resume that failed. */
function resumeWarnings(warn: { mock: { calls: unknown[][] } }): string[] {
  return warn.mock.calls
    .map((call) => String(call[0]))
    .filter((line) => line.includes('session/resume'));
}

/** Crashes the tab's agent and restarts it; resolves once the tab is ready again. */
async function crashAndRestart(run: CoreRun, key: string): Promise<void> {
  await run.call('session:prompt', { key, text: '/crash' });
  await run.recorder.status(key, 'exited');
  await run.call('session:restart', { key });
  await run.recorder.status(key, 'ready');
}

/** The tab's system lines, as the user reads them. */
function systemLines(recorder: Recorder, key: string): string[] {
  return recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));
}

describe('session/resume on a restart', () => {
  it('is not tried for a new tab, nor with an agent that does not offer it', async () => {
    const warn = vi.spyOn(console, 'warn');
    const started = await start({ agents: [plainDemo] });
    const { recorder } = started;
    // A first start has no session to resume, though the demo agent offers it, and is no restart.
    const fresh = await started.ready();
    expect(systemLines(recorder, fresh)).toEqual([]);
    const key = await started.ready(plainDemo.name);
    await crashAndRestart(started, key);
    expect(systemLines(recorder, key)).toContain(
      `Restarted Plain Demo in a new session. ${LOST_SESSION}`,
    );
    expect(resumeWarnings(warn)).toEqual([]);
  });

  it('says in the log why it failed where the agent lost the session, then starts anew', async () => {
    const warn = vi.spyOn(console, 'warn');
    const started = await start();
    const { recorder, settingsPath } = started;
    const key = await started.ready();
    // The demo agent keeps its sessions here: without them it cannot resume one.
    await rm(join(dirname(settingsPath), 'demo-agent'), { recursive: true, force: true });
    await crashAndRestart(started, key);
    expect(systemLines(recorder, key)).toContain(
      `Restarted Demo Agent in a new session. ${LOST_SESSION}`,
    );
    expect(resumeWarnings(warn)).toEqual([
      expect.stringMatching(/^airlock: session\/resume failed: \S/),
    ]);
  });

  it('says the restart went on in the same session, where the agent resumed it', async () => {
    const started = await start();
    const { recorder } = started;
    const key = await started.ready();
    await crashAndRestart(started, key);
    expect(systemLines(recorder, key)).toContain('Restarted Demo Agent, in the same session.');
  });
});
