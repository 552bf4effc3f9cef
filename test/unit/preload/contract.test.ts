/**
 * The contract's own parts that no host test reaches one by one (preload/shared/contract.ts): the
 * shape of Airlock's keys, the waiting-card fragment, the channel checks and the bounds on an
 * accepted form's content. Each sends the bad payload through the contract's own parser.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentEntry,
  AgentIdentity,
  calls,
  CardEnd,
  CardKey,
  ElicitationAction,
  ElicitationContent,
  EnvVarName,
  events,
  isCallChannel,
  isEventChannel,
  PromptKey,
  SessionKey,
  TranscriptEvent,
  waitingFragment,
  waitingInFragment,
} from '../../../preload/shared/contract.js';

describe('the keys Airlock makes', () => {
  it.each([
    ['SessionKey', SessionKey, 's'],
    ['PromptKey', PromptKey, 'p'],
    ['CardKey', CardKey, 'e'],
  ] as const)('%s takes its letter and 1 to 32 digits or small letters', (_name, key, letter) => {
    for (const good of [`${letter}0`, `${letter}9az`, `${letter}${'z'.repeat(32)}`]) {
      expect(key.safeParse(good).success, good).toBe(true);
    }
    for (const bad of [
      letter,
      `${letter}${'a'.repeat(33)}`,
      `${letter}A`,
      `${letter}-1`,
      `x${letter}1`,
      `${letter}1\n`,
      `${letter}1 `,
      letter === 's' ? 'p1' : 's1',
    ]) {
      expect(key.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('takes a POSIX portable variable name of at most 200 characters', () => {
    for (const good of ['A', '_', 'a_1', `A${'b'.repeat(199)}`]) {
      expect(EnvVarName.safeParse(good).success, good).toBe(true);
    }
    for (const bad of ['', '1A', 'A-B', 'A B', 'É', `A${'b'.repeat(200)}`, 'A\n', ' A']) {
      expect(EnvVarName.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the waiting-card fragment', () => {
  it('names a session key and reads it back, with or without the #', () => {
    expect(waitingFragment('s1a')).toBe('waiting=s1a');
    expect(waitingInFragment('#waiting=s1a')).toBe('s1a');
    expect(waitingInFragment('waiting=s1a')).toBe('s1a');
  });

  it('refuses to name anything but a session key', () => {
    expect(() => waitingFragment('s1&x=<b>')).toThrow();
  });

  it.each([
    '',
    '#',
    '#waiting=',
    '#waiting=p1',
    '#waiting=s1&x',
    '#waiting=s1\nx',
    '#xwaiting=s1',
    '##waiting=s1',
  ])('reads no session from %j', (hash) => {
    expect(waitingInFragment(hash)).toBeUndefined();
  });
});

describe('the channel checks', () => {
  it('know every call and event of the contract, and nothing else', () => {
    for (const channel of Object.keys(calls)) {
      expect(isCallChannel(channel), channel).toBe(true);
      expect(isEventChannel(channel), channel).toBe(false);
    }
    for (const channel of Object.keys(events)) {
      expect(isEventChannel(channel), channel).toBe(true);
      expect(isCallChannel(channel), channel).toBe(false);
    }
    for (const other of ['toString', '__proto__', 'constructor', '', 'app:getstate']) {
      expect(isCallChannel(other), other).toBe(false);
      expect(isEventChannel(other), other).toBe(false);
    }
  });

  it('refuse a value that is not a string', () => {
    const named = { toString: () => 'app:getState' };
    expect(isCallChannel(named)).toBe(false);
    expect(isEventChannel({ toString: () => 'session:onDidChange' })).toBe(false);
    expect(isCallChannel(['app:getState'])).toBe(false);
  });
});

describe('ElicitationContent', () => {
  it('takes each kind of answer value, up to its bounds', () => {
    const content = {
      ['k'.repeat(1000)]: 's'.repeat(100_000),
      n: 2.5,
      b: false,
      list: Array.from({ length: 1000 }, () => 'x'.repeat(10_000)),
    };
    expect(ElicitationContent.safeParse(content).success).toBe(true);
  });

  it.each([
    ['a long name', { ['k'.repeat(1001)]: 'x' }],
    ['a long text', { k: 's'.repeat(100_001) }],
    ['a long list', { k: Array.from({ length: 1001 }, () => 'x') }],
    ['a long item', { k: ['x'.repeat(10_001)] }],
    ['a null', { k: null }],
    ['an object', { k: { nested: 'x' } }],
    ['a list of numbers', { k: [1] }],
  ])('refuses %s', (_name, content) => {
    expect(ElicitationContent.safeParse(content).success).toBe(false);
  });
});

describe('the shared bounds and choices', () => {
  it('bounds an agent name, a short text and a long one', () => {
    const entry = { name: 'Demo Agent', commandLine: 'demo', builtIn: true };
    expect(AgentEntry.parse(entry)).toEqual(entry);
    expect(AgentEntry.safeParse({ ...entry, name: 'n'.repeat(200) }).success).toBe(true);
    expect(AgentEntry.safeParse({ ...entry, name: 'n'.repeat(201) }).success).toBe(false);
    expect(AgentEntry.safeParse({ ...entry, name: '' }).success).toBe(false);
    expect(AgentEntry.safeParse({ ...entry, commandLine: 'c'.repeat(10_001) }).success).toBe(false);
    expect(TranscriptEvent.safeParse({ type: 'prompt', text: 'hi' }).success).toBe(true);
    expect(TranscriptEvent.safeParse({ type: 'prompt', text: 't'.repeat(1_000_001) }).success).toBe(
      false,
    );
  });

  it('keeps who the agent says it is', () => {
    const identity = {
      configName: 'Demo Agent',
      name: 'demo',
      title: 'Demo',
      version: '1.0.0',
      protocolVersion: 1,
      commandLine: 'demo --acp',
    };
    expect(AgentIdentity.parse(identity)).toEqual(identity);
    expect(AgentIdentity.safeParse({ ...identity, protocolVersion: 1.5 }).success).toBe(false);
  });

  it.each(['withdrawn', 'turn_cancelled', 'tab_closed', 'agent_exited'])(
    'knows the card ending %s',
    (ended) => {
      expect(CardEnd.safeParse(ended).success).toBe(true);
    },
  );

  it.each(['accept', 'decline', 'cancel'])('knows the answer %s', (action) => {
    expect(ElicitationAction.safeParse(action).success).toBe(true);
  });

  it('refuses another ending or answer', () => {
    expect(CardEnd.safeParse('').success).toBe(false);
    expect(ElicitationAction.safeParse('').success).toBe(false);
  });
});
