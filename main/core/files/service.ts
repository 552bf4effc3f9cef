/**
 * The agent's file requests (`fs/read_text_file`, `fs/write_text_file`), served for a session
 * inside its working folder, with what happened shown in its transcript.
 *
 * A refusal shows as a `system` line, so the user sees what the agent tried. A write shows as an
 * Airlock tool call of kind `edit` carrying the diff against what was there, which the renderer
 * already draws as it draws an agent's edit; its id starts `airlock-` so it is not mistaken for
 * one of the agent's calls. A file that is not found is no refusal (agents probe for files) and
 * a read changes nothing, so neither adds a line.
 *
 * Before a write replaces anything, what was there is kept in the session's undo store (see
 * ../undo/): the write's row offers Undo, and its turn "Undo all changes of this turn".
 */
import * as acp from '@agentclientprotocol/sdk';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type {
  FileVersionView,
  ToolContentView,
  UndoView,
} from '../../../preload/shared/contract.js';
import type { AgentConnection } from '../agent-connection.js';
import type { Handlers } from '../handlers.js';
import type { Session } from '../session.js';
import { writeKept } from '../undo/kept-write.js';
import { undoWrite, UndoRefused, type Version } from '../undo/restore.js';
import {
  DEFAULT_LIMIT_BYTES,
  StoreDamaged,
  WriteStore,
  type KeepOutcome,
  type WriteRecord,
} from '../undo/store.js';
import { nodeResolver, quotePath, resolveInside } from './containment.js';
import { readText, readTextFile } from './read.js';

/** The longest text of either side of a diff put in the transcript (the contract's text limit). */
const MAX_DIFF_CHARS = 1_000_000;

/** What the file service needs of the core. */
export type FileServiceOptions = {
  /** Finds the session a request names, on the connection it came from. */
  find: (connection: AgentConnection | undefined, sessionId: string) => Session | undefined;
  /** Whether every write waits on a permission card first (`ask_before_writes`). */
  askBeforeWrites: () => boolean;
  /** A new key for a permission card. */
  nextPromptKey: () => string;
  /** The open tab `key`; throws for one that is not open. */
  tab: (key: string) => Session;
  /** The folder the sessions' undo stores are kept in, one folder each. */
  undoDir: string;
  /** How much each session's undo store keeps ({@link DEFAULT_LIMIT_BYTES} unless a test says). */
  undoLimitBytes?: number;
};

/** The longest text of a file version an undo shows (the contract's text limit). */
const MAX_VERSION_CHARS = 1_000_000;

/** The choices of the card a write waits on when `ask_before_writes` is set. */
const WRITE_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'write', name: 'Write the file', kind: 'allow_once' },
  { optionId: 'skip', name: 'Do not write', kind: 'reject_once' },
];

/** Serves the file requests of every session. */
export class FileService {
  private nextId = 0;
  /** Each session's undo store, by the store's folder name. */
  private readonly stores = new Map<string, WriteStore>();
  /** Each tab's write rows: the tool call that shows each kept write, by the write's id. */
  private readonly rows = new WeakMap<Session, Map<string, string>>();

  constructor(private readonly options: FileServiceOptions) {}

  /** The undo calls of the write rows and turns. */
  readonly handlers: Handlers<'files:undoWrite' | 'files:undoTurn'> = {
    'files:undoWrite': async ({ key, writeId, force }) => {
      const session = this.options.tab(key);
      const store = this.storeOf(session);
      try {
        const record = await store.record(writeId);
        if (!record) {
          return { outcome: 'refused', reason: NOT_KEPT };
        }
        const outcome = await undoWrite(store, record, session.summary.cwd, { force });
        if (outcome.kind === 'changed') {
          return {
            outcome: 'changed',
            path: quotePath(record.shown),
            before: shown(outcome.before),
            agent: shown(outcome.agent),
            now: shown(outcome.now),
          };
        }
        this.undone(session, record);
        return { outcome: 'undone' };
      } catch (error) {
        return { outcome: 'refused', reason: refusedSentence(error) };
      }
    },
    'files:undoTurn': async ({ key, turn }) => {
      const session = this.options.tab(key);
      const store = this.storeOf(session);
      const result = { undone: 0, changed: [] as string[], refused: [] as string[] };
      let records: WriteRecord[];
      try {
        records = await store.records();
      } catch (error) {
        return { ...result, refused: [refusedSentence(error)] };
      }
      for (const record of records.filter((each) => each.turn === turn).reverse()) {
        try {
          const outcome = await undoWrite(store, record, session.summary.cwd);
          if (outcome.kind === 'changed') {
            result.changed.push(quotePath(record.shown));
          } else {
            this.undone(session, record);
            result.undone++;
          }
        } catch (error) {
          result.refused.push(refusedSentence(error));
        }
      }
      return result;
    },
  };

  /** `fs/read_text_file`. */
  async read(
    connection: AgentConnection | undefined,
    params: acp.ReadTextFileRequest,
  ): Promise<acp.ReadTextFileResponse> {
    const session = this.session(connection, params.sessionId);
    return this.refusalsShown(session, 'read', params.path, async () => {
      const real = await resolveInside(session.summary.cwd, params.path, path, nodeResolver);
      return { content: await readTextFile(real, params.path, params.line, params.limit) };
    });
  }

  /** `fs/write_text_file`. */
  async write(
    connection: AgentConnection | undefined,
    params: acp.WriteTextFileRequest,
    signal?: AbortSignal,
  ): Promise<acp.WriteTextFileResponse> {
    const session = this.session(connection, params.sessionId);
    const toolCallId = `airlock-write-${(this.nextId++).toString(36)}`;
    return this.refusalsShown(session, 'write', params.path, async () => {
      const root = await nodeResolver.realpath(session.summary.cwd);
      const real = await resolveInside(session.summary.cwd, params.path, path, nodeResolver);
      const shown = quotePath(params.path);
      const locations = [{ path: quotePath(real), line: null }];
      if (this.options.askBeforeWrites()) {
        await this.askFirst(session, toolCallId, real, params, signal);
      }
      const { before, kept } = await writeKept(this.storeOf(session), {
        real,
        root: root ?? real,
        content: params.content,
        shown: params.path,
        turn: session.turnId,
      });
      if (kept.kept) {
        this.rowsOf(session).set(kept.kept.id, toolCallId);
      }
      session.append({
        type: 'tool_call',
        toolCallId,
        fields: {
          title: `Airlock wrote ${shown}`,
          kind: 'edit',
          status: 'completed',
          content: [writeView(shown, before, params.content)],
          locations,
          undo: kept.kept
            ? { state: 'available', writeId: kept.kept.id, turn: kept.kept.turn }
            : { state: 'unavailable', reason: `This write cannot be undone: ${kept.reason}.` },
        },
      });
      this.keptNotes(session, kept);
      return {};
    });
  }

  /**
   * Shows the write as a permission card with its diff against the file as it is now, and
   * resolves once the user allows it; throws the error the agent gets when they do not.
   */
  private async askFirst(
    session: Session,
    toolCallId: string,
    real: string,
    params: acp.WriteTextFileRequest,
    signal = new AbortController().signal,
  ): Promise<void> {
    const shown = quotePath(params.path);
    const now = await readText(real, params.path).catch(() => undefined);
    const before = now?.kind === 'text' ? now.text : now?.kind === 'missing' ? null : undefined;
    const view = writeView(shown, before, params.content);
    const outcome = await session.requestPermission(
      this.options.nextPromptKey(),
      {
        sessionId: params.sessionId,
        toolCall: {
          toolCallId,
          title: `Write ${shown}`,
          kind: 'edit',
          status: 'pending',
          content:
            view.type === 'diff'
              ? [{ type: 'diff', path: real, oldText: view.oldText, newText: view.newText }]
              : [{ type: 'content', content: { type: 'text', text: describeView(view) } }],
          locations: [{ path: real }],
        },
        options: WRITE_OPTIONS,
      },
      signal,
    );
    if (outcome.outcome !== 'selected' || outcome.optionId !== 'write') {
      session.append({ type: 'tool_call_update', toolCallId, fields: { status: 'failed' } });
      throw new acp.RequestError(
        -32600,
        `${shown} was not written: the user ${outcome.outcome === 'selected' ? 'declined' : 'did not answer'}`,
        { path: shown },
      );
    }
  }

  /** The undo store of `session`: one per agent and ACP session, lasting across restarts. */
  private storeOf(session: Session): WriteStore {
    const name = createHash('sha256')
      .update(`${session.summary.agentName}\0${session.acpSessionId ?? session.key}`)
      .digest('hex')
      .slice(0, 32);
    let store = this.stores.get(name);
    if (!store) {
      store = new WriteStore(
        path.join(this.options.undoDir, name),
        this.options.undoLimitBytes ?? DEFAULT_LIMIT_BYTES,
      );
      this.stores.set(name, store);
    }
    return store;
  }

  private rowsOf(session: Session): Map<string, string> {
    let rows = this.rows.get(session);
    if (!rows) {
      rows = new Map();
      this.rows.set(session, rows);
    }
    return rows;
  }

  /** Marks the row of an undone write as undone. */
  private undone(session: Session, record: WriteRecord): void {
    const toolCallId = this.rowsOf(session).get(record.id);
    if (toolCallId) {
      this.setUndo(session, toolCallId, { state: 'undone', writeId: record.id });
    }
  }

  private setUndo(session: Session, toolCallId: string, undo: UndoView): void {
    session.append({ type: 'tool_call_update', toolCallId, fields: { undo } });
  }

  /** Says in the transcript what keeping a write dropped, or that the store began afresh. */
  private keptNotes(session: Session, kept: KeepOutcome): void {
    if (kept.restarted) {
      session.append({
        type: 'system',
        text: "Airlock found this session's undo copies damaged and started them afresh: earlier writes can no longer be undone.",
      });
    }
    if (kept.dropped.length === 0) {
      return;
    }
    const reason = `Airlock keeps ${Math.round((this.options.undoLimitBytes ?? DEFAULT_LIMIT_BYTES) / 1024 / 1024)} MB of copies per session to undo writes, and newer writes took its place.`;
    for (const record of kept.dropped) {
      const toolCallId = this.rowsOf(session).get(record.id);
      if (toolCallId) {
        this.setUndo(session, toolCallId, {
          state: 'unavailable',
          reason: `No longer kept: ${reason}`,
        });
      }
    }
    const names = kept.dropped.map((record) => quotePath(record.shown));
    session.append({
      type: 'system',
      text: `${names.length === 1 ? 'The write' : `${names.length} writes`} of ${names.slice(0, 3).join(', ')}${names.length > 3 ? ' and others' : ''} can no longer be undone: ${reason}`,
    });
  }

  private session(connection: AgentConnection | undefined, sessionId: string): Session {
    const session = this.options.find(connection, sessionId);
    if (!session) {
      const id = sessionId.slice(0, 100);
      // ACP's "resource not found", with a message that says which session.
      throw new acp.RequestError(
        acp.RequestError.sessionNotFound(id).code,
        `Session not found: "${id}" is not a session of this agent in Airlock`,
        { sessionId: id },
      );
    }
    return session;
  }

  /** Runs `serve`; a refusal it throws is shown in the transcript, then passed to the agent. */
  private async refusalsShown<T>(
    session: Session,
    verb: 'read' | 'write',
    requested: string,
    serve: () => Promise<T>,
  ): Promise<T> {
    try {
      return await serve();
    } catch (error) {
      if (error instanceof acp.RequestError && error.code === -32602) {
        const reason = error.message.replace(/^Invalid params: /, '');
        session.append({
          type: 'system',
          text: `Airlock refused the agent's request to ${verb} a file: ${reason}`,
        });
      } else if (!(error instanceof acp.RequestError)) {
        throw acp.RequestError.internalError(
          undefined,
          `${quotePath(requested)} could not be ${verb === 'read' ? 'read' : 'written'}`,
        );
      }
      throw error;
    }
  }
}

/** The transcript's view of a write: the diff, or why there is none. */
function describeView(view: ToolContentView): string {
  return view.type === 'content' && view.content.type === 'text' ? view.content.text : '';
}

function writeView(
  shown: string,
  before: string | null | undefined,
  after: string,
): ToolContentView {
  const note = (text: string): ToolContentView => ({
    type: 'content',
    content: { type: 'text', text },
  });
  if (before === undefined) {
    return note(`It replaced a file that was not text, or too large to show; no diff is shown.`);
  }
  if ((before?.length ?? 0) > MAX_DIFF_CHARS || after.length > MAX_DIFF_CHARS) {
    return note('The change is too large to show here.');
  }
  return { type: 'diff', path: shown, oldText: before, newText: after };
}

/** The refusal of a write the store no longer holds. */
const NOT_KEPT =
  'This write can no longer be undone: Airlock no longer keeps its copy (it was undone already, or dropped to keep the store small).';

/** A file version as the user is shown it: text clipped to the contract's limit. */
function shown(version: Version): FileVersionView {
  return version.kind === 'text' && version.text.length > MAX_VERSION_CHARS
    ? { kind: 'text', text: `${version.text.slice(0, MAX_VERSION_CHARS - 1)}…` }
    : version;
}

/** Why an undo was not done, as a sentence; an unexpected failure is said plainly. */
function refusedSentence(error: unknown): string {
  if (error instanceof UndoRefused) {
    return error.message;
  }
  if (error instanceof StoreDamaged) {
    return `The write was not undone: ${error.message}`;
  }
  return `The write was not undone: ${(error as Error).message}`;
}
