/**
 * Folds transcript events into the rows the UI shows.
 *
 * Streamed text is cut into segments at paragraph breaks (outside code fences), so a reply of
 * any length becomes many small rows: the list virtualises them and only the last one
 * re-renders while text streams in.
 */
import type {
  AgentExit,
  AgentIdentity,
  CardEnd,
  ContentView,
  ElicitationAction,
  ElicitationContent,
  PermissionOptionView,
  PermissionOutcome,
  PlanEntryView,
  ToolCallFields,
  TranscriptEvent,
  UndoView,
} from '../../../preload/shared/contract';
import type { FormModel } from '../../../preload/shared/form-model';
import type { UrlAnalysis } from '../../../preload/shared/url-analysis-view';
import { growHeld, NO_HELD_TEXT, type HeldText } from './held-text';
import { listJoins } from './list-join';
import { capText, FRESH_CAP, type CapCause, type CapState } from './text-cap';

/** What a terminal shows: the end of its output, and how it ended once it has. */
export type TerminalView = Omit<Extract<TranscriptEvent, { type: 'terminal_output' }>, 'type'>;

/** How a URL elicitation's wait for the page ended. */
export type UrlDone = Extract<TranscriptEvent, { type: 'url_elicitation_done' }>['how'];

/** One row of the transcript. */
export type Row =
  | { kind: 'prompt'; id: number; text: string }
  | {
      kind: 'text';
      id: number;
      role: 'agent' | 'user';
      text: string;
      first: boolean;
      /** The message goes on in the next row (it was cut after this one). */
      more?: boolean;
      /** Its first list goes on from the row before (so that list is loose: see list-join.ts). */
      listBefore?: boolean;
      /** Its last list goes on in the next row. */
      listAfter?: boolean;
    }
  /**
   * Text of a message held back from the screen (see text-cap.ts): the rest of a line too long
   * to show, or of a message. It stays part of its message, between the text rows around it.
   */
  | { kind: 'overflow'; id: number; role: 'agent' | 'user'; text: string; cause: CapCause }
  | { kind: 'thought'; id: number; text: string }
  | { kind: 'content'; id: number; role: 'agent' | 'user' | 'thought'; content: ContentView }
  | {
      kind: 'tool';
      id: number;
      toolCallId: string;
      fields: ToolCallFields;
      /** What the terminals its content embeds show, by terminal id. */
      terminals?: Readonly<Record<string, TerminalView>>;
    }
  | { kind: 'plan'; id: number; entries: PlanEntryView[] }
  | { kind: 'notice'; id: number; severity: string; title: string; description?: string }
  | {
      kind: 'permission';
      id: number;
      promptKey: string;
      /** Who asks, as the agent said when it started. */
      agent: AgentIdentity;
      title?: string;
      toolCallId: string;
      options: PermissionOptionView[];
      outcome?: PermissionOutcome;
      /** Why it ended without the user's answer, if it did. */
      ended?: CardEnd;
      /** What it asks to allow: the tool call's diff, command, paths, kind and raw input. */
      tool?: ToolCallFields;
    }
  | {
      kind: 'elicitation';
      id: number;
      cardKey: string;
      agent: AgentIdentity;
      scope: 'session' | 'request';
      toolCallId?: string;
      message: string;
      form: FormModel;
      /** How it ended, once it has. */
      resolved?: { action: ElicitationAction; ended?: CardEnd; content?: ElicitationContent };
    }
  | {
      kind: 'url_elicitation';
      id: number;
      cardKey: string;
      agent: AgentIdentity;
      scope: 'session' | 'request';
      toolCallId?: string;
      message: string;
      url: UrlAnalysis;
      /** How the consent part ended, once it has (`accept`: the user consented). */
      resolved?: { action: ElicitationAction; ended?: CardEnd };
      /** How the wait for the page ended, once it has. */
      done?: UrlDone;
    }
  /** `undoTurn`: the turn's id while some of its writes can still be undone (files:undoTurn). */
  | { kind: 'turn_end'; id: number; stopReason: string; undoTurn?: number }
  /** `detail`: what lies behind the sentence (a JSON-RPC code…), shown under Details. */
  | { kind: 'turn_error'; id: number; message: string; detail?: string }
  | { kind: 'exit'; id: number; exit: AgentExit }
  /** `lineId`: the core's name for a line a later one replaces ("Restarting…", say). */
  | { kind: 'system'; id: number; text: string; lineId?: string };

/** A URL elicitation's transcript row. */
export type UrlElicitationRow = Extract<Row, { kind: 'url_elicitation' }>;

/**
 * Whether a card still waits on the user: a form until it is answered; a URL card while it asks
 * for consent and, once the user consented, while it waits for the page to finish.
 */
export function cardWaits(row: Extract<Row, { kind: 'elicitation' | 'url_elicitation' }>): boolean {
  if (!row.resolved) {
    return true;
  }
  return (
    row.kind === 'url_elicitation' &&
    row.resolved.action === 'accept' &&
    !row.resolved.ended &&
    row.done === undefined
  );
}

/** A session's transcript as rows, plus the indexes that let updates find their row. */
export type Transcript = {
  rows: Row[];
  nextId: number;
  /** Row index of each tool call, by id. */
  tools: Map<string, number>;
  /** Row index of each permission card, by key. */
  permissions: Map<string, number>;
  /** Row index of each elicitation card (form or URL), by key. */
  cards: Map<string, number>;
  /** What each terminal shows, by id, whether or not a tool call embeds it yet. */
  terminals: Map<string, TerminalView>;
  /** Row index of the tool call that embeds each terminal, by terminal id. */
  terminalRows: Map<string, number>;
  /** Row index of the current turn's plan, if any. */
  plan: number | undefined;
  /** Whether the last text row may still grow. */
  open: boolean;
  /** How far the open message is shown (what is past its caps is held back). */
  cap: CapState;
  /**
   * The last overflow row's text as it grows (held-text.ts), by row index; `parts` gathers the
   * held-back pieces of the batch being applied, joined into the row once at its end.
   */
  held?: { index: number; text: HeldText; parts: string[] };
  /** The row before the last cut, while it is not yet known whether a list goes on across it. */
  joining?: number;
  /** The agent writes of each turn that can still be undone, by turn id. */
  undoable: ReadonlyMap<number, ReadonlySet<string>>;
  /** Row index of the end of each turn that had writes kept to undo, by turn id. */
  turnEnds: ReadonlyMap<number, number>;
  /** The turn of the writes kept since the last turn ended, if any. */
  writesTurn?: number;
};

/** A segment is closed at a paragraph break once it is at least this long. */
export const SEGMENT_CHARS = 2_000;
/** A segment with no paragraph break is cut anyway at this length. */
export const MAX_SEGMENT_CHARS = 16_000;

/** An empty transcript. */
export function emptyTranscript(): Transcript {
  return {
    rows: [],
    nextId: 1,
    tools: new Map(),
    permissions: new Map(),
    cards: new Map(),
    terminals: new Map(),
    terminalRows: new Map(),
    plan: undefined,
    open: false,
    cap: FRESH_CAP,
    undoable: new Map(),
    turnEnds: new Map(),
  };
}

/** Applies a batch of events; returns a new transcript (rows that changed are new objects). */
export function applyEvents(previous: Transcript, events: TranscriptEvent[]): Transcript {
  const next: Transcript = {
    ...previous,
    rows: previous.rows.slice(),
    tools: previous.tools,
    permissions: previous.permissions,
    cards: previous.cards,
    terminals: previous.terminals,
    terminalRows: previous.terminalRows,
    held: previous.held && { ...previous.held, parts: [] },
  };
  for (const event of events) {
    applyEvent(next, event);
  }
  joinHeld(next);
  return next;
}

function push(
  transcript: Transcript,
  row: Row extends infer R ? (R extends Row ? Omit<R, 'id'> : never) : never,
): number {
  transcript.rows.push({ ...row, id: transcript.nextId++ } as Row);
  return transcript.rows.length - 1;
}

function applyEvent(t: Transcript, event: TranscriptEvent): void {
  if (t.joining !== undefined && event.type !== 'chunk') {
    settleJoin(t, true);
  }
  switch (event.type) {
    case 'prompt':
      t.open = false;
      t.plan = undefined;
      push(t, { kind: 'prompt', text: event.text });
      return;
    case 'chunk':
      if (event.role === 'thought') {
        appendThought(t, event.text);
      } else {
        appendText(t, event.role, event.text);
      }
      return;
    case 'content':
      t.open = false;
      push(t, { kind: 'content', role: event.role, content: event.content });
      return;
    case 'tool_call': {
      t.open = false;
      const existing = t.tools.get(event.toolCallId);
      if (existing !== undefined) {
        updateTool(t, existing, event.fields);
        return;
      }
      const index = push(t, { kind: 'tool', toolCallId: event.toolCallId, fields: event.fields });
      t.tools = new Map(t.tools).set(event.toolCallId, index);
      linkTerminals(t, index);
      noteUndo(t, undefined, event.fields.undo);
      return;
    }
    case 'tool_call_update': {
      const index = t.tools.get(event.toolCallId);
      if (index === undefined) {
        // An update for a call we never saw: show it as a call of its own.
        t.open = false;
        const pushed = push(t, {
          kind: 'tool',
          toolCallId: event.toolCallId,
          fields: { title: event.toolCallId, ...event.fields },
        });
        t.tools = new Map(t.tools).set(event.toolCallId, pushed);
        linkTerminals(t, pushed);
        noteUndo(t, undefined, event.fields.undo);
        return;
      }
      updateTool(t, index, event.fields);
      return;
    }
    case 'plan': {
      if (t.plan !== undefined) {
        const row = t.rows[t.plan];
        if (row?.kind === 'plan') {
          t.rows[t.plan] = { ...row, entries: event.entries };
          return;
        }
      }
      t.open = false;
      t.plan = push(t, { kind: 'plan', entries: event.entries });
      return;
    }
    case 'notice':
      t.open = false;
      push(t, {
        kind: 'notice',
        severity: event.severity,
        title: event.title,
        description: event.description,
      });
      return;
    case 'permission':
      t.open = false;
      t.permissions = new Map(t.permissions).set(
        event.promptKey,
        push(t, {
          kind: 'permission',
          promptKey: event.promptKey,
          agent: event.agent,
          title: event.title,
          toolCallId: event.toolCallId,
          options: event.options,
          tool: event.tool,
        }),
      );
      return;
    case 'permission_resolved': {
      const index = t.permissions.get(event.promptKey);
      const row = index === undefined ? undefined : t.rows[index];
      if (index !== undefined && row?.kind === 'permission') {
        t.rows[index] = { ...row, outcome: event.outcome, ended: event.ended };
      }
      return;
    }
    case 'elicitation':
      t.open = false;
      t.cards = new Map(t.cards).set(
        event.cardKey,
        push(t, {
          kind: 'elicitation',
          cardKey: event.cardKey,
          agent: event.agent,
          scope: event.scope,
          toolCallId: event.toolCallId,
          message: event.message,
          form: event.form,
        }),
      );
      return;
    case 'url_elicitation':
      t.open = false;
      t.cards = new Map(t.cards).set(
        event.cardKey,
        push(t, {
          kind: 'url_elicitation',
          cardKey: event.cardKey,
          agent: event.agent,
          scope: event.scope,
          toolCallId: event.toolCallId,
          message: event.message,
          url: event.url,
        }),
      );
      return;
    case 'elicitation_resolved': {
      const index = t.cards.get(event.cardKey);
      const row = index === undefined ? undefined : t.rows[index];
      if (index !== undefined && row?.kind === 'elicitation') {
        t.rows[index] = {
          ...row,
          resolved: { action: event.action, ended: event.ended, content: event.content },
        };
      } else if (index !== undefined && row?.kind === 'url_elicitation') {
        t.rows[index] = { ...row, resolved: { action: event.action, ended: event.ended } };
      }
      return;
    }
    case 'url_elicitation_done': {
      const index = t.cards.get(event.cardKey);
      const row = index === undefined ? undefined : t.rows[index];
      if (index !== undefined && row?.kind === 'url_elicitation' && row.done === undefined) {
        t.rows[index] = { ...row, done: event.how };
      }
      return;
    }
    case 'terminal_output': {
      // Not a row: the tool call that embeds the terminal shows it, now or once it arrives.
      const { type: _type, ...view } = event;
      t.terminals = new Map(t.terminals).set(event.terminalId, view);
      const index = t.terminalRows.get(event.terminalId);
      const row = index === undefined ? undefined : t.rows[index];
      if (index !== undefined && row?.kind === 'tool') {
        t.rows[index] = { ...row, terminals: { ...row.terminals, [event.terminalId]: view } };
      }
      return;
    }
    case 'turn_end': {
      t.open = false;
      const turn = t.writesTurn;
      t.writesTurn = undefined;
      const index = push(t, {
        kind: 'turn_end',
        stopReason: event.stopReason,
        ...(turn !== undefined && t.undoable.has(turn) ? { undoTurn: turn } : {}),
      });
      if (turn !== undefined) {
        t.turnEnds = new Map(t.turnEnds).set(turn, index);
      }
      return;
    }
    case 'turn_error':
      t.open = false;
      t.writesTurn = undefined;
      push(t, {
        kind: 'turn_error',
        message: event.message,
        ...(event.detail === undefined ? {} : { detail: event.detail }),
      });
      return;
    case 'agent_exit':
      t.open = false;
      push(t, { kind: 'exit', exit: event.exit });
      return;
    case 'system': {
      // A line with the id of an earlier one takes its place (a restart's outcome, say).
      const earlier =
        event.id === undefined
          ? -1
          : t.rows.findLastIndex((row) => row.kind === 'system' && row.lineId === event.id);
      if (earlier !== -1) {
        t.rows[earlier] = { ...(t.rows[earlier] as Row & { kind: 'system' }), text: event.text };
        return;
      }
      t.open = false;
      push(t, { kind: 'system', text: event.text, lineId: event.id });
      return;
    }
  }
}

function updateTool(t: Transcript, index: number, fields: ToolCallFields): void {
  const row = t.rows[index];
  if (row?.kind === 'tool') {
    t.rows[index] = { ...row, fields: { ...row.fields, ...stripUndefined(fields) } };
    linkTerminals(t, index);
    if (fields.undo) {
      noteUndo(t, row.fields.undo, fields.undo);
    }
  }
}

/**
 * Keeps the turns' undoable writes as a write row's undo state changes (`before` to `after`),
 * and the end row of a turn saying whether any of its writes can still be undone.
 */
function noteUndo(t: Transcript, before: UndoView | undefined, after: UndoView | undefined): void {
  const was = before?.state === 'available' ? before : undefined;
  const is = after?.state === 'available' ? after : undefined;
  if (was?.writeId === is?.writeId && was?.turn === is?.turn) {
    return;
  }
  if (was && was.turn !== null) {
    setUndoable(t, was.turn, was.writeId, false);
  }
  if (is && is.turn !== null) {
    setUndoable(t, is.turn, is.writeId, true);
    if (!t.turnEnds.has(is.turn)) {
      t.writesTurn = is.turn;
    }
  }
}

function setUndoable(t: Transcript, turn: number, writeId: string, undoable: boolean): void {
  const writes = new Set(t.undoable.get(turn));
  if (undoable) {
    writes.add(writeId);
  } else {
    writes.delete(writeId);
  }
  const all = new Map(t.undoable);
  if (writes.size > 0) {
    all.set(turn, writes);
  } else {
    all.delete(turn);
  }
  t.undoable = all;
  const index = t.turnEnds.get(turn);
  const row = index === undefined ? undefined : t.rows[index];
  if (index === undefined || row?.kind !== 'turn_end') {
    return;
  }
  const shown = row.undoTurn !== undefined;
  if (shown !== writes.size > 0) {
    const { undoTurn: _undoTurn, ...rest } = row;
    t.rows[index] = writes.size > 0 ? { ...rest, undoTurn: turn } : rest;
  }
}

/** Notes the terminals a tool call's content embeds, and gives it what they already show. */
function linkTerminals(t: Transcript, index: number): void {
  const row = t.rows[index];
  if (row?.kind !== 'tool') {
    return;
  }
  let terminals = row.terminals;
  for (const item of row.fields.content ?? []) {
    if (item.type !== 'terminal' || t.terminalRows.get(item.terminalId) === index) {
      continue;
    }
    t.terminalRows = new Map(t.terminalRows).set(item.terminalId, index);
    const view = t.terminals.get(item.terminalId);
    if (view) {
      terminals = { ...terminals, [item.terminalId]: view };
    }
  }
  if (terminals !== row.terminals) {
    t.rows[index] = { ...row, terminals };
  }
}

function stripUndefined(fields: ToolCallFields): ToolCallFields {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as ToolCallFields;
}

function appendThought(t: Transcript, text: string): void {
  const last = t.rows.at(-1);
  if (last?.kind === 'thought') {
    t.rows[t.rows.length - 1] = { ...last, text: last.text + text };
    return;
  }
  t.open = false;
  push(t, { kind: 'thought', text });
}

/**
 * Appends a piece of a message: what its caps let show goes to text rows, the rest to the
 * overflow rows between them (text-cap.ts).
 */
function appendText(t: Transcript, role: 'agent' | 'user', text: string): void {
  const last = t.rows.at(-1);
  if (!(t.open && (last?.kind === 'text' || last?.kind === 'overflow') && last.role === role)) {
    t.open = true;
    t.cap = FRESH_CAP;
    push(t, { kind: 'text', role, text: '', first: true });
  }
  const { parts, state } = capText(t.cap, text);
  t.cap = state;
  for (const part of parts) {
    if (part.cause === undefined) {
      appendShown(t, role, part.text);
      continue;
    }
    holdBack(t, role, part.text, part.cause);
  }
}

/**
 * Adds held-back text to the overflow row at the end, or to a new one. It reaches the row's text
 * at the end of the batch (`joinHeld`), all of the batch's pieces at once.
 */
function holdBack(t: Transcript, role: 'agent' | 'user', text: string, cause: CapCause): void {
  const end = t.rows.at(-1);
  const index = t.rows.length - 1;
  // Held-back parts of two causes never meet: once the message is at its cap, no line is.
  if (end?.kind === 'overflow') {
    if (t.held?.index !== index) {
      joinHeld(t);
      t.held = { index, text: { text: end.text, flat: end.text.length, joins: 0 }, parts: [] };
    }
  } else {
    if (end?.kind === 'text') {
      // The message goes on, held back, in the next row.
      t.rows[index] = { ...end, more: true };
    }
    joinHeld(t);
    t.held = {
      index: push(t, { kind: 'overflow', role, text: '', cause }),
      text: NO_HELD_TEXT,
      parts: [],
    };
  }
  t.held.parts.push(text);
}

/** Puts the held-back pieces gathered so far into their overflow row's text. */
function joinHeld(t: Transcript): void {
  const held = t.held;
  const row = held && t.rows[held.index];
  if (!held || held.parts.length === 0 || row?.kind !== 'overflow') {
    return;
  }
  const text = growHeld(held.text, held.parts);
  t.rows[held.index] = { ...row, text: text.text };
  t.held = { index: held.index, text, parts: [] };
}

/** Appends text to be shown to the open message, cutting it into segments. */
function appendShown(t: Transcript, role: 'agent' | 'user', text: string): void {
  const last = t.rows.at(-1);
  if (last?.kind !== 'text') {
    // After held-back text: the message goes on in a row of its own.
    push(t, { kind: 'text', role, text: '', first: false });
    appendShown(t, role, text);
    return;
  }
  const combined = last.text + text;
  const cut = segmentCut(combined);
  if (cut === undefined) {
    t.rows[t.rows.length - 1] = { ...last, text: combined };
    if (t.joining !== undefined) {
      settleJoin(t, false);
    }
    return;
  }
  t.rows[t.rows.length - 1] = { ...last, text: combined.slice(0, cut), more: true };
  if (t.joining !== undefined) {
    settleJoin(t, true);
  }
  t.joining = t.rows.length - 1;
  appendRest(t, role, combined.slice(cut));
}

/**
 * Marks a list that goes on across the last cut on both rows, once the row after it is long
 * enough to tell (or, `complete`, has all it will get).
 */
function settleJoin(t: Transcript, complete: boolean): void {
  const index = t.joining!;
  const before = t.rows[index];
  const after = t.rows[index + 1];
  if (before?.kind !== 'text' || after?.kind !== 'text') {
    t.joining = undefined;
    return;
  }
  const joins = listJoins(before.text, after.text, complete);
  if (joins === undefined) {
    return;
  }
  t.joining = undefined;
  if (joins) {
    t.rows[index] = { ...before, listAfter: true };
    t.rows[index + 1] = { ...after, listBefore: true };
  }
}

function appendRest(t: Transcript, role: 'agent' | 'user', rest: string): void {
  push(t, { kind: 'text', role, text: '', first: false });
  if (rest) {
    appendShown(t, role, rest);
  }
}

/**
 * Where to close a growing segment: after the last paragraph break once the segment is long
 * enough, as long as that break is outside a code fence; or hard, at the maximum length.
 */
export function segmentCut(text: string): number | undefined {
  if (text.length < SEGMENT_CHARS) {
    return undefined;
  }
  // The last paragraph break outside a code fence from SEGMENT_CHARS / 2 to SEGMENT_CHARS, else
  // the first one after: a segment is as long whether its text came in small pieces or in one.
  let cut: number | undefined;
  let fences = 0;
  let counted = 0;
  for (
    let brk = text.indexOf('\n\n', SEGMENT_CHARS / 2);
    brk !== -1 && brk < MAX_SEGMENT_CHARS;
    brk = text.indexOf('\n\n', brk + 2)
  ) {
    if (cut !== undefined && brk + 2 > SEGMENT_CHARS) {
      break;
    }
    fences += fenceCount(text.slice(counted, brk));
    counted = brk;
    if (fences % 2 === 0) {
      cut = brk + 2;
    }
  }
  if (cut !== undefined) {
    return cut;
  }
  if (text.length >= MAX_SEGMENT_CHARS) {
    const line = text.lastIndexOf('\n', MAX_SEGMENT_CHARS);
    return line > MAX_SEGMENT_CHARS / 2 ? line + 1 : MAX_SEGMENT_CHARS;
  }
  return undefined;
}

function fenceCount(text: string): number {
  return text.match(/^\s*(```|~~~)/gm)?.length ?? 0;
}
