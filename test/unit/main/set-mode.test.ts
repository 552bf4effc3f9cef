import { afterEach, describe, expect, it } from 'vitest';
import type { AirlockCore } from '../../../main/core/core.js';
import { fixtureSpec } from '../../helpers/agents.js';
import { readySession, startCore } from '../../helpers/core-harness.js';

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

describe('session:setMode', () => {
  it('sends session/set_mode with the mode id and shows the new mode', async () => {
    const agent = fixtureSpec('modes-echo');
    const started = await startCore([agent], { requestMs: 10_000, cancelGraceMs: 500 });
    core = started.core;
    const { recorder } = started;
    const key = await readySession(core, recorder, agent.name, started.dir);
    expect(recorder.summaries.get(key)?.currentModeId).toBe('code');

    await core.invoke('session:setMode', { key, modeId: 'plan' });
    await recorder.until(
      () => recorder.summaries.get(key)?.currentModeId === 'plan',
      'the summary to show the mode "plan"',
    );

    // The agent says what it received.
    await core.invoke('session:prompt', { key, text: 'which mode?' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toBe(
      'set_mode received: [{"sessionId":"scripted-1","modeId":"plan"}]',
    );
  });
});
