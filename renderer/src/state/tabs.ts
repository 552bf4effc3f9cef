/**
 * What the session tabs show and how they draw attention: each tab's name, its folder, whether
 * it waits on the user or is busy, and the count in the window's title.
 *
 * Pure: no DOM, so it is tested in Node.
 */
import { agentNames } from './agent-names';
import type { SessionSummary } from '../../../preload/shared/contract';

/**
 * A tab's name: the one the user gave it, else the title the agent sent
 * (`session_info_update`), else the first prompt, else the agent's name.
 */
export function tabLabel(session: SessionSummary): string {
  return (
    session.userTitle ??
    session.title ??
    session.firstPrompt ??
    session.agent?.title ??
    agentNames.of(session.agentName)
  );
}

/** The last segment of a folder's path (`/home/ada/airlock/` → `airlock`), or the path itself. */
export function folderName(cwd: string): string {
  const segments = cwd.split(/[\\/]+/).filter((segment) => segment !== '');
  return segments.at(-1) ?? cwd;
}

/** Whether a session waits on the user: a permission or a question is open. */
export function waitsForUser(session: SessionSummary): boolean {
  return session.pendingCards > 0;
}

/** Whether closing a session would cut something short: a turn runs, or a card waits. */
export function isBusy(session: SessionSummary): boolean {
  return session.status === 'prompting' || waitsForUser(session);
}

/** How many cards wait on the user, in every session. */
export function waitingCount(sessions: readonly SessionSummary[]): number {
  return sessions.reduce((sum, session) => sum + session.pendingCards, 0);
}

/** The window's title: the app's name, after how many cards wait on the user (`(2) Airlock`). */
export function windowTitle(sessions: readonly SessionSummary[]): string {
  const waiting = waitingCount(sessions);
  return waiting > 0 ? `(${waiting}) Airlock` : 'Airlock';
}

/**
 * The session to go to for the next card that waits on the user: the shown one when it waits
 * and its card does not have the focus yet, else the next one that waits after it, round to the
 * start (the shown one again when it is the only one). `undefined` when none waits.
 */
export function nextWaiting(
  sessions: readonly SessionSummary[],
  activeKey: string | undefined,
  focusInActiveCard: boolean,
): string | undefined {
  const active = sessions.findIndex((session) => session.key === activeKey);
  if (active !== -1 && waitsForUser(sessions[active]!) && !focusInActiveCard) {
    return activeKey;
  }
  for (let step = 1; step <= sessions.length; step++) {
    const session = sessions[(active + step + sessions.length) % sessions.length]!;
    if (waitsForUser(session)) {
      return session.key;
    }
  }
  return undefined;
}

/** The session `step` places from the shown one, round the ends (`undefined` with none). */
export function stepSession(
  sessions: readonly SessionSummary[],
  activeKey: string | undefined,
  step: 1 | -1,
): string | undefined {
  if (sessions.length === 0) {
    return undefined;
  }
  const active = sessions.findIndex((session) => session.key === activeKey);
  const from = active === -1 ? (step === 1 ? -1 : 0) : active;
  return sessions[(from + step + sessions.length) % sessions.length]!.key;
}

/**
 * The sessions whose panes stay drawn, the most recently shown first: `shown` (when it is open),
 * then those of `previous` still open, `max` at most. Showing one of them again is then a change
 * of style, not a new list; the others are drawn afresh when shown.
 */
export function recentlyShown(
  previous: readonly string[],
  shown: string | undefined,
  open: ReadonlySet<string>,
  max: number,
): string[] {
  const kept = previous.filter((key) => key !== shown && open.has(key));
  return (shown !== undefined && open.has(shown) ? [shown, ...kept] : kept).slice(0, max);
}
