/**
 * A permission card: what the agent asks to allow (the tool call's kind, title, command, paths,
 * diff and raw input), shown in full before any answer, and its choices.
 *
 * Keyboard first: a new card takes the focus on its first choice (unless the user is typing
 * elsewhere), the arrow keys move between choices, and the digit keys 1 to 9 pick one while the
 * focus is on the card.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type {
  PermissionOptionView,
  PermissionOutcome,
  ToolCallFields,
} from '../../../preload/contract';
import type { Row } from '../state/transcript';
import {
  CommandView,
  LocationsView,
  otherLocations,
  RawInputView,
  TOOL_KIND_LABEL,
  ToolContent,
} from './tool-details';

/** A permission card's transcript row. */
export type PermissionRow = Extract<Row, { kind: 'permission' }>;

// Cards that took the focus once: drawn again (scrolled back into the list, or after a tab
// switch), a card never moves the focus.
const presented = new Set<string>();

const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);

/** Whether the user is typing elsewhere: a text field that holds text has the focus. */
function typingElsewhere(card: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || card?.contains(active)) {
    return false;
  }
  if (active instanceof HTMLTextAreaElement) {
    return active.value !== '';
  }
  if (active instanceof HTMLInputElement && TEXT_INPUTS.has(active.type)) {
    return active.value !== '';
  }
  return active.isContentEditable;
}

const ASKS: Record<NonNullable<ToolCallFields['kind']>, string> = {
  read: 'to read',
  edit: 'to edit',
  delete: 'to delete',
  move: 'to move',
  search: 'to search',
  execute: 'to run',
  think: 'to think',
  fetch: 'to fetch',
  switch_mode: 'to change mode',
  other: 'to use the tool',
};

function outcomeClass(option: PermissionOptionView | undefined): string {
  return option === undefined ? 'none' : option.kind.startsWith('allow') ? 'allowed' : 'rejected';
}

/** The card. */
export function PermissionCard({
  row,
  respond,
}: {
  row: PermissionRow;
  respond(promptKey: string, outcome: PermissionOutcome): void;
}) {
  const card = useRef<HTMLElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const pending = row.outcome === undefined;
  useEffect(() => {
    if (!pending || presented.has(row.promptKey)) {
      return;
    }
    presented.add(row.promptKey);
    if (!typingElsewhere(card.current)) {
      first.current?.focus({ preventScroll: true });
      first.current?.scrollIntoView({ block: 'nearest' });
    }
  }, [pending, row.promptKey]);

  const tool: ToolCallFields = row.tool ?? { title: row.title };
  const title = row.title ?? tool.title ?? row.toolCallId;
  const kind = tool.kind ?? 'other';
  const chosen =
    row.outcome?.outcome === 'selected'
      ? row.options.find(
          (option) => option.optionId === (row.outcome as { optionId: string }).optionId,
        )
      : undefined;
  const hasDiff = tool.content?.some((content) => content.type === 'diff') ?? false;

  const pick = (option: PermissionOptionView) =>
    respond(row.promptKey, { outcome: 'selected', optionId: option.optionId });

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const buttons = [
      ...event.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)'),
    ];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const digit = /^[1-9]$/.test(event.key) ? Number(event.key) : undefined;
    let next: number | undefined;
    if (digit !== undefined && digit <= row.options.length) {
      event.preventDefault();
      pick(row.options[digit - 1]!);
      return;
    } else if (event.key === 'ArrowRight' || event.key === 'ArrowDown') {
      next = (at + 1) % buttons.length;
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') {
      next = (at - 1 + buttons.length) % buttons.length;
    } else if (event.key === 'Home') {
      next = 0;
    } else if (event.key === 'End') {
      next = buttons.length - 1;
    }
    if (next !== undefined) {
      event.preventDefault();
      buttons[next]?.focus();
    }
  };

  return (
    <section
      ref={card}
      className={`permission ${pending ? 'permission-pending' : `permission-${outcomeClass(chosen)}`}`}
      role="group"
      aria-label={`Permission request: ${title}`}
    >
      {pending ? (
        <header className="permission-head">
          <span className="permission-badge">Permission needed</span>
          <span className="tool-kind">{TOOL_KIND_LABEL[kind]}</span>
        </header>
      ) : null}
      <p className="permission-ask">
        {pending ? `The agent asks ${ASKS[kind]}: ` : `Permission ${ASKS[kind]}: `}
        <strong className="permission-title">{title}</strong>
      </p>
      {pending ? (
        <div className="permission-details">
          {tool.command ? <CommandView command={tool.command} /> : null}
          <LocationsView locations={otherLocations(tool)} />
          {tool.content?.length ? <ToolContent content={tool.content} /> : null}
          {/* The diff shows what an edit does; anything else shows the tool's own input. */}
          {tool.rawInput && !hasDiff ? <RawInputView text={tool.rawInput} /> : null}
        </div>
      ) : null}
      {row.outcome ? (
        <p className={`permission-outcome outcome-${outcomeClass(chosen)}`} role="status">
          {row.outcome.outcome === 'cancelled'
            ? 'Cancelled'
            : `Answered: ${chosen?.name ?? 'unknown option'}`}
        </p>
      ) : (
        <>
          <div className="permission-options" role="group" aria-label="Answer" onKeyDown={onKey}>
            {row.options.map((option, i) => (
              <button
                key={option.optionId}
                type="button"
                className={option.kind.startsWith('allow') ? 'allow' : 'reject'}
                ref={i === 0 ? first : undefined}
                data-key={i < 9 ? String(i + 1) : undefined}
                aria-keyshortcuts={i < 9 ? String(i + 1) : undefined}
                onClick={() => pick(option)}
              >
                {option.name}
              </button>
            ))}
          </div>
          <p className="permission-keys">
            {row.options.length > 1
              ? `Keys 1 to ${Math.min(row.options.length, 9)} answer; arrows move between the choices.`
              : 'Key 1 answers.'}
          </p>
        </>
      )}
    </section>
  );
}
