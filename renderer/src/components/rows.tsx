/**
 * One transcript row of each kind. Agent strings are always React text, never HTML.
 */
import { diffLines } from 'diff';
import { createContext, memo, useContext, useEffect, useRef, useState } from 'react';
import type { ContentView, PermissionOutcome, ToolContentView } from '../../../preload/contract';
import type { Row } from '../state/transcript';
import { ElicitationRowView } from './elicitation-row';
import { UrlElicitationRowView } from './url-elicitation-row';
import { Markdown } from './markdown';

/** The tool calls an open elicitation card is about: their rows say they wait on the user. */
export const WaitingToolCalls = createContext<ReadonlySet<string>>(new Set());

/** What rows can ask of the session. */
export type RowActions = {
  respondPermission(promptKey: string, outcome: PermissionOutcome): void;
};

function describeContent(content: ContentView): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'image':
      return `[image ${content.mimeType}]`;
    case 'audio':
      return `[audio ${content.mimeType}]`;
    case 'resource_link':
      return `[${content.name}] ${content.uri}`;
    case 'resource':
      return `[${content.uri}]${content.text ? `\n${content.text}` : ''}`;
  }
}

function DiffView({ diff }: { diff: Extract<ToolContentView, { type: 'diff' }> }) {
  const parts = diffLines(diff.oldText ?? '', diff.newText);
  return (
    <figure className="diff" aria-label={`Diff of ${diff.path}`}>
      <figcaption>
        {diff.oldText === null ? 'New file ' : ''}
        {diff.path}
      </figcaption>
      <pre>
        {parts.flatMap((part, i) =>
          part.value
            .replace(/\n$/, '')
            .split('\n')
            .map((line, j) => (
              <div
                key={`${i}-${j}`}
                className={part.added ? 'diff-added' : part.removed ? 'diff-removed' : 'diff-same'}
              >
                {`${part.added ? '+' : part.removed ? '-' : ' '} ${line}`}
              </div>
            )),
        )}
      </pre>
    </figure>
  );
}

function ToolRow({ row }: { row: Extract<Row, { kind: 'tool' }> }) {
  const { fields } = row;
  const title = fields.title ?? row.toolCallId;
  const waiting = useContext(WaitingToolCalls).has(row.toolCallId);
  return (
    <section
      className={`tool-call status-${fields.status ?? 'pending'}`}
      aria-label={`Tool call: ${title}`}
    >
      <header>
        <span className="tool-kind">{fields.kind ?? 'other'}</span>
        <span className="tool-title">{title}</span>
        {waiting ? <span className="tool-waiting">Waiting for your answer</span> : null}
        <span className="tool-status" role="status">
          {(fields.status ?? 'pending').replace('_', ' ')}
        </span>
      </header>
      {fields.locations?.length ? (
        <ul className="tool-locations">
          {fields.locations.map((location, i) => (
            <li key={i}>
              {location.line !== null ? `${location.path}:${location.line}` : location.path}
            </li>
          ))}
        </ul>
      ) : null}
      {fields.content?.map((content, i) =>
        content.type === 'diff' ? (
          <DiffView key={i} diff={content} />
        ) : content.type === 'terminal' ? (
          <p key={i} className="tool-terminal">
            Terminal {content.terminalId}
          </p>
        ) : (
          <pre key={i} className="tool-content">
            {describeContent(content.content)}
          </pre>
        ),
      )}
    </section>
  );
}

function PermissionRow({
  row,
  actions,
}: {
  row: Extract<Row, { kind: 'permission' }>;
  actions: RowActions;
}) {
  const first = useRef<HTMLButtonElement>(null);
  const pending = row.outcome === undefined;
  // A new card takes focus so it can be answered from the keyboard at once.
  useEffect(() => {
    if (pending) {
      first.current?.focus();
    }
  }, [pending]);
  const title = row.title ?? row.toolCallId;
  const chosen =
    row.outcome?.outcome === 'selected'
      ? row.options.find(
          (option) => option.optionId === (row.outcome as { optionId: string }).optionId,
        )?.name
      : undefined;
  return (
    <section className="permission" role="group" aria-label={`Permission request: ${title}`}>
      <p>
        The agent asks permission to run <strong>{title}</strong>.
      </p>
      {row.outcome ? (
        <p className="permission-outcome" role="status">
          {row.outcome.outcome === 'cancelled'
            ? 'Cancelled'
            : `Answered: ${chosen ?? 'unknown option'}`}
        </p>
      ) : (
        <div className="permission-options">
          {row.options.map((option, i) => (
            <button
              key={option.optionId}
              type="button"
              className={option.kind.startsWith('allow') ? 'allow' : 'reject'}
              ref={i === 0 ? first : undefined}
              onClick={() =>
                actions.respondPermission(row.promptKey, {
                  outcome: 'selected',
                  optionId: option.optionId,
                })
              }
            >
              {option.name}
            </button>
          ))}
        </div>
      )}
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
export const RowView = memo(function RowView({ row, actions }: { row: Row; actions: RowActions }) {
  switch (row.kind) {
    case 'prompt':
      return (
        <div className="row prompt" aria-label="Your prompt">
          <p>{row.text}</p>
        </div>
      );
    case 'text':
      return (
        <div className={`row text role-${row.role}${row.first ? ' first' : ''}`}>
          <Markdown text={row.text} />
        </div>
      );
    case 'thought':
      return (
        <div className="row">
          <ThoughtRow text={row.text} />
        </div>
      );
    case 'content':
      return (
        <div className="row content">
          <pre>{describeContent(row.content)}</pre>
        </div>
      );
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
      return (
        <div className="row">
          <PermissionRow row={row} actions={actions} />
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
        <div className="row turn-end" role="status" aria-label="Turn ended">
          {STOP_REASONS[row.stopReason] ?? `Stopped: ${row.stopReason}`}
        </div>
      );
    case 'turn_error':
      return (
        <div className="row turn-error" role="alert">
          {row.message}
        </div>
      );
    case 'exit':
      return (
        <div className="row agent-exit" role="alert">
          <p>The agent {row.exit.reason}.</p>
          {row.exit.stderrTail.length ? (
            <pre className="stderr-tail">{row.exit.stderrTail.slice(-10).join('\n')}</pre>
          ) : null}
        </div>
      );
    case 'system':
      return <div className="row system">{row.text}</div>;
  }
});
