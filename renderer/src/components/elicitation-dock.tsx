/**
 * The dock between the transcript and the composer, where open elicitation cards wait.
 *
 * The transcript is virtualised, so a card drawn in it could unmount mid-answer; the dock is
 * not. It shows one card at a time, oldest first, with how many wait. A card that appears takes
 * focus (its first field), unless the user is typing elsewhere or moving between tabs; when the
 * last card goes while focus was on it, focus returns to the composer.
 */
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { AirlockApi, CardEnd } from '../../../preload/contract';
import { endDraft } from '../state/card-drafts';
import type { Transcript } from '../state/transcript';
import { askerName, ElicitationCard, type ElicitationRow } from './elicitation-card';

const ENDED_NOTICE: Record<CardEnd, string> = {
  withdrawn: 'was withdrawn by the agent.',
  turn_cancelled: 'closed: the turn was cancelled.',
  tab_closed: 'closed: the tab was closed.',
  agent_exited: 'closed: the agent exited.',
};

/** The session's elicitation cards, in the order they came: those still open, and the rest. */
export function elicitationCards(transcript: Transcript | undefined): {
  open: ElicitationRow[];
  ended: ElicitationRow[];
} {
  const open: ElicitationRow[] = [];
  const ended: ElicitationRow[] = [];
  for (const index of transcript?.cards.values() ?? []) {
    const row = transcript?.rows[index];
    if (row?.kind === 'elicitation') {
      (row.resolved ? ended : open).push(row);
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

function focusFirst(container: HTMLElement | null): void {
  const first = container?.querySelector<HTMLElement>(
    '.card-form input:not([type=hidden]):not(:disabled), .card-form select:not(:disabled), .card-form textarea:not(:disabled), .card-actions button',
  );
  first?.focus();
}

type Props = {
  api: AirlockApi;
  sessionKey: string;
  sessionLabel: string;
  transcript: Transcript | undefined;
  /** Where focus goes when the last card leaves with it. */
  composer: RefObject<HTMLTextAreaElement | null>;
};

/** The dock of open cards. */
export function ElicitationDock({ api, sessionKey, sessionLabel, transcript, composer }: Props) {
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
      if (gone?.resolved?.ended) {
        setNotice(
          `The question from ${askerName(gone.agent)} ${ENDED_NOTICE[gone.resolved.ended]}`,
        );
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

  const toolTitle = (row: ElicitationRow): string | undefined => {
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
            {open.length === 1 ? '1 question waiting' : `1 of ${open.length} waiting`}
          </p>
          <ElicitationCard
            key={shown.cardKey}
            api={api}
            sessionKey={sessionKey}
            sessionLabel={sessionLabel}
            row={shown}
            toolTitle={toolTitle(shown)}
          />
        </>
      ) : null}
    </section>
  );
}
