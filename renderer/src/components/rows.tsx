/**
 * One transcript row of each kind. Agent strings are always React text, never HTML.
 */
import './rows.css';
import { createContext, memo, useContext, useId, useReducer, useState } from 'react';
import type { ContentView, ToolCallFields } from '../../../preload/shared/contract';
import type { Row } from '../state/transcript';
import { ElicitationRowView } from './elicitation-row';
import { ErrorDetails, LastLines } from './error-details';
import { UrlElicitationRowView } from './url-elicitation-row';
import { TurnUndo, useWriteUndo } from './write-undo';
import { LongTextRow } from './long-text';
import { Markdown } from '../lazy-parts';
import { MessageCopy } from './message-copy';
import { PermissionRowView } from './permission-row';
import {
  CommandView,
  describeContent,
  hasDetails,
  LocationsView,
  otherLocations,
  TOOL_KIND_LABEL,
  ToolContent,
} from './tool-details';

/** The tool calls an open elicitation card is about: their rows say they wait on the user. */
export const WaitingToolCalls = createContext<ReadonlySet<string>>(new Set());

// Whether the user opened or closed each tool card (by tool call id): kept while the list
// unmounts rows scrolled out of view, so a card comes back as the user left it.
const toolOpen = new Map<string, boolean>();
const MAX_REMEMBERED_TOOLS = 5_000;

/** How a tool call's status reads: a call the user did not allow was not run, not failed. */
function toolStatus(fields: ToolCallFields): { label: string; declined: boolean } {
  const status = fields.status ?? 'pending';
  const ran = status === 'in_progress' || status === 'completed';
  if (!ran && (fields.permission === 'rejected' || fields.permission === 'cancelled')) {
    return { label: `${fields.permission} · not run`, declined: true };
  }
  return { label: status.replace('_', ' '), declined: false };
}

function ToolRow({ row }: { row: Extract<Row, { kind: 'tool' }> }) {
  const { fields } = row;
  const title = fields.title ?? row.toolCallId;
  const waiting = useContext(WaitingToolCalls).has(row.toolCallId) || fields.permission === 'asked';
  const { label, declined } = toolStatus(fields);
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  // Open unless the dock's permission card shows it all, or the user did not allow it; once the
  // user opens or closes it, as they left it.
  const open = toolOpen.get(row.toolCallId) ?? !(fields.permission === 'asked' || declined);
  const bodyId = useId();
  const details = hasDetails(fields);
  const undo = useWriteUndo(fields.undo, title);
  const toggle = () => {
    toolOpen.delete(row.toolCallId);
    toolOpen.set(row.toolCallId, !open);
    if (toolOpen.size > MAX_REMEMBERED_TOOLS) {
      toolOpen.delete(toolOpen.keys().next().value!);
    }
    redraw();
  };
  const heading = (
    <>
      <span className="tool-kind">{TOOL_KIND_LABEL[fields.kind ?? 'other']}</span>
      <span className="tool-title">{title}</span>
    </>
  );
  return (
    <section
      className={`tool-call status-${fields.status ?? 'pending'}${declined ? ' tool-declined' : ''}`}
      aria-label={`Tool call: ${title}`}
    >
      <header>
        {details ? (
          <button
            type="button"
            className="tool-toggle"
            aria-expanded={open}
            aria-controls={open ? bodyId : undefined}
            onClick={toggle}
          >
            <span className="tool-chevron" aria-hidden="true" />
            {heading}
          </button>
        ) : (
          <span className="tool-heading">{heading}</span>
        )}
        {waiting ? <span className="tool-waiting">Waiting for your answer</span> : null}
        <span className="tool-status" role="status">
          {label}
        </span>
        {undo.header}
      </header>
      {undo.below}
      {details && open ? (
        <div className="tool-body" id={bodyId}>
          {fields.command ? <CommandView command={fields.command} /> : null}
          <LocationsView locations={otherLocations(fields)} />
          {fields.content?.length ? (
            <ToolContent content={fields.content} terminals={row.terminals} />
          ) : null}
          {fields.rawInput ? (
            <details className="tool-raw-details">
              <summary>Raw input</summary>
              <pre tabIndex={0} aria-label="Raw input">
                {fields.rawInput}
              </pre>
            </details>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function ThoughtRow({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="thought"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>Thinking</summary>
      {open ? <p>{text}</p> : null}
    </details>
  );
}

const STOP_REASONS: Record<string, string> = {
  end_turn: 'Done',
  max_tokens: 'Stopped: token limit reached',
  max_turn_requests: 'Stopped: request limit reached',
  refusal: 'The agent refused',
  cancelled: 'Cancelled',
};

/** Renders one row. */
export const RowView = memo(function RowView({ row }: { row: Row }) {
  switch (row.kind) {
    case 'prompt':
      return (
        <div className="row prompt" aria-label="Your prompt">
          <p>{row.text}</p>
        </div>
      );
    case 'text':
      return (
        <div
          className={`row text role-${row.role}${row.first ? ' first' : ''}${row.more ? ' more' : ''}`}
        >
          {row.first && row.role === 'agent' ? <MessageCopy rowId={row.id} /> : null}
          <Markdown text={row.text} listBefore={row.listBefore} listAfter={row.listAfter} />
        </div>
      );
    case 'overflow':
      return (
        <div className={`row text overflow role-${row.role}`}>
          <LongTextRow row={row} />
        </div>
      );
    case 'thought':
      return (
        <div className="row">
          <ThoughtRow text={row.text} />
        </div>
      );
    case 'content': {
      const attached = row.role === 'user' ? attachmentText(row.content) : undefined;
      return attached !== undefined ? (
        <div className="row attached">
          <p title={'uri' in row.content ? row.content.uri : undefined}>{attached}</p>
        </div>
      ) : (
        <div className="row content">
          <pre>{describeContent(row.content)}</pre>
        </div>
      );
    }
    case 'tool':
      return (
        <div className="row">
          <ToolRow row={row} />
        </div>
      );
    case 'plan':
      return (
        <div className="row">
          <section className="plan" aria-label="Plan">
            <h3>Plan</h3>
            <ol>
              {row.entries.map((entry, i) => (
                <li key={i} className={`plan-${entry.status}`}>
                  <span className="plan-status">{entry.status.replace('_', ' ')}</span>{' '}
                  {entry.content}
                </li>
              ))}
            </ol>
          </section>
        </div>
      );
    case 'notice':
      return (
        <div className={`row notice notice-${row.severity}`} role="note">
          <strong>{row.title}</strong>
          {row.description ? <p>{row.description}</p> : null}
        </div>
      );
    case 'permission':
      // Only the record: a waiting card itself is in the session view's dock, with the
      // elicitations, where the list cannot unmount it.
      return (
        <div className="row">
          <PermissionRowView row={row} />
        </div>
      );
    case 'elicitation':
      // Only the record: an open card itself is in the session view's dock, which the list
      // cannot unmount.
      return (
        <div className="row">
          <ElicitationRowView row={row} />
        </div>
      );
    case 'url_elicitation':
      return (
        <div className="row">
          <UrlElicitationRowView row={row} />
        </div>
      );
    case 'turn_end':
      return (
        <div className="row turn-end">
          <div role="status" aria-label="Turn ended">
            {STOP_REASONS[row.stopReason] ?? `Stopped: ${row.stopReason}`}
          </div>
          <TurnUndo turn={row.undoTurn} />
        </div>
      );
    case 'turn_error':
      return (
        <div className="row turn-error">
          <ErrorDetails message={row.message} detail={row.detail} />
        </div>
      );
    case 'exit':
      return (
        <div className="row agent-exit" role="alert">
          <p>The agent {row.exit.reason}.</p>
          <LastLines lines={row.exit.stderrTail} />
        </div>
      );
    case 'system':
      return <div className="row system">{row.text}</div>;
  }
});

/**
 * What the user attached to a prompt, as one line under it: a file by its name, an image by
 * its type. Other content the user sent (text) shows as it is.
 */
export function attachmentText(content: ContentView): string | undefined {
  switch (content.type) {
    case 'resource_link':
      return `Attached ${content.name}`;
    case 'resource':
      return `Attached ${fileName(content.uri)}, its text included`;
    case 'image':
      return `Attached an image (${content.mimeType})`;
    default:
      return undefined;
  }
}

/** The last part of a URI's path, decoded where it can be: `file:///a/b%20c.md` is `b c.md`. */
function fileName(uri: string): string {
  const last =
    uri
      .replace(/[?#].*$/, '')
      .split('/')
      .filter(Boolean)
      .at(-1) ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
