/**
 * The calm offer at start to reopen the tabs of the last run: "Reopen N sessions from last
 * time", with Reopen and Dismiss, and the sessions listed (each can be reopened alone). It shows
 * only when the core kept some, and goes once the user has answered.
 */
import './session-history.css';
import { useEffect, useId, useState } from 'react';
import type { AirlockApi } from '../../../preload/shared/contract';
import type { SavedTabView } from '../../../preload/shared/lasting-sessions';
import { relativeTime } from '../state/relative-time';
import { agentNames } from '../state/agent-names';

type Props = {
  api: AirlockApi;
  /** A tab was reopened: show it. */
  onReopened(key: string): void;
};

/** The reopen offer; nothing when there is nothing to offer. */
export function ReopenOffer({ api, onReopened }: Props) {
  const [tabs, setTabs] = useState<SavedTabView[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  useEffect(() => {
    api.invoke('session:listSaved', {}).then(
      (saved) => setTabs(saved.tabs),
      () => undefined,
    );
  }, [api]);

  if (tabs.length === 0) {
    return null;
  }
  const reopen = async (id?: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const { keys } = await api.invoke('session:reopenSaved', id === undefined ? {} : { id });
      setTabs((now) => (id === undefined ? [] : now.filter((one) => one.id !== id)));
      if (keys[0] !== undefined) {
        onReopened(keys[0]);
      }
    } catch (failure) {
      setError((failure as Error).message);
      // What was taken is gone from the offer; show what is left.
      api.invoke('session:listSaved', {}).then(
        (saved) => setTabs(saved.tabs),
        () => undefined,
      );
    } finally {
      setBusy(false);
    }
  };
  const count = tabs.length === 1 ? '1 session' : `${tabs.length} sessions`;
  return (
    <section className="reopen-offer" aria-labelledby={headingId}>
      <h2 id={headingId}>Reopen {count} from last time</h2>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.id}>
            <span className="reopen-title">{tab.title ?? 'Untitled session'}</span>
            <span className="reopen-meta">
              {agentNames.of(tab.agentName)} · {relativeTime(tab.lastActivity)}
            </span>
            <span className="reopen-meta reopen-folder" title={tab.cwd}>
              {tab.cwd}
            </span>
            {tabs.length > 1 ? (
              <button
                type="button"
                disabled={busy}
                aria-label={`Reopen ${tab.title ?? 'untitled session'}`}
                onClick={() => void reopen(tab.id)}
              >
                Reopen
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="reopen-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void reopen()}>
          Reopen
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void api.invoke('session:dismissSaved', {}).then(
              () => setTabs([]),
              (failure: unknown) => setError((failure as Error).message),
            )
          }
        >
          Dismiss
        </button>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
