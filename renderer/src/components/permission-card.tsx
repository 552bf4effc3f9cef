/**
 * A permission card: what the agent asks to allow (the tool call's kind, title, command, paths,
 * diff and raw input), shown in full before any answer, and its choices.
 *
 * It waits in the session's dock with the other cards (see elicitation-dock.tsx), which gives it
 * the focus on its first choice when it appears. Keyboard first: the arrow keys move between
 * choices, and the digit keys 1 to 9 pick one while the focus is on the card. Esc dismisses this
 * card only (the core answers the agent its reject choice, else `cancelled`) and the turn goes
 * on; cancelling the turn stays on the Cancel button.
 */
import './permission.css';
import type { KeyboardEvent } from 'react';
import type {
  PermissionOptionView,
  PermissionReply,
  ToolCallFields,
} from '../../../preload/shared/contract';
import type { Row } from '../state/transcript';
import { AgentQuote } from './agent-words';
import { askerName, CardHead } from './card-head';
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

/** What a permission asks, after "It asks", by the kind of tool. */
export const ASKS: Record<NonNullable<ToolCallFields['kind']>, string> = {
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

/** What a permission card is about: its tool call's fields, title and kind. */
export function permissionSubject(row: PermissionRow): {
  tool: ToolCallFields;
  title: string;
  kind: NonNullable<ToolCallFields['kind']>;
} {
  const tool: ToolCallFields = row.tool ?? { title: row.title };
  return { tool, title: row.title ?? tool.title ?? row.toolCallId, kind: tool.kind ?? 'other' };
}

/** The card, while it waits for an answer. */
export function PermissionCard({
  row,
  sessionLabel,
  respond,
}: {
  row: PermissionRow;
  /** The tab's name, as the card's head gives it ("For …"). */
  sessionLabel: string;
  respond(promptKey: string, outcome: PermissionReply): void;
}) {
  const { tool, title, kind } = permissionSubject(row);
  const hasDiff = tool.content?.some((content) => content.type === 'diff') ?? false;

  const pick = (option: PermissionOptionView) =>
    respond(row.promptKey, { outcome: 'selected', optionId: option.optionId });

  // Esc here ends this card only; the session view's Esc (cancel the turn) skips an event that
  // was handled already.
  const onCardKey = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    respond(row.promptKey, { outcome: 'dismissed' });
  };

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

  const headingId = `${row.promptKey}-heading`;
  return (
    <section
      className="permission permission-pending"
      role="group"
      aria-label={`Permission request: ${title}`}
      onKeyDown={onCardKey}
    >
      {/* The same head as a form's or a URL's card: who asks, for which tab, and Details. */}
      <CardHead
        headingId={headingId}
        heading={`${askerName(row.agent)} asks for permission`}
        agent={row.agent}
        scope="session"
        sessionLabel={sessionLabel}
      />
      <p className="permission-ask">
        <span className="tool-kind">{TOOL_KIND_LABEL[kind]}</span>
        {`It asks ${ASKS[kind]}: `}
        <AgentQuote text={title} className="permission-title" />
      </p>
      <div className="permission-details">
        {tool.command ? <CommandView command={tool.command} /> : null}
        <LocationsView locations={otherLocations(tool)} />
        {tool.content?.length ? <ToolContent content={tool.content} /> : null}
        {/* The diff shows what an edit does; anything else shows the tool's own input. */}
        {tool.rawInput && !hasDiff ? <RawInputView text={tool.rawInput} /> : null}
      </div>
      <div className="permission-answer">
        <div className="permission-options" role="group" aria-label="Answer" onKeyDown={onKey}>
          {row.options.map((option, i) => (
            <button
              key={option.optionId}
              type="button"
              className={option.kind.startsWith('allow') ? 'allow' : 'reject'}
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
            ? `Keys 1 to ${Math.min(row.options.length, 9)} answer; arrows move between the choices`
            : 'Key 1 answers'}
          ; Esc dismisses it.
        </p>
      </div>
    </section>
  );
}
