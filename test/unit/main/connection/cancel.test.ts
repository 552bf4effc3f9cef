import { describe, expect, it } from 'vitest';
import type { ConnectionTimeouts } from '../../../../main/core/agent-connection.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { useCore } from '../../../helpers/core-harness.js';

const { start } = useCore();

async function promptingSession(agentName: string, timeouts: ConnectionTimeouts, text: string) {
  const agents =
    agentName === 'Demo Agent' ? [] : [fixtureSpec(agentName.replace(/^fixture-/, ''))];
  const started = await start({ agents, timeouts });
  const key = await started.ready(agentName);
  await started.core.invoke('session:prompt', { key, text });
  await started.recorder.event(key, 'chunk');
  return { ...started, key };
}

describe('cancelling a turn', () => {
  it('ends the turn with the agent confirming it as cancelled', async () => {
    // The grace period is long, so only the agent's own answer can end the turn in time.
    const { core, recorder, key } = await promptingSession(
      'Demo Agent',
      { requestMs: 10_000, cancelGraceMs: 25_000 },
      '/long 100000',
    );
    expect(recorder.summaries.get(key)?.status).toBe('prompting');
    await expect(core.invoke('session:prompt', { key, text: 'more' })).rejects.toThrow(
      'The agent is still answering; cancel the turn first',
    );

    await core.invoke('session:cancel', { key });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('cancelled');
    expect(recorder.transcript(key).some((event) => event.type === 'system')).toBe(false);
    expect((await recorder.status(key, 'ready')).status).toBe('ready');
    // Far less than the 100 MB asked for was streamed.
    expect(recorder.text(key).length).toBeLessThan(50_000_000);
  });

  it('ends the turn itself after the grace period when the agent ignores session/cancel', async () => {
    const { core, recorder, key } = await promptingSession(
      'fixture-never-answer-prompt',
      { requestMs: 10_000, cancelGraceMs: 500 },
      'go',
    );
    expect(recorder.text(key)).toBe('working on it');

    const cancelledAt = Date.now();
    await core.invoke('session:cancel', { key });
    const end = await recorder.event(key, 'turn_end');
    expect(Date.now() - cancelledAt).toBeGreaterThanOrEqual(450);
    expect(end.stopReason).toBe('cancelled');
    expect(recorder.transcript(key).at(-1)).toEqual({
      type: 'system',
      text: 'The agent did not confirm the cancel in time; the turn was ended.',
    });
    expect((await recorder.status(key, 'ready')).status).toBe('ready');

    // The session is usable again (this agent never answers, so the next turn runs too).
    const before = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: 'again' });
    expect((await recorder.event(key, 'chunk', before)).text).toBe('working on it');
  });

  it('does nothing when no turn is running', async () => {
    const started = await start({ timeouts: { requestMs: 10_000, cancelGraceMs: 500 } });
    const key = await started.ready('Demo Agent');
    await started.core.invoke('session:cancel', { key });
    expect(started.recorder.transcript(key)).toEqual([]);
    expect(started.recorder.summaries.get(key)?.status).toBe('ready');
  });
});
