/**
 * The contract's part about sessions that last (preload/shared/lasting-sessions.ts) on its own: the
 * names of saved tabs and the bounds on what the history and reopening carry.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentFolder,
  HistoryView,
  MAX_ACP_SESSION_ID_CHARS,
  MAX_HISTORY_ENTRIES,
  ReopenRequest,
  SavedTabId,
  SavedTabView,
} from '../../../preload/shared/lasting-sessions.js';

describe('SavedTabId', () => {
  it.each(['t0', 'tz', 't9', 'ta', `t${'a'.repeat(32)}`])('takes %s', (id) => {
    expect(SavedTabId.safeParse(id).success).toBe(true);
  });

  it.each([
    ['no number', 't'],
    ['another letter first', 's1'],
    ['a capital', 'tA'],
    ['a dash', 't-1'],
    ['33 characters after the t', `t${'a'.repeat(33)}`],
    ['something before it', 'xt1'],
    ['something after it', 't1\n'],
    ['a path', 't1/../x'],
  ])('refuses %s', (_name, id) => {
    expect(SavedTabId.safeParse(id).success).toBe(false);
  });
});

describe('HistoryView and ReopenRequest', () => {
  const entry = { sessionId: 'abc', title: 'Fix the build', updatedAt: 1 };

  it('keeps every part of an answer, and a short note and cursor', () => {
    const view = {
      supported: true,
      note: 'n',
      entries: [entry],
      nextCursor: 'c',
      canReopen: false,
    };
    expect(HistoryView.parse(view)).toEqual(view);
    expect(HistoryView.safeParse({ ...view, entries: [{ title: 'x' }] }).success).toBe(false);
    expect(HistoryView.safeParse({ ...view, note: 'n'.repeat(10_001) }).success).toBe(false);
    expect(HistoryView.safeParse({ ...view, nextCursor: 'c'.repeat(10_001) }).success).toBe(false);
  });

  it('bounds the entries of one answer', () => {
    const view = (count: number) => ({
      supported: true,
      entries: Array.from({ length: count }, () => entry),
      canReopen: true,
    });
    expect(HistoryView.safeParse(view(MAX_HISTORY_ENTRIES)).success).toBe(true);
    expect(HistoryView.safeParse(view(MAX_HISTORY_ENTRIES + 1)).success).toBe(false);
  });

  it('bounds the session id it sends back, and takes no other key', () => {
    const request = { agentName: 'Demo Agent', cwd: '/work', sessionId: 'abc' };
    expect(ReopenRequest.safeParse(request).success).toBe(true);
    expect(
      ReopenRequest.safeParse({ ...request, sessionId: 'x'.repeat(MAX_ACP_SESSION_ID_CHARS + 1) })
        .success,
    ).toBe(false);
    expect(ReopenRequest.safeParse({ ...request, sessionId: '' }).success).toBe(false);
    expect(ReopenRequest.safeParse({ ...request, mcpServers: [] }).success).toBe(false);
  });
});

describe('SavedTabView and AgentFolder', () => {
  it('keep every part of a saved tab, and need each', () => {
    const tab = {
      id: 't1',
      agentName: 'Demo Agent',
      cwd: '/work',
      title: 'Fix the build',
      lastActivity: 1,
      reopenable: true,
    };
    expect(SavedTabView.parse(tab)).toEqual(tab);
    expect(SavedTabView.safeParse({ ...tab, id: 's1' }).success).toBe(false);
  });

  it('keeps the agent and the folder a history call names, and needs both', () => {
    expect(AgentFolder.parse({ agentName: 'Demo Agent', cwd: '/work' })).toEqual({
      agentName: 'Demo Agent',
      cwd: '/work',
    });
    expect(AgentFolder.safeParse({ agentName: 'Demo Agent' }).success).toBe(false);
  });
});
