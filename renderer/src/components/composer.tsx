/**
 * The composer: the message box of one session, with the agent's slash commands completed from
 * a list, files of the folder attached by an `@` mention completed the same way, images pasted,
 * dropped or picked when the agent takes them, the messages sent before one arrow key away, a
 * draft kept per tab, and the one action that fits the session's state (Send, Cancel the turn,
 * or Stop a start that hangs). While a card waits on the stage, it steps aside to one line. A
 * session that has just started gives it the focus, unless the user has put it somewhere.
 */
import './composer.css';
import { CircleStop } from 'lucide-react';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import type { AirlockApi, SessionSummary } from '../../../preload/shared/contract';
import { MAX_PROMPT_CHARS } from '../../../preload/shared/contract-plain';
import { composerDrafts } from '../state/composer-drafts';
import {
  arrowBrowses,
  completeCommand,
  historyOf,
  matchCommands,
  slashQuery,
  stepHistory,
  type HistoryPosition,
} from '../state/composer-input';
import type { Row } from '../state/transcript';
import { dropMention, mentionAt, NOTHING, promptAttachments } from '../state/attachments';
import { useFileCompletion } from '../use-file-completion';
import {
  AttachImageButton,
  AttachmentChips,
  completionStatus,
  FileOptions,
  useAttachments,
} from './attachments';

type Props = {
  api: AirlockApi;
  session: SessionSummary;
  /** The session's rows: the messages sent in them are the history. */
  rows: readonly Row[];
  /** What the session's status reads as ("Starting…"). */
  statusText: string;
  /** Whether the link to the core is down: nothing can be sent then. */
  disconnected: boolean;
  /** The message box, which others give the focus back to. */
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** Shows an error above the composer (`undefined` clears it). */
  onError(message: string | undefined): void;
  /** Cancels the running turn. */
  onCancel(): void;
  /** A message was sent: the transcript goes to its end to show the reply. */
  onSent(): void;
  /** Whether a card waits on the stage: the message box keeps one line meanwhile. */
  compact?: boolean;
};

/** Sessions this page started, whose message box takes the focus once they are ready. */
const startedHere = new Set<string>();

/**
 * Asks the message box of the session `key`, just started from this page, to take the focus as
 * soon as the session is ready (if the user has not put it somewhere meanwhile).
 */
export function focusWhenReady(key: string): void {
  startedHere.add(key);
}

/** Where a session is started from: focus there (or nowhere) moves on to the new session. */
const START_CONTROLS = '[aria-label="New session"]';

/** The composer. */
export function Composer({
  api,
  session,
  rows,
  statusText,
  disconnected,
  inputRef,
  onError,
  onCancel,
  onSent,
  compact = false,
}: Props) {
  const key = session.key;
  const [draft, setDraftState] = useState(() => composerDrafts.get(key));
  const [caret, setCaret] = useState(draft.length);
  /** The text for which the user closed the command list (Esc); it opens again on a change. */
  const [dismissedFor, setDismissedFor] = useState<string | undefined>();
  const [active, setActive] = useState(0);
  const history = useRef<HistoryPosition>(undefined);
  /** Where the caret goes, with the focus, after the next render. */
  const pendingCaret = useRef<number | undefined>(undefined);
  const rowsNow = useRef(rows);
  rowsNow.current = rows;
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  const setDraft = (text: string) => {
    setDraftState(text);
    composerDrafts.set(key, text);
  };
  const focusAt = (position: number) => {
    pendingCaret.current = position;
    setCaret(position);
  };
  useLayoutEffect(() => {
    const position = pendingCaret.current;
    const input = inputRef.current;
    if (position !== undefined && input) {
      pendingCaret.current = undefined;
      input.focus();
      input.setSelectionRange(position, position);
    }
  });

  // The session is ready to take a message: one this page just started (it may be ready before
  // its first drawing), or one seen starting (a restart). A tab merely shown again, or a page
  // loaded again, leaves the focus where it is. The focus moves only when it is nowhere or on
  // the control that started the session.
  const lastStatus = useRef<SessionSummary['status'] | undefined>(undefined);
  useEffect(() => {
    const before = lastStatus.current;
    lastStatus.current = session.status;
    const ready = session.status === 'ready';
    const started = (ready && startedHere.delete(key)) || (ready && before === 'starting');
    const active = document.activeElement;
    if (started && (!active || active === document.body || active.closest(START_CONTROLS))) {
      inputRef.current?.focus();
    }
  }, [session.status, key, inputRef]);

  const acceptsImages = session.promptCapabilities?.image === true;
  const attachments = useAttachments(key, { name: session.agentName, acceptsImages }, onError);
  const query = slashQuery(draft, caret);
  const commands =
    query === undefined || dismissedFor === draft ? [] : matchCommands(session.commands, query);
  // An `@` mention completes over the folder's files when no command is being typed.
  const mention =
    commands.length === 0 && dismissedFor !== draft ? mentionAt(draft, caret) : undefined;
  const completion = useFileCompletion(api, key, mention?.query);
  const files = mention ? (completion?.paths ?? []) : [];
  const matches = commands.length > 0 ? commands : files;
  const open = matches.length > 0;
  const activeIndex = Math.min(active, Math.max(matches.length - 1, 0));
  useEffect(() => setActive(0), [query, mention?.query]);
  useEffect(() => {
    if (open) {
      document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: 'nearest' });
    }
    // optionId depends only on listId, which never changes.
  }, [open, activeIndex]);

  const ready = session.status === 'ready' && !disconnected;

  const send = () => {
    const text = draft.trim();
    const attached = attachments.attached;
    if (!text) {
      return;
    }
    if (disconnected) {
      onError('Not connected to Airlock. Your message is kept; send it once the page reconnects.');
      return;
    }
    if (session.status !== 'ready') {
      // The message stays in the box: nothing typed is lost.
      onError(
        session.status === 'starting' || session.status === 'prompting'
          ? `${statusText} Your message is kept; send it when the session is ready.`
          : 'The session is not running. Restart the agent to send this message.',
      );
      return;
    }
    if (text.length > MAX_PROMPT_CHARS) {
      onError(
        `This message is ${text.length.toLocaleString('en')} characters long; a message can have at most ${MAX_PROMPT_CHARS.toLocaleString('en')}. Nothing was sent.`,
      );
      return;
    }
    setDraft('');
    attachments.set(NOTHING);
    history.current = undefined;
    onError(undefined);
    focusAt(0);
    onSent();
    const request = { key, text, attachments: promptAttachments(attached) };
    api.invoke('session:prompt', request).catch((failure: unknown) => {
      onError((failure as Error).message);
      // Nothing typed is lost: the message comes back unless something new was typed.
      setDraftState((current) => {
        const restored = current || text;
        composerDrafts.set(key, restored);
        return restored;
      });
      attachments.restore(attached);
    });
  };

  const pickFile = (path: string) => {
    if (mention) {
      const dropped = dropMention(draft, mention);
      setDraft(dropped.text);
      focusAt(dropped.caret);
    }
    attachments.addFile(path);
  };

  const pick = (index: number) => {
    if (commands.length > 0) {
      complete(commands[index]!.name);
    } else {
      pickFile(files[index]!);
    }
  };

  const complete = (name: string) => {
    const completed = completeCommand(draft, name);
    setDraft(completed.text);
    focusAt(completed.caret);
  };

  const stopStart = () => {
    onError(undefined);
    api
      .invoke('session:stopStart', { key })
      .catch((failure: unknown) => onError((failure as Error).message));
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if (event.nativeEvent.isComposing) {
      return;
    }
    if (open) {
      if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && plain) {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + matches.length) % matches.length);
        return;
      }
      const typedInFull = commands.length > 0 && commands[activeIndex]!.name === query;
      // Enter on a command typed in full sends it; otherwise Enter and Tab complete.
      if (plain && (event.key === 'Tab' || (event.key === 'Enter' && !typedInFull))) {
        event.preventDefault();
        pick(activeIndex);
        return;
      }
      if (event.key === 'Escape') {
        // Closes the list only: the session's Esc (cancel the turn) skips a handled event.
        event.preventDefault();
        setDismissedFor(draft);
        return;
      }
    }
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && plain) {
      const direction = event.key === 'ArrowUp' ? 'up' : 'down';
      const input = event.currentTarget;
      const selection = { start: input.selectionStart, end: input.selectionEnd };
      if (arrowBrowses(direction, draft, selection, history.current)) {
        const prompts = rowsNow.current.flatMap((row) => (row.kind === 'prompt' ? [row.text] : []));
        const step = stepHistory(historyOf(prompts), direction, draft, history.current);
        if (step) {
          event.preventDefault();
          history.current = step.position;
          setDraft(step.text);
          focusAt(step.text.length);
        }
      }
      return;
    }
    if (event.key === 'Enter' && plain) {
      event.preventDefault();
      send();
    }
  };

  const placeholder = disconnected
    ? 'Not connected to Airlock'
    : compact
      ? 'Message the agent (a question waits)'
      : session.status === 'ready'
        ? 'Message the agent (Enter to send, Shift+Enter for a new line, / for commands, @ for files)'
        : statusText;

  return (
    <div
      className={`composer-area${compact ? ' compact' : ''}`}
      onDragOver={attachments.onDragOver}
      onDrop={attachments.onDrop}
    >
      {open && commands.length > 0 ? (
        <ul id={listId} role="listbox" aria-label="Commands" className="command-list">
          {commands.map((command, index) => (
            <li
              key={command.name}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              data-command={command.name}
              // The focus stays in the message box.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => complete(command.name)}
            >
              <span className="command-name">/{command.name}</span>
              {command.hint ? <span className="command-hint">{command.hint}</span> : null}
              <span className="command-description">{command.description}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {open && commands.length === 0 ? (
        <FileOptions
          id={listId}
          optionId={optionId}
          paths={files}
          activeIndex={activeIndex}
          onPick={pickFile}
        />
      ) : null}
      <span className="visually-hidden" role="status">
        {commands.length > 0
          ? `${commands.length} ${commands.length === 1 ? 'command' : 'commands'}`
          : completionStatus(mention ? completion : undefined)}
      </span>
      <AttachmentChips
        attached={attachments.attached}
        onRemoveFile={(path) => {
          attachments.removeFile(path);
          inputRef.current?.focus();
        }}
        onRemoveImage={(id) => {
          attachments.removeImage(id);
          inputRef.current?.focus();
        }}
      />
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <textarea
          ref={inputRef}
          aria-label="Message"
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(activeIndex) : undefined}
          placeholder={placeholder}
          value={draft}
          rows={compact ? 1 : 3}
          onChange={(event) => {
            history.current = undefined;
            setDraft(event.target.value);
            setCaret(event.target.selectionStart);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={attachments.onPaste}
        />
        <div className="composer-actions">
          {acceptsImages ? (
            <AttachImageButton
              compact={compact}
              disabled={disconnected}
              onPick={(picked) => void attachments.addImages(picked)}
            />
          ) : null}
          {session.status === 'starting' ? (
            <button type="button" onClick={stopStart} disabled={disconnected}>
              Stop starting
            </button>
          ) : session.status === 'prompting' ? (
            <button
              type="button"
              className={compact ? 'icon-button' : undefined}
              onClick={onCancel}
              aria-keyshortcuts="Escape"
              aria-label={compact ? 'Cancel' : undefined}
              title={compact ? 'Cancel the turn (Esc)' : undefined}
              disabled={disconnected}
            >
              {compact ? <CircleStop size={16} aria-hidden="true" /> : 'Cancel'}
            </button>
          ) : (
            <button type="submit" disabled={!ready || draft.trim() === ''}>
              Send
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
