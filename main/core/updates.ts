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
} from '../../preload/contract.js';

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

/** Clips an agent-supplied string to `max` characters. */
export function clip(value: string, max = SHORT): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
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
            name: clip(command.name),
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
      name: clip(option.name),
      category: option.category == null ? undefined : clip(option.category, 100),
      currentValue:
        typeof option.currentValue === 'boolean' ? option.currentValue : clip(option.currentValue),
      choices: choices
        .slice(0, 1000)
        .map((choice) => ({ value: clip(choice.value), name: clip(choice.name) })),
    };
  });
}

function chunkEvents(
  role: 'agent' | 'user' | 'thought',
  content: acp.ContentBlock,
): TranscriptEvent[] {
  if (content.type === 'text') {
    return content.text
      ? splitText(content.text).map((text) => ({ type: 'chunk', role, text }))
      : [];
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
        name: clip(content.title ?? content.name),
        uri: clip(content.uri),
      };
    case 'resource':
      return {
        type: 'resource',
        uri: clip(content.resource.uri),
        text: 'text' in content.resource ? clip(content.resource.text, LONG) : undefined,
      };
  }
}

/**
 * Maps the displayable fields of a tool call (a `tool_call`, a `tool_call_update`, or the tool
 * call a permission request is about). Its command and raw input come from `rawInput`; text the
 * user decides on (its title, command, raw input and diffs) shows its invisible characters.
 */
export function toolCallFields(update: Omit<acp.ToolCallUpdate, 'toolCallId'>): ToolCallFields {
  const fields: ToolCallFields = {};
  if (update.title != null) {
    fields.title = clip(revealInvisible(update.title));
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
      .map((location) => ({ path: clip(location.path), line: location.line ?? null }));
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
        path: clip(revealInvisible(content.path)),
        oldText: content.oldText == null ? null : clip(revealInvisible(content.oldText), LONG),
        newText: clip(revealInvisible(content.newText), LONG),
      };
    case 'terminal':
      return { type: 'terminal', terminalId: clip(content.terminalId) };
  }
}

// Characters that draw nothing or reorder what follows them: C0 and C1 controls (but tab, line
// feed and carriage return), bidirectional controls and zero-width characters. Text a user
// approves could hide what it does behind them ("Trojan Source", CVE-2021-42574).
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

/** Writes each invisible or reordering character of `value` as its code point: `⟨U+202E⟩`. */
export function revealInvisible(value: string): string {
  return value.replace(
    INVISIBLE,
    (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
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
    line: clip(revealInvisible(line)),
    cwd: typeof folder === 'string' && folder !== '' ? clip(revealInvisible(folder)) : undefined,
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
  return clip(revealInvisible(text), MAX_RAW_INPUT_CHARS);
}
