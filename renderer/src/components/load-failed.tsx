/**
 * What the window shows when its first load failed: what failed, that it tries again by itself,
 * what the user can do, and Retry (focused, so Enter or Space tries at once). Once a try works,
 * the app replaces it.
 */
import './load-failed.css';
import { useEffect, useRef } from 'react';

/** The failure screen. `webHost`: the page came from `npm run web`, not the desktop app. */
export function LoadFailed({
  error,
  webHost,
  onRetry,
}: {
  error: string;
  webHost: boolean;
  onRetry(): void;
}) {
  const retry = useRef<HTMLButtonElement>(null);
  useEffect(() => retry.current?.focus(), []);
  return (
    <main className="load-failed" aria-labelledby="load-failed-title">
      <div className="load-failed-card">
        <div role="alert">
          <h1 id="load-failed-title">Airlock could not load your sessions</h1>
          <p className="load-failed-error">{error}</p>
        </div>
        <p>
          This window cannot reach the Airlock core, which runs your agents. It tries again by
          itself every few seconds, and shows your sessions as soon as it can.
        </p>
        <p>
          {webHost ? (
            <>
              If it keeps failing, check that Airlock still runs in the terminal where it was
              started (<code>npm run web</code>). If it stopped, start it again and open the new
              address it prints: this page&rsquo;s address only works with the Airlock that printed
              it.
            </>
          ) : (
            <>If it keeps failing, quit Airlock and start it again.</>
          )}
        </p>
        <button ref={retry} type="button" className="primary" onClick={onRetry}>
          Retry now
        </button>
      </div>
    </main>
  );
}
