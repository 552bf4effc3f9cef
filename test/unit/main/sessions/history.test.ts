/**
 * Reading an agent's `session/list` answers (listHistory): pages followed to a bound, entries of
 * another folder or of a wrong shape left out, titles clipped to one line, a cursor that does not
 * move ending the list, and a page of a wrong shape refused with a clear error.
 */
import { describe, expect, it } from 'vitest';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import {
  lastingCapabilities,
  listHistory,
  MAX_HISTORY_PAGES,
} from '../../../../main/core/sessions/history.js';
import { MAX_HISTORY_ENTRIES } from '../../../../preload/shared/lasting-sessions.js';

/** A connection whose `session/list` answers with `pages`, by cursor (`''` is the first). */
function listing(pages: Record<string, unknown>) {
  const asked: (string | undefined)[] = [];
  const params: object[] = [];
  const connection = {
    identity: { configName: 'Lister' },
    request: async (method: string, sent: { cursor?: string }) => {
      if (method !== 'session/list') {
        throw new Error(`unexpected ${method}`);
      }
      asked.push(sent.cursor);
      params.push(sent);
      return pages[sent.cursor ?? ''];
    },
  } as unknown as AgentConnection;
  return { connection, asked, params };
}

/** A connection that advertised `capabilities` in `initialize`. */
const advertising = (capabilities: unknown) => ({ capabilities }) as unknown as AgentConnection;

const session = (id: string, extra: Record<string, unknown> = {}) => ({
  sessionId: id,
  cwd: '/work',
  ...extra,
});

describe('lastingCapabilities', () => {
  it('counts an object as offered, and only a literal true for loadSession', () => {
    expect(
      lastingCapabilities(
        advertising({
          loadSession: true,
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        }),
      ),
    ).toEqual({ list: true, load: true, resume: true, close: true });
    expect(
      lastingCapabilities(
        advertising({
          loadSession: 'yes',
          sessionCapabilities: { list: true, resume: null, close: 'yes' },
        }),
      ),
    ).toEqual({ list: false, load: false, resume: false, close: false });
  });

  it('reads an agent without session capabilities as offering none', () => {
    expect(lastingCapabilities(advertising({}))).toEqual({
      list: false,
      load: false,
      resume: false,
      close: false,
    });
  });
});

describe('listHistory', () => {
  it('sends no cursor for the first page, and answers none after the last', async () => {
    const { connection, params } = listing({
      '': { sessions: [session('a')], nextCursor: 'p2' },
      p2: { sessions: [session('b')], nextCursor: null },
    });
    const listed = await listHistory(connection, '/work', undefined);
    expect(listed).toStrictEqual({ entries: [{ sessionId: 'a' }, { sessionId: 'b' }] });
    expect(params).toStrictEqual([{ cwd: '/work' }, { cwd: '/work', cursor: 'p2' }]);
  });

  it('follows a cursor of 10,000 characters, and ends the list at a longer one', async () => {
    const longest = 'c'.repeat(10_000);
    const { connection, asked } = listing({
      '': { sessions: [session('a')], nextCursor: longest },
      [longest]: { sessions: [session('b')], nextCursor: `${longest}c` },
    });
    expect(await listHistory(connection, '/work', undefined)).toStrictEqual({
      entries: [{ sessionId: 'a' }, { sessionId: 'b' }],
    });
    expect(asked).toEqual([undefined, longest]);
  });

  it('reads only the first 100 characters of a time', async () => {
    const time = 'Tue Dec 01 2026 10:00:00 GMT';
    // Whole, with the `x` after it, it is no time at all.
    const long = `${time.padEnd(100, ' ')}x`;
    const { connection } = listing({ '': { sessions: [session('a', { updatedAt: long })] } });
    expect(await listHistory(connection, '/work', undefined)).toEqual({
      entries: [{ sessionId: 'a', updatedAt: Date.parse(time) }],
    });
  });

  it('follows the cursor and keeps only well-formed entries of the folder', async () => {
    const { connection, asked } = listing({
      '': {
        sessions: [
          session('a', { title: 'First\nline', updatedAt: '2026-12-01T10:00:00Z' }),
          session('elsewhere', { cwd: '/other' }),
          { sessionId: 42, cwd: '/work' },
          'text',
        ],
        nextCursor: 'p2',
      },
      p2: { sessions: [session('b', { updatedAt: 'not a date' }), session('a')] },
    });
    expect(await listHistory(connection, '/work', undefined)).toEqual({
      entries: [
        { sessionId: 'a', title: 'First line', updatedAt: Date.parse('2026-12-01T10:00:00Z') },
        { sessionId: 'b' },
      ],
    });
    expect(asked).toEqual([undefined, 'p2']);
  });

  it(`stops at ${MAX_HISTORY_ENTRIES} entries and gives a cursor for the rest`, async () => {
    const pages: Record<string, unknown> = {};
    for (let n = 0; n < 5; n++) {
      pages[n === 0 ? '' : `c${n}`] = {
        sessions: Array.from({ length: 80 }, (_unused, i) => session(`s${n}-${i}`)),
        nextCursor: `c${n + 1}`,
      };
    }
    const { connection, asked } = listing(pages);
    const listed = await listHistory(connection, '/work', undefined);
    expect(listed.entries).toHaveLength(MAX_HISTORY_ENTRIES);
    expect(listed.nextCursor).toBe('c3');
    expect(asked).toEqual([undefined, 'c1', 'c2']);
  });

  it(`asks at most ${MAX_HISTORY_PAGES} pages of an agent that sends empty ones`, async () => {
    const { connection, asked } = listing(
      Object.fromEntries(
        Array.from({ length: 20 }, (_unused, n) => [
          n === 0 ? '' : `c${n}`,
          { sessions: [], nextCursor: `c${n + 1}` },
        ]),
      ),
    );
    const listed = await listHistory(connection, '/work', undefined);
    expect(asked).toHaveLength(MAX_HISTORY_PAGES);
    expect(listed).toEqual({ entries: [], nextCursor: `c${MAX_HISTORY_PAGES}` });
  });

  it('ends the list at a cursor that does not move', async () => {
    const { connection, asked } = listing({
      '': { sessions: [session('a')], nextCursor: 'same' },
      same: { sessions: [session('b')], nextCursor: 'same' },
    });
    expect(await listHistory(connection, '/work', undefined)).toEqual({
      entries: [{ sessionId: 'a' }, { sessionId: 'b' }],
    });
    expect(asked).toEqual([undefined, 'same']);
  });

  it('refuses a page of the wrong shape, naming the agent', async () => {
    const { connection } = listing({ '': { sessions: 'none' } });
    const failure = await listHistory(connection, '/work', undefined).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UserFacingError);
    expect(failure).toMatchObject({
      message: 'Lister sent a list of its sessions that Airlock cannot read',
      detail: 'The answer to session/list does not have the shape the protocol gives it',
    });
  });
});
