/**
 * PendingCards on its own: every card ends exactly once, by the user's answer or by one of the
 * ends (withdrawn, turn cancelled, tab closed, agent exited), and the count follows. The session
 * tests (permissions, elicitations, turn ends) drive the same class through real agents.
 */
import { describe, expect, it } from 'vitest';
import {
  PendingCards,
  type CardEnd,
  type CardKind,
  type CardResult,
} from '../../../../main/core/cards.js';

/** Cards with a record of every count change, and of what each card showed and settled. */
function cards() {
  const counts: number[] = [];
  const pending = new PendingCards((count) => counts.push(count));
  const log: string[] = [];
  const open = (
    key: string,
    {
      kind = 'permission' as CardKind,
      endsWithTurn = true,
      signal = new AbortController().signal,
      refuse = undefined as CardEnd | undefined,
    } = {},
  ) =>
    pending.wait<string>(
      {
        key,
        kind,
        endsWithTurn,
        signal,
        show: () => log.push(`show ${key}`),
        settle: (result: CardResult<string>) => log.push(`settle ${key} ${JSON.stringify(result)}`),
      },
      refuse,
    );
  return { pending, counts, log, open };
}

/** An abort signal aborted with `reason`, as the SDK aborts a request's. */
function aborted(reason: unknown): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}

describe('a card', () => {
  it('is shown once, counted, and ends with the answer of its kind', async () => {
    const { pending, counts, log, open } = cards();
    const result = open('p1');
    expect(log).toEqual(['show p1']);
    expect(pending.count).toBe(1);
    expect(pending.has('p1', 'permission')).toBe(true);
    expect(pending.has('p1', 'elicitation')).toBe(false);
    expect(pending.has('p2', 'permission')).toBe(false);
    // An answer meant for another kind, or another card, ends nothing.
    expect(pending.answer('p1', 'elicitation', 'no')).toBe(false);
    expect(pending.answer('p2', 'permission', 'no')).toBe(false);
    expect(pending.answer('p1', 'permission', 'yes')).toBe(true);
    await expect(result).resolves.toEqual({ answered: 'yes' });
    expect(pending.answer('p1', 'permission', 'again')).toBe(false);
    expect(log).toEqual(['show p1', 'settle p1 {"answered":"yes"}']);
    expect(counts).toEqual([1, 0]);
    expect(pending.count).toBe(0);
  });

  it('is withdrawn when the agent cancels its request, and ends once', async () => {
    const { pending, counts, log, open } = cards();
    const controller = new AbortController();
    const result = open('p1', { signal: controller.signal });
    controller.abort({ code: -32800, message: 'Request cancelled' });
    await expect(result).resolves.toEqual({ ended: 'withdrawn' });
    expect(pending.answer('p1', 'permission', 'late')).toBe(false);
    expect(log).toEqual(['show p1', 'settle p1 {"ended":"withdrawn"}']);
    expect(counts).toEqual([1, 0]);
  });

  it('ends as the agent exiting when its connection closes', async () => {
    const { open } = cards();
    const controller = new AbortController();
    const result = open('p1', { signal: controller.signal });
    controller.abort(new Error('connection closed'));
    await expect(result).resolves.toEqual({ ended: 'agent_exited' });
  });

  it('stops listening for the abort once answered', async () => {
    const { pending, log, open } = cards();
    const controller = new AbortController();
    const result = open('p1', { signal: controller.signal });
    pending.answer('p1', 'permission', 'yes');
    controller.abort({ code: -32800 });
    await expect(result).resolves.toEqual({ answered: 'yes' });
    expect(log).toEqual(['show p1', 'settle p1 {"answered":"yes"}']);
  });
});

describe('a card that never opens', () => {
  it.each([
    ['withdrawn before it arrived', { code: -32800 }, 'withdrawn'],
    ['cut off with its connection', new Error('closed'), 'agent_exited'],
    ['aborted with no reason object', 'closed', 'agent_exited'],
    ['aborted with a null reason', null, 'agent_exited'],
    ['aborted with another code', { code: -32603 }, 'agent_exited'],
  ] as const)('ends at once, unshown and uncounted, when %s', async (_case, reason, end) => {
    const { pending, counts, log, open } = cards();
    // The signal wins over a refusal: the agent's own end is the truer one.
    await expect(open('p1', { signal: aborted(reason), refuse: 'tab_closed' })).resolves.toEqual({
      ended: end,
    });
    expect(log).toEqual([]);
    expect(counts).toEqual([]);
    expect(pending.count).toBe(0);
  });

  it('ends at once with the refusal given (the tab is closing)', async () => {
    const { log, counts, open } = cards();
    await expect(open('p1', { refuse: 'tab_closed' })).resolves.toEqual({ ended: 'tab_closed' });
    expect(log).toEqual([]);
    expect(counts).toEqual([]);
  });
});

describe('endAll', () => {
  it('ends only the cards about the turn when the turn is cancelled', async () => {
    const { pending, log, open } = cards();
    const turn = open('p1');
    const form = open('e1', { kind: 'elicitation', endsWithTurn: false });
    pending.endAll('turn_cancelled');
    await expect(turn).resolves.toEqual({ ended: 'turn_cancelled' });
    expect(pending.has('e1', 'elicitation')).toBe(true);
    pending.endAll('tab_closed');
    expect(pending.count).toBe(0);
    await expect(form).resolves.toEqual({ ended: 'tab_closed' });
    expect(log.filter((line) => line.startsWith('settle'))).toEqual([
      'settle p1 {"ended":"turn_cancelled"}',
      'settle e1 {"ended":"tab_closed"}',
    ]);
  });

  it('ends a card once, even when it is answered while another card ends', async () => {
    const { pending, log, open } = cards();
    const first = open('p1');
    const second = open('p2');
    // Whatever runs as the first card settles (a listener of the transcript) answers the second.
    const settled = log.push.bind(log);
    log.push = (...lines) => {
      if (lines.some((line) => line.startsWith('settle p1'))) {
        pending.answer('p2', 'permission', 'yes');
      }
      return settled(...lines);
    };
    pending.endAll('tab_closed');
    await expect(Promise.all([first, second])).resolves.toEqual([
      { ended: 'tab_closed' },
      { answered: 'yes' },
    ]);
    expect(log.filter((line) => line.startsWith('settle'))).toEqual([
      'settle p2 {"answered":"yes"}',
      'settle p1 {"ended":"tab_closed"}',
    ]);
  });

  it('ends every card, oldest first, counting down to 0', async () => {
    const { pending, counts, log, open } = cards();
    const results = ['p1', 'p2', 'p3'].map((key) => open(key));
    pending.endAll('agent_exited');
    await expect(Promise.all(results)).resolves.toEqual([
      { ended: 'agent_exited' },
      { ended: 'agent_exited' },
      { ended: 'agent_exited' },
    ]);
    expect(log.filter((line) => line.startsWith('settle'))).toEqual(
      ['p1', 'p2', 'p3'].map((key) => `settle ${key} {"ended":"agent_exited"}`),
    );
    expect(counts).toEqual([1, 2, 3, 2, 1, 0]);
  });
});
