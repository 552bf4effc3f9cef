/**
 * One agent cannot reach another agent's tabs: an ACP session id means something only on the
 * connection it came from, so updates and requests are routed by connection and id together.
 * And tabs of one agent that stream at the same time each get only their own turn.
 */
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore, type Recorder } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS });

/** The fixed-session agent under `name`, opening every session as `sessionId`. */
function fixedSession(name: string, sessionId: string): AgentSpec {
  return { ...fixtureSpec('fixed-session', name), env: { SCRIPTED_SESSION_ID: sessionId } };
}

/** Two agents, a tab on each, with the ACP session ids given. */
async function twoAgents(firstId: string, secondId: string) {
  const first = fixedSession('first', firstId);
  const second = fixedSession('second', secondId);
  const started = await start({ agents: [first, second] });
  const { recorder } = started;
  // One after the other, so the first agent's tab is the first the core would find by id.
  const firstKey = await started.ready(first.name);
  const secondKey = await started.ready(second.name);
  return { core: started.core, recorder, firstKey, secondKey };
}

/** One echoed turn as the transcript holds it. */
function turnOf(text: string, reply: string) {
  return [
    { type: 'prompt', text },
    { type: 'chunk', role: 'agent', text: reply },
    { type: 'turn_end', stopReason: 'end_turn' },
  ];
}

/** Waits until `key`'s first turn has ended or anything at all reached `bystander`. */
function turnEndedOrLeaked(recorder: Recorder, key: string, bystander: string) {
  return recorder.until(
    () =>
      recorder.transcript(bystander).length > 0 ||
      recorder.transcript(key).some((event) => event.type === 'turn_end'),
    `the turn in ${key} to end, or an event in ${bystander}`,
  );
}

describe('two agents using the same ACP session id', () => {
  it("keeps each agent's updates in its own tab", async () => {
    const { core, recorder, firstKey, secondKey } = await twoAgents('shared', 'shared');

    await core.invoke('session:prompt', { key: secondKey, text: 'to the second' });
    await recorder.event(secondKey, 'turn_end');
    await core.invoke('session:prompt', { key: firstKey, text: 'to the first' });
    await recorder.event(firstKey, 'turn_end');
    await core.invoke('session:prompt', { key: secondKey, text: 'again' });
    // After the first turn's three events.
    await recorder.event(secondKey, 'turn_end', 3);

    expect(recorder.transcript(firstKey)).toEqual(turnOf('to the first', 'echo: to the first'));
    expect(recorder.transcript(secondKey)).toEqual([
      ...turnOf('to the second', 'echo: to the second'),
      ...turnOf('again', 'echo: again'),
    ]);
  });
});

describe("an agent naming another agent's session", () => {
  it('reaches nothing with session/update', async () => {
    const { core, recorder, firstKey, secondKey } = await twoAgents('alpha', 'beta');
    await core.invoke('session:prompt', { key: secondKey, text: 'update alpha' });
    await turnEndedOrLeaked(recorder, secondKey, firstKey);
    expect(recorder.transcript(firstKey)).toEqual([]);
    expect(recorder.text(secondKey)).toBe('sent an update to alpha');

    // Nor later, when the first agent's own turn runs in that tab.
    await core.invoke('session:prompt', { key: firstKey, text: 'mine' });
    await recorder.event(firstKey, 'turn_end');
    expect(recorder.transcript(firstKey)).toEqual(turnOf('mine', 'echo: mine'));
  });

  it.each([
    { kind: 'permission', method: 'session/request_permission' },
    { kind: 'elicitation', method: 'elicitation/create' },
  ])('is refused $method, and shows no card', async ({ kind }) => {
    const { core, recorder, firstKey, secondKey } = await twoAgents('alpha', 'beta');
    await core.invoke('session:prompt', { key: secondKey, text: `${kind} alpha` });
    await turnEndedOrLeaked(recorder, secondKey, firstKey);
    expect(recorder.transcript(firstKey)).toEqual([]);
    expect(recorder.summaries.get(firstKey)?.pendingCards).toBe(0);
    // -32602: invalid params, the session is not one of this connection's.
    expect(recorder.text(secondKey)).toBe(`${kind} for alpha: error -32602`);
  });
});

describe('tabs of one agent streaming at the same time', () => {
  it('each get their own turns, whole and in order', async () => {
    const agent = fixtureSpec('burst-then-answer');
    const started = await start({ agents: [agent] });
    const { recorder } = started;
    const keys = await Promise.all([0, 1, 2].map(() => started.ready(agent.name)));
    // Each tab's turns say a different number of words, so a word in the wrong tab shows.
    const words = (tab: number, round: number) => 200 + 10 * tab + round;
    const expected = keys.map(() => [] as unknown[]);

    for (const round of [1, 2, 3]) {
      const from = keys.map((key) => recorder.transcript(key).length);
      // All prompts go out before any answer is in.
      await Promise.all(
        keys.map((key, tab) =>
          started.core.invoke('session:prompt', { key, text: String(words(tab, round)) }),
        ),
      );
      await Promise.all(keys.map((key, tab) => recorder.event(key, 'turn_end', from[tab])));
      for (const tab of keys.keys()) {
        const count = words(tab, round);
        expected[tab]!.push(
          { type: 'prompt', text: String(count) },
          {
            type: 'chunk',
            role: 'agent',
            text: Array.from({ length: count }, (_unused, n) => `${n} `).join(''),
          },
          { type: 'turn_end', stopReason: 'end_turn' },
        );
      }
    }
    for (const [tab, key] of keys.entries()) {
      expect(recorder.shown(key)).toEqual(expected[tab]);
    }
  });
});
