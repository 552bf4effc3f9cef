/**
 * What an agent asks of Airlock reaches the delegate, and the delegate's answer reaches the agent:
 * each request and notification the connection registers, sent by the stand-in of
 * test/fixtures/conn-stand-in.ts as an agent sends it. The delegate here only records; the
 * sessions, the broker, files/ and terminals/ have tests of their own for what they make of it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AgentConnection,
  type ConnectionDelegate,
} from '../../../../main/core/agent-connection.js';
import { StandInProcess, standInSpec } from '../../../fixtures/conn-stand-in.js';
import { deadline } from '../../../helpers/core-harness.js';

/** One call the delegate got: which, its params, and the signal when the call has one. */
type Call = { name: string; params: unknown; signal?: AbortSignal };

/** A delegate that records each call and answers with `answers[name]`. */
function recordingDelegate(answers: Record<string, object>) {
  const calls: Call[] = [];
  const handle =
    (name: string) =>
    (params: unknown, signal?: AbortSignal): Promise<never> => {
      calls.push(signal ? { name, params, signal } : { name, params });
      return Promise.resolve(answers[name] as never);
    };
  const notice = (name: string) => (params: unknown) => {
    calls.push({ name, params });
  };
  const delegate: ConnectionDelegate = {
    onUpdate: notice('onUpdate'),
    onPermission: handle('onPermission'),
    onElicitation: handle('onElicitation'),
    onElicitationComplete: notice('onElicitationComplete'),
    onReadTextFile: handle('onReadTextFile'),
    onWriteTextFile: handle('onWriteTextFile'),
    onExit: () => undefined,
    terminals: {
      create: handle('terminals.create'),
      output: handle('terminals.output'),
      waitForExit: handle('terminals.waitForExit'),
      kill: handle('terminals.kill'),
      release: handle('terminals.release'),
    },
  };
  return { delegate, calls };
}

const ANSWERS = {
  onPermission: { outcome: { outcome: 'selected', optionId: 'allow' } },
  onElicitation: { action: 'decline' },
  onReadTextFile: { content: 'the file' },
  onWriteTextFile: {},
  'terminals.create': { terminalId: 'term-1' },
  'terminals.output': { output: 'built', truncated: false },
  'terminals.waitForExit': { exitCode: 0, signal: null },
  'terminals.kill': {},
  'terminals.release': {},
};

/** A connection to a stand-in whose requests go to a recording delegate. */
async function started() {
  const agent = new StandInProcess();
  const { delegate, calls } = recordingDelegate(ANSWERS);
  const start = AgentConnection.start(standInSpec(agent), {
    logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
    delegate,
  });
  await deadline(start, 'the connection to start');
  return { agent, calls };
}

const SESSION = 'sess-1';

describe("an agent's request", () => {
  // Each with params the SDK accepts; the delegate's answer goes back as the result.
  const requests: [method: string, delegateName: string, params: object, signal: boolean][] = [
    [
      'session/request_permission',
      'onPermission',
      {
        sessionId: SESSION,
        toolCall: { toolCallId: 'call-1', title: 'Edit a file' },
        options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
      },
      true,
    ],
    ['fs/read_text_file', 'onReadTextFile', { sessionId: SESSION, path: '/w/a.txt' }, false],
    [
      'fs/write_text_file',
      'onWriteTextFile',
      { sessionId: SESSION, path: '/w/a.txt', content: 'new' },
      true,
    ],
    ['terminal/create', 'terminals.create', { sessionId: SESSION, command: 'make' }, false],
    ['terminal/output', 'terminals.output', { sessionId: SESSION, terminalId: 'term-1' }, false],
    [
      'terminal/wait_for_exit',
      'terminals.waitForExit',
      { sessionId: SESSION, terminalId: 'term-1' },
      true,
    ],
    ['terminal/kill', 'terminals.kill', { sessionId: SESSION, terminalId: 'term-1' }, false],
    ['terminal/release', 'terminals.release', { sessionId: SESSION, terminalId: 'term-1' }, false],
  ];

  it.each(requests)('%s goes to %s, and its answer back', async (method, name, params, signal) => {
    const { agent, calls } = await started();
    const answer = await deadline(agent.ask(method, params), `Airlock to answer ${method}`);
    expect(answer).toEqual({ result: ANSWERS[name as keyof typeof ANSWERS] });
    expect(calls).toEqual([
      signal ? { name, params, signal: expect.any(AbortSignal) } : { name, params },
    ]);
  });

  it('elicitation/create goes to onElicitation with its params as sent, keys the SDK drops included', async () => {
    // Airlock checks elicitation params itself: the SDK would neither gate the modes nor keep
    // the keys Airlock must refuse.
    const { agent, calls } = await started();
    const params = {
      sessionId: SESSION,
      mode: 'url',
      url: 'https://example.com/sign-in',
      message: 'Sign in',
      elicitationId: 'el-1',
      unexpected: { nested: true },
    };
    expect(
      await deadline(
        agent.ask('elicitation/create', params),
        'Airlock to answer elicitation/create',
      ),
    ).toEqual({
      result: ANSWERS.onElicitation,
    });
    expect(calls).toEqual([{ name: 'onElicitation', params, signal: expect.any(AbortSignal) }]);
  });
});

describe("an agent's notification", () => {
  it('session/update goes to onUpdate', async () => {
    const { agent, calls } = await started();
    const params = {
      sessionId: SESSION,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } },
    };
    agent.tell('session/update', params);
    await expect.poll(() => calls).toEqual([{ name: 'onUpdate', params }]);
  });

  it('elicitation/complete goes to onElicitationComplete with its params as sent', async () => {
    const { agent, calls } = await started();
    const params = { elicitationId: 'el-1', unexpected: 'kept' };
    agent.tell('elicitation/complete', params);
    await expect.poll(() => calls).toEqual([{ name: 'onElicitationComplete', params }]);
  });
});
