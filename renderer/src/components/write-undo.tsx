/**
 * Undo of the agent's writes: a write row's Undo, the dialog that shows the three versions of a
 * file changed since the write, and a turn's "Undo all changes of this turn". The core decides
 * and does it all (files:undoWrite, files:undoTurn); this shows the outcome.
 */
import './write-undo.css';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type {
  AirlockApi,
  CallResponse,
  FileVersionView,
  UndoView,
} from '../../../preload/shared/contract';
import { changedTitle, turnUndoSentence, versionText } from '../state/undo-words';
import { ModalDialog } from './modal-dialog';

/** What the rows of a session undo through: its key and the app's api; absent in no session. */
export const UndoCalls = createContext<{ api: AirlockApi; sessionKey: string } | undefined>(
  undefined,
);

/** What an undo that found the file changed since brings back. */
type Changed = Extract<CallResponse<'files:undoWrite'>, { outcome: 'changed' }>;

/** The line beside a turn's undo: what no undo covers. */
const NOT_COVERED =
  'Only files the agent wrote through Airlock can be undone; changes made by its commands or its own tools are not.';

/** A call that failed to arrive, as the sentence the row shows. */
function failed(error: unknown): string {
  return `The write was not undone: ${(error as Error).message}`;
}

/**
 * A write row's undo: the header's Undo button (or "Undone"), and, under the header, why it
 * cannot be undone or why an undo was refused, and the dialog when the file changed since.
 */
export function useWriteUndo(undo: UndoView | undefined, title: string) {
  const calls = useContext(UndoCalls);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | undefined>();
  const [changed, setChanged] = useState<Changed | undefined>();
  const undoneLabel = useRef<HTMLSpanElement>(null);
  /** Whether the user's own Undo made it undone: the focus then goes to the "Undone" label. */
  const clicked = useRef(false);
  const state = undo?.state;

  useEffect(() => {
    if (state === 'undone' && clicked.current) {
      clicked.current = false;
      undoneLabel.current?.focus();
    }
  }, [state]);

  if (!undo) {
    return { header: null, below: null };
  }

  const run = (force: boolean) => {
    if (!calls || undo.state !== 'available') {
      return;
    }
    setBusy(true);
    setRefused(undefined);
    setChanged(undefined);
    clicked.current = true;
    calls.api
      .invoke('files:undoWrite', { key: calls.sessionKey, writeId: undo.writeId, force })
      .then(
        (result) => {
          if (result.outcome === 'changed') {
            clicked.current = false;
            setChanged(result);
          } else if (result.outcome === 'refused') {
            clicked.current = false;
            setRefused(result.reason);
          }
        },
        (error: unknown) => {
          clicked.current = false;
          setRefused(failed(error));
        },
      )
      .finally(() => setBusy(false));
  };

  const header =
    undo.state === 'available' ? (
      <button
        type="button"
        className="undo-button"
        aria-label="Undo this write"
        title={`Undo this write: ${title}`}
        disabled={busy || !calls}
        onClick={() => run(false)}
      >
        Undo
      </button>
    ) : undo.state === 'undone' ? (
      <span className="undo-done" ref={undoneLabel} tabIndex={-1}>
        Undone
      </span>
    ) : null;

  const below = (
    <>
      {undo.state === 'unavailable' ? <p className="undo-note">{undo.reason}</p> : null}
      {refused ? (
        <p className="undo-refused" role="alert">
          {refused}
        </p>
      ) : null}
      {changed ? (
        <ChangedDialog
          changed={changed}
          onRestore={() => run(true)}
          onKeep={() => setChanged(undefined)}
        />
      ) : null}
    </>
  );
  return { header, below };
}

const VERSIONS = [
  ['before', "Before the agent's write"],
  ['agent', 'As the agent wrote it'],
  ['now', 'Now'],
] as const;

/** Asks what to do with a file changed since the agent's write, showing its three versions. */
function ChangedDialog({
  changed,
  onRestore,
  onKeep,
}: {
  changed: Changed;
  onRestore(): void;
  onKeep(): void;
}) {
  return (
    <ModalDialog
      title={changedTitle(changed.path)}
      description={`${changed.path} was changed after the agent wrote it. Restoring the version before the agent's write would lose that change.`}
      className="undo-changed"
      onClose={onKeep}
    >
      <div className="undo-versions">
        {VERSIONS.map(([key, label]) => (
          <Version key={key} label={label} version={changed[key]} />
        ))}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onRestore}>
          Restore the version before the agent&apos;s write
        </button>
        <button type="button" className="primary" data-autofocus onClick={onKeep}>
          Keep it as it is
        </button>
      </div>
    </ModalDialog>
  );
}

function Version({ label, version }: { label: string; version: FileVersionView }) {
  const { text, plain } = versionText(version);
  return (
    <figure className="undo-version">
      <figcaption>{label}</figcaption>
      {plain ? (
        <pre tabIndex={0} aria-label={label}>
          {text}
        </pre>
      ) : (
        <p className="undo-version-none">{text}</p>
      )}
    </figure>
  );
}

/** A turn end's "Undo all changes of this turn", while it can, and what it did, once it ran. */
export function TurnUndo({ turn }: { turn: number | undefined }) {
  const calls = useContext(UndoCalls);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; alert: boolean } | undefined>();
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (said) {
      // The button may be gone with the writes it undid: the focus goes to what it did.
      line.current?.focus();
    }
  }, [said]);
  if (turn === undefined && !said) {
    return null;
  }
  const run = () => {
    if (!calls || turn === undefined) {
      return;
    }
    setBusy(true);
    setSaid(undefined);
    calls.api
      .invoke('files:undoTurn', { key: calls.sessionKey, turn })
      .then(
        (result) => setSaid({ text: turnUndoSentence(result), alert: false }),
        (error: unknown) => setSaid({ text: failed(error), alert: true }),
      )
      .finally(() => setBusy(false));
  };
  return (
    <div className="turn-undo">
      {turn !== undefined ? (
        <>
          <button type="button" className="undo-button" disabled={busy || !calls} onClick={run}>
            Undo all changes of this turn
          </button>
          <p className="undo-note">{NOT_COVERED}</p>
        </>
      ) : null}
      {said ? (
        <p
          ref={line}
          tabIndex={-1}
          className={said.alert ? 'undo-refused' : 'undo-said'}
          role={said.alert ? 'alert' : 'status'}
        >
          {said.text}
        </p>
      ) : null}
    </div>
  );
}
