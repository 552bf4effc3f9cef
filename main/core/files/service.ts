/**
 * The agent's file requests (`fs/read_text_file`, `fs/write_text_file`), served for a session
 * inside its working folder, with what happened shown in its transcript.
 *
 * A refusal shows as a `system` line, so the user sees what the agent tried. A write shows as an
 * Airlock tool call of kind `edit` carrying the diff against what was there, which the renderer
 * already draws as it draws an agent's edit; its id starts `airlock-` so it is not mistaken for
 * one of the agent's calls. A file that is not found is no refusal (agents probe for files) and
 * a read changes nothing, so neither adds a line.
 */
import * as acp from '@agentclientprotocol/sdk';
import path from 'node:path';
import type { ToolContentView } from '../../../preload/shared/contract.js';
import type { AgentConnection } from '../agent-connection.js';
import type { Session } from '../session.js';
import { nodeResolver, quotePath, resolveInside } from './containment.js';
import { readText, readTextFile } from './read.js';
import { writeTextFile } from './write.js';

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
};

/** The choices of the card a write waits on when `ask_before_writes` is set. */
const WRITE_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'write', name: 'Write the file', kind: 'allow_once' },
  { optionId: 'skip', name: 'Do not write', kind: 'reject_once' },
];

/** Serves the file requests of every session. */
export class FileService {
  private nextId = 0;

  constructor(private readonly options: FileServiceOptions) {}

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
      const { before } = await writeTextFile(real, root ?? real, params.content, params.path);
      session.append({
        type: 'tool_call',
        toolCallId,
        fields: {
          title: `Airlock wrote ${shown}`,
          kind: 'edit',
          status: 'completed',
          content: [writeView(shown, before, params.content)],
          locations,
        },
      });
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
