import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../preload/shared/contract';
import {
  recentlyShown,
  folderName,
  isBusy,
  nextWaiting,
  stepSession,
  tabLabel,
  waitingCount,
  windowTitle,
} from '../../../renderer/src/state/tabs';
import { sessionSummary } from '../../helpers/session-summary.js';

const session = (patch: Partial<SessionSummary> = {}): SessionSummary =>
  sessionSummary({ cwd: '/home/ada/airlock', ...patch });

describe('tabLabel', () => {
  it("is the user's name, else the agent's title, else the first prompt, else the agent", () => {
    const agent = {
      configName: 'Demo Agent',
      title: 'Airlock Demo Agent',
      protocolVersion: 1,
      commandLine: 'demo',
    };
    const all = session({
      agent,
      userTitle: 'Mine',
      title: 'Agent title',
      firstPrompt: 'First prompt',
    });
    expect(tabLabel(all)).toBe('Mine');
    expect(tabLabel({ ...all, userTitle: undefined })).toBe('Agent title');
    expect(tabLabel({ ...all, userTitle: undefined, title: undefined })).toBe('First prompt');
    expect(tabLabel(session({ agent }))).toBe('Airlock Demo Agent');
    expect(tabLabel(session())).toBe('Demo Agent');
  });
});

describe('folderName', () => {
  it('is the last segment of a path, with either separator, trailing ones ignored', () => {
    expect(folderName('/home/ada/airlock')).toBe('airlock');
    expect(folderName('/home/ada/airlock/')).toBe('airlock');
    expect(folderName('C:\\Users\\ada\\work')).toBe('work');
    expect(folderName('/')).toBe('/');
  });
});

describe('isBusy', () => {
  it('is a running turn or a card waiting', () => {
    expect(isBusy(session())).toBe(false);
    expect(isBusy(session({ status: 'prompting' }))).toBe(true);
    expect(isBusy(session({ status: 'starting', pendingCards: 1 }))).toBe(true);
    expect(isBusy(session({ status: 'exited' }))).toBe(false);
  });
});

describe('windowTitle', () => {
  it('counts the cards waiting in every session', () => {
    expect(windowTitle([session(), session({ key: 's2' })])).toBe('Airlock');
    const waiting = [session({ pendingCards: 1 }), session({ key: 's2', pendingCards: 2 })];
    expect(waitingCount(waiting)).toBe(3);
    expect(windowTitle(waiting)).toBe('(3) Airlock');
  });
});

describe('nextWaiting', () => {
  const sessions = [
    session({ key: 'sa', pendingCards: 1 }),
    session({ key: 'sb' }),
    session({ key: 'sc', pendingCards: 2 }),
  ];

  it('stays on the shown session while its card does not have the focus', () => {
    expect(nextWaiting(sessions, 'sa', false)).toBe('sa');
  });

  it('goes on to the next one that waits, round the end', () => {
    expect(nextWaiting(sessions, 'sa', true)).toBe('sc');
    expect(nextWaiting(sessions, 'sc', true)).toBe('sa');
    expect(nextWaiting(sessions, 'sb', false)).toBe('sc');
    expect(nextWaiting(sessions, undefined, false)).toBe('sa');
  });

  it('comes back to the only one that waits, and finds none when none does', () => {
    expect(nextWaiting([session({ key: 'sa', pendingCards: 1 })], 'sa', true)).toBe('sa');
    expect(nextWaiting([session()], 's1', false)).toBeUndefined();
    expect(nextWaiting([], undefined, false)).toBeUndefined();
  });
});

describe('stepSession', () => {
  const sessions = [session({ key: 'sa' }), session({ key: 'sb' }), session({ key: 'sc' })];

  it('moves one session on or back, round the ends', () => {
    expect(stepSession(sessions, 'sa', 1)).toBe('sb');
    expect(stepSession(sessions, 'sc', 1)).toBe('sa');
    expect(stepSession(sessions, 'sa', -1)).toBe('sc');
  });

  it('starts from an end when none is shown, and gives nothing with no sessions', () => {
    expect(stepSession(sessions, undefined, 1)).toBe('sa');
    expect(stepSession(sessions, undefined, -1)).toBe('sc');
    expect(stepSession([], undefined, 1)).toBeUndefined();
  });
});

describe('recentlyShown', () => {
  const open = new Set(['a', 'b', 'c', 'd']);

  it('puts the shown session first, then those shown before it, most recent first', () => {
    expect(recentlyShown(['b', 'c'], 'a', open, 3)).toEqual(['a', 'b', 'c']);
    expect(recentlyShown(['a', 'b', 'c'], 'c', open, 3)).toEqual(['c', 'a', 'b']);
  });

  it('keeps `max` at most, dropping the one shown longest ago', () => {
    expect(recentlyShown(['a', 'b', 'c'], 'd', open, 3)).toEqual(['d', 'a', 'b']);
    expect(recentlyShown(['a', 'b', 'c'], 'b', open, 1)).toEqual(['b']);
  });

  it('drops sessions no longer open, the shown one included', () => {
    expect(recentlyShown(['a', 'b', 'c'], 'b', new Set(['b', 'c']), 3)).toEqual(['b', 'c']);
    expect(recentlyShown(['a', 'b'], 'x', open, 3)).toEqual(['a', 'b']);
  });

  it('keeps the order as it was while none is shown (the agents settings show)', () => {
    expect(recentlyShown(['b', 'a'], undefined, open, 3)).toEqual(['b', 'a']);
  });
});
