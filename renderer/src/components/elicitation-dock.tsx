/**
 * The dock between the transcript and the composer, where the cards that wait on the user wait:
 * permission requests, forms and URLs to open. While one waits, the dock is the session's stage:
 * it takes the pane (the transcript keeps a strip, the message box one line), the card's head
 * stays in view at its top and its answers at its foot while the rest scrolls between them.
 *
 * The transcript is virtualised, so a card drawn in it could unmount mid-answer; the dock is
 * not. It shows one card at a time, oldest first, with how many wait. A card that appears takes
 * focus (its first field or choice), unless the user is typing elsewhere or moving between tabs;
 * when the last card goes while focus was on it, focus returns where it was before the card took
 * it (the composer when that is gone). Esc on a card ends that card only (a permission card is
 * dismissed: the agent gets its reject choice, else `cancelled`); the turn goes on.
 *
 * Why a card went away without the user's answer shows as a notice: good news fades on its own
 * after a few seconds (read out by the status region first); anything else stays until dismissed.
 */
import './dock.css';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type {
  AirlockApi,
  CardEnd,
  PermissionReply,
  UrlElicitationView,
} from '../../../preload/shared/contract';
import { endDraft } from '../state/card-drafts';
import {
  cardWaits,
  type Transcript,
  type UrlDone,
  type UrlElicitationRow,
} from '../state/transcript';
import { askerName, CardPosition } from './card-head';
import { ElicitationCard, UrlCard } from '../lazy-parts';
import type { ElicitationRow } from './elicitation-card';
import { PermissionCard, permissionSubject, type PermissionRow } from './permission-card';

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
// The agent's word that a page is done says nothing of what the user did there.
const URL_GONE: Partial<Record<UrlDone, string>> = {
  agent_exited: 'stopped waiting: the agent exited.',
  tab_closed: 'stopped waiting: the tab was closed.',
};

/** A notice of the dock: good news fades on its own, a warning stays until dismissed. */
type Notice = { text: string; tone: 'success' | 'warning' };

/** How long good news stays before it fades, in milliseconds. */
export const SUCCESS_NOTICE_MS = 5000;

/** Why a card the user was looking at went away without their answer, if it did. */
function goneNotice(row: CardRow): Notice | undefined {
  const warning = (text: string): Notice => ({ text, tone: 'warning' });
  if (row.kind === 'permission') {
    return row.ended
      ? warning(
          `The permission request “${permissionSubject(row).title}” ${ENDED_NOTICE[row.ended]}`,
        )
      : undefined;
  }
  if (
    row.kind === 'url_elicitation' &&
    row.done !== undefined &&
    row.resolved?.action === 'accept'
  ) {
    if (row.done === 'completed') {
      return { text: 'The agent marked this step done.', tone: 'success' };
    }
    const why = URL_GONE[row.done];
    return why ? warning(`The page ${askerName(row.agent)} asked you to visit ${why}`) : undefined;
  }
  return row.resolved?.ended
    ? warning(`The question from ${askerName(row.agent)} ${ENDED_NOTICE[row.resolved.ended]}`)
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

/** Whether `element` is in a session pane kept drawn, hidden, for a tab not shown. */
function inHiddenPane(element: HTMLElement | null): boolean {
  return Boolean(element?.closest('[hidden]'));
}

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
function focusFirst(container: HTMLElement | null): boolean {
  const target =
    container?.querySelector<HTMLElement>('.url-card') ??
    container?.querySelector<HTMLElement>(
      '.card-form input:not([type=hidden]):not(:disabled), .card-form select:not(:disabled), .card-form textarea:not(:disabled), .card-actions button, .permission-options button:not(:disabled)',
    );
  if (!target) {
    return false;
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
  return true;
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
  respondPermission(promptKey: string, outcome: PermissionReply): void;
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
  const [notice, setNotice] = useState<Notice | undefined>();
  /** Where the focus was before the shown card took it: it goes back there when cards end. */
  const returnTo = useRef<HTMLElement | null>(null);

  // Good news fades on its own; a warning waits for Dismiss.
  useEffect(() => {
    if (notice?.tone !== 'success') {
      return undefined;
    }
    const timer = setTimeout(() => setNotice(undefined), SUCCESS_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  // The head and the answers stick to the stage's edges: a field scrolled into view (the first
  // wrong one, say) stops between them, never under either.
  useLayoutEffect(() => {
    const stage = container.current;
    if (!stage || shownKey === undefined) {
      return undefined;
    }
    const measure = () => {
      const head = stage.querySelector('.card-head');
      const foot = stage.querySelector('.card-actions, .permission-answer');
      stage.style.scrollPaddingTop = `${head?.getBoundingClientRect().height ?? 0}px`;
      stage.style.scrollPaddingBottom = `${(foot?.getBoundingClientRect().height ?? 0) + 8}px`;
    };
    const observer = new ResizeObserver(measure);
    // Whether the card's head and answers are in the page, and so watched.
    const observeParts = () => {
      const found = stage.querySelectorAll('.card-head, .card-actions, .permission-answer');
      for (const part of found) {
        observer.observe(part);
      }
      return found.length >= 2;
    };
    measure();
    if (observeParts()) {
      return () => observer.disconnect();
    }
    // A card whose script was still loading draws its head and answers later: they are
    // measured once they are in the page.
    const parts = new MutationObserver(() => {
      if (observeParts()) {
        parts.disconnect();
        measure();
      }
    });
    parts.observe(stage, { childList: true, subtree: true });
    return () => {
      parts.disconnect();
      observer.disconnect();
    };
  }, [shownKey]);

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
      const active = document.activeElement ?? document.body;
      if (
        before !== undefined &&
        (active === document.body || container.current?.contains(active))
      ) {
        const back = returnTo.current;
        returnTo.current = null;
        // Back where the user was, when that is still in the page and can take it.
        back?.focus({ preventScroll: true });
        if (document.activeElement !== back || back === null) {
          composer.current?.focus();
        }
      }
      return undefined;
    }
    const stage = container.current;
    // A pane kept drawn for a tab not shown takes no focus and presents nothing: its card is
    // presented by the pane that shows it.
    if (presented.has(shownKey) || inHiddenPane(stage)) {
      return undefined;
    }
    presented.add(shownKey);
    if (busyElsewhere(stage)) {
      return undefined;
    }
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && !stage?.contains(active)) {
      returnTo.current = active;
    }
    if (focusFirst(stage) || !stage) {
      return undefined;
    }
    // The card's script is still loading (the first card, early): it takes the focus as soon as
    // its controls are in the page, unless the user has meanwhile started typing elsewhere.
    // Its pane hidden meanwhile (another tab shown) is the user moving between tabs too.
    const observer = new MutationObserver(() => {
      if (inHiddenPane(stage) || busyElsewhere(stage) || focusFirst(stage)) {
        observer.disconnect();
      }
    });
    observer.observe(stage, { childList: true, subtree: true });
    return () => observer.disconnect();
    // Only a change of card moves focus; `ended` is read for the card that just left.
  }, [shownKey]);

  const toolTitle = (row: ElicitationRow | UrlElicitationRow): string | undefined => {
    if (row.toolCallId === undefined) {
      return undefined;
    }
    const index = transcript?.tools.get(row.toolCallId);
    const tool = index === undefined ? undefined : transcript?.rows[index];
    // Never the raw id: a tool call the transcript does not know goes unsaid.
    return tool?.kind === 'tool' ? tool.fields.title : undefined;
  };
  const position =
    shown === undefined
      ? undefined
      : open.length > 1
        ? `1 of ${open.length} waiting`
        : ONE_WAITING[shown.kind];

  return (
    <section
      ref={container}
      className={`dock${shown ? ' has-card stage' : ''}${notice ? ' has-notice' : ''}`}
      // Named (a landmark) only when it holds something; the status inside is always there, so
      // a notice that appears is announced.
      aria-label={shown || notice ? 'Questions from the agent' : undefined}
    >
      <div
        className={`dock-notice${notice ? ` notice-${notice.tone}` : ''}`}
        role="status"
        style={
          notice?.tone === 'success' ? { animationDuration: `${SUCCESS_NOTICE_MS}ms` } : undefined
        }
      >
        {notice ? (
          <>
            {notice.tone === 'success' ? (
              <CircleCheck className="notice-icon" size={16} aria-hidden="true" />
            ) : (
              <TriangleAlert className="notice-icon" size={16} aria-hidden="true" />
            )}
            <span>{notice.text}</span>
            <button type="button" onClick={() => setNotice(undefined)}>
              Dismiss
            </button>
          </>
        ) : null}
      </div>
      {shown ? (
        <CardPosition.Provider value={position}>
          {shown.kind === 'permission' ? (
            <PermissionCard
              key={shown.promptKey}
              row={shown}
              sessionLabel={sessionLabel}
              respond={respondPermission}
            />
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
        </CardPosition.Provider>
      ) : null}
    </section>
  );
}
