/** Starts a real core against real agent processes and records what it emits. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionSummary, TranscriptEvent } from '../../preload/contract.js';
import type { ConnectionTimeouts } from '../../main/core/agent-connection.js';
import { AirlockCore, type CoreOptions } from '../../main/core/core.js';
import type { AgentSpec } from '../../main/core/settings.js';
import { demoAgentSpec } from './agents.js';

type Waiter = { check: () => boolean; resolve: () => void };

/** Everything the core emitted, per session, with a way to wait for a condition. */
export class Recorder {
  readonly transcripts = new Map<string, TranscriptEvent[]>();
  readonly summaries = new Map<string, SessionSummary>();
  private readonly waiters = new Set<Waiter>();

  constructor(core: AirlockCore) {
    core.onEvent((channel, payload) => {
      if (channel === 'session:onDidAppend') {
        const { key, events } = payload as { key: string; events: TranscriptEvent[] };
        this.transcript(key).push(...events);
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

  /** The streamed text of one role, joined. */
  text(key: string, role: 'agent' | 'user' | 'thought' = 'agent'): string {
    return this.transcript(key)
      .flatMap((event) => (event.type === 'chunk' && event.role === role ? [event.text] : []))
      .join('');
  }

  /** Resolves once `check` holds after an event (or at once); the test's timeout bounds it. */
  until(check: () => boolean): Promise<void> {
    if (check()) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.add({ check, resolve }));
  }

  /** Resolves once the session reaches `status`. */
  status(key: string, ...statuses: SessionSummary['status'][]): Promise<SessionSummary> {
    return this.until(() => statuses.includes(this.summaries.get(key)?.status as never)).then(() =>
      this.summaries.get(key)!,
    );
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
    await this.until(() => find() !== undefined);
    return find() as Extract<TranscriptEvent, { type: T }>;
  }
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
  const servers = Object.fromEntries(
    extra.map((spec) => [spec.name, { command: spec.command, args: spec.args, env: spec.env }]),
  );
  await writeFile(settingsPath, JSON.stringify({ agent_servers: servers }));
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
