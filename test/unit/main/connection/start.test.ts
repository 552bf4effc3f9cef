/**
 * How a connection starts: what Airlock advertises in `initialize`, how a start fails (the
 * process ends first, the user stopped it before it began, the agent does not answer), and what
 * the connection keeps of the spec. The agent is the stand-in of test/fixtures/conn-stand-in.ts;
 * the same with real agents: initialize.test.ts, crash.test.ts, sessions/stop-start.test.ts.
 */
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentExit } from '../../../../preload/shared/contract.js';
import {
  AgentConnection,
  clientCapabilities,
  type ConnectionOptions,
} from '../../../../main/core/agent-connection.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { StandInProcess, standInDelegate, standInSpec } from '../../../fixtures/conn-stand-in.js';
import { deadline } from '../../../helpers/core-harness.js';

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Starts a connection to `agent`, failing the wait (not hanging) if the start never settles. The
 * start begins before this returns: the test may end the process at once.
 */
function start(
  agent: StandInProcess,
  options: Partial<ConnectionOptions> = {},
  spec: Partial<AgentSpec> = {},
): Promise<AgentConnection> {
  return deadline(
    AgentConnection.start(
      { ...standInSpec(agent), ...spec },
      {
        logsDir: mkdtempSync(join(tmpdir(), 'airlock-conn-logs-')),
        delegate: standInDelegate(),
        ...options,
      },
    ),
    'the start to settle',
  );
}

/** The error a start fails with. */
function failure(starting: Promise<unknown>): Promise<unknown> {
  return starting.then(
    () => new Error('the start did not fail'),
    (error: unknown) => error,
  );
}

describe('initialize', () => {
  it('advertises what Airlock implements, form elicitation by default, and names Airlock', async () => {
    const agent = new StandInProcess();
    await start(agent);
    expect(agent.initializeParams).toEqual({
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: true },
        terminal: true,
        elicitation: { form: {} },
      },
      clientInfo: { name: 'airlock', title: 'Airlock', version: '0.1.0' },
    });
  });

  it('advertises the elicitation modes the host honours, and only those', async () => {
    const agent = new StandInProcess();
    const connection = await start(agent, { elicitation: { form: false, url: true } });
    expect(agent.initializeParams).toMatchObject({
      clientCapabilities: { elicitation: { url: {} } },
    });
    expect(connection.elicitationModes).toEqual({ form: false, url: true });
  });
});

describe('clientCapabilities', () => {
  it('gives each elicitation mode only when it is honoured (ACP: an omitted mode is not supported)', () => {
    const base = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
    expect(clientCapabilities({ form: true, url: true })).toEqual({
      ...base,
      elicitation: { form: {}, url: {} },
    });
    expect(clientCapabilities({ form: true, url: false })).toEqual({
      ...base,
      elicitation: { form: {} },
    });
    expect(clientCapabilities({ form: false, url: true })).toEqual({
      ...base,
      elicitation: { url: {} },
    });
    expect(clientCapabilities({ form: false, url: false })).toEqual({ ...base, elicitation: {} });
  });
});

describe('a process that ends while it starts', () => {
  /** Starts a stand-in that never answers, writes `stderr`, and ends with `code` or `signal`. */
  async function endsStarting(stderr: string, code: number | null, signal: string | null = null) {
    const agent = new StandInProcess('silent');
    const starting = failure(start(agent));
    if (stderr) {
      // The connection listens from the start on; once this listener has run, so has its.
      const read = once(agent.stderr, 'data');
      agent.stderr.write(stderr);
      await read;
    }
    agent.exit(code, signal);
    agent.close();
    return (await starting) as Error;
  }

  it('fails naming the exit and the last line it wrote to stderr', async () => {
    const error = await endsStarting('loading\nchecking\nError: no API key\n', 1);
    expect(error.message).toBe(
      'stand-in exited with code 1 before it finished starting: Error: no API key',
    );
  });

  it('says it was killed before it finished starting, with nothing more when it wrote nothing', async () => {
    const error = await endsStarting('', null, 'SIGKILL');
    expect(error.message).toBe('stand-in was stopped by SIGKILL before it finished starting');
  });
});

describe('a start stopped on purpose', () => {
  it('stops the agent at once when the signal is already aborted, and fails once it is gone', async () => {
    const agent = new StandInProcess('silent');
    const controller = new AbortController();
    controller.abort();
    const starting = failure(start(agent, { signal: controller.signal }));
    await expect.poll(() => agent.signals).toEqual(['SIGTERM']);
    agent.exit(null, 'SIGTERM');
    agent.close();
    expect(((await starting) as Error).message).toBe('stand-in was stopped while it was starting');
  });
});

describe('an agent that does not answer initialize', () => {
  it('fails after the request time, which it names in seconds, and is stopped', async () => {
    const agent = new StandInProcess('silent');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const starting = failure(
      AgentConnection.start(standInSpec(agent), {
        logsDir: await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')),
        delegate: standInDelegate(),
        timeouts: { requestMs: 2_000, cancelGraceMs: 10 },
      }),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    expect(((await deadline(starting, 'the start to fail', 5_000)) as Error).message).toBe(
      'stand-in did not finish starting within 2 s',
    );
    expect(agent.signals).toEqual(['SIGTERM']);
  });
});

describe('a started connection', () => {
  it("keeps the spec's URL domains, and none when it names none", async () => {
    const named = await start(new StandInProcess(), {}, { urlDomains: ['example.com'] });
    expect(named.urlDomains).toEqual(['example.com']);
    const none = await start(new StandInProcess());
    expect(none.urlDomains).toEqual([]);
  });

  it('reads stderr into its tail when the log cannot be kept (a file where its folder goes)', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'airlock-conn-logs-')), 'logs');
    await writeFile(file, 'not a folder');
    const agent = new StandInProcess();
    const connection = await start(agent, { logsDir: file });
    agent.stderr.write('stand-in: ready\n');
    await expect.poll(() => connection.stderrTail).toEqual(['stand-in: ready']);
  });

  it('stops an agent that closes its connection but keeps running, and says so', async () => {
    const agent = new StandInProcess();
    let reported: (exit: AgentExit) => void = () => undefined;
    const ended = new Promise<AgentExit>((resolve) => {
      reported = resolve;
    });
    await start(agent, {
      delegate: standInDelegate((exit) => reported(exit)),
      timeouts: { requestMs: 10_000, cancelGraceMs: 10 },
    });
    agent.closeOutput();
    // After the grace period (10 ms) the process still runs: Airlock stops it.
    await expect.poll(() => agent.signals).toEqual(['SIGTERM']);
    agent.exit(null, 'SIGTERM');
    agent.close();
    expect((await deadline(ended, 'the end to be reported')).reason).toBe(
      'was stopped because it closed its connection but kept running',
    );
  });
});
