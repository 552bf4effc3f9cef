import { describe, expect, it } from 'vitest';
import type { ConnectionTimeouts } from '../../../../main/core/agent-connection.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start, startWith } = useCore();

/** Starts a session with a fixture and waits for where it settles. */
async function settle(scenario: string, limits: ConnectionTimeouts = TEST_TIMEOUTS) {
  const agent = fixtureSpec(scenario);
  const started = await start({ agents: [agent], timeouts: limits });
  return { ...started, ...(await started.settled(agent.name)) };
}

describe('initialize', () => {
  it('shows who the agent is and how it was launched', async () => {
    const agent = fixtureSpec('basic');
    const started = await startWith(agent, { timeouts: TEST_TIMEOUTS });
    const { key } = started;
    const identity = started.recorder.summaries.get(key)?.agent;
    expect(identity).toMatchObject({
      configName: 'fixture-basic',
      name: 'scripted-agent',
      title: 'Scripted Agent',
      version: '9.9.9',
      protocolVersion: 1,
    });
    expect(identity?.commandLine).toMatch(
      / --import \S+tsx\S+ \S+\/test\/fixtures\/agents\/scripted-agent\.ts basic$/,
    );
  });

  it('fails the session with the field that is wrong when the result has the wrong shape', async () => {
    const { summary } = await settle('wrong-shape');
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe(
      'fixture-wrong-shape answered in a way Airlock cannot read when it started',
    );
    // The field that is wrong, under Details.
    expect(summary.errorDetail).toBe(
      'The answer to initialize is invalid at protocolVersion: Invalid input: expected number, received string',
    );
  });

  it('fails the session naming both versions when the protocol version is unsupported', async () => {
    const { summary } = await settle('wrong-shape-version');
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe(
      'fixture-wrong-shape-version speaks ACP protocol version 99; Airlock supports version 1',
    );
  });

  it('gives up after the request timeout when the agent never answers, and can try again', async () => {
    const { core, recorder, key, summary, call } = await settle('never-answer', {
      requestMs: 1500,
      cancelGraceMs: 500,
    });
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe('fixture-never-answer did not finish starting within 1.5 s');
    expect(summary.errorDetail).toBe('No answer to initialize within 1.5 s');

    // A failed start is not cached: a restart launches the agent again (and fails the same way).
    await core.invoke('session:restart', { key });
    await recorder.status(key, 'starting');
    const again = await recorder.status(key, 'failed');
    expect(again.error).toBe('fixture-never-answer did not finish starting within 1.5 s');
    const log = await call('agent:readLog', { agentName: 'fixture-never-answer' });
    expect(log.text.match(/started: /g)).toHaveLength(2);
    // The silent process was stopped, not left behind.
    expect(log.text).toContain('was stopped by SIGTERM');
  });
});

describe('session/new', () => {
  it('fails the session when the result has no session id', async () => {
    const { summary } = await settle('wrong-shape-new');
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe('fixture-wrong-shape-new did not say which session it started');
    expect(summary.errorDetail).toBe('The answer to session/new has no sessionId');
    expect(summary.agent).toBeUndefined();
  });

  it('shows the last line the agent wrote to stderr while the request ran with its error', async () => {
    const { summary } = await settle('new-fails-quietly');
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe(
      'fixture-new-fails-quietly: Internal error: Query closed before response received. ' +
        'Its log ends with: Error: --dangerously-skip-permissions cannot be used with root privileges',
    );
    expect(summary.errorDetail).toBe(
      'JSON-RPC error -32603 answering session/new; data: {"details":"Query closed before response received"}',
    );
  });

  it('gives up after the request timeout when the agent never answers', async () => {
    // Long enough for a slow start on a busy machine: initialize shares the limit.
    const { summary } = await settle('never-answer-new', { requestMs: 3000, cancelGraceMs: 500 });
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe('fixture-never-answer-new did not start a session within 3 s');
    expect(summary.errorDetail).toBe('No answer to session/new within 3 s');
  });
});

describe('modes offered twice', () => {
  it('shows one control: a config option of category mode supersedes the legacy modes', async () => {
    const { core, recorder, key, summary } = await settle('modes-twice');
    expect(summary.status).toBe('ready');
    expect(summary.modes).toEqual([]);
    expect(summary.configOptions.map((option) => [option.id, option.category])).toEqual([
      ['mode', 'mode'],
      ['model', 'model'],
    ]);
    // When the agent stops offering the mode option, its legacy modes are shown again.
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'turn_end');
    expect(recorder.summaries.get(key)?.modes.map((mode) => mode.id)).toEqual(['default', 'plan']);
  });
});
