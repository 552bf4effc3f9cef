/**
 * The demo agent's sessions that last: `session/list`, `session/load`, `session/resume` and
 * `session/close`, over one JSON file per session in the folder `AIRLOCK_DEMO_STATE_DIR` names.
 *
 * Airlock sets that variable for its built-in demo agent (to `<configDir>/demo-agent/`); without
 * it the demo keeps nothing and advertises none of this, as an agent without history would.
 * A file holds the session's folder, title, last activity and the `session/update`s of its
 * turns (the user's prompts as `user_message_chunk`s), which `session/load` sends again.
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** The folder sessions are kept in, or none. */
export const STATE_DIR = process.env.AIRLOCK_DEMO_STATE_DIR || undefined;
/**
 * `AIRLOCK_DEMO_REOPEN=resume`: advertise `session/resume` but not `session/load`, as agents that
 * cannot replay a conversation do (it shows Airlock's other way of reopening).
 */
const RESUME_ONLY = process.env.AIRLOCK_DEMO_REOPEN === 'resume';

/** The most updates one session keeps; later ones are not recorded. */
const MAX_UPDATES = 5_000;
/** The most text one session keeps, across its updates. */
const MAX_CHARS = 2_000_000;
/** The longest piece of streamed text kept as one update. */
const MAX_MERGED_CHARS = 64_000;
/** How many sessions one `session/list` page holds. */
const PAGE_SIZE = 50;
/** The most session files `session/list` reads. */
const MAX_FILES = 1_000;
/** The updates a transcript keeps: what the conversation was, not the session's state. */
const KEPT = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'session_info_update',
]);
/** Ids the demo makes (`demo_` and a UUID): nothing else becomes a file name. */
const SESSION_ID = /^demo_[0-9a-f-]{36}$/;

const Saved = z.object({
  version: z.literal(1),
  sessionId: z.string().regex(SESSION_ID),
  cwd: z.string().max(4096),
  title: z.string().max(1000).optional(),
  updatedAt: z.string().max(100),
  truncated: z.boolean().optional(),
  updates: z.array(z.record(z.string(), z.unknown())).max(MAX_UPDATES),
});
type Saved = z.infer<typeof Saved>;

/** What the agent advertises in `initialize`: all of it with a folder, nothing without. */
export function historyCapabilities(): Pick<
  acp.AgentCapabilities,
  'loadSession' | 'sessionCapabilities'
> {
  return STATE_DIR
    ? { loadSession: !RESUME_ONLY, sessionCapabilities: { list: {}, resume: {}, close: {} } }
    : { loadSession: false };
}

/** What the history needs of a session's state in index.ts. */
type Reopenable = { cwd: string; cancelled: boolean; onCancel: (() => void)[] };

/** The demo's kept sessions. */
export function sessionHistory<S extends Reopenable>(deps: {
  sessions: Map<string, S>;
  /** A fresh state for a session reopened in `cwd`. */
  fresh: (cwd: string) => S;
  /** Announces the session's commands, as `session/new` does. */
  announce: (client: acp.AgentContext, sessionId: string) => void;
}) {
  const kept = new Map<string, Saved>();
  /** How much text each kept transcript holds, counted once and then kept up to date. */
  const sizes = new WeakMap<Saved, number>();
  const fileOf = (sessionId: string) => join(STATE_DIR ?? '', `${sessionId}.json`);

  async function read(sessionId: string): Promise<Saved | undefined> {
    if (!STATE_DIR || !SESSION_ID.test(sessionId)) {
      return undefined;
    }
    try {
      const info = await stat(fileOf(sessionId));
      if (!info.isFile() || info.size > MAX_CHARS * 4) {
        return undefined;
      }
      const parsed = Saved.safeParse(JSON.parse(await readFile(fileOf(sessionId), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async function save(saved: Saved): Promise<void> {
    if (!STATE_DIR) {
      return;
    }
    // Atomic: a temporary file renamed over the old one, so a crash leaves the last whole turn.
    await mkdir(STATE_DIR, { recursive: true });
    const temporary = `${fileOf(saved.sessionId)}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(saved), { mode: 0o600 });
      await rename(temporary, fileOf(saved.sessionId));
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      process.stderr.write(`demo agent: could not save ${saved.sessionId}: ${String(error)}\n`);
    }
  }

  /** Adds one update to a kept transcript, merging streamed text to keep the file small. */
  function record(saved: Saved, update: acp.SessionUpdate): void {
    if (!KEPT.has(update.sessionUpdate) || saved.truncated) {
      return;
    }
    if (update.sessionUpdate === 'session_info_update' && update.title) {
      saved.title = update.title.slice(0, 1000);
    }
    const last = saved.updates.at(-1) as acp.SessionUpdate | undefined;
    const lastText = last && streamedText(last);
    const text = streamedText(update);
    // Streamed text joins the piece before it, up to a size a replay can send in one update.
    const merge =
      lastText !== undefined &&
      text !== undefined &&
      last?.sessionUpdate === update.sessionUpdate &&
      lastText.text.length + text.text.length <= MAX_MERGED_CHARS;
    const size = merge ? text.text.length : JSON.stringify(update).length;
    const used = sizes.get(saved) ?? JSON.stringify(saved.updates).length;
    if ((!merge && saved.updates.length >= MAX_UPDATES) || used + size > MAX_CHARS) {
      saved.truncated = true;
      return;
    }
    sizes.set(saved, used + size);
    if (merge) {
      lastText.text += text.text;
      return;
    }
    saved.updates.push(structuredClone(update) as Record<string, unknown>);
  }

  /** Registers a reopened session's state; the response `session/load` and `resume` share. */
  async function reopen(
    client: acp.AgentContext,
    params: { sessionId: string; cwd: string },
    replay: boolean,
  ): Promise<S> {
    const saved = kept.get(params.sessionId) ?? (await read(params.sessionId));
    if (!saved) {
      throw acp.RequestError.resourceNotFound(params.sessionId);
    }
    // Reopened where it ran: a session belongs to its folder.
    if (saved.cwd !== params.cwd) {
      throw acp.RequestError.invalidParams(
        undefined,
        `Session ${params.sessionId} ran in ${saved.cwd}, not ${params.cwd}`,
      );
    }
    kept.set(params.sessionId, saved);
    if (replay) {
      // The spec: the whole conversation as `session/update`s, then the answer.
      for (const update of saved.updates) {
        await client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update: update as acp.SessionUpdate,
        });
      }
      if (saved.truncated) {
        await client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update: {
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'text', text: '\n\n(The rest of this session was too long to keep.)' },
          },
        });
      }
    }
    const state = deps.fresh(saved.cwd);
    deps.sessions.set(params.sessionId, state);
    deps.announce(client, params.sessionId);
    return state;
  }

  return {
    /** Starts keeping a new session (nothing without a folder). */
    async started(sessionId: string, cwd: string): Promise<void> {
      if (!STATE_DIR) {
        return;
      }
      const saved: Saved = {
        version: 1,
        sessionId,
        cwd,
        updatedAt: new Date().toISOString(),
        updates: [],
      };
      kept.set(sessionId, saved);
      await save(saved);
    },

    /**
     * The client a turn runs with: every `session/update` it sends for a kept session is
     * recorded as well. The user's prompt is recorded first; the file is written after the turn.
     */
    recording(client: acp.AgentContext, params: acp.PromptRequest): acp.AgentContext {
      const saved = kept.get(params.sessionId);
      if (!saved) {
        return client;
      }
      for (const block of params.prompt) {
        record(saved, { sessionUpdate: 'user_message_chunk', content: block });
      }
      // The title a list shows until the agent names the session: the first prompt.
      const first = params.prompt.find((block) => block.type === 'text');
      saved.title ??= first?.type === 'text' ? first.text.trim().slice(0, 80) : undefined;
      const notify = (method: string, update?: unknown) => {
        if (method === acp.methods.client.session.update) {
          const notification = update as acp.SessionNotification;
          if (notification.sessionId === params.sessionId) {
            record(saved, notification.update);
          }
        }
        return client.notify(method, update);
      };
      return new Proxy(client, {
        get: (target, property) => {
          if (property === 'notify') {
            return notify;
          }
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
    },

    /** Writes the session's file once its turn has ended. */
    async turnEnded(sessionId: string): Promise<void> {
      const saved = kept.get(sessionId);
      if (saved) {
        saved.updatedAt = new Date().toISOString();
        await save(saved);
      }
    },

    /** `session/list`: the kept sessions, newest first, in the folder asked for, in pages. */
    async list(params: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse> {
      if (!STATE_DIR) {
        throw acp.RequestError.methodNotFound(acp.methods.agent.session.list);
      }
      const names = await readdir(STATE_DIR).catch(() => [] as string[]);
      const found = await Promise.all(
        names
          .filter((file) => file.endsWith('.json'))
          .slice(0, MAX_FILES)
          .map((file) => read(file.slice(0, -'.json'.length))),
      );
      const sessions = found
        .filter((saved): saved is Saved => saved !== undefined)
        .filter((saved) => !params.cwd || saved.cwd === params.cwd)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      const from = params.cursor ? Number.parseInt(params.cursor, 10) || 0 : 0;
      const page = sessions.slice(from, from + PAGE_SIZE);
      return {
        sessions: page.map((saved) => ({
          sessionId: saved.sessionId,
          cwd: saved.cwd,
          title: saved.title ?? null,
          updatedAt: saved.updatedAt,
        })),
        nextCursor: from + PAGE_SIZE < sessions.length ? String(from + PAGE_SIZE) : null,
      };
    },

    /** `session/load`: the conversation again as updates, then the session is open. */
    load: (client: acp.AgentContext, params: acp.LoadSessionRequest) =>
      reopen(client, params, true),

    /** `session/resume`: the session is open again, with nothing replayed. */
    resume: (client: acp.AgentContext, params: acp.ResumeSessionRequest) =>
      reopen(client, params, false),

    /** `session/close`: the running turn is cancelled and the session let go (its file stays). */
    close(params: acp.CloseSessionRequest): void {
      // Said in the log, so a test can tell that Airlock sent it.
      process.stderr.write(`demo agent: session/close ${params.sessionId}\n`);
      const state = deps.sessions.get(params.sessionId);
      if (state) {
        state.cancelled = true;
        for (const wake of state.onCancel.splice(0)) {
          wake();
        }
        deps.sessions.delete(params.sessionId);
      }
      kept.delete(params.sessionId);
    },
  };
}

/** The text content of a streamed agent message or thought chunk, to merge the next one into. */
function streamedText(update: acp.SessionUpdate): { text: string } | undefined {
  return (update.sessionUpdate === 'agent_message_chunk' ||
    update.sessionUpdate === 'agent_thought_chunk') &&
    update.content.type === 'text'
    ? update.content
    : undefined;
}
