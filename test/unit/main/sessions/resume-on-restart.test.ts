/**
 * When a restart tries `session/resume`: only for a tab whose agent exited, only with an agent
 * that offers it, and a resume that fails is said in the log before a new session starts.
 */
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/settings/catalog.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { readySession, type Recorder, startCore } from '../../../helpers/core-harness.js';

const DEMO = demoAgentSpec().name;
/** The demo agent as a user's own agent: no folder to keep sessions in, so no `session/resume`. */
const plainDemo: AgentSpec = { ...demoAgentSpec(), name: 'Plain Demo', builtIn: false };

let core: AirlockCore | undefined;
afterEach(async () => {
  await core?.dispose();
  vi.restoreAllMocks();
});

/** The warnings the core logged about a resume that failed. */
function resumeWarnings(warn: { mock: { calls: unknown[][] } }): string[] {
  return warn.mock.calls
    .map((call) => String(call[0]))
    .filter((line) => line.includes('session/resume'));
}

/** Crashes the tab's agent and restarts it; resolves once the tab is ready again. */
async function crashAndRestart(recorder: Recorder, key: string): Promise<void> {
  await core!.invoke('session:prompt', { key, text: '/crash' });
  await recorder.status(key, 'exited');
  await core!.invoke('session:restart', { key });
  await recorder.status(key, 'ready');
}

/** The tab's system lines, as the user reads them. */
function systemLines(recorder: Recorder, key: string): string[] {
  return recorder.transcript(key).flatMap((event) => (event.type === 'system' ? [event.text] : []));
}

describe('session/resume on a restart', () => {
  it('is not tried for a new tab, nor with an agent that does not offer it', async () => {
    const warn = vi.spyOn(console, 'warn');
    const started = await startCore([plainDemo]);
    core = started.core;
    const { recorder, dir } = started;
    // A first start has no session to resume, though the demo agent offers it, and is no restart.
    const fresh = await readySession(core, recorder, DEMO, dir);
    expect(systemLines(recorder, fresh)).toEqual([]);
    const key = await readySession(core, recorder, plainDemo.name, dir);
    await crashAndRestart(recorder, key);
    expect(systemLines(recorder, key)).toContain('Restarted Plain Demo.');
    expect(resumeWarnings(warn)).toEqual([]);
  });

  it('says in the log why it failed where the agent lost the session, then starts anew', async () => {
    const warn = vi.spyOn(console, 'warn');
    const started = await startCore();
    core = started.core;
    const { recorder, dir, settingsPath } = started;
    const key = await readySession(core, recorder, DEMO, dir);
    // The demo agent keeps its sessions here: without them it cannot resume one.
    await rm(join(dirname(settingsPath), 'demo-agent'), { recursive: true, force: true });
    await crashAndRestart(recorder, key);
    expect(systemLines(recorder, key)).toContain('Restarted Demo Agent.');
    expect(resumeWarnings(warn)).toEqual([
      expect.stringMatching(/^airlock: session\/resume failed: \S/),
    ]);
  });

  it('says the restart went on in the same session, where the agent resumed it', async () => {
    const started = await startCore();
    core = started.core;
    const { recorder, dir } = started;
    const key = await readySession(core, recorder, DEMO, dir);
    await crashAndRestart(recorder, key);
    expect(systemLines(recorder, key)).toContain('Restarted Demo Agent, in the same session.');
  });
});
