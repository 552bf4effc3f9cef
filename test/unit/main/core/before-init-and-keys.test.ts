/**
 * What the core's constructor sets up, seen from outside: the state a core shows before `init`
 * has read the settings file, and the keys it hands out, shared by tabs and the cards of file
 * writes, which never repeat.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AirlockCore } from '../../../../main/core/core.js';
import { DEMO_WRITE_TEXT } from '../../../../main/demo-agent/files.js';
import type { CallResponse } from '../../../../preload/shared/contract.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { readySession, startCore } from '../../../helpers/core-harness.js';

type State = CallResponse<'app:getState'>;

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

/**
 * A core with the demo agent. Its waits are long: the agent compiles as it starts, which takes
 * more than the usual 10 s on a loaded machine, and nothing here ends by a timeout.
 */
async function started() {
  const run = await startCore();
  run.recorder.deadlineMs = 25_000;
  return run;
}

describe('a core before init', () => {
  it('lists no agents, and opens URL requests in the isolated window by default', async () => {
    const dir = '/nonexistent/airlock-core-ctor';
    core = new AirlockCore({
      settingsPath: join(dir, 'settings.json'),
      logsDir: join(dir, 'logs'),
      demoAgent: demoAgentSpec(),
      defaultCwd: dir,
    });
    const state = (await core.invoke('app:getState', {})) as State;
    expect(state.agents).toEqual([]);
    expect(state.urlElicitation.default).toBe('isolated_window');
    expect(state.sessions).toEqual([]);
  });
});

describe('the keys the core hands out', () => {
  it('give a tab opened after a write card a key of its own', async () => {
    const run = await started();
    core = run.core;
    const { recorder, dir } = run;
    await writeFile(run.settingsPath, JSON.stringify({ ask_before_writes: true }));
    await core.init();
    const first = await readySession(core, recorder, 'Demo Agent', dir);
    await core.invoke('session:prompt', { key: first, text: '/write a.md' });
    // The write card takes a key from the same count as the tabs.
    const card = await recorder.event(first, 'permission');

    const second = await readySession(core, recorder, 'Demo Agent', dir);
    expect(second).not.toBe(first);
    const { sessions } = (await core.invoke('app:getState', {})) as State;
    expect(sessions.map((summary) => summary.key)).toEqual([first, second]);
    // The card still answers in its own tab.
    await core.invoke('permission:respond', {
      key: first,
      promptKey: card.promptKey,
      outcome: { outcome: 'selected', optionId: 'write' },
    });
    await recorder.event(first, 'turn_end');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe(DEMO_WRITE_TEXT);
  });
});
