/**
 * The dock between the transcript and the composer, where the cards that wait on the user wait:
 * permission requests, forms and URLs to open.
 *
 * The transcript is virtualised, so a card drawn in it could unmount mid-answer; the dock is
 * not. It shows one card at a time, oldest first, with how many wait. A card that appears takes
 * focus (its first field or choice), unless the user is typing elsewhere or moving between tabs;
 * when the last card goes while focus was on it, focus returns to the composer. Esc on a form or
 * URL card ends that card; on a permission card it cancels the turn, which answers every
 * pending permission `cancelled`.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type {
  AirlockApi,
  CardEnd,
  PermissionOutcome,
  UrlElicitationView,
} from '../../../preload/contract';
import { endDraft } from '../state/card-drafts';
import {
  cardWaits,
  type Transcript,
  type UrlDone,
  type UrlElicitationRow,
} from '../state/transcript';
import { askerName } from './card-head';
import { ElicitationCard, type ElicitationRow } from './elicitation-card';
import { PermissionCard, permissionSubject, type PermissionRow } from './permission-card';
import { UrlCard } from './url-card';

/** A card the dock shows: a permission request, a form, or a URL to open. */
export type CardRow = PermissionRow | ElicitationRow | UrlElicitationRow;

/** A dock card's key: a permission's prompt key, an elicitation's card key. */
export function dockKey(row: CardRow): string {
  return row.kind === 'permission' ? row.promptKey : row.cardKey;
}

const ENDED_NOTICE: Record<CardEnd, string> = {
  withdrawn: 'was withdrawn by the agent.',
  turn_cancelled: 'closed: the turn was cancelled.',
  tab_closed: 'closed: the tab was closed.',
  agent_exited: 'closed: the agent exited.',
};

// How a URL card's wait for the page ended without the user's word, as the dock's notice says.
const URL_GONE: Partial<Record<UrlDone, string>> = {
  completed: 'is done: the agent says it is finished.',
  agent_exited: 'stopped waiting: the agent exited.',
  tab_closed: 'stopped waiting: the tab was closed.',
};

/** Why a card the user was looking at went away without their answer, if it did. */
function goneNotice(row: CardRow): string | undefined {
  if (row.kind === 'permission') {
    return row.ended
      ? `The permission request “${permissionSubject(row).title}” ${ENDED_NOTICE[row.ended]}`
      : undefined;
  }
  if (
    row.kind === 'url_elicitation' &&
    row.done !== undefined &&
    row.resolved?.action === 'accept'
  ) {
    const why = URL_GONE[row.done];
    return why ? `The page ${askerName(row.agent)} asked you to visit ${why}` : undefined;
  }
  return row.resolved?.ended
    ? `The question from ${askerName(row.agent)} ${ENDED_NOTICE[row.resolved.ended]}`
    : undefined;
}

/** The session's cards, in the order they came: those still waiting, and the rest. */
export function dockCards(transcript: Transcript | undefined): {
  open: CardRow[];
  ended: CardRow[];
} {
  const open: CardRow[] = [];
  const ended: CardRow[] = [];
  if (!transcript) {
    return { open, ended };
  }
  // Permissions and elicitations are indexed apart; their rows' places give the order.
  const indexes = [...transcript.permissions.values(), ...transcript.cards.values()];
  if (transcript.permissions.size > 0 && transcript.cards.size > 0) {
    indexes.sort((a, b) => a - b);
  }
  for (const index of indexes) {
    const row = transcript.rows[index];
    if (row?.kind === 'permission') {
      (row.outcome === undefined ? open : ended).push(row);
    } else if (row?.kind === 'elicitation' || row?.kind === 'url_elicitation') {
      (cardWaits(row) ? open : ended).push(row);
    }
  }
  return { open, ended };
}

const ONE_WAITING: Record<CardRow['kind'], string> = {
  permission: '1 permission request waiting',
  elicitation: '1 question waiting',
  url_elicitation: '1 request waiting',
};

// Cards that have been shown once: showing one again (after a tab switch) never moves focus.
const presented = new Set<string>();

const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);

/** Whether the user is busy elsewhere: typing in a text field that holds text, or on a tab. */
function busyElsewhere(dock: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body || dock?.contains(active)) {
    return false;
  }
  if (active.getAttribute('role') === 'tab') {
    return true;
  }
  const typing =
    active instanceof HTMLTextAreaElement ||
    (active instanceof HTMLInputElement && TEXT_INPUTS.has(active.type));
  return typing ? (active as HTMLInputElement).value !== '' : active.isContentEditable;
}

/**
 * Focuses a card's first control (a URL card itself, not a button: no keystroke opens anything
 * by accident; a permission card's first choice). Focus without scrolling needs no layout, so
 * the card takes keystrokes before its first frame; the control is scrolled into view with that
 * frame's layout.
 */
function focusFirst(container: HTMLElement | null): void {
  const target =
    container?.querySelector<HTMLElement>('.url-card') ??
    container?.querySelector<HTMLElement>(
      '.card-form input:not([type=hidden]):not(:disabled), .card-form select:not(:disabled), .card-form textarea:not(:disabled), .card-actions button, .permission-options button:not(:disabled)',
    );
  if (!target) {
    return;
  }
  target.focus({ preventScroll: true });
  requestAnimationFrame(() => {
    if (document.activeElement !== target) {
      return;
    }
    if (target.closest('.permission-answer')) {
      // The choices stick to the dock's foot, in view however it scrolls: show what is asked.
      container!.scrollTop = 0;
    } else {
      target.scrollIntoView({ block: 'nearest' });
    }
  });
}

type Props = {
  api: AirlockApi;
  sessionKey: string;
  sessionLabel: string;
  transcript: Transcript | undefined;
  /** Where focus goes when the last card leaves with it. */
  composer: RefObject<HTMLTextAreaElement | null>;
  /** How URL elicitations open on this host. */
  urlElicitation: UrlElicitationView;
  /** Answers a permission card. */
  respondPermission(promptKey: string, outcome: PermissionOutcome): void;
};

/** The dock of open cards. */
export function ElicitationDock({
  api,
  sessionKey,
  sessionLabel,
  transcript,
  composer,
  urlElicitation,
  respondPermission,
}: Props) {
  const { open, ended } = useMemo(() => dockCards(transcript), [transcript]);
  const container = useRef<HTMLElement>(null);
  const shown = open[0];
  const shownKey = shown === undefined ? undefined : dockKey(shown);
  const last = useRef<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>();

  useEffect(() => {
    for (const row of ended) {
      if (row.kind !== 'permission') {
        endDraft(row.cardKey);
      }
    }
  }, [ended]);

  // Before the browser paints (a layout effect, not a passive one that may run a frame later):
  // the card takes keystrokes as soon as it is in the page.
  useLayoutEffect(() => {
    const before = last.current;
    last.current = shownKey;
    if (before !== undefined && before !== shownKey) {
      // A card the user was looking at ended without their answer: say so where it was.
      const gone = ended.find((row) => dockKey(row) === before);
      const why = gone ? goneNotice(gone) : undefined;
      if (why) {
        setNotice(why);
      }
    }
    if (shownKey === undefined) {
      if (before !== undefined && (document.activeElement ?? document.body) === document.body) {
        composer.current?.focus();
      }
      return;
    }
    if (presented.has(shownKey)) {
      return;
    }
    presented.add(shownKey);
    if (!busyElsewhere(container.current)) {
      focusFirst(container.current);
    }
    // Only a change of card moves focus; `ended` is read for the card that just left.
  }, [shownKey]);

  const toolTitle = (row: ElicitationRow | UrlElicitationRow): string | undefined => {
    if (row.toolCallId === undefined) {
      return undefined;
    }
    const index = transcript?.tools.get(row.toolCallId);
    const tool = index === undefined ? undefined : transcript?.rows[index];
    return tool?.kind === 'tool' ? (tool.fields.title ?? row.toolCallId) : row.toolCallId;
  };

  return (
    <section
      ref={container}
      className={`dock${shown ? ' has-card' : ''}${notice ? ' has-notice' : ''}`}
      // Named (a landmark) only when it holds something; the status inside is always there, so
      // a notice that appears is announced.
      aria-label={shown || notice ? 'Questions from the agent' : undefined}
    >
      <div className="dock-notice" role="status">
        {notice ? (
          <>
            <span>{notice}</span>
            <button type="button" onClick={() => setNotice(undefined)}>
              Dismiss
            </button>
          </>
        ) : null}
      </div>
      {shown ? (
        <>
          <p className="dock-count">
            {open.length > 1 ? `1 of ${open.length} waiting` : ONE_WAITING[shown.kind]}
          </p>
          {shown.kind === 'permission' ? (
            <PermissionCard key={shown.promptKey} row={shown} respond={respondPermission} />
          ) : shown.kind === 'url_elicitation' ? (
            <UrlCard
              key={shown.cardKey}
              api={api}
              sessionKey={sessionKey}
              sessionLabel={sessionLabel}
              row={shown}
              toolTitle={toolTitle(shown)}
              opening={urlElicitation}
            />
          ) : (
            <ElicitationCard
              key={shown.cardKey}
              api={api}
              sessionKey={sessionKey}
              sessionLabel={sessionLabel}
              row={shown}
              toolTitle={toolTitle(shown)}
            />
          )}
        </>
      ) : null}
    </section>
  );
}
