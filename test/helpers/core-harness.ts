/**
 * Starts a real core against real agent processes and records what it emits. A test file sets
 * one up with {@link useCore}, which disposes of every core it started after each test.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  events,
  type AirlockApi,
  type CallChannel,
  type CallRequest,
  type CallResponse,
  type PermissionReply,
  type SessionSummary,
  type TranscriptEvent,
} from '../../preload/shared/contract.js';
import type { ConnectionTimeouts } from '../../main/core/agent-connection.js';
import { AirlockCore } from '../../main/core/core.js';
import type { CoreOptions } from '../../main/core/options.js';
import type { SecretStore } from '../../main/core/secrets.js';
import type { AgentSpec } from '../../main/core/agents/spec.js';
import { demoAgentSpec } from './agents.js';

type Waiter = { check: () => boolean; resolve: () => void };

/** How long a wait in a test may take before it fails, saying what it waited for. */
export const DEFAULT_DEADLINE_MS = 10_000;

/**
 * The agent timeouts most tests give a core: a request answers within 10 s on a loaded machine,
 * and a cancelled turn is ended after half a second rather than the app's five.
 */
export const TEST_TIMEOUTS: ConnectionTimeouts = { requestMs: 10_000, cancelGraceMs: 500 };

/** The demo agent's name, as its tabs and the settings file know it. */
export const DEMO = demoAgentSpec().name;

/** The timer functions as loaded: a test that fakes the timers leaves these alone. */
const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;

/**
 * Resolves as `promise` does, or rejects after `deadlineMs` with an error naming `description`
 * (a timer that fails the wait, never one that waits in its place). The time is real, fake
 * timers or not.
 */
export function deadline<T>(
  promise: Promise<T>,
  description: string,
  deadlineMs = DEFAULT_DEADLINE_MS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = realSetTimeout(
      () => reject(new Error(`Waited ${deadlineMs / 1000} s for ${description}`)),
      deadlineMs,
    );
  });
  return Promise.race([promise, expired]).finally(() => realClearTimeout(timer));
}

/**
 * `core` with a deadline on each call's answer: a change that leaves a handler unsettled fails
 * the test in seconds, naming the call it waited for, not at the test's timeout.
 */
export function boundedCore(core: AirlockCore): AirlockCore {
  const invoke = core.invoke.bind(core);
  core.invoke = (channel, payload) =>
    deadline(invoke(channel, payload), `core.invoke(${JSON.stringify(channel)}) to settle`);
  return core;
}

/** `events` as the UI shows them: each run of text chunks of one role as one chunk. */
export function shownEvents(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const shown: TranscriptEvent[] = [];
  for (const event of events) {
    const last = shown.at(-1);
    if (event.type === 'chunk' && last?.type === 'chunk' && last.role === event.role) {
      shown[shown.length - 1] = { ...last, text: last.text + event.text };
    } else {
      shown.push(event);
    }
  }
  return shown;
}

/**
 * Everything the core emitted, per session, with a way to wait for a condition.
 *
 * Each payload is checked against the contract first, as both hosts' bridges do: one the UI
 * would drop is kept out of the transcripts and summaries too, and listed in `dropped`.
 */
export class Recorder {
  readonly transcripts = new Map<string, TranscriptEvent[]>();
  readonly summaries = new Map<string, SessionSummary>();
  /** The payloads that failed the contract, with the first reason. */
  readonly dropped: { channel: string; issue: string }[] = [];
  /** How long {@link Recorder.until} waits unless told otherwise. */
  deadlineMs = DEFAULT_DEADLINE_MS;
  private readonly waiters = new Set<Waiter>();

  constructor(core: AirlockCore) {
    core.onEvent((channel, payload) => {
      const parsed = events[channel].safeParse(payload);
      if (!parsed.success) {
        this.dropped.push({ channel, issue: describeIssue(parsed.error.issues[0]) });
      } else if (channel === 'session:onDidAppend') {
        const { key, events: appended } = payload as {
          key: string;
          events: TranscriptEvent[];
        };
        this.transcript(key).push(...appended);
      } else if (channel === 'session:onDidChange') {
        const summary = payload as SessionSummary;
        this.summaries.set(summary.key, summary);
      }
      for (const waiter of [...this.waiters]) {
        if (waiter.check()) {
          this.waiters.delete(waiter);
          waiter.resolve();
        }
      }
    });
  }

  /** The events appended to a session so far. */
  transcript(key: string): TranscriptEvent[] {
    let events = this.transcripts.get(key);
    if (!events) {
      events = [];
      this.transcripts.set(key, events);
    }
    return events;
  }

  /**
   * The events appended to a session so far as the UI shows them: each run of text chunks of
   * one role as one chunk, however the core cut it into batches.
   */
  shown(key: string): TranscriptEvent[] {
    return shownEvents(this.transcript(key));
  }

  /** The streamed text of one role, joined. */
  text(key: string, role: 'agent' | 'user' | 'thought' = 'agent'): string {
    return this.transcript(key)
      .flatMap((event) => (event.type === 'chunk' && event.role === role ? [event.text] : []))
      .join('');
  }

  /**
   * Resolves once `check` holds after an event (or at once). Rejects after `deadlineMs` with an
   * error naming `description` (read when the wait fails, so it can tell the state then), so a
   * caught regression fails the test saying what never came, not as a bare test timeout.
   */
  until(
    check: () => boolean,
    description: string | (() => string) = 'a condition',
    deadlineMs = this.deadlineMs,
  ): Promise<void> {
    if (check()) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        check,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const what = typeof description === 'function' ? description() : description;
        reject(new Error(`Waited ${deadlineMs / 1000} s for ${what}${this.droppedNote()}`));
      }, deadlineMs);
      this.waiters.add(waiter);
    });
  }

  /** Resolves once the session reaches `status`. */
  status(key: string, ...statuses: SessionSummary['status'][]): Promise<SessionSummary> {
    return this.until(
      () => statuses.includes(this.summaries.get(key)?.status as never),
      () => {
        const summary = this.summaries.get(key);
        const now = summary
          ? `${summary.status}${summary.error ? ` (${summary.error})` : ''}`
          : 'never reported';
        return `session ${key} to be ${statuses.join(' or ')}; it is ${now}`;
      },
    ).then(() => this.summaries.get(key)!);
  }

  /** Resolves with the first event of `type` at or after index `from`. */
  async event<T extends TranscriptEvent['type']>(
    key: string,
    type: T,
    from = 0,
  ): Promise<Extract<TranscriptEvent, { type: T }>> {
    const find = () =>
      this.transcript(key)
        .slice(from)
        .find((event) => event.type === type);
    await this.until(
      () => find() !== undefined,
      () => {
        const seen = this.transcript(key).slice(from);
        const types = seen.map((event) => event.type).join(', ') || 'none';
        return `a "${type}" event in session ${key} from index ${from}; its events since: ${types.slice(0, 1000)}`;
      },
    );
    return find() as Extract<TranscriptEvent, { type: T }>;
  }

  private droppedNote(): string {
    return this.dropped.length
      ? `; ${this.dropped.length} payload(s) failed the contract, first: ${this.dropped[0]!.channel}: ${this.dropped[0]!.issue}`
      : '';
  }
}

function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
  return issue ? `${issue.path.map(String).join('.') || '(top)'}: ${issue.message}` : 'invalid';
}

/** The settings file's `agent_servers` entries for `agents`. */
function agentServers(agents: AgentSpec[]) {
  return Object.fromEntries(
    agents.map((spec) => [
      spec.name,
      {
        command: spec.command,
        args: spec.args,
        env: spec.env,
        ...(spec.urlDomains === undefined ? {} : { url_domains: spec.urlDomains }),
      },
    ]),
  );
}

/**
 * A core with its own config folder, the demo agent, and `extra` agents in its settings file.
 * `overrides` replaces any other core option (a small `maxMessageBytes`, say).
 */
export async function startCore(
  extra: AgentSpec[] = [],
  timeouts?: ConnectionTimeouts,
  overrides: Partial<CoreOptions> = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'airlock-test-'));
  const settingsPath = join(dir, 'settings.json');
  await writeFile(settingsPath, JSON.stringify({ agent_servers: agentServers(extra) }));
  const core = new AirlockCore({
    settingsPath,
    logsDir: join(dir, 'logs'),
    demoAgent: demoAgentSpec(),
    defaultCwd: dir,
    timeouts,
    ...overrides,
  });
  await core.init();
  const recorder = new Recorder(core);
  return { core, dir, recorder, settingsPath };
}

/** Creates a session and waits for where it settles: ready, failed, sign-in, or exited. */
export async function settledSession(
  core: AirlockCore,
  recorder: Recorder,
  agentName: string,
  cwd: string,
): Promise<{ key: string; summary: SessionSummary }> {
  const { key } = (await core.invoke('session:create', { agentName, cwd })) as { key: string };
  const summary = await recorder.status(key, 'ready', 'failed', 'auth_required', 'exited');
  return { key, summary };
}

/** Creates a session and waits until it is ready (or fails the test with its error). */
export async function readySession(
  core: AirlockCore,
  recorder: Recorder,
  agentName: string,
  cwd: string,
): Promise<string> {
  const { key, summary } = await settledSession(core, recorder, agentName, cwd);
  if (summary.status !== 'ready') {
    throw new Error(`session did not become ready: ${summary.status} ${summary.error ?? ''}`);
  }
  return key;
}

/** What {@link useCore} starts: each field a default for every core of the file. */
export type CoreSetup = {
  /** Agents in the settings file besides the demo agent (which the core always has). */
  agents?: AgentSpec[];
  /** The agents' timeouts ({@link TEST_TIMEOUTS} for most tests); the app's own when absent. */
  timeouts?: ConnectionTimeouts;
  /** More of the settings file, beside `agent_servers` (`context_servers`, say). */
  settings?: Record<string, unknown>;
  /** Where sign-in values are kept; none when absent, as on the web host. */
  secrets?: SecretStore;
  /** Puts a deadline on each call's answer (see {@link boundedCore}). */
  bounded?: boolean;
  /** How long the recorder's waits take before they fail; {@link DEFAULT_DEADLINE_MS} if absent. */
  deadlineMs?: number;
  /** Any other core option (a small `maxMessageBytes`, say). */
  options?: Partial<CoreOptions>;
};

/** A started core, what it emitted, and what tests do with it. */
export type CoreRun = {
  core: AirlockCore;
  recorder: Recorder;
  /** The core's config folder, which is also its default working folder. */
  dir: string;
  settingsPath: string;
  /** Sends a call as a host does and resolves with the contract's answer for it. */
  call: AirlockApi['invoke'];
  /** Creates a session and resolves with its key at once, while it starts. */
  create(agentName?: string, cwd?: string): Promise<string>;
  /** Creates a session and waits until it is ready; the demo agent in `dir` by default. */
  ready(agentName?: string, cwd?: string): Promise<string>;
  /** Creates a session and waits for where it settles: ready, failed, sign-in, or exited. */
  settled(agentName?: string, cwd?: string): Promise<{ key: string; summary: SessionSummary }>;
  /** Sends a prompt and waits for its turn to end and the tab to be ready again. */
  turn(key: string, text: string): Promise<void>;
  /**
   * Reopens `sessionId` of `agentName` in `dir` (under `title`, if given), a reopen that is to
   * fail, and waits for its tab to fail.
   */
  reopenFailing(
    agentName: string,
    sessionId: string,
    title?: string,
  ): Promise<{ key: string; summary: SessionSummary }>;
  /** Another core on the same config folder and settings, as the app started again after a quit. */
  again(): Promise<CoreRun>;
};

/** Answers the permission card `card` of the tab `key` as the user does: with `outcome`. */
export function answerPermission(
  core: AirlockCore,
  key: string,
  card: { promptKey: string },
  outcome: PermissionReply,
): Promise<void> {
  return core.invoke('permission:respond', {
    key,
    promptKey: card.promptKey,
    outcome,
  }) as Promise<void>;
}

/**
 * Registers the disposal of a file's cores after each test and returns `start`, which starts a
 * core with `defaults` and, over them, the test's own setup. Modelled on the e2e `useWebApp`.
 */
export function useCore(defaults: CoreSetup = {}) {
  const cores: AirlockCore[] = [];
  afterEach(async () => {
    await Promise.all(cores.splice(0).map((core) => core.dispose()));
  });

  async function launch(setup: CoreSetup, dir: string, settingsPath: string): Promise<CoreRun> {
    const core = new AirlockCore({
      settingsPath,
      logsDir: join(dir, 'logs'),
      demoAgent: demoAgentSpec(),
      defaultCwd: dir,
      timeouts: setup.timeouts,
      ...(setup.secrets ? { secrets: setup.secrets } : {}),
      ...setup.options,
    });
    cores.push(setup.bounded ? boundedCore(core) : core);
    await deadline(core.init(), 'the core to start');
    const recorder = new Recorder(core);
    if (setup.deadlineMs !== undefined) {
      recorder.deadlineMs = setup.deadlineMs;
    }
    const call = <C extends CallChannel>(channel: C, request: CallRequest<C>) =>
      core.invoke(channel, request) as Promise<CallResponse<C>>;
    const settled = (agentName = DEMO, cwd = dir) => settledSession(core, recorder, agentName, cwd);
    return {
      core,
      recorder,
      dir,
      settingsPath,
      call,
      settled,
      create: async (agentName = DEMO, cwd = dir) =>
        (await call('session:create', { agentName, cwd })).key,
      ready: (agentName = DEMO, cwd = dir) => readySession(core, recorder, agentName, cwd),
      async turn(key, text) {
        const from = recorder.transcript(key).length;
        await call('session:prompt', { key, text });
        await recorder.event(key, 'turn_end', from);
        await recorder.status(key, 'ready');
      },
      async reopenFailing(agentName, sessionId, title) {
        const request = { agentName, cwd: dir, sessionId, ...(title ? { title } : {}) };
        const { key } = await call('session:reopen', request);
        return { key, summary: await recorder.status(key, 'failed') };
      },
      again: () => launch(setup, dir, settingsPath),
    };
  }

  /** Starts a core in a new config folder; `own` adds to and overrides the file's defaults. */
  async function start(own: CoreSetup = {}): Promise<CoreRun> {
    const setup = { ...defaults, ...own, options: { ...defaults.options, ...own.options } };
    const dir = await mkdtemp(join(tmpdir(), 'airlock-test-'));
    const settingsPath = join(dir, 'settings.json');
    await writeFile(
      settingsPath,
      JSON.stringify({ agent_servers: agentServers(setup.agents ?? []), ...setup.settings }),
    );
    return launch(setup, dir, settingsPath);
  }

  /** Starts a core with `agent` besides the file's agents, and a ready session of it. */
  async function startWith(
    agent: AgentSpec,
    own: CoreSetup = {},
  ): Promise<CoreRun & { key: string; agentName: string }> {
    const run = await start({ ...own, agents: [...(own.agents ?? defaults.agents ?? []), agent] });
    return { ...run, key: await run.ready(agent.name), agentName: agent.name };
  }

  return { start, startWith };
}
