import { readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AirlockCore } from '../../../../main/core/core.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore, type Recorder } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

const agent = fixtureSpec('terminal');

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { startWith } = useCore({ timeouts: TEST_TIMEOUTS, options: { restartCrashed: false } });

type Call = { method: string; params: Record<string, unknown> };

/** A core with the terminal fixture agent and one ready session of it. */
async function started() {
  const run = await startWith(agent);
  return { ...run, folder: await realpath(run.dir) };
}

/** Has the agent make `calls` in one turn; resolves with what it said of each answer. */
async function turn(
  run: { core: AirlockCore; recorder: Recorder; key: string },
  calls: Call[],
): Promise<string[]> {
  const from = run.recorder.transcript(run.key).length;
  await run.core.invoke('session:prompt', { key: run.key, text: JSON.stringify({ calls }) });
  await run.recorder.event(run.key, 'turn_end', from);
  return run.recorder
    .transcript(run.key)
    .slice(from)
    .flatMap((event) => (event.type === 'chunk' ? [event.text] : []))
    .join('')
    .split('\n')
    .filter(Boolean);
}

/** A command that starts a child in the background and writes both pids to `file`. */
function parentAndChild(file: string): Call {
  return {
    method: 'terminal/create',
    params: {
      command: 'sh',
      args: ['-c', 'sleep 100 & echo $! > "$0"; echo $$ >> "$0"; wait', file],
    },
  };
}

async function pidsIn(file: string): Promise<number[]> {
  let pids: number[] = [];
  await vi.waitFor(
    async () => {
      pids = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
      expect(pids).toHaveLength(2);
    },
    { timeout: 10_000 },
  );
  return pids;
}

describe('terminal requests through the core', () => {
  it("routes each call to the session's terminals, runs in its folder, and notes it in the transcript", async () => {
    const run = await started();
    const said = await turn(run, [
      { method: 'terminal/create', params: { command: 'pwd' } },
      { method: 'terminal/wait_for_exit', params: { terminalId: '$last' } },
      { method: 'terminal/output', params: { terminalId: '$last' } },
      { method: 'terminal/release', params: { terminalId: '$last' } },
      { method: 'terminal/output', params: { terminalId: '$last' } },
    ]);
    expect(said[0]).toMatch(/^terminal\/create=\{"terminalId":"term_[0-9a-f-]+"\}$/);
    expect(said[1]).toBe('terminal/wait_for_exit={"exitCode":0,"signal":null}');
    expect(JSON.parse(said[2]!.replace(/^terminal\/output=/, ''))).toEqual({
      output: `${run.folder}\n`,
      truncated: false,
      exitStatus: { exitCode: 0, signal: null },
    });
    expect(said[3]).toBe('terminal/release={}');
    expect(said[4]).toMatch(/^terminal\/output=error -32602: .*no terminal/);
    const system = run.recorder
      .transcript(run.key)
      .flatMap((event) => (event.type === 'system' ? [event.text] : []));
    expect(system).toEqual([
      `Running: pwd in ${run.folder}`,
      `Ran: pwd in ${run.folder}: exited with code 0`,
    ]);
    expect(run.recorder.dropped).toEqual([]);
  });

  it('refuses a cwd outside the session folder, to the agent and in the transcript', async () => {
    const run = await started();
    const said = await turn(run, [
      { method: 'terminal/create', params: { command: 'pwd', cwd: dirname(run.folder) } },
    ]);
    expect(said).toEqual([
      expect.stringMatching(/^terminal\/create=error -32602: .*outside the session's folder/),
    ]);
    await run.recorder.until(() =>
      run.recorder
        .transcript(run.key)
        .some((event) => event.type === 'system' && event.text.startsWith('Refused to run pwd')),
    );
  });
});

describe('no command outlives', () => {
  it('its agent: a crash stops the terminal and the child it started', async () => {
    const run = await started();
    const file = join(run.dir, 'pids');
    await run.core.invoke('session:prompt', {
      key: run.key,
      text: JSON.stringify({ calls: [parentAndChild(file)], crash: true }),
    });
    const pids = await pidsIn(file);
    await run.recorder.status(run.key, 'exited');
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]), { timeout: 10_000 });
  });

  it("its session: closing the tab stops that tab's terminals, while the agent and its other tab go on", async () => {
    const run = await started();
    const other = await run.ready(agent.name);
    const [closing, staying] = [join(run.dir, 'closing'), join(run.dir, 'staying')];
    await turn(run, [parentAndChild(closing)]);
    await turn({ ...run, key: other }, [parentAndChild(staying)]);
    const [closed, kept] = [await pidsIn(closing), await pidsIn(staying)];
    expect([...closed, ...kept].every(alive)).toBe(true);

    await run.core.invoke('session:close', { key: run.key });
    await vi.waitFor(() => expect(closed.filter(alive)).toEqual([]), { timeout: 10_000 });
    expect(kept.every(alive)).toBe(true);
    expect(run.recorder.summaries.get(other)?.status).toBe('ready');
  });

  it('the app: dispose stops it before it resolves', async () => {
    const run = await started();
    const file = join(run.dir, 'pids');
    await turn(run, [parentAndChild(file)]);
    const pids = await pidsIn(file);
    await run.core.dispose();
    // Already gone: dispose waited for the command, and its output closing means the child
    // holding it had ended too.
    expect(pids.filter(alive)).toEqual([]);
  });
});
