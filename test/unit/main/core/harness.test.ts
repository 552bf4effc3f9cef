/**
 * The core harness's waits fail on their own, saying what they waited for, rather than as a
 * bare test timeout: a regression a test catches should say what never came.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AirlockCore } from '../../../../main/core/core.js';
import { DEFAULT_DEADLINE_MS, deadline, startCore } from '../../../helpers/core-harness.js';

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

async function quickRecorder() {
  const started = await startCore();
  core = started.core;
  started.recorder.deadlineMs = 100;
  return started.recorder;
}

describe('a wait that never comes true', () => {
  it('has a deadline of 10 s by default', async () => {
    const started = await startCore();
    core = started.core;
    const recorder = started.recorder;
    expect(recorder.deadlineMs).toBe(10_000);
    expect(DEFAULT_DEADLINE_MS).toBe(10_000);
  });

  it('fails after its deadline, with its description', async () => {
    const recorder = await quickRecorder();
    await expect(recorder.until(() => false, 'the moon')).rejects.toThrow(
      'Waited 0.1 s for the moon',
    );
    await expect(
      recorder.until(
        () => false,
        () => 'a description made late',
        50,
      ),
    ).rejects.toThrow('Waited 0.05 s for a description made late');
    await expect(recorder.until(() => true, 'what is true already')).resolves.toBeUndefined();
  });

  it('describes itself when it waits for a status or an event', async () => {
    const recorder = await quickRecorder();
    await expect(recorder.status('s9', 'ready', 'failed')).rejects.toThrow(
      'Waited 0.1 s for session s9 to be ready or failed; it is never reported',
    );
    await expect(recorder.event('s9', 'turn_end', 2)).rejects.toThrow(
      'Waited 0.1 s for a "turn_end" event in session s9 from index 2; its events since: none',
    );
  });

  it('bounds any promise the same way', async () => {
    await expect(deadline(new Promise(() => undefined), 'nothing', 50)).rejects.toThrow(
      'Waited 0.05 s for nothing',
    );
    await expect(deadline(Promise.resolve(7), 'a number', 50)).resolves.toBe(7);
  });
});
