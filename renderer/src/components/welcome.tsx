/**
 * What the session area shows while no session is open: a short welcome and the New session
 * action, which has the focus when nothing else has it, so Enter starts at once.
 */
import { Plus } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { ariaKeyShortcuts } from '../keyboard';
import './new-session.css';

/** The welcome. */
export function Welcome({ onNewSession }: { onNewSession(): void }) {
  const button = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  useEffect(() => {
    // Nothing is taken from the user: the focus moves only when it is nowhere.
    if ((document.activeElement ?? document.body) === document.body) {
      button.current?.focus();
    }
  }, []);
  return (
    <main className="welcome" aria-labelledby={headingId}>
      <h2 id={headingId}>Start a session</h2>
      <p>Pick an agent and the folder it works in. The demo agent needs no account.</p>
      <button
        ref={button}
        type="button"
        className="primary welcome-start"
        aria-keyshortcuts={ariaKeyShortcuts('newSession')}
        onClick={onNewSession}
      >
        <Plus aria-hidden="true" size={16} />
        New session
        <kbd>Alt+N</kbd>
      </button>
    </main>
  );
}
