/**
 * The end of a URL card when its agent dies, in the core with a real scripted agent killed from
 * outside: a card waiting for its page ends as `agent_exited`; a card still asking consent has
 * no page to wait for, and closes as a card, as a form would.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { startWith } = useCore({ timeouts: TEST_TIMEOUTS, options: { restartCrashed: false } });

type UrlCard = Extract<TranscriptEvent, { type: 'url_elicitation' }>;

const signIn = (elicitationId: string) => ({
  sessionId: '$SESSION',
  mode: 'url',
  elicitationId,
  url: `https://github.com/login/oauth/authorize?x=${elicitationId}`,
  message: 'Please sign in.',
});

/** The agent's pid, once it has started. */
async function pidOf(pidFile: string): Promise<number> {
  await expect
    .poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', { timeout: 10_000 })
    .toBe(true);
  return Number(readFileSync(pidFile, 'utf8'));
}

describe('an agent that dies with URL cards open', () => {
  it('ends the card waiting for its page as agent_exited, and closes the one asking consent', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
    const agent = { ...fixtureSpec('elicit'), env: { SCRIPTED_PID_FILE: pidFile } };
    const openUrl = vi.fn(async () => undefined);
    const { core, recorder, key } = await startWith(agent, { options: { openUrl } });

    // Both asked at once; the agent waits for both answers, so it is mid-turn when it dies.
    await core.invoke('session:prompt', {
      key,
      text: JSON.stringify([signIn('opened'), signIn('unopened')]),
    });
    await recorder.until(
      () =>
        recorder.transcript(key).filter((event) => event.type === 'url_elicitation').length === 2,
      'two URL cards',
    );
    const [opened, unopened] = recorder
      .transcript(key)
      .filter((event): event is UrlCard => event.type === 'url_elicitation');
    // Consent given: the opened card is answered, and waits for its page.
    await core.invoke('elicitation:openUrl', { key, cardKey: opened!.cardKey, where: 'window' });
    expect(openUrl).toHaveBeenCalledTimes(1);
    await recorder.until(
      () => recorder.summaries.get(key)?.pendingCards === 1,
      'the opened card to be answered',
    );

    const from = recorder.transcript(key).length;
    process.kill(await pidOf(pidFile), 'SIGKILL');
    await recorder.status(key, 'exited');
    expect(await recorder.event(key, 'elicitation_resolved', from)).toEqual({
      type: 'elicitation_resolved',
      cardKey: unopened!.cardKey,
      action: 'cancel',
      ended: 'agent_exited',
    });
    // Only the opened card waited for a page; the other never got as far.
    expect(
      recorder.transcript(key).filter((event) => event.type === 'url_elicitation_done'),
    ).toEqual([{ type: 'url_elicitation_done', cardKey: opened!.cardKey, how: 'agent_exited' }]);
    expect(recorder.summaries.get(key)?.pendingCards).toBe(0);
  });
});
