import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { startFailure } from '../../../../main/core/agent-connection.js';
import { replyFor } from '../../../../main/demo-agent/script.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const { start, startWith } = useCore({ timeouts: TEST_TIMEOUTS });

describe('an agent that crashes during a turn', () => {
  it('ends the turn, reports the exit with its stderr, and leaves other agents alone', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const started = await start({ agents: [agent], options: { restartCrashed: false } });
    const { core, recorder } = started;
    const [crashing, sibling, demo] = await Promise.all([
      started.ready(agent.name),
      started.ready(agent.name),
      started.ready('Demo Agent'),
    ]);

    await core.invoke('session:prompt', { key: crashing, text: 'go' });
    const summary = await recorder.status(crashing, 'exited');
    expect(summary.exit).toMatchObject({ code: 7, signal: null, reason: 'exited with code 7' });
    expect(summary.exit?.stderrTail).toEqual([
      'scripted agent: playing crash-mid-turn',
      'scripted agent: loading the model',
      'scripted agent: fatal: out of cheese',
    ]);
    // What the agent said before it died is kept, and the exit comes after it.
    const types = recorder.transcript(crashing).map((event) => event.type);
    expect(types).toEqual(['prompt', 'chunk', 'agent_exit']);
    expect(recorder.text(crashing)).toBe('partial answer');
    await expect(core.invoke('session:prompt', { key: crashing, text: 'again' })).rejects.toThrow(
      'The session is not ready',
    );

    // The other session on the same process ends with it; the demo agent's is untouched.
    expect((await recorder.status(sibling, 'exited')).exit?.code).toBe(7);
    expect(recorder.summaries.get(demo)?.status).toBe('ready');
    expect(recorder.transcript(demo)).toEqual([]);
    await core.invoke('session:prompt', { key: demo, text: 'still here?' });
    await recorder.event(demo, 'turn_end');
    expect(recorder.text(demo)).toBe(replyFor('still here?'));
  });

  it('stops an agent that closes its output but keeps running, and says so', async () => {
    const agent = fixtureSpec('close-output');
    const started = await startWith(agent);
    const { core, key } = started;
    await core.invoke('session:prompt', { key, text: 'go' });
    const summary = await started.recorder.status(key, 'exited');
    expect(summary.exit?.reason).toBe(
      'was stopped because it closed its connection but kept running',
    );
    expect(summary.exit?.signal).toBe('SIGTERM');
    expect(started.recorder.text(key)).toBe('about to go quiet');
  });

  it('keeps the agent stderr in its log file, which the UI can read', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const started = await startWith(agent);
    const { core, key } = started;
    await core.invoke('session:prompt', { key, text: 'go' });
    // Its exit, as the transcript says it (the tab's status may already be a restart's).
    await started.recorder.event(key, 'agent_exit');

    const log = await started.call('agent:readLog', { agentName: agent.name });
    expect(log.path).toBe(join(started.dir, 'logs', 'fixture-crash-mid-turn.log'));
    expect(existsSync(log.path)).toBe(true);
    expect(log.text).toContain('started: ');
    expect(log.text).toContain('scripted-agent.ts crash-mid-turn');
    expect(log.text).toContain(
      'scripted agent: loading the model\nscripted agent: fatal: out of cheese\n',
    );
    expect(log.text).toContain('exited with code 7');
  });

  it('has an empty log before its agent first runs; a name not in the settings has none', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const started = await start({ agents: [agent] });
    const { core } = started;
    const log = await core.invoke('agent:readLog', { agentName: agent.name });
    expect(log).toEqual({
      path: join(started.dir, 'logs', 'fixture-crash-mid-turn.log'),
      text: '',
    });
    await expect(core.invoke('agent:readLog', { agentName: 'nobody' })).rejects.toThrow(
      'No agent named "nobody"',
    );
  });

  it('restarts with a fresh process and session on session:restart', async () => {
    const agent = fixtureSpec('crash-mid-turn');
    const started = await startWith(agent);
    const { core, recorder, key } = started;
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.status(key, 'exited');

    const before = recorder.transcript(key).length;
    await core.invoke('session:restart', { key });
    const ready = await recorder.status(key, 'ready');
    expect(ready.exit).toBeUndefined();
    expect(ready.agent?.title).toBe('Scripted Agent');
    expect(recorder.transcript(key)[before]).toEqual({
      type: 'system',
      id: expect.stringMatching(/^restart-/),
      text: `Restarting ${agent.name}…`,
    });
    await expect(core.invoke('session:restart', { key })).rejects.toThrow('The agent is running');

    // The new process works: it crashes again, on cue, and says so.
    await core.invoke('session:prompt', { key, text: 'go' });
    const exit = await recorder.event(key, 'agent_exit', before);
    expect(exit.exit.code).toBe(7);
    const log = await started.call('agent:readLog', { agentName: agent.name });
    expect(log.text.match(/exited with code 7/g)).toHaveLength(2);
  });
});

describe('an agent that cannot be started', () => {
  it('fails the session with the reason', async () => {
    const started = await start({
      agents: [
        {
          name: 'missing',
          command: join('/nonexistent', 'agent-binary'),
          args: [],
          env: {},
          builtIn: false,
        },
      ],
    });
    const { key } = await started.call('session:create', {
      agentName: 'missing',
      cwd: started.dir,
    });
    const summary = await started.recorder.status(key, 'failed');
    expect(summary.error).toBe(
      'missing could not be started: /nonexistent/agent-binary does not exist',
    );
  });

  it('keeps its start and the reason in its log', async () => {
    const missing = join('/nonexistent', 'agent-binary');
    const started = await start({
      agents: [{ name: 'missing', command: missing, args: [], env: {}, builtIn: false }],
    });
    const { core } = started;
    const { key } = await started.call('session:create', {
      agentName: 'missing',
      cwd: started.dir,
    });
    await started.recorder.status(key, 'failed');
    // The log viewer is where the user looks next: it has the command tried and why it failed.
    const read = async () =>
      ((await core!.invoke('agent:readLog', { agentName: 'missing' })) as { text: string }).text;
    await expect.poll(read).toMatch(/could not be started: .* does not exist\n$/);
    const lines = (await read()).split('\n').filter(Boolean);
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^--- \\S+ started: ${missing}$`)),
      expect.stringMatching(
        new RegExp(`^--- \\S+ could not be started: ${missing} does not exist$`),
      ),
    ]);
  });

  /** The error a session of `spec` fails with. */
  async function startError(spec: Partial<AgentSpec>): Promise<string | undefined> {
    const agent: AgentSpec = {
      name: 'missing',
      args: [],
      env: {},
      builtIn: false,
      command: '',
      ...spec,
    };
    const started = await start({ agents: [agent] });
    const { key } = await started.call('session:create', {
      agentName: agent.name,
      cwd: started.dir,
    });
    return (await started.recorder.status(key, 'failed')).error;
  }

  it('names the PATH it searched for a program not found there', async () => {
    const error = await startError({
      command: 'airlock-no-such-agent',
      env: { PATH: '/opt/one:/opt/two' },
    });
    expect(error).toContain(
      'could not be started: no program named "airlock-no-such-agent" was found on the PATH ' +
        '(/opt/one:/opt/two); give its full path as the command, or add its folder to PATH',
    );
  });

  it('says a file that is there cannot be run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-noexec-'));
    const file = join(dir, 'agent.sh');
    await writeFile(file, '#!/bin/sh\n', { mode: 0o644 });
    const error = await startError({ command: file });
    expect(error).toContain(`could not be started: ${file} cannot be run (permission denied)`);
  });
});

describe('startFailure: the words for a process that could not be started', () => {
  const spec = (command: string, env: Record<string, string> = {}): AgentSpec => ({
    ...fixtureSpec('crash-mid-turn'),
    command,
    env,
  });
  const errno = (code: string, message = `spawn ${code}`) =>
    Object.assign(new Error(message), { code }) as NodeJS.ErrnoException;
  /** The words for an agent not found, with Airlock's own PATH set to `path` meanwhile. */
  const wordsWithPath = (path: string | undefined): string => {
    vi.stubEnv('PATH', path);
    try {
      return startFailure(errno('ENOENT'), spec('agent'));
    } finally {
      vi.unstubAllEnvs();
    }
  };

  it('clips a PATH longer than 1,000 characters, ending it with an ellipsis', () => {
    const path = Array.from({ length: 200 }, (_, i) => `/opt/p${i}`).join(':');
    const words = startFailure(errno('ENOENT'), spec('agent', { PATH: path }));
    const quoted = /on the PATH \((.*)\); give/.exec(words)?.[1] ?? '';
    expect(quoted).toHaveLength(1_000);
    expect(quoted).toBe(`${path.slice(0, 999)}…`);
  });

  it('quotes a PATH of exactly 1,000 characters whole', () => {
    const path = `/${'a'.repeat(999)}`;
    const words = startFailure(errno('ENOENT'), spec('agent', { PATH: path }));
    expect(words).toContain(`(${path});`);
  });

  it('says the PATH is empty when it is', () => {
    const words = startFailure(errno('ENOENT'), spec('agent', { PATH: '' }));
    expect(words).toContain('was found on the PATH (empty);');
  });

  it("quotes Airlock's own PATH when the agent's environment sets none", () => {
    const words = wordsWithPath('/usr/local/bin:/usr/bin');
    expect(words).toContain('was found on the PATH (/usr/local/bin:/usr/bin);');
  });

  it('says the PATH is empty when neither the agent nor Airlock has one', () => {
    const words = wordsWithPath(undefined);
    expect(words).toContain('was found on the PATH (empty);');
  });

  it('gives the system’s words for any other failure', () => {
    const words = startFailure(errno('ENOTDIR', 'spawn /a/b ENOTDIR'), spec('/a/b'));
    expect(words).toBe('could not be started (spawn /a/b ENOTDIR)');
  });
});
