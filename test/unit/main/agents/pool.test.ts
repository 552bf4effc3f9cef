/**
 * Tabs and the agent processes behind them, at the edges: a tab opened just after the last one
 * closed, the last tab of one agent closed while another agent's stay, a tab opened while a card
 * waits, what an agent is told when it names a session that is not its own, the limit on updates
 * held before `session/new` answers, what a text chunk sends to the UI, restarting a failed tab
 * while another agent's tab runs, a mode the agent did not list, stopping one of two tabs
 * starting on the same process, a process started only to list history (which tabs keep it, and
 * what stopping it leaves), and settings that changed only in the order of their variables.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { fixtureSpec, scriptedTurn } from '../../../helpers/agents.js';
import { agentLogContains } from '../../../helpers/agent-log.js';
import {
  answerPermission,
  settledSession,
  TEST_TIMEOUTS,
  useCore,
} from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';

const { start, startWith } = useCore({ timeouts: TEST_TIMEOUTS });

describe('a tab opened as soon as the last tab of its agent closed', () => {
  it('starts on a new process, not on the one that is stopping', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
    // An agent that takes its time to go (until SIGKILL, 3 s after SIGTERM): while it does, the
    // new tab must not be handed the connection that is closing.
    const agent: AgentSpec = {
      ...fixtureSpec('basic'),
      env: { SCRIPTED_PID_FILE: pidFile, SCRIPTED_IGNORE_TERM: '1', SCRIPTED_LINGER: '1' },
    };
    const started = await startWith(agent);
    const { core, recorder, key: first, ready, turn } = started;
    const pid = await readFile(pidFile, 'utf8');

    await core.invoke('session:close', { key: first });
    const second = await ready(agent.name);
    expect(await readFile(pidFile, 'utf8')).not.toBe(pid);

    await turn(second, 'hi');
    expect(recorder.transcript(second)).toEqual(scriptedTurn('hi'));
  });
});

describe('closing the last tab of one agent while another agent has tabs', () => {
  it("stops that agent's process and leaves the other's running", async () => {
    const pids = await mkdtemp(join(tmpdir(), 'airlock-pid-'));
    const closing: AgentSpec = {
      ...fixtureSpec('basic', 'closing'),
      env: { SCRIPTED_PID_FILE: join(pids, 'closing.pid') },
    };
    const staying: AgentSpec = {
      ...fixtureSpec('basic', 'staying'),
      env: { SCRIPTED_PID_FILE: join(pids, 'staying.pid') },
    };
    const started = await start({ agents: [closing, staying] });
    const { core, recorder, ready } = started;
    const key = await ready(closing.name);
    const other = await ready(staying.name);
    const closingPid = Number(await readFile(join(pids, 'closing.pid'), 'utf8'));
    const stayingPid = Number(await readFile(join(pids, 'staying.pid'), 'utf8'));

    await core.invoke('session:close', { key });
    await expect.poll(() => alive(closingPid), { timeout: 5_000 }).toBe(false);
    expect(alive(stayingPid)).toBe(true);
    await core.invoke('session:prompt', { key: other, text: 'still there?' });
    expect((await recorder.event(other, 'turn_end')).stopReason).toBe('end_turn');
  });
});

describe('a tab opened while another shows a permission card', () => {
  it('gets a key of its own, and the card still answers in its tab', async () => {
    const agent = fixtureSpec('permission');
    const started = await startWith(agent);
    const { core, recorder, key: first, ready } = started;
    await core.invoke('session:prompt', { key: first, text: 'clean up' });
    const card = await recorder.event(first, 'permission');

    const second = await ready(agent.name);
    expect(second).not.toBe(first);
    await answerPermission(core, first, card, { outcome: 'selected', optionId: 'yes' });
    expect((await recorder.event(first, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.text(first)).toBe('permission: selected yes');
    expect(recorder.transcript(second)).toEqual([]);
  });
});

describe("a permission request for a session that is not the connection's", () => {
  it('is refused with a message naming the first 100 characters of the id', async () => {
    const agent = {
      ...fixtureSpec('fixed-session'),
      env: { SCRIPTED_SESSION_ID: 'mine' },
    };
    const started = await startWith(agent);
    const { core, recorder, key } = started;
    const id = `${'a'.repeat(100)}${'b'.repeat(100)}`;

    await core.invoke('session:prompt', { key, text: `refused ${id}` });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toBe(
      `refused: Invalid params: "${'a'.repeat(100)}" is not a session on this connection.`,
    );
  });
});

describe('updates for a session before session/new answers, at the limit', () => {
  it('are kept for the 16th session id sent, and not for the 17th', async () => {
    // Updates came for "early-1" to "early-20", one id after the other.
    const agent = { ...fixtureSpec('early-flood'), env: { SCRIPTED_OPENS: 'early-16,early-17' } };
    const started = await start({ agents: [agent] });
    const { recorder, ready, turn } = started;
    await ready(agent.name);
    const sixteenth = await ready(agent.name);
    expect(recorder.transcript(sixteenth)).toEqual([
      { type: 'chunk', role: 'agent', text: 'early 16' },
    ]);

    const seventeenth = await ready(agent.name);
    await turn(seventeenth, 'hello');
    expect(recorder.transcript(seventeenth)).toEqual(scriptedTurn('hello'));
  });
});

describe('a text chunk', () => {
  it("is sent without the tab's summary, which it does not change", async () => {
    const agent = { ...fixtureSpec('fixed-session'), env: { SCRIPTED_SESSION_ID: 'mine' } };
    const started = await startWith(agent);
    const { core, recorder, key } = started;
    // What the core emits for the tab, in order.
    const emitted: string[] = [];
    core.onEvent((channel, payload) => {
      if (channel === 'session:onDidChange' && (payload as { key: string }).key === key) {
        emitted.push('summary');
      } else if (channel === 'session:onDidAppend' && (payload as { key: string }).key === key) {
        const { events } = payload as { events: { type: string; text?: string }[] };
        emitted.push(
          ...events.map((event) => `${event.type}${event.text ? ` ${event.text}` : ''}`),
        );
      }
    });

    // "step 1" to "step 3", each followed by a round trip through the core: "step 2" comes in a
    // batch of its own, after the one that said the turn began.
    await core.invoke('session:prompt', { key, text: 'steps' });
    await recorder.event(key, 'turn_end');
    const second = emitted.indexOf('chunk step 2');
    expect(second).toBeGreaterThan(-1);
    expect(emitted.slice(second, second + 2)).toEqual(['chunk step 2', 'chunk step 3']);
  });
});

describe("restarting a failed tab while another agent's tab runs", () => {
  it('stops the process it failed on, starts a new one, and leaves keys unique', async () => {
    const pids = await mkdtemp(join(tmpdir(), 'airlock-pid-'));
    const pidFile = join(pids, 'failing.pid');
    // Answers every session/new with an error, and keeps running.
    const failing: AgentSpec = {
      ...fixtureSpec('new-fails-quietly', 'failing'),
      env: { SCRIPTED_PID_FILE: pidFile },
    };
    const other = fixtureSpec('basic', 'other');
    const started = await start({ agents: [failing, other] });
    const { core, recorder, dir, ready } = started;
    const failed = await settledSession(core, recorder, failing.name, dir);
    expect(failed.summary.status).toBe('failed');
    const running = await ready(other.name);
    const oldPid = Number(await readFile(pidFile, 'utf8'));

    await core.invoke('session:restart', { key: failed.key });
    await recorder.until(
      () =>
        recorder
          .transcript(failed.key)
          .some(
            (event) =>
              event.type === 'system' && event.text.startsWith('failing could not restart:'),
          ),
      'the restart to end',
    );
    // A fresh process (it would pick up changed settings), and the old one stopped.
    const newPid = Number(await readFile(pidFile, 'utf8'));
    expect(newPid).not.toBe(oldPid);
    await expect.poll(() => alive(oldPid), { timeout: 5_000 }).toBe(false);
    expect(alive(newPid)).toBe(true);

    // A tab opened after the restart gets a key no other tab has, and each tab works alone.
    const third = await ready(other.name);
    expect([failed.key, running]).not.toContain(third);
    await core.invoke('session:prompt', { key: running, text: 'hi' });
    expect((await recorder.event(running, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.transcript(third)).toEqual([]);
  });
});

describe('session:setMode with a mode the agent did not list', () => {
  it('sets it when the agent accepts it', async () => {
    const agent = fixtureSpec('modes-echo');
    const { core, recorder, key } = await startWith(agent);

    await core.invoke('session:setMode', { key, modeId: 'review' });
    await recorder.until(
      () => recorder.summaries.get(key)?.currentModeId === 'review',
      'the summary to show the mode "review"',
    );
  });
});

describe('stopping one of two tabs that start on the same process', () => {
  it('leaves the process to the other, which then opens on it', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
    // Answers session/new only once three are waiting.
    const agent: AgentSpec = { ...fixtureSpec('new-held'), env: { SCRIPTED_PID_FILE: pidFile } };
    const started = await start({ agents: [agent] });
    const { core, recorder } = started;
    const create = () => started.create(agent.name);
    const stopped = await create();
    const waiting = await create();
    await recorder.status(stopped, 'starting');
    await recorder.status(waiting, 'starting');
    await expect
      .poll(() => readFile(pidFile, 'utf8').catch(() => ''), { timeout: 5_000 })
      .not.toBe('');
    const pid = await readFile(pidFile, 'utf8');
    // Both session/new have reached the agent: stopping one now leaves its request there.
    await agentLogContains(core!, agent.name, '2 session/new waiting');

    await core.invoke('session:stopStart', { key: stopped });
    expect((await recorder.status(stopped, 'failed')).error).toBe(
      `You stopped ${agent.name} while it was starting.`,
    );
    // The third session/new, on the same process, lets all three answer.
    const third = await create();
    await recorder.status(third, 'ready');
    expect((await recorder.status(waiting, 'ready', 'failed', 'exited')).status).toBe('ready');
    expect(await readFile(pidFile, 'utf8')).toBe(pid);
    expect(recorder.summaries.get(stopped)?.status).toBe('failed');
  });
});

describe("a new tab after its agent's settings changed", () => {
  /** An agent writing its pid to `pidFile`, in a settings file the test can rewrite. */
  async function agentWithPidFile() {
    const pids = await mkdtemp(join(tmpdir(), 'airlock-pid-'));
    const agent: AgentSpec = {
      ...fixtureSpec('basic'),
      env: { SCRIPTED_PID_FILE: join(pids, 'before.pid') },
    };
    const started = await start({ agents: [agent] });
    /** Saves the agent with its pid going to `after.pid` instead, and reloads the settings. */
    const edit = async () => {
      const settings = JSON.parse(await readFile(started.settingsPath, 'utf8')) as {
        agent_servers: Record<string, { env: Record<string, string> }>;
      };
      settings.agent_servers[agent.name]!.env.SCRIPTED_PID_FILE = join(pids, 'after.pid');
      await writeFile(started.settingsPath, JSON.stringify(settings));
      await started.core.init();
    };
    const pid = async (name: 'before' | 'after') =>
      Number(await readFile(join(pids, `${name}.pid`), 'utf8'));
    return { ...started, agent, edit, pid };
  }

  it('starts on a new process with the new settings; the old one keeps its tab until it closes', async () => {
    const { core: started, recorder, agent, edit, pid, ready } = await agentWithPidFile();
    const old = await ready(agent.name);
    const oldPid = await pid('before');
    await edit();

    const fresh = await ready(agent.name);
    const newPid = await pid('after');
    expect(newPid).not.toBe(oldPid);
    expect(alive(oldPid)).toBe(true);
    // A third tab joins the process started with the settings as they are now.
    await ready(agent.name);
    await expect(pid('after')).resolves.toBe(newPid);

    await started.invoke('session:close', { key: old });
    await expect.poll(() => alive(oldPid), { timeout: 10_000 }).toBe(false);
    expect(alive(newPid)).toBe(true);
    // Closing the old tab left the new process the one new tabs start on.
    await ready(agent.name);
    await expect(pid('after')).resolves.toBe(newPid);
    await started.invoke('session:prompt', { key: fresh, text: 'hi' });
    await recorder.event(fresh, 'turn_end');
  });

  it('joins the running process when only the order of its variables changed', async () => {
    const { core: started, agent, pid, settingsPath, ready } = await agentWithPidFile();
    /** Saves the agent's variables in the order given. */
    const save = async (order: 'first' | 'last') => {
      const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
        agent_servers: Record<string, { env: Record<string, string> }>;
      };
      const { env } = settings.agent_servers[agent.name]!;
      const extra = { ORDER_CHECK: '1' };
      settings.agent_servers[agent.name]!.env =
        order === 'first' ? { ...extra, ...env } : { ...env, ...extra };
      await writeFile(settingsPath, JSON.stringify(settings));
      await started.init();
    };
    await save('last');
    await ready(agent.name);
    const running = await pid('before');

    await save('first');
    await ready(agent.name);
    await expect(pid('before')).resolves.toBe(running);
    expect(alive(running)).toBe(true);
  });

  it('stops both processes when the core is disposed', async () => {
    const { core: started, agent, edit, pid, ready } = await agentWithPidFile();
    await ready(agent.name);
    await edit();
    await ready(agent.name);
    const pids = [await pid('before'), await pid('after')];
    await started.dispose();
    expect(pids.map(alive)).toEqual([false, false]);
  });
});

describe('agents wait until the core may start them (the login shell PATH, in the desktop app)', () => {
  /** A gate that, as it opens, puts a pid file in the environment agents inherit. */
  async function gate() {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
    let open!: () => void;
    const ready = new Promise<void>((resolve) => {
      open = () => {
        vi.stubEnv('SCRIPTED_PID_FILE', pidFile);
        resolve();
      };
    });
    return { ready, open, pid: () => readFile(pidFile, 'utf8') };
  }
  afterEach(() => vi.unstubAllEnvs());

  it('a tab starts its agent only then, with the environment as it is then', async () => {
    const { ready, open, pid } = await gate();
    const agent = fixtureSpec('basic');
    const started = await start({ agents: [agent], options: { agentsReady: ready } });
    const { key } = await started.call('session:create', {
      agentName: agent.name,
      cwd: started.dir,
    });
    await started.recorder.status(key, 'starting');
    open();
    await started.recorder.status(key, 'ready');
    await expect(pid()).resolves.toMatch(/^\d+$/);
  });

  it("the settings view's Test too: it runs out its time waiting, and starts nothing", async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
    vi.stubEnv('SCRIPTED_PID_FILE', pidFile);
    const agent = fixtureSpec('basic');
    const started = await start({
      agents: [agent],
      options: {
        agentsReady: new Promise(() => undefined),
        testDeadlineMs: 3_000,
      },
    });
    const { core } = started;
    const report = await core.invoke('settings:testAgent', { agentName: agent.name });
    expect(report).toMatchObject({ ok: false, error: expect.stringMatching(/did not finish/) });
    await expect(readFile(pidFile, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('an agent started only to list its history', () => {
  /** An odd delay, so the idle timer is told from every other timer. */
  const IDLE_MS = 123_457;
  /** The core {@link historyCore} started last. */
  let core: AirlockCore | undefined;

  /** The scripted agent, writing its pid; and a core that stops idle agents after IDLE_MS. */
  async function historyCore(scenario = 'basic', others: AgentSpec[] = [], env = {}) {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'airlock-pid-')), 'agent.pid');
    const agent: AgentSpec = {
      ...fixtureSpec(scenario),
      env: { ...env, SCRIPTED_PID_FILE: pidFile },
    };
    const started = await start({ agents: [agent, ...others], options: { idleAgentMs: IDLE_MS } });
    core = started.core;
    return { ...started, agent, pid: async () => Number(await readFile(pidFile, 'utf8')) };
  }

  /** Lists the agent's history and hands back the idle timer's callback, to run at will. */
  async function listHistory(agentName: string, cwd: string): Promise<() => void> {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await core!.invoke('session:history', { agentName, cwd });
      const idle = timers.mock.calls.find(([, ms]) => ms === IDLE_MS);
      expect(idle, 'the idle timer').toBeDefined();
      return idle![0] as () => void;
    } finally {
      timers.mockRestore();
    }
  }

  /**
   * A core as `historyCore` makes it, whose agent's history was listed: the process started for
   * the list (its pid, `listed`) and the callback of its idle timer (`idle`).
   */
  async function listedCore(...args: Parameters<typeof historyCore>) {
    const run = await historyCore(...args);
    const idle = await listHistory(run.agent.name, run.dir);
    return { ...run, idle, listed: await run.pid() };
  }

  it('stops once it has been idle, no tab having started on it', async () => {
    const { agent, pid, recorder, ready, idle, listed } = await listedCore();
    expect(alive(listed)).toBe(true);

    idle();
    await expect.poll(() => alive(listed), { timeout: 5_000 }).toBe(false);
    // The next tab starts a process of its own, and works.
    const key = await ready(agent.name);
    expect(await pid()).not.toBe(listed);
    await core!.invoke('session:prompt', { key, text: 'hello' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
  });

  it('stays for a tab that started on it after the list, and for one there before', async () => {
    const { agent, dir, pid, recorder, ready, idle, listed } = await listedCore();
    const key = await ready(agent.name);
    expect(await pid()).toBe(listed);
    idle();
    // The timer found a tab on the process: another list, and its timer, find one too.
    const again = await listHistory(agent.name, dir);
    again();
    await core!.invoke('session:prompt', { key, text: 'still there?' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(alive(listed)).toBe(true);
  });

  it("stops though another agent's tab runs", async () => {
    const other = fixtureSpec('basic', 'other');
    const { agent, dir, pid, recorder, ready } = await historyCore('basic', [other]);
    const theirs = await ready(other.name);
    const idle = await listHistory(agent.name, dir);
    const listed = await pid();

    idle();
    await expect.poll(() => alive(listed), { timeout: 5_000 }).toBe(false);
    expect(recorder.summaries.get(theirs)?.status).toBe('ready');
  });

  it('stays for a tab still starting on it', async () => {
    // Its session/new answers once three wait.
    const { agent, dir, pid, recorder, ready, idle, listed } = await listedCore('new-held');
    const { key } = (await core!.invoke('session:create', { agentName: agent.name, cwd: dir })) as {
      key: string;
    };
    await agentLogContains(core!, agent.name, '1 session/new waiting');

    idle();
    // Two more tabs, on the same process, let the three open.
    await Promise.all([0, 1].map(() => ready(agent.name)));
    await recorder.status(key, 'ready');
    expect(await pid()).toBe(listed);
  });

  it('is not the process the next tab starts on, though it is still going', async () => {
    // It ends only at SIGKILL, after a grace period.
    const lingering = { SCRIPTED_IGNORE_TERM: '1', SCRIPTED_LINGER: '1' };
    const { agent, pid, recorder, ready, idle, listed } = await listedCore('basic', [], lingering);

    idle();
    const key = await ready(agent.name);
    expect(await pid()).not.toBe(listed);
    await core!.invoke('session:prompt', { key, text: 'hello' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
  });

  it("leaves the agent's newer process, started with new settings, to the next tab", async () => {
    const { agent, pid, settingsPath, ready, idle, listed } = await listedCore();
    // Saved with one more variable: the next tab starts a new process.
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
      agent_servers: Record<string, { env: Record<string, string> }>;
    };
    settings.agent_servers[agent.name]!.env.EDITED = '1';
    await writeFile(settingsPath, JSON.stringify(settings));
    await core!.init();
    await ready(agent.name);
    const newer = await pid();
    expect(newer).not.toBe(listed);

    idle();
    await expect.poll(() => alive(listed), { timeout: 5_000 }).toBe(false);
    await ready(agent.name);
    expect(await pid()).toBe(newer);
  });

  /**
   * Lists the agent's history with `setTimeout` and `clearTimeout` watched, and runs `check` with
   * the idle timer the list set and the `clearTimeout` spy.
   */
  async function listWatchingTimers(
    agentName: string,
    cwd: string,
    check: (idle: NodeJS.Timeout, cleared: MockInstance<typeof clearTimeout>) => Promise<void>,
  ): Promise<void> {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      await core!.invoke('session:history', { agentName, cwd });
      const at = timers.mock.calls.findIndex(([, ms]) => ms === IDLE_MS);
      await check(timers.mock.results[at]?.value as NodeJS.Timeout, cleared);
    } finally {
      timers.mockRestore();
      cleared.mockRestore();
    }
  }

  it('waits anew from a later list, and its wait keeps nothing running', async () => {
    const { agent, dir } = await historyCore();
    await listWatchingTimers(agent.name, dir, async (first, cleared) => {
      // A host with nothing else to do (the web host stopping, say) does not wait for it.
      expect(first.hasRef()).toBe(false);
      await core!.invoke('session:history', { agentName: agent.name, cwd: dir });
      expect(cleared).toHaveBeenCalledWith(first);
    });
  });

  it('stops waiting when the core is disposed, its process stopped with the rest', async () => {
    const { agent, dir, pid } = await historyCore();
    await listWatchingTimers(agent.name, dir, async (idle, cleared) => {
      const listed = await pid();
      expect(cleared).not.toHaveBeenCalledWith(idle);

      await core!.dispose();
      expect(cleared).toHaveBeenCalledWith(idle);
      expect(alive(listed)).toBe(false);
    });
  });
});
