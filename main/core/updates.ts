/**
 * Turns the agent's `session/update`s into transcript events and summary changes.
 *
 * The renderer never sees raw ACP: everything it gets is reduced to the contract's display
 * types here, with agent strings clipped to the contract's bounds.
 */
import type * as acp from '@agentclientprotocol/sdk';
import {
  MAX_RAW_INPUT_CHARS,
  type ConfigOptionView,
  type ContentView,
  type SessionSummary,
  type ToolCallFields,
  type ToolCommandView,
  type ToolContentView,
  type TranscriptEvent,
} from '../../preload/shared/contract.js';
import { revealInvisible } from './reveal.js';

/** The largest piece of streamed text one transcript event carries. */
export const MAX_CHUNK_CHARS = 64 * 1024;
const SHORT = 10_000;
const LONG = 1_000_000;

/** What one update does: transcript entries to append and/or summary fields to change. */
export type UpdateEffect = {
  events: TranscriptEvent[];
  summary?: Partial<
    Pick<SessionSummary, 'title' | 'commands' | 'currentModeId' | 'configOptions' | 'usage'>
  >;
};

/** Who a chunk of streamed text is from: the agent's reply or thought, or the user's words. */
type ChunkRole = Extract<TranscriptEvent, { type: 'chunk' }>['role'];

/** Clips an agent-supplied string to `max` characters. */
export function clip(value: string, max = SHORT): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** Clips an agent string that names something the user acts on, its hidden characters shown. */
export function shown(value: string, max = SHORT): string {
  return clip(revealInvisible(value), max);
}

/** Splits text into pieces of at most {@link MAX_CHUNK_CHARS}. */
export function splitText(value: string): string[] {
  if (value.length <= MAX_CHUNK_CHARS) {
    return [value];
  }
  const pieces: string[] = [];
  for (let i = 0; i < value.length; i += MAX_CHUNK_CHARS) {
    pieces.push(value.slice(i, i + MAX_CHUNK_CHARS));
  }
  return pieces;
}

/**
 * `events` with each run of text chunks of one role joined into as few chunks as
 * {@link MAX_CHUNK_CHARS} allows: the same transcript in fewer events, so that a flood of small
 * pieces costs the hosts and the UI an event per batch rather than one per piece.
 */
export function joinChunks(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const joined: TranscriptEvent[] = [];
  let run: { role: ChunkRole; pieces: string[]; length: number } | undefined;
  const endRun = () => {
    if (run) {
      const { role, pieces } = run;
      joined.push({
        type: 'chunk',
        role,
        text: pieces.length === 1 ? pieces[0]! : pieces.join(''),
      });
      run = undefined;
    }
  };
  for (const event of events) {
    if (event.type !== 'chunk') {
      endRun();
      joined.push(event);
      continue;
    }
    if (run?.role !== event.role || run.length + event.text.length > MAX_CHUNK_CHARS) {
      endRun();
      run = { role: event.role, pieces: [], length: 0 };
    }
    run.pieces.push(event.text);
    run.length += event.text.length;
  }
  endRun();
  return joined;
}

/** Maps one update; an update Airlock does not display yields no effect. */
export function mapUpdate(update: acp.SessionUpdate): UpdateEffect {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return { events: chunkEvents('agent', update.content) };
    case 'user_message_chunk':
      return { events: chunkEvents('user', update.content) };
    case 'agent_thought_chunk':
      return { events: chunkEvents('thought', update.content) };
    case 'tool_call':
      return {
        events: [
          {
            type: 'tool_call',
            toolCallId: clip(update.toolCallId),
            fields: toolCallFields(update),
          },
        ],
      };
    case 'tool_call_update':
      return {
        events: [
          {
            type: 'tool_call_update',
            toolCallId: clip(update.toolCallId),
            fields: toolCallFields(update),
          },
        ],
      };
    case 'plan':
      return {
        events: [
          {
            type: 'plan',
            entries: update.entries.slice(0, 1000).map((entry) => ({
              content: clip(entry.content),
              priority: entry.priority,
              status: entry.status,
            })),
          },
        ],
      };
    case 'available_commands_update':
      return {
        events: [],
        summary: {
          commands: update.availableCommands.slice(0, 1000).map((command) => ({
            name: shown(command.name),
            description: clip(command.description),
            hint: command.input?.hint ? clip(command.input.hint) : undefined,
          })),
        },
      };
    case 'current_mode_update':
      return { events: [], summary: { currentModeId: clip(update.currentModeId) } };
    case 'config_option_update':
      return { events: [], summary: { configOptions: configViews(update.configOptions) } };
    case 'session_info_update':
      return update.title
        ? { events: [], summary: { title: clip(update.title, 200) } }
        : { events: [] };
    case 'usage_update':
      return {
        events: [],
        summary: {
          usage: {
            used: update.used,
            size: update.size,
            cost: update.cost
              ? { amount: update.cost.amount, currency: clip(update.cost.currency, 10) }
              : undefined,
          },
        },
      };
    case 'notice':
      return {
        events: [
          {
            type: 'notice',
            severity: clip(update.severity, 20),
            title: clip(update.title),
            description: update.description ? clip(update.description) : undefined,
          },
        ],
      };
    default:
      return { events: [] };
  }
}

/** Maps the legacy modes of `session/new` (or of a reopened session) to their display form. */
export function modeViews(modes: acp.SessionModeState | null | undefined): SessionSummary['modes'] {
  return (modes?.availableModes ?? []).slice(0, 100).map((mode) => ({
    // Cut, not clipped: the id goes back to the agent as it was, as far as it goes.
    id: mode.id.slice(0, 10_000),
    name: shown(mode.name),
    description: mode.description?.slice(0, 10_000) ?? undefined,
  }));
}

/** Maps the config options of `session/new` or an update to their display form. */
export function configViews(
  options: acp.SessionConfigOption[] | null | undefined,
): ConfigOptionView[] {
  return (options ?? []).slice(0, 100).map((option) => {
    const choices =
      option.type === 'select'
        ? option.options.flatMap((entry) => ('group' in entry ? entry.options : [entry]))
        : [];
    return {
      id: clip(option.id),
      name: shown(option.name),
      category: option.category == null ? undefined : clip(option.category, 100),
      currentValue:
        typeof option.currentValue === 'boolean' ? option.currentValue : clip(option.currentValue),
      choices: choices
        .slice(0, 1000)
        .map((choice) => ({ value: clip(choice.value), name: shown(choice.name) })),
    };
  });
}

function chunkEvents(role: ChunkRole, content: acp.ContentBlock): TranscriptEvent[] {
  if (content.type === 'text') {
    const text = content.text;
    if (text.length <= MAX_CHUNK_CHARS) {
      // The common case, every streamed piece: one event, no pieces to cut.
      return text ? [{ type: 'chunk', role, text }] : [];
    }
    return splitText(text).map((piece) => ({ type: 'chunk', role, text: piece }));
  }
  return [{ type: 'content', role, content: contentView(content) }];
}

/** Describes a content block for display; only text is carried as text. */
export function contentView(content: acp.ContentBlock): ContentView {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: clip(content.text, LONG) };
    case 'image':
      return { type: 'image', mimeType: clip(content.mimeType, 200) };
    case 'audio':
      return { type: 'audio', mimeType: clip(content.mimeType, 200) };
    case 'resource_link':
      return {
        type: 'resource_link',
        name: shown(content.title ?? content.name),
        uri: shown(content.uri),
      };
    case 'resource':
      return {
        type: 'resource',
        uri: shown(content.resource.uri),
        text: 'text' in content.resource ? clip(content.resource.text, LONG) : undefined,
      };
  }
}

/**
 * Maps the displayable fields of a tool call (a `tool_call`, a `tool_call_update`, or the tool
 * call a permission request is about). Its command and raw input come from `rawInput`; text the
 * user decides on (its title, paths, command, raw input and diffs) shows its invisible characters.
 */
export function toolCallFields(update: Omit<acp.ToolCallUpdate, 'toolCallId'>): ToolCallFields {
  const fields: ToolCallFields = {};
  if (update.title != null) {
    fields.title = shown(update.title);
  }
  if (update.kind != null) {
    fields.kind = update.kind;
  }
  if (update.status != null) {
    fields.status = update.status;
  }
  if (update.content != null) {
    fields.content = update.content.slice(0, 1000).map(toolContent);
  }
  if (update.locations != null) {
    fields.locations = update.locations
      .slice(0, 1000)
      .map((location) => ({ path: shown(location.path), line: location.line ?? null }));
  }
  if (update.rawInput != null) {
    const command = commandOf(update.rawInput);
    if (command) {
      fields.command = command;
    }
    const raw = rawInputText(update.rawInput);
    if (raw !== undefined) {
      fields.rawInput = raw;
    }
  }
  return fields;
}

function toolContent(content: acp.ToolCallContent): ToolContentView {
  switch (content.type) {
    case 'content':
      return { type: 'content', content: contentView(content.content) };
    case 'diff':
      return {
        type: 'diff',
        path: shown(content.path),
        oldText: content.oldText == null ? null : shown(content.oldText, LONG),
        newText: shown(content.newText, LONG),
      };
    case 'terminal':
      return { type: 'terminal', terminalId: clip(content.terminalId) };
  }
}

/** An argument as a POSIX shell would need it written: bare when safe, else single-quoted. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command a tool call runs, read from its raw input: `command` (or `cmd`) as a string (with
 * `args` after it when they are given apart) or an argument list, and the folder from `cwd` (or `workdir`). Agents differ (Claude's Bash tool
 * sends a string, Codex an argument list), so both are read; anything else is no command.
 */
export function commandOf(rawInput: unknown): ToolCommandView | undefined {
  if (rawInput === null || typeof rawInput !== 'object' || Array.isArray(rawInput)) {
    return undefined;
  }
  const input = rawInput as Record<string, unknown>;
  const given = input.command ?? input.cmd;
  let line: string | undefined;
  if (typeof given === 'string') {
    // `{ command, args }`, the shape of ACP's own `terminal/create`: the program, then its list.
    const args = Array.isArray(input.args) ? input.args.slice(0, 1000) : [];
    line = args.every((arg): arg is string => typeof arg === 'string')
      ? [given, ...args.map(shellQuote)].join(' ')
      : given;
  } else if (
    Array.isArray(given) &&
    given.length > 0 &&
    given.every((arg): arg is string => typeof arg === 'string')
  ) {
    line = given.slice(0, 1000).map(shellQuote).join(' ');
  }
  if (line === undefined || line.trim() === '') {
    return undefined;
  }
  const folder = input.cwd ?? input.workdir;
  return {
    line: shown(line),
    cwd: typeof folder === 'string' && folder !== '' ? shown(folder) : undefined,
  };
}

/** A tool call's raw input as indented JSON, clipped; nothing for an empty one. */
export function rawInputText(rawInput: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(rawInput, null, 2);
  } catch {
    return undefined;
  }
  if (text === undefined || text === '{}' || text === '[]' || text === 'null') {
    return undefined;
  }
  return shown(text, MAX_RAW_INPUT_CHARS);
}
