/**
 * The dock between the transcript and the composer, where open elicitation cards wait.
 *
 * The transcript is virtualised, so a card drawn in it could unmount mid-answer; the dock is
 * not. It shows one card at a time, oldest first, with how many wait. A card that appears takes
 * focus (its first field), unless the user is typing elsewhere or moving between tabs; when the
 * last card goes while focus was on it, focus returns to the composer.
 */
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { AirlockApi, CardEnd, UrlElicitationView } from '../../../preload/contract';
import { endDraft } from '../state/card-drafts';
import {
  cardWaits,
  type Transcript,
  type UrlDone,
  type UrlElicitationRow,
} from '../state/transcript';
import { askerName } from './card-head';
import { ElicitationCard, type ElicitationRow } from './elicitation-card';
import { UrlCard } from './url-card';

/** A card the dock shows: a form, or a URL to open. */
export type CardRow = ElicitationRow | UrlElicitationRow;

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

/** The session's elicitation cards, in the order they came: those still open, and the rest. */
export function elicitationCards(transcript: Transcript | undefined): {
  open: CardRow[];
  ended: CardRow[];
} {
  const open: CardRow[] = [];
  const ended: CardRow[] = [];
  for (const index of transcript?.cards.values() ?? []) {
    const row = transcript?.rows[index];
    if (row?.kind === 'elicitation' || row?.kind === 'url_elicitation') {
      (cardWaits(row) ? open : ended).push(row);
    }
  }
  return { open, ended };
}

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
 * by accident). Focus without scrolling needs no layout, so the card takes keystrokes before
 * its first frame; the control is scrolled into view with that frame's layout.
 */
function focusFirst(container: HTMLElement | null): void {
  const target =
    container?.querySelector<HTMLElement>('.url-card') ??
    container?.querySelector<HTMLElement>(
      '.card-form input:not([type=hidden]):not(:disabled), .card-form select:not(:disabled), .card-form textarea:not(:disabled), .card-actions button',
    );
  if (!target) {
    return;
  }
  target.focus({ preventScroll: true });
  requestAnimationFrame(() => {
    if (document.activeElement === target) {
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
};

/** The dock of open cards. */
export function ElicitationDock({
  api,
  sessionKey,
  sessionLabel,
  transcript,
  composer,
  urlElicitation,
}: Props) {
  const { open, ended } = useMemo(() => elicitationCards(transcript), [transcript]);
  const container = useRef<HTMLElement>(null);
  const shown = open[0];
  const last = useRef<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>();

  useEffect(() => {
    for (const row of ended) {
      endDraft(row.cardKey);
    }
  }, [ended]);

  useEffect(() => {
    const before = last.current;
    last.current = shown?.cardKey;
    if (before !== undefined && before !== shown?.cardKey) {
      // A card the user was looking at ended without their answer: say so where it was.
      const gone = ended.find((row) => row.cardKey === before);
      const why = gone ? goneNotice(gone) : undefined;
      if (why) {
        setNotice(why);
      }
    }
    if (!shown) {
      if (before !== undefined && (document.activeElement ?? document.body) === document.body) {
        composer.current?.focus();
      }
      return;
    }
    if (presented.has(shown.cardKey)) {
      return;
    }
    presented.add(shown.cardKey);
    if (!busyElsewhere(container.current)) {
      focusFirst(container.current);
    }
    // Only a change of card moves focus; `ended` is read for the card that just left.
  }, [shown?.cardKey]);

  const toolTitle = (row: CardRow): string | undefined => {
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
            {open.length > 1
              ? `1 of ${open.length} waiting`
              : shown.kind === 'url_elicitation'
                ? '1 request waiting'
                : '1 question waiting'}
          </p>
          {shown.kind === 'url_elicitation' ? (
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
