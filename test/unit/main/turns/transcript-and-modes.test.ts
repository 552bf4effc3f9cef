/**
 * A session tab's own bookkeeping, without an agent: how its transcript merges streamed text,
 * how a fresh ACP session is taken in, and which modes it shows. The tests that run a turn
 * against a real agent are in the other files of this folder.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import { Session } from '../../../../main/core/session.js';
import { MAX_CHUNK_CHARS } from '../../../../main/core/updates.js';

/** A session whose sink records what it was told. */
function recordedSession() {
  const appended: TranscriptEvent[] = [];
  let changes = 0;
  const session = new Session('s1', 'Agent', '/work', {
    append: (key, event) => {
      expect(key).toBe('s1');
      appended.push(event);
    },
    changed: (key) => {
      expect(key).toBe('s1');
      changes += 1;
    },
  });
  return { session, appended, changes: () => changes };
}

const identity = {
  configName: 'Agent',
  name: 'agent',
  protocolVersion: 1,
  commandLine: 'agent --acp',
};
/** Only what `attach` reads of a connection: who the agent is. */
const connection = { identity } as unknown as AgentConnection;

const chunk = (text: string, role: 'agent' | 'user' | 'thought' = 'agent'): TranscriptEvent => ({
  type: 'chunk',
  role,
  text,
});

const output = (terminalId: string, text: string): TranscriptEvent => ({
  type: 'terminal_output',
  terminalId,
  output: text,
  truncated: false,
});

describe("a session's transcript", () => {
  it('merges consecutive text of one role up to exactly one piece, and no further', () => {
    const { session, appended } = recordedSession();
    const half = MAX_CHUNK_CHARS / 2;
    session.append(chunk('a'.repeat(half)));
    session.append(chunk('b'.repeat(half)));
    // Exactly one piece long: the next character starts another chunk.
    session.append(chunk('c'));
    session.append(chunk('d'));
    expect(session.events()).toEqual([
      chunk(`${'a'.repeat(half)}${'b'.repeat(half)}`),
      chunk('cd'),
    ]);
    // The UI got every piece as it came.
    expect(appended.map((event) => (event.type === 'chunk' ? event.text.length : 0))).toEqual([
      half,
      half,
      1,
      1,
    ]);
  });

  it('keeps text of another role, or after another event, apart', () => {
    const { session } = recordedSession();
    session.append(chunk('thinking', 'thought'));
    session.append(chunk('answer'));
    session.append({ type: 'system', text: 'a line between' });
    session.append(chunk(' more'));
    expect(session.events()).toEqual([
      chunk('thinking', 'thought'),
      chunk('answer'),
      { type: 'system', text: 'a line between' },
      chunk(' more'),
    ]);
  });

  it('hands out a transcript that stays as it was taken while the text goes on', () => {
    const { session, appended } = recordedSession();
    session.append(chunk('one'));
    const taken = session.events();
    session.append(chunk(' two'));
    // The stored chunk grows in place; neither the snapshot nor the event the UI got changes.
    expect(taken).toEqual([chunk('one')]);
    expect(appended).toEqual([chunk('one'), chunk(' two')]);
    expect(session.events()).toEqual([chunk('one two')]);
  });

  it("goes on growing the text at the end when a terminal's newer output takes its place", () => {
    const { session } = recordedSession();
    session.append(output('t1', 'first'));
    session.append(chunk('one'));
    session.append(output('t1', 'first second'));
    session.append(chunk(' two'));
    expect(session.events()).toEqual([output('t1', 'first second'), chunk('one two')]);
  });

  it("keeps a new terminal's output after the text before it, where its newer output goes", () => {
    const { session } = recordedSession();
    session.append(chunk('running:'));
    session.append(output('t1', 'first'));
    session.append(output('t1', 'first second'));
    session.append(chunk('done'));
    expect(session.events()).toEqual([
      chunk('running:'),
      output('t1', 'first second'),
      chunk('done'),
    ]);
  });

  it('keeps content of the same role after text apart', () => {
    const { session } = recordedSession();
    const image: TranscriptEvent = {
      type: 'content',
      role: 'agent',
      content: { type: 'image', mimeType: 'image/png' },
    };
    session.append(chunk('a picture:'));
    session.append(image);
    expect(session.events()).toEqual([chunk('a picture:'), image]);
  });

  it('starts with a chunk when the first event is one', () => {
    const { session } = recordedSession();
    session.append(chunk('early'));
    expect(session.events()).toEqual([chunk('early')]);
  });
});

describe('attaching a fresh ACP session', () => {
  it('keeps at most 100 legacy modes, each string clipped to the bound', () => {
    const { session } = recordedSession();
    const long = 'm'.repeat(10_001);
    const availableModes = Array.from({ length: 101 }, (_unused, n) => ({
      id: n === 0 ? long : `mode-${n}`,
      name: n === 0 ? long : `Mode ${n}`,
      description: n === 0 ? long : n === 1 ? `Mode one` : undefined,
    }));
    session.attach(
      connection,
      { sessionId: 'acp-1', modes: { currentModeId: 'mode-1', availableModes } },
      [],
    );
    const modes = session.summary.modes;
    expect(modes).toHaveLength(100);
    expect(modes[0]).toEqual({
      id: 'm'.repeat(10_000),
      // Clipped as every name the user picks by: shown whole up to the bound, then an ellipsis.
      name: `${'m'.repeat(9_999)}…`,
      description: 'm'.repeat(10_000),
    });
    expect(modes[1]).toEqual({ id: 'mode-1', name: 'Mode 1', description: 'Mode one' });
    expect(modes[2]).toEqual({ id: 'mode-2', name: 'Mode 2', description: undefined });
    expect(modes.at(-1)?.id).toBe('mode-99');
    expect(session.offeredModes).toEqual(modes);
    expect(session.summary.currentModeId).toBe('mode-1');
  });

  it('is ready unless told otherwise, and forgets the last run’s error, exit and sign-in', () => {
    const { session, changes } = recordedSession();
    session.update({
      status: 'exited',
      error: 'it crashed',
      exit: { code: 1, signal: null, reason: 'exited with code 1', stderrTail: [] },
      authMethods: [{ id: 'login', name: 'Log in', kind: 'agent' }],
    });
    const before = changes();
    session.attach(connection, { sessionId: 'acp-2' }, []);
    expect(changes()).toBe(before + 1);
    expect(session.acpSessionId).toBe('acp-2');
    expect(session.connection).toBe(connection);
    expect(session.summary).toMatchObject({ status: 'ready', agent: identity, authMethods: [] });
    expect(session.summary.error).toBeUndefined();
    expect(session.summary.exit).toBeUndefined();
    expect(session.summary.modes).toEqual([]);

    session.attach(connection, { sessionId: 'acp-3' }, [], 'starting');
    expect(session.summary.status).toBe('starting');
  });
});

describe("a session's modes", () => {
  const modeOption = {
    id: 'mode',
    name: 'Mode',
    category: 'mode',
    currentValue: 'code',
    choices: [{ value: 'code', name: 'Code' }],
  };

  it('are hidden while a config option of category mode supersedes them, and shown again after', () => {
    const { session } = recordedSession();
    const availableModes = [{ id: 'code', name: 'Code' }];
    session.attach(
      connection,
      { sessionId: 'acp-1', modes: { currentModeId: 'code', availableModes } },
      [modeOption],
    );
    expect(session.summary.modes).toEqual([]);
    expect(session.offeredModes).toEqual([{ id: 'code', name: 'Code', description: undefined }]);

    // An option of another category supersedes nothing.
    session.update({ configOptions: [{ ...modeOption, id: 'model', category: 'model' }] });
    expect(session.summary.modes).toEqual(session.offeredModes);
  });
});

describe('a session without an agent session', () => {
  it('is not prompting, and a turn asked of it does nothing', async () => {
    const { session, appended } = recordedSession();
    expect(session.prompting).toBe(false);
    await session.runTurn('hello');
    expect(session.events()).toEqual([]);
    expect(appended).toEqual([]);
    expect(session.prompting).toBe(false);
  });

  it('shows no card once its tab is closed', async () => {
    const { session, appended } = recordedSession();
    session.close();
    expect(session.summary.status).toBe('closed');
    let shown = false;
    const result = await session.waitOnUser({
      key: 'p1',
      kind: 'permission',
      endsWithTurn: false,
      signal: new AbortController().signal,
      show: () => {
        shown = true;
      },
      settle: () => undefined,
    });
    expect(result).toEqual({ ended: 'tab_closed' });
    expect(shown).toBe(false);
    expect(appended).toEqual([]);
  });
});
