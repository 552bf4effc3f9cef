/**
 * The time left before the agent answers a question itself (Codex's `autoResolutionMs`): a
 * countdown the eye can follow, and what happens at zero. Screen readers hear the sentence once
 * and then only when a minute and ten seconds are left, not every tick.
 */
import { useEffect, useState } from 'react';

/** Seconds as the countdown shows them: `1:05`, `0:09`. */
export function clockText(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** What the live region says at `seconds` left: only at the thresholds it has crossed. */
export function announcement(seconds: number, who: string): string {
  if (seconds <= 0) {
    return `${who} is going on without your answer.`;
  }
  if (seconds <= 10) {
    return `10 seconds left before ${who} goes on without your answer.`;
  }
  if (seconds <= 60) {
    return `1 minute left before ${who} goes on without your answer.`;
  }
  return '';
}

/** The countdown to `at` (ms since the epoch); `who` is the agent, as the card names it. */
export function AutoResolveCountdown({ at, who }: { at: number; who: string }) {
  const [now, setNow] = useState(() => Date.now());
  const left = (at - now) / 1000;
  const ended = left <= 0;
  useEffect(() => {
    if (ended) {
      return undefined;
    }
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [ended]);
  return (
    <p className="card-countdown">
      {!ended ? (
        <>
          {who} goes on without your answer in{' '}
          <span role="timer" className="countdown-clock">
            {clockText(left)}
          </span>
          .
        </>
      ) : (
        <>{who} is going on without your answer: the question may close at any moment.</>
      )}
      <span className="visually-hidden" aria-live="polite">
        {announcement(left, who)}
      </span>
    </p>
  );
}
