/**
 * The session panes: the shown session's, and those of the few sessions shown just before it,
 * kept drawn but hidden, so that going back to one of them shows its list as it was left (its
 * rows drawn and measured, its scroll position) instead of building it again.
 *
 * A hidden pane keeps what it showed when it was hidden: the other tabs' streams do not draw it,
 * and it catches up in one render when it is shown again.
 */
import { useRef } from 'react';
import type {
  AirlockApi,
  SessionSummary,
  UrlElicitationView,
} from '../../../preload/shared/contract';
import { SessionView } from '../lazy-parts';
import { recentlyShown } from '../state/tabs';
import type { Transcript } from '../state/transcript';
import type { SignInHost } from './agent-panel';

/** How many panes stay drawn, the shown one included. */
export const KEPT_PANES = 3;

type Props = {
  api: AirlockApi;
  sessions: SessionSummary[];
  transcripts: Record<string, Transcript | undefined>;
  /** The session shown, if one is (none while the agents' settings show). */
  shownKey: string | undefined;
  signIn: SignInHost;
  urlElicitation: UrlElicitationView;
  disconnected: boolean;
};

/** What a pane was last drawn with. */
type Drawn = { session: SessionSummary; transcript: Transcript | undefined };

/** The session panes, in tab order, all but the shown one hidden. */
export function SessionPanes({ sessions, transcripts, shownKey, ...shared }: Props) {
  const recent = useRef<string[]>([]);
  const drawn = useRef(new Map<string, Drawn>());
  recent.current = recentlyShown(
    recent.current,
    shownKey,
    new Set(sessions.map((session) => session.key)),
    KEPT_PANES,
  );
  const kept = new Set(recent.current);
  for (const key of drawn.current.keys()) {
    if (!kept.has(key)) {
      drawn.current.delete(key);
    }
  }
  return sessions.flatMap((session) => {
    if (!kept.has(session.key)) {
      return [];
    }
    const shown = session.key === shownKey;
    const last = drawn.current.get(session.key);
    const now = shown || !last ? { session, transcript: transcripts[session.key] } : last;
    if (now !== last) {
      drawn.current.set(session.key, now);
    }
    return [
      <SessionView
        key={session.key}
        {...shared}
        session={now.session}
        transcript={now.transcript}
        shown={shown}
      />,
    ];
  });
}
