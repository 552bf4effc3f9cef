/**
 * The sidebar's History: the earlier sessions (`session/list`) of the shown session's agent in
 * its folder (with no session shown, of the agent and folder last chosen), newest first, each with its title, when it was last active, and Reopen. It
 * is read when the user opens it (listing may start the agent), and says so plainly when the
 * agent keeps no history or cannot reopen one.
 */
import './session-history.css';
import { useId, useState } from 'react';
import type { AirlockApi } from '../../../preload/shared/contract';
import type { HistoryEntryView, HistoryView } from '../../../preload/shared/lasting-sessions';
import { relativeTime } from '../state/relative-time';

type Props = {
  api: AirlockApi;
  agentName: string;
  cwd: string;
  /** A session was reopened (or was open already): show its tab. */
  onReopened(key: string): void;
};

type Shown = { for: string; view: HistoryView; entries: HistoryEntryView[] };

/** The History disclosure. */
export function SessionHistory({ api, agentName, cwd, onReopened }: Props) {
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<Shown | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const folder = cwd.trim();
  const asked = `${agentName}\n${folder}`;

  const load = async (cursor?: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const view = await api.invoke('session:history', {
        agentName,
        cwd: folder,
        ...(cursor === undefined ? {} : { cursor }),
      });
      setShown((before) => ({
        for: asked,
        view,
        entries:
          cursor !== undefined && before?.for === asked
            ? [...before.entries, ...view.entries]
            : view.entries,
      }));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const reopen = async (entry: HistoryEntryView) => {
    setError(undefined);
    try {
      const { key } = await api.invoke('session:reopen', {
        agentName,
        cwd: folder,
        sessionId: entry.sessionId,
        ...(entry.title === undefined ? {} : { title: entry.title }),
      });
      onReopened(key);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  // What is shown belongs to the agent and folder chosen now; another choice is read again.
  const current = shown?.for === asked ? shown : undefined;

  return (
    <div className="session-history">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        disabled={!agentName || !folder}
        onClick={() => {
          const next = !open;
          setOpen(next);
          if (next && !current) {
            void load();
          }
        }}
      >
        History
      </button>
      <div id={listId} hidden={!open}>
        {open && !current && !busy && !error ? (
          <button type="button" onClick={() => void load()}>
            Show the history of {folder}
          </button>
        ) : null}
        {busy && !current ? <p className="history-note">Asking {agentName}…</p> : null}
        {current && !current.view.supported ? (
          <p className="history-note">{current.view.note}</p>
        ) : null}
        {current?.view.supported && current.entries.length === 0 ? (
          <p className="history-note">No earlier sessions of {agentName} in this folder.</p>
        ) : null}
        {current?.view.supported && !current.view.canReopen ? (
          <p className="history-note">{agentName} lists its sessions but cannot reopen them.</p>
        ) : null}
        {current && current.entries.length > 0 ? (
          <ul aria-label={`Earlier sessions of ${agentName}`}>
            {current.entries.map((entry) => (
              <li key={entry.sessionId}>
                <span className="history-title">{entry.title ?? 'Untitled session'}</span>
                {entry.updatedAt !== undefined ? (
                  <span className="history-time">{relativeTime(entry.updatedAt)}</span>
                ) : null}
                {current.view.canReopen ? (
                  <button
                    type="button"
                    aria-label={`Reopen ${entry.title ?? 'untitled session'}`}
                    onClick={() => void reopen(entry)}
                  >
                    Reopen
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {current?.view.nextCursor !== undefined ? (
          <button type="button" disabled={busy} onClick={() => void load(current.view.nextCursor)}>
            More
          </button>
        ) : null}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
