/**
 * What a tool call does, as a tool card and a permission card show it: the command it runs, the
 * paths it touches, its diffs (with old and new line numbers), its other content and its raw
 * input. Every agent string is React text, never HTML, never a link.
 */
import './tool-details.css';
import { useMemo } from 'react';
import type {
  ContentView,
  ToolCallFields,
  ToolContentView,
} from '../../../preload/shared/contract';
import { diffRows, type DiffRow } from '../state/diff-rows';
import type { TerminalView as TerminalShown } from '../state/transcript';
import { TerminalView } from './terminal-view';

/** A content block described as text (only text is carried as text). */
export function describeContent(content: ContentView): string {
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

/** What a kind of tool is called on a card. */
export const TOOL_KIND_LABEL: Record<NonNullable<ToolCallFields['kind']>, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Command',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Mode change',
  other: 'Tool',
};

function lineCount(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'line' : 'lines'}`;
}

function DiffLine({ row }: { row: DiffRow }) {
  if (row.kind === 'fold') {
    return (
      <div className="diff-fold">
        {row.cut
          ? `⋯ ${lineCount(row.count)} more, not shown`
          : `⋯ ${row.count.toLocaleString('en')} unchanged ${row.count === 1 ? 'line' : 'lines'}`}
      </div>
    );
  }
  const sign = row.kind === 'added' ? '+' : row.kind === 'removed' ? '-' : ' ';
  return (
    <div className={`diff-line diff-${row.kind}`}>
      <span className="diff-ln" aria-hidden="true">
        {row.kind === 'added' ? '' : row.oldLine}
      </span>
      <span className="diff-ln" aria-hidden="true">
        {row.kind === 'removed' ? '' : row.newLine}
      </span>
      <span className="diff-code">{`${sign} ${row.text}`}</span>
    </div>
  );
}

/** A diff, line by line, with the old and the new line numbers. */
export function DiffView({ diff }: { diff: Extract<ToolContentView, { type: 'diff' }> }) {
  const shown = useMemo(() => diffRows(diff.oldText, diff.newText), [diff.oldText, diff.newText]);
  return (
    <figure className="diff" aria-label={`Diff of ${diff.path}`}>
      <figcaption>
        <span className="diff-path">
          {diff.oldText === null ? 'New file ' : ''}
          {diff.path}
        </span>
        {shown ? (
          <span className="diff-stat">
            <span className="diff-stat-added">+{shown.added}</span>{' '}
            <span className="diff-stat-removed">−{shown.removed}</span>
          </span>
        ) : null}
      </figcaption>
      {shown ? (
        // Scrolls by keyboard when it is taller than its box.
        <div className="diff-lines" tabIndex={0} role="group" aria-label={`Lines of ${diff.path}`}>
          <div className="diff-head" aria-hidden="true">
            <span>old</span>
            <span>new</span>
            <span />
          </div>
          {shown.rows.map((row, i) => (
            <DiffLine key={i} row={row} />
          ))}
        </div>
      ) : (
        <p className="diff-too-large">
          This change is too large to show here:{' '}
          {diff.oldText === null
            ? 'a new file of '
            : `${lineCount(diff.oldText.split('\n').length)} become `}
          {lineCount(diff.newText.split('\n').length)}.
        </p>
      )}
    </figure>
  );
}

/** The command a tool call runs, and where. */
export function CommandView({ command }: { command: NonNullable<ToolCallFields['command']> }) {
  return (
    <div className="tool-command">
      <p className="tool-label">
        Command
        {command.cwd ? (
          <>
            {' '}
            in <span className="tool-cwd">{command.cwd}</span>
          </>
        ) : null}
      </p>
      <pre tabIndex={0} aria-label="Command">
        <span className="tool-prompt" aria-hidden="true">
          ${' '}
        </span>
        {command.line}
      </pre>
    </div>
  );
}

/** The paths a tool call touches; nothing when there are none. */
export function LocationsView({
  locations,
}: {
  locations: NonNullable<ToolCallFields['locations']>;
}) {
  if (locations.length === 0) {
    return null;
  }
  return (
    <ul className="tool-locations" aria-label="Paths">
      {locations.map((location, i) => (
        <li key={i}>
          {location.line !== null ? `${location.path}:${location.line}` : location.path}
        </li>
      ))}
    </ul>
  );
}

/**
 * The raw input, as the agent passes it to the tool: JSON a person rarely needs, so it stays
 * closed under "Details" until opened.
 */
export function RawInputView({ text }: { text: string }) {
  return (
    <details className="tool-raw-details">
      <summary>Details</summary>
      <pre tabIndex={0} aria-label="Raw input">
        {text}
      </pre>
    </details>
  );
}

/** A tool call's content: diffs, terminals (with what each shows, by id) and other content. */
export function ToolContent({
  content,
  terminals,
}: {
  content: ToolContentView[];
  terminals?: Readonly<Record<string, TerminalShown>>;
}) {
  return (
    <>
      {content.map((item, i) =>
        item.type === 'diff' ? (
          <DiffView key={i} diff={item} />
        ) : item.type === 'terminal' ? (
          <TerminalView key={i} terminalId={item.terminalId} view={terminals?.[item.terminalId]} />
        ) : (
          <pre key={i} className="tool-content">
            {describeContent(item.content)}
          </pre>
        ),
      )}
    </>
  );
}

/**
 * The paths a tool call touches that nothing else on its card shows: a diff names its file, a
 * command its folder.
 */
export function otherLocations(fields: ToolCallFields): NonNullable<ToolCallFields['locations']> {
  const shown = new Set<string>();
  for (const content of fields.content ?? []) {
    if (content.type === 'diff') {
      shown.add(content.path);
    }
  }
  if (fields.command?.cwd) {
    shown.add(fields.command.cwd);
  }
  return (fields.locations ?? []).filter((location) => !shown.has(location.path));
}

/** Whether a tool call has anything to show below its title. */
export function hasDetails(fields: ToolCallFields): boolean {
  return Boolean(
    fields.command || fields.locations?.length || fields.content?.length || fields.rawInput,
  );
}
