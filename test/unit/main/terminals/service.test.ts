/** The core's terminals on their own: routing by connection, and every way a terminal ends. */
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import { UserFacingError } from '../../../../main/core/errors.js';
import type { Session } from '../../../../main/core/session.js';
import { TerminalService } from '../../../../main/core/terminals/service.js';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { deadline } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

let folder: string;
let service: TerminalService;
beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'airlock-terminal-service-')));
});
afterEach(async () => {
  await service?.dispose();
  await rm(folder, { recursive: true, force: true });
});

/** A session in `folder` that records what it is told. */
function standIn() {
  const events: TranscriptEvent[] = [];
  const summary = { cwd: folder, status: 'ready' };
  const session = {
    summary,
    append: (event: TranscriptEvent) => events.push(event),
  } as unknown as Session;
  return { session, events, summary };
}

const connection = () => ({}) as AgentConnection;

/** A signal for a wait the agent never withdraws. */
const never = new AbortController().signal;

/**
 * `target` with a deadline on each answer, and on each answer of the handlers it gives (the
 * longest, a stop, takes the 2 s grace period): a change that leaves a command unstarted,
 * unended or unstopped fails the test in seconds, naming the call it waited for, not at the
 * test's timeout.
 */
function bounded<T extends object>(target: T, name: string): T {
  return new Proxy(target, {
    get(of, key) {
      const value: unknown = Reflect.get(of, key);
      if (typeof value !== 'function') {
        return value;
      }
      return (...args: unknown[]): unknown => {
        const result: unknown = value.apply(of, args);
        if (result instanceof Promise) {
          const call = `${name}.${String(key)}(${JSON.stringify(args[0]) ?? ''})`;
          return deadline(result, `${call} to settle`, 5_000);
        }
        return key === 'handlersFor' ? bounded(result as object, 'handlers') : result;
      };
    },
  });
}

/** A service where `routes` says which session each connection's session id names. */
function serviceOf(routes: Map<AgentConnection, Map<string, Session>>) {
  service = bounded(
    new TerminalService((on, sessionId) => (on ? routes.get(on)?.get(sessionId) : undefined)),
    'terminals',
  );
  return service;
}

/** Runs `sh -c 'echo $$ > pid; sleep 100'`; resolves with its id and pid. */
async function sleeper(handlers: ReturnType<TerminalService['handlersFor']>, sessionId: string) {
  const file = join(folder, `pid-${Math.random().toString(36).slice(2)}`);
  const { terminalId } = await handlers.create({
    sessionId,
    command: 'sh',
    args: ['-c', 'echo $$ > "$0"; exec sleep 100', file],
  });
  let pid = 0;
  await vi.waitFor(async () => {
    pid = Number(await readFile(file, 'utf8').catch(() => ''));
    expect(pid).toBeGreaterThan(0);
  });
  return { terminalId, pid };
}

describe('TerminalService', () => {
  it('routes a request only to a session of the connection it came on', async () => {
    const { session } = standIn();
    const [mine, other] = [connection(), connection()];
    const terminals = serviceOf(new Map([[mine, new Map([['s1', session]])]]));
    const id = 'x'.repeat(150);
    for (const [on, sessionId] of [
      [other, 's1'],
      [undefined, 's1'],
      [mine, id],
    ] as const) {
      // Thrown as the handler is called: the SDK answers it as the request's error.
      expect(() => terminals.handlersFor(() => on).create({ sessionId, command: 'true' })).toThrow(
        expect.objectContaining({
          code: -32602,
          message: `Invalid params: "${sessionId.slice(0, 100)}" is not a session on this connection.`,
        }),
      );
    }
  });

  it("shows a terminal's lines and output in its session's transcript, until the session closes", async () => {
    const { session, events, summary } = standIn();
    const on = connection();
    const handlers = serviceOf(new Map([[on, new Map([['s1', session]])]])).handlersFor(() => on);
    const { terminalId } = await handlers.create({ sessionId: 's1', command: 'true' });
    await handlers.waitForExit({ sessionId: 's1', terminalId }, never);
    await vi.waitFor(() =>
      expect(events.some((event) => event.type === 'terminal_output' && event.exitStatus)).toBe(
        true,
      ),
    );
    expect(events.filter((event) => event.type === 'system')).toEqual([
      { type: 'system', id: `terminal-${terminalId}`, text: `Running: true in ${folder}` },
      {
        type: 'system',
        id: `terminal-${terminalId}`,
        text: `Ran: true in ${folder}: exited with code 0`,
      },
    ]);
    expect(await handlers.output({ sessionId: 's1', terminalId })).toMatchObject({ output: '' });
    await handlers.release({ sessionId: 's1', terminalId });
    // Closed: nothing more is added, neither lines nor output.
    summary.status = 'closed';
    const before = events.length;
    const second = await handlers.create({ sessionId: 's1', command: 'true' });
    await handlers.waitForExit({ sessionId: 's1', terminalId: second.terminalId }, never);
    await handlers.kill({ sessionId: 's1', terminalId: second.terminalId });
    expect(events).toHaveLength(before);
  });

  it('stops a command at the user’s request, and refuses one it does not hold', async () => {
    const { session } = standIn();
    const on = connection();
    const terminals = serviceOf(new Map([[on, new Map([['s1', session]])]]));
    const handlers = terminals.handlersFor(() => on);
    await expect(terminals.kill(session, 'term_nope')).rejects.toThrow(UserFacingError);
    await expect(terminals.kill(session, 'term_nope')).rejects.toThrow(
      'That command is no longer running here (the agent released its terminal, or the session ended)',
    );
    const { terminalId, pid } = await sleeper(handlers, 's1');
    await expect(terminals.kill(standIn().session, terminalId)).rejects.toThrow(UserFacingError);
    await terminals.kill(session, terminalId);
    expect(alive(pid)).toBe(false);
    // Killed, not released: its end is still readable.
    expect(await handlers.waitForExit({ sessionId: 's1', terminalId }, never)).toEqual({
      exitCode: null,
      signal: 'SIGTERM',
    });
  });

  it("passes the agent's kill and release to the session's terminals", async () => {
    const { session } = standIn();
    const on = connection();
    const handlers = serviceOf(new Map([[on, new Map([['s1', session]])]])).handlersFor(() => on);
    const killed = await sleeper(handlers, 's1');
    expect(await handlers.kill({ sessionId: 's1', terminalId: killed.terminalId })).toEqual({});
    expect(alive(killed.pid)).toBe(false);
    const released = await sleeper(handlers, 's1');
    expect(await handlers.release({ sessionId: 's1', terminalId: released.terminalId })).toEqual(
      {},
    );
    expect(alive(released.pid)).toBe(false);
    await expect(
      handlers.output({ sessionId: 's1', terminalId: released.terminalId }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('stops the terminals of a session that ended, and of each session on a connection that ended', async () => {
    const [a, b, c] = [standIn(), standIn(), standIn()];
    const [first, second] = [connection(), connection()];
    const terminals = serviceOf(
      new Map([
        [
          first,
          new Map([
            ['a', a.session],
            ['b', b.session],
          ]),
        ],
        [second, new Map([['c', c.session]])],
      ]),
    );
    const one = terminals.handlersFor(() => first);
    const two = terminals.handlersFor(() => second);
    const [inA, inB, inC] = [
      await sleeper(one, 'a'),
      await sleeper(one, 'b'),
      await sleeper(two, 'c'),
    ];
    await terminals.sessionEnded(a.session);
    expect([inA, inB, inC].map(({ pid }) => alive(pid))).toEqual([false, true, true]);
    // Forgotten with its session: a later request starts afresh.
    await expect(one.output({ sessionId: 'a', terminalId: inA.terminalId })).rejects.toMatchObject({
      code: -32602,
    });
    await terminals.sessionEnded(a.session);
    await terminals.connectionEnded(first);
    expect([inB, inC].map(({ pid }) => alive(pid))).toEqual([false, true]);
    await terminals.dispose();
    expect(alive(inC.pid)).toBe(false);
  });

  it('ends the old process’s terminals when a session moves to a new connection', async () => {
    const { session } = standIn();
    const [old, fresh] = [connection(), connection()];
    const terminals = serviceOf(
      new Map([
        [old, new Map([['s', session]])],
        [fresh, new Map([['s', session]])],
      ]),
    );
    const before = await sleeper(
      terminals.handlersFor(() => old),
      's',
    );
    const after = terminals.handlersFor(() => fresh);
    await expect(
      after.output({ sessionId: 's', terminalId: before.terminalId }),
    ).rejects.toMatchObject({ code: -32602 });
    await vi.waitFor(() => expect(alive(before.pid)).toBe(false));
    // The old connection's handlers reach the new terminals no more than before.
    const now = await sleeper(after, 's');
    await expect(
      terminals.handlersFor(() => old).output({ sessionId: 's', terminalId: now.terminalId }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('dispose waits for stops already under way', async () => {
    const { session } = standIn();
    const on = connection();
    const terminals = serviceOf(new Map([[on, new Map([['s1', session]])]]));
    const { pid } = await sleeper(
      terminals.handlersFor(() => on),
      's1',
    );
    // Not awaited: the session's terminals are already forgotten when dispose comes.
    void terminals.sessionEnded(session);
    await terminals.dispose();
    expect(alive(pid)).toBe(false);
  });
});
