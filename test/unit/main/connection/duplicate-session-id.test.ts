/**
 * An agent that hands a tab an ACP session id another tab of the same connection holds: the
 * new tab does not start and says why, and the tab that holds the id keeps its transcript, its
 * state, and every update and card sent for that id. The same for a session reopened with
 * `session/load` or `session/resume`.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AirlockCore } from '../../../../main/core/core.js';
import type { AgentConnection } from '../../../../main/core/agent-connection.js';
import {
  DUPLICATE_REOPEN,
  duplicateNewSession,
  heldByAnotherTab,
} from '../../../../main/core/session-ids.js';
import { Session } from '../../../../main/core/session.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { demoAgentSpec, fixtureSpec } from '../../../helpers/agents.js';
import {
  answerPermission,
  boundedCore,
  deadline,
  readySession,
  Recorder,
  settledSession,
  startCore,
} from '../../../helpers/core-harness.js';

const timeouts = { requestMs: 10_000, cancelGraceMs: 500 };

const cores: AirlockCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});

/** The agent that opens every session as "shared", offering `reopen` as well. */
function sharedIdAgent(reopen: 'none' | 'load' | 'resume' = 'none'): AgentSpec {
  return {
    ...fixtureSpec('fixed-session', 'Same Id'),
    env: { SCRIPTED_SESSION_ID: 'shared', SCRIPTED_REOPEN: reopen },
  };
}

/**
 * Sends the "update shared" and "permission shared" turns through `holder` and checks that
 * both reached it, its card answered there, while `refused` got nothing.
 */
async function idStillReachesOnly(
  core: AirlockCore,
  recorder: Recorder,
  holder: string,
  refused: string,
) {
  const from = recorder.transcript(holder).length;
  await core.invoke('session:prompt', { key: holder, text: 'update shared' });
  await recorder.event(holder, 'turn_end', from);
  const next = recorder.transcript(holder).length;
  await core.invoke('session:prompt', { key: holder, text: 'permission shared' });
  const card = await recorder.event(holder, 'permission', next);
  expect(recorder.summaries.get(refused)?.pendingCards).toBe(0);
  await answerPermission(core, holder, card, { outcome: 'selected', optionId: 'yes' });
  await recorder.event(holder, 'turn_end', next);
  expect(recorder.text(holder)).toContain('an update for sharedsent an update to shared');
  expect(recorder.text(holder)).toContain('permission for shared: {"outcome"');
  expect(recorder.transcript(refused)).toEqual([]);
}

describe('a second tab that the agent gives the first tab’s session id', () => {
  it('does not start, says why, and leaves the first tab as it was', async () => {
    const agent = sharedIdAgent();
    const started = await startCore([agent], timeouts);
    const core = boundedCore(started.core);
    cores.push(core);
    const { recorder, dir } = started;
    const first = await readySession(core, recorder, agent.name, dir);
    await core.invoke('session:prompt', { key: first, text: 'hello' });
    await recorder.event(first, 'turn_end');
    const transcript = structuredClone(recorder.transcript(first));
    const summary = structuredClone(recorder.summaries.get(first));

    const second = await settledSession(core, recorder, agent.name, dir);
    expect(second.summary.status).toBe('failed');
    expect(second.summary.error).toBe(
      'Same Id gave a session id that another tab uses, so this tab did not start.',
    );
    expect(second.summary.error).toBe(duplicateNewSession(agent.name));
    expect(recorder.transcript(first)).toEqual(transcript);
    expect(recorder.summaries.get(first)).toEqual(summary);
    await expect(core.invoke('session:prompt', { key: second.key, text: 'hi' })).rejects.toThrow(
      'The session is not ready',
    );

    await idStillReachesOnly(core, recorder, first, second.key);
  });
});

describe.each(['load', 'resume'] as const)(
  'a kept tab reopened with session/%s while another tab holds its id',
  (reopen) => {
    it('does not reopen, says why, and leaves the other tab as it was', async () => {
      const agent = sharedIdAgent(reopen);
      const run = await startCore([agent], timeouts);
      cores.push(run.core);
      const { dir, settingsPath } = run;
      await readySession(run.core, run.recorder, agent.name, dir);
      await run.core.dispose();

      // The next run of the app: a new tab takes "shared" before the kept one is reopened.
      const core = boundedCore(
        new AirlockCore({
          settingsPath,
          logsDir: join(dir, 'logs'),
          demoAgent: demoAgentSpec(),
          defaultCwd: dir,
          timeouts,
        }),
      );
      cores.push(core);
      await deadline(core.init(), 'the core to start');
      const recorder = new Recorder(core);
      const holder = await readySession(core, recorder, agent.name, dir);
      const transcript = structuredClone(recorder.transcript(holder));
      const summary = structuredClone(recorder.summaries.get(holder));

      const { keys } = (await core.invoke('session:reopenSaved', {})) as { keys: string[] };
      expect(keys).toHaveLength(1);
      const reopened = await recorder.status(keys[0]!, 'failed', 'ready');
      expect(reopened.status).toBe('failed');
      expect(reopened.error).toBe(
        'Another tab has this session open, so it was not reopened here.',
      );
      expect(reopened.error).toBe(DUPLICATE_REOPEN);
      expect(recorder.transcript(holder)).toEqual(transcript);
      expect(recorder.summaries.get(holder)).toEqual(summary);

      await idStillReachesOnly(core, recorder, holder, keys[0]!);
    });
  },
);

describe('heldByAnotherTab', () => {
  const sink = { append: () => undefined, changed: () => undefined };
  const connection = {} as AgentConnection;

  function tab(key: string, on: AgentConnection, sessionId: string) {
    const session = new Session(key, 'Same Id', '/', sink);
    session.bindEarly(on, sessionId);
    return session;
  }

  it('finds the id on another tab of the same connection only', () => {
    const self = tab('s1', connection, 'shared');
    expect(heldByAnotherTab([self], self, connection, 'shared')).toBe(false);
    expect(
      heldByAnotherTab(
        [self, tab('s2', {} as AgentConnection, 'shared')],
        self,
        connection,
        'shared',
      ),
    ).toBe(false);
    expect(
      heldByAnotherTab([self, tab('s3', connection, 'other')], self, connection, 'shared'),
    ).toBe(false);
    expect(
      heldByAnotherTab([self, tab('s4', connection, 'shared')], self, connection, 'shared'),
    ).toBe(true);
  });
});
