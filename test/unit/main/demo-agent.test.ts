import { afterEach, describe, expect, it } from 'vitest';
import { replyFor } from '../../../main/demo-agent/script.js';
import type { AirlockCore } from '../../../main/core/core.js';
import { readySession, startCore } from '../../helpers/core-harness.js';

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

describe('a session with the demo agent', () => {
  it('identifies the agent and streams a reply that ends the turn', async () => {
    const started = await startCore();
    core = started.core;
    const key = await readySession(core, started.recorder, 'Demo Agent', started.dir);
    const summary = started.recorder.summaries.get(key)!;
    expect(summary.agent).toMatchObject({
      title: 'Airlock Demo Agent',
      version: '0.1.0',
      protocolVersion: 1,
    });
    expect(summary.modes.map((mode) => mode.id)).toEqual(['ask', 'code']);
    expect(summary.configOptions).toEqual([
      {
        id: 'style',
        name: 'Reply style',
        currentValue: 'plain',
        choices: [
          { value: 'plain', name: 'Plain' },
          { value: 'detailed', name: 'Detailed' },
        ],
      },
    ]);

    await core.invoke('session:prompt', { key, text: 'hello there' });
    const end = await started.recorder.event(key, 'turn_end');
    expect(end.stopReason).toBe('end_turn');
    expect(started.recorder.text(key)).toBe(replyFor('hello there'));
    const chunks = started.recorder
      .transcript(key)
      .filter((event) => event.type === 'chunk' && event.role === 'agent');
    expect(chunks.length).toBeGreaterThan(5);
    // The turn ends after its last update.
    expect(started.recorder.transcript(key).at(-1)?.type).toBe('turn_end');
    expect(started.recorder.summaries.get(key)?.status).toBe('ready');
    expect(started.recorder.summaries.get(key)?.usage?.used).toBe(1000);
  });
});
