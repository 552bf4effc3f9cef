import { mkdtemp, readFile, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AgentConnection } from '../../../../main/core/agent-connection.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { standInDelegate } from '../../../fixtures/conn-stand-in.js';
import { fixtureSpec, TSX_LOADER } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

const wrapper = fileURLToPath(new URL('../../../fixtures/agents/wrapper.ts', import.meta.url));

const { start } = useCore({ timeouts: TEST_TIMEOUTS });

async function pidFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
}

async function runAgent(agent: AgentSpec): Promise<AirlockCore> {
  const started = await start({ agents: [agent] });
  const { core } = started;
  await started.ready(agent.name);
  return core;
}

describe('stopping agents', () => {
  it.runIf(process.platform !== 'win32')(
    'stops what an agent started through a wrapper, not only the wrapper',
    async () => {
      const file = await pidFile();
      const agent: AgentSpec = {
        name: 'wrapped',
        command: process.execPath,
        args: ['--import', TSX_LOADER, wrapper, 'basic'],
        // The real agent keeps running when its input closes, as codex-acp does.
        env: { SCRIPTED_PID_FILE: file, SCRIPTED_LINGER: '1' },
        builtIn: false,
      };
      const running = await runAgent(agent);
      const pid = Number(await readFile(file, 'utf8'));
      expect(alive(pid)).toBe(true);
      await running.dispose();
      expect(alive(pid)).toBe(false);
    },
  );

  it('waits for an agent that ignores SIGTERM, and leaves no process behind', async () => {
    const file = await pidFile();
    const agent = {
      ...fixtureSpec('basic', 'stubborn'),
      env: { SCRIPTED_PID_FILE: file, SCRIPTED_LINGER: '1', SCRIPTED_IGNORE_TERM: '1' },
    };
    const running = await runAgent(agent);
    const pid = Number(await readFile(file, 'utf8'));
    await running.dispose();
    expect(alive(pid)).toBe(false);
  });
});

describe('starting agents', () => {
  it('starts an agent in the working folder of the session that starts it', async () => {
    const agent = fixtureSpec('cwd');
    const started = await start({ agents: [agent] });
    const { core } = started;
    const folder = await mkdtemp(join(tmpdir(), 'airlock-project-'));
    const key = await started.ready(agent.name, folder);
    await core.invoke('session:prompt', { key, text: 'where?' });
    await started.recorder.event(key, 'turn_end');
    expect(started.recorder.text(key)).toBe(`I run in ${await realpath(folder)}`);
  });

  it('starts an agent whose folder is gone in Airlock’s own, rather than fail as not found', async () => {
    const gone = join(await mkdtemp(join(tmpdir(), 'airlock-project-')), 'deleted');
    const connection = await AgentConnection.start(
      { ...fixtureSpec('basic'), cwd: gone },
      {
        logsDir: await mkdtemp(join(tmpdir(), 'airlock-logs-')),
        delegate: standInDelegate(),
        timeouts: TEST_TIMEOUTS,
      },
    );
    try {
      expect(connection.identity.title).toBe('Scripted Agent');
      expect(connection.exit).toBeUndefined();
    } finally {
      await connection.stop();
    }
  });
});
