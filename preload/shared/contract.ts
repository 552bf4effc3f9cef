/**
 * The one contract between the core and the UI.
 *
 * Every call (UI → core) and every event (core → UI) is named here with a zod schema beside
 * its type. Both transports (Electron IPC and the web host's WebSocket) carry exactly this
 * contract and validate each payload on the receiving side. This file imports only zod.
 */
import { z } from 'zod';
import { FormModel } from './form-model.js';
// Attachments and the folder's file completion (issue 12, Prompts).
import { FileCompletion, PromptAttachments, PromptCapabilitiesView } from './prompt-content.js';
import { UrlAnalysis } from './url-analysis-view.js';
// The limits the UI reads without building a schema.
import {
  LINK_TEXT_CEILING,
  MAX_PROMPT_CHARS,
  MAX_SESSION_NAME_CHARS,
  SESSION_KEY_PATTERN,
} from './contract-plain.js';
// The ACP registry's catalogue: its agents, installs and their progress.
import { RegistryAgentRequest, RegistryListing, RegistryProgress } from './registry-view.js';
// Sessions that last: saved tabs, history, reopening (issue 12).
import {
  AgentFolder,
  HistoryView,
  ReopenRequest,
  SavedTabId,
  SavedTabView,
} from './lasting-sessions.js';

const text = z.string().max(1_000_000);
const shortText = z.string().max(10_000);
/** The most files an undo of a turn lists as left alone. */
const MAX_UNDO_LIST = 2_000;
/** How many recent working folders Airlock keeps and offers. */
export const MAX_RECENT_FOLDERS = 10;
const name = z.string().min(1).max(200);

/** Airlock's own id for a session tab (not the agent's ACP session id). */
export const SessionKey = z.string().regex(SESSION_KEY_PATTERN);
/** Airlock's own id for a pending permission request. */
export const PromptKey = z.string().regex(/^p[0-9a-z]{1,32}$/);
/** Airlock's own id for an elicitation card. */
export const CardKey = z.string().regex(/^e[0-9a-z]{1,32}$/);

/** Why a card ended without the user's answer. */
export const CardEnd = z.enum(['withdrawn', 'turn_cancelled', 'tab_closed', 'agent_exited']);
export type CardEnd = z.infer<typeof CardEnd>;

/** How the user ends an elicitation: submit, an explicit no, or dismissing it. */
export const ElicitationAction = z.enum(['accept', 'decline', 'cancel']);
export type ElicitationAction = z.infer<typeof ElicitationAction>;

/** The `content` of an accepted form: each answered field, typed as its schema says. */
export const ElicitationContent = z.record(
  z.string().max(1000),
  z.union([
    z.string().max(100_000),
    z.number(),
    z.boolean(),
    z.array(z.string().max(10_000)).max(1000),
  ]),
);
export type ElicitationContent = z.infer<typeof ElicitationContent>;

/** Who the agent says it is, plus the command that launched it. */
export const AgentIdentity = z.object({
  configName: name,
  name: shortText.optional(),
  title: shortText.optional(),
  version: shortText.optional(),
  protocolVersion: z.number().int(),
  commandLine: shortText,
});
export type AgentIdentity = z.infer<typeof AgentIdentity>;

/**
 * Where an agent's command comes from: `registry` for an agent from the ACP registry (its
 * settings entry says `"type": "registry"`), whose command Airlock works out when it starts it.
 * Absent for an agent whose command the settings file states.
 */
export const AgentSource = z.enum(['registry']);
export type AgentSource = z.infer<typeof AgentSource>;

/**
 * What the app shows of an agent beside its `name` (which stays its key everywhere): `label`,
 * the registry's name of an agent from the ACP registry ("Claude Agent" for `claude-acp`), shown
 * in place of the name; `notInRegistry`, an agent from the registry whose id the registry copy
 * Airlock could read does not list (it shows by its id, and cannot start until it is listed).
 */
const AgentShown = {
  label: name.optional(),
  notInRegistry: z.literal(true).optional(),
};

/** An agent the user can start sessions with. */
export const AgentEntry = z.object({
  name,
  /** The command line, or for an agent from the registry where it comes from, in words. */
  commandLine: shortText,
  builtIn: z.boolean(),
  source: AgentSource.optional(),
  ...AgentShown,
});
export type AgentEntry = z.infer<typeof AgentEntry>;

/** The most unusable `agent_servers` entries listed one by one. */
export const MAX_UNUSABLE_AGENTS = 100;

/**
 * An `agent_servers` entry Airlock cannot use, and why, in words with the file and line ("…,
 * line 7: agent_servers.claude-acp: …"). Every other agent is still offered.
 */
export const UnusableAgent = z.object({
  name: z.string().max(200),
  reason: shortText,
});
export type UnusableAgent = z.infer<typeof UnusableAgent>;

/** The name an environment variable may have (POSIX portable names). */
export const EnvVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/);

/** A variable an `env_var` sign-in method needs, and whether the agent has it. */
export const EnvVarView = z.object({
  name: shortText,
  label: shortText.optional(),
  /** Whether the value is a secret (masked when entered). */
  secret: z.boolean(),
  optional: z.boolean(),
  /** Whether the agent's environment (settings, keychain or Airlock's own) has a value. */
  set: z.boolean(),
});
export type EnvVarView = z.infer<typeof EnvVarView>;

/** An authentication method offered by the agent, as the UI should present it. */
export const AuthMethodView = z.object({
  id: shortText,
  name: shortText,
  description: shortText.optional(),
  /** `agent`: Airlock runs `authenticate`; `env_var`: the agent reads variables, then Airlock authenticates; `terminal`: run the agent's login in a terminal. */
  kind: z.enum(['agent', 'env_var', 'terminal']),
  vars: z.array(EnvVarView).max(100).optional(),
  terminalCommand: shortText.optional(),
});
export type AuthMethodView = z.infer<typeof AuthMethodView>;

/** The widest sign-in terminal, in columns. */
export const MAX_TERMINAL_COLS = 400;
/** The tallest sign-in terminal, in rows. */
export const MAX_TERMINAL_ROWS = 200;
/** The most characters one `agent:terminalInput` carries (a paste is sent in parts). */
export const MAX_TERMINAL_INPUT_CHARS = 4_096;

/**
 * A run of a sign-in terminal's line in one style: its text, its colour (one of the 16 ANSI
 * colours, 0-15, absent for the default), bold, and inverse (drawn with the colours swapped).
 */
export const TerminalRun = z.object({
  text: z.string().max(MAX_TERMINAL_COLS * 2),
  fg: z.number().int().min(0).max(15).optional(),
  bold: z.boolean().optional(),
  inverse: z.boolean().optional(),
});
export type TerminalRun = z.infer<typeof TerminalRun>;

/**
 * What a sign-in terminal shows (a `terminal` auth method's command, run in the tab's folder):
 * its screen as lines of runs, the cursor, and once the command has ended, its exit code
 * (`null` when a signal ended it).
 */
export const TerminalScreen = z.object({
  key: SessionKey,
  methodId: shortText,
  cols: z.number().int().min(1).max(MAX_TERMINAL_COLS),
  rows: z.number().int().min(1).max(MAX_TERMINAL_ROWS),
  lines: z.array(z.array(TerminalRun).max(MAX_TERMINAL_COLS)).max(MAX_TERMINAL_ROWS),
  cursor: z.object({
    row: z.number().int().min(0).max(MAX_TERMINAL_ROWS),
    col: z.number().int().min(0).max(MAX_TERMINAL_COLS),
    visible: z.boolean(),
  }),
  /** The command asked for application cursor keys: arrows are sent as `ESC O A`, not `ESC [ A`. */
  appCursorKeys: z.boolean(),
  exited: z.object({ code: z.number().int().nullable() }).optional(),
});
export type TerminalScreen = z.infer<typeof TerminalScreen>;

/** A sign-in terminal's size as the UI asks for it. */
const terminalSize = {
  cols: z.number().int().min(10).max(MAX_TERMINAL_COLS),
  rows: z.number().int().min(2).max(MAX_TERMINAL_ROWS),
};

/** One of the agent's slash commands. */
export const CommandView = z.object({
  name: shortText,
  description: shortText,
  hint: shortText.optional(),
});
export type CommandView = z.infer<typeof CommandView>;

/** A session mode the agent offers. */
export const ModeView = z.object({
  id: shortText,
  name: shortText,
  description: shortText.optional(),
});

/** A session configuration option, flattened for display. */
export const ConfigOptionView = z.object({
  id: shortText,
  name: shortText,
  /** What the option is about (`mode`, `model`, ...); a `mode` option supersedes legacy modes. */
  category: shortText.optional(),
  currentValue: z.union([shortText, z.boolean()]),
  choices: z.array(z.object({ value: shortText, name: shortText })).max(1000),
});
export type ConfigOptionView = z.infer<typeof ConfigOptionView>;

/** Context-window usage reported by the agent. */
export const UsageView = z.object({
  used: z.number(),
  size: z.number(),
  cost: z.object({ amount: z.number(), currency: shortText }).optional(),
});
export type UsageView = z.infer<typeof UsageView>;

/** How an agent process ended. */
export const AgentExit = z.object({
  code: z.number().int().nullable(),
  signal: shortText.nullable(),
  reason: shortText,
  stderrTail: z.array(shortText).max(100),
});
export type AgentExit = z.infer<typeof AgentExit>;

/** The lifecycle of a session tab. */
export const SessionStatus = z.enum([
  'starting',
  'auth_required',
  'ready',
  'prompting',
  'exited',
  'failed',
  'closed',
]);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** Everything about a session except its transcript. */
export const SessionSummary = z.object({
  key: SessionKey,
  agentName: name,
  cwd: shortText,
  status: SessionStatus,
  title: shortText.optional(),
  agent: AgentIdentity.optional(),
  error: shortText.optional(),
  /** What lies behind `error` (a JSON-RPC code, the agent's raw data), shown under Details. */
  errorDetail: shortText.optional(),
  authMethods: z.array(AuthMethodView).max(100),
  exit: AgentExit.optional(),
  commands: z.array(CommandView).max(1000),
  /** Legacy session modes; empty when a config option of category `mode` supersedes them. */
  modes: z.array(ModeView).max(100),
  currentModeId: shortText.optional(),
  configOptions: z.array(ConfigOptionView).max(100),
  usage: UsageView.optional(),
  /** How many cards (permissions, elicitations) wait on the user. */
  pendingCards: z.number().int().nonnegative(),
  /** The name the user gave the tab (`session:rename`); it wins over the agent's title. */
  userTitle: z.string().max(MAX_SESSION_NAME_CHARS).optional(),
  /** The first prompt on one line, shortened: the tab's name until the agent sends a title. */
  firstPrompt: z.string().max(200).optional(),
  /** What the running agent accepts in a prompt (images, embedded files); absent until it runs. */
  promptCapabilities: PromptCapabilitiesView.optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** Content that is not plain text, described for display (never rendered as HTML). */
export const ContentView = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text }),
  z.object({ type: z.literal('image'), mimeType: shortText }),
  z.object({ type: z.literal('audio'), mimeType: shortText }),
  z.object({ type: z.literal('resource_link'), name: shortText, uri: shortText }),
  z.object({ type: z.literal('resource'), uri: shortText, text: text.optional() }),
]);
export type ContentView = z.infer<typeof ContentView>;

/** Tool-call content: text, a diff, or a terminal reference. */
export const ToolContentView = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content'), content: ContentView }),
  z.object({ type: z.literal('diff'), path: shortText, oldText: text.nullable(), newText: text }),
  z.object({ type: z.literal('terminal'), terminalId: shortText }),
]);
export type ToolContentView = z.infer<typeof ToolContentView>;

const toolKind = z.enum([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
const toolStatus = z.enum(['pending', 'in_progress', 'completed', 'failed']);

/** The longest raw input of a tool call the UI gets, as text (indented JSON), in characters. */
export const MAX_RAW_INPUT_CHARS = 20_000;

/** A command line a tool call runs, as the core read it from the call's raw input. */
export const ToolCommandView = z.object({
  /** The command, one line per line it has (an argument list is quoted as a shell would). */
  line: shortText,
  /** The folder it runs in, when the raw input names one. */
  cwd: shortText.optional(),
});
export type ToolCommandView = z.infer<typeof ToolCommandView>;

/**
 * How the user answered a permission request about a tool call: `asked` while the card waits,
 * then `allowed`, `rejected`, or `cancelled` (no answer: the turn was cancelled, the agent
 * withdrew the request, the tab closed or the agent exited).
 */
export const ToolPermissionView = z.enum(['asked', 'allowed', 'rejected', 'cancelled']);
export type ToolPermissionView = z.infer<typeof ToolPermissionView>;

/** An agent write Airlock kept a copy of, to undo it (see main/core/undo/). */
export const WriteId = z.string().regex(/^w[0-9a-z]{1,12}$/);

/**
 * Whether an agent write can be undone: `available` (in the turn that started at `turn`, a
 * time in ms, or outside any turn), `undone`, or `unavailable` and why (no copy could be kept,
 * or the store dropped it to stay within its size).
 */
export const UndoView = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('available'),
    writeId: WriteId,
    turn: z.number().int().nonnegative().nullable(),
  }),
  z.object({ state: z.literal('undone'), writeId: WriteId }),
  z.object({ state: z.literal('unavailable'), reason: shortText }),
]);
export type UndoView = z.infer<typeof UndoView>;

/** One version of a file, as an undo that found it changed shows it. */
export const FileVersionView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('missing') }),
  z.object({ kind: z.literal('text'), text }),
  z.object({ kind: z.literal('binary'), bytes: z.number().int().nonnegative() }),
]);
export type FileVersionView = z.infer<typeof FileVersionView>;

/** The displayable fields of a tool call; on updates, absent fields are unchanged. */
export const ToolCallFields = z.object({
  title: shortText.optional(),
  kind: toolKind.optional(),
  status: toolStatus.optional(),
  content: z.array(ToolContentView).max(1000).optional(),
  locations: z
    .array(z.object({ path: shortText, line: z.number().int().nullable() }))
    .max(1000)
    .optional(),
  /** The command it runs, when its raw input names one (`command` or `cmd`). */
  command: ToolCommandView.optional(),
  /** Its raw input as indented JSON, clipped: what the agent passes the tool, shown as text. */
  rawInput: z.string().max(MAX_RAW_INPUT_CHARS).optional(),
  /** Set by Airlock, never by the agent: the user's answer to a permission request about it. */
  permission: ToolPermissionView.optional(),
  /** Set by Airlock on its own write rows: whether the write can be undone. */
  undo: UndoView.optional(),
});
export type ToolCallFields = z.infer<typeof ToolCallFields>;

/** One step of the agent's plan. */
export const PlanEntryView = z.object({
  content: shortText,
  priority: z.enum(['high', 'medium', 'low']),
  status: z.enum(['pending', 'in_progress', 'completed']),
});
export type PlanEntryView = z.infer<typeof PlanEntryView>;

/** A choice on a permission card. */
export const PermissionOptionView = z.object({
  optionId: shortText,
  name: shortText,
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});
export type PermissionOptionView = z.infer<typeof PermissionOptionView>;

/** How a permission request ended. */
export const PermissionOutcome = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('selected'), optionId: shortText }),
  z.object({ outcome: z.literal('cancelled') }),
]);
export type PermissionOutcome = z.infer<typeof PermissionOutcome>;

/**
 * What the user answers on a permission card: one of its choices, or `dismissed` (Esc: this card
 * only, not the turn). The core turns a dismissal into the answer the protocol gives a dismissed
 * request: the card's reject choice if it offers one, else `cancelled`.
 */
export const PermissionReply = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('selected'), optionId: shortText }),
  z.object({ outcome: z.literal('cancelled') }),
  z.object({ outcome: z.literal('dismissed') }),
]);
export type PermissionReply = z.infer<typeof PermissionReply>;

/** The most of a terminal's output the UI is sent: its end, in characters (64 KB of text). */
export const MAX_TERMINAL_VIEW_CHARS = 64 * 1024;

/** How a terminal's command ended: its exit code, or the signal that stopped it. */
export const TerminalExitView = z.object({
  exitCode: z.number().int().nullable(),
  signal: shortText.nullable(),
  /**
   * Who stopped the command while it ran: the user (its Stop button), the agent, or Airlock when
   * the session ended. Absent when it ended on its own, or by a signal nobody here sent.
   */
  stoppedBy: z.enum(['user', 'agent', 'airlock']).optional(),
});
export type TerminalExitView = z.infer<typeof TerminalExitView>;

/** One entry appended to a session's transcript, in order. */
export const TranscriptEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('prompt'), text }),
  z.object({ type: z.literal('chunk'), role: z.enum(['agent', 'user', 'thought']), text }),
  z.object({
    type: z.literal('content'),
    role: z.enum(['agent', 'user', 'thought']),
    content: ContentView,
  }),
  z.object({ type: z.literal('tool_call'), toolCallId: shortText, fields: ToolCallFields }),
  z.object({ type: z.literal('tool_call_update'), toolCallId: shortText, fields: ToolCallFields }),
  z.object({ type: z.literal('plan'), entries: z.array(PlanEntryView).max(1000) }),
  z.object({
    type: z.literal('notice'),
    severity: shortText,
    title: shortText,
    description: shortText.optional(),
  }),
  z.object({
    type: z.literal('permission'),
    promptKey: PromptKey,
    /** Who asks, as the agent said when it started (as on an elicitation's card). */
    agent: AgentIdentity,
    toolCallId: shortText,
    title: shortText.optional(),
    options: z.array(PermissionOptionView).min(1).max(100),
    /**
     * What it asks to allow: the tool call as the request describes it, over what earlier
     * updates said of it (its diff, command, paths, kind and raw input), shown before any answer.
     */
    tool: ToolCallFields.optional(),
  }),
  z.object({
    type: z.literal('permission_resolved'),
    promptKey: PromptKey,
    outcome: PermissionOutcome,
    /** Why it ended without the user's answer, if it did. */
    ended: CardEnd.optional(),
  }),
  z.object({
    type: z.literal('elicitation'),
    cardKey: CardKey,
    /** Who asks, as the agent said when it started. */
    agent: AgentIdentity,
    /** `session`: about this session (and maybe a tool call); `request`: while the tab starts. */
    scope: z.enum(['session', 'request']),
    toolCallId: shortText.optional(),
    /** The agent's message, shown as plain text. */
    message: shortText,
    mode: z.literal('form'),
    form: FormModel,
  }),
  z.object({
    type: z.literal('url_elicitation'),
    cardKey: CardKey,
    /** Who asks, as the agent said when it started. */
    agent: AgentIdentity,
    scope: z.enum(['session', 'request']),
    toolCallId: shortText.optional(),
    /** The agent's message, shown as plain text. */
    message: shortText,
    /** Where the URL leads, as main analysed it; shown in full, never as a link. */
    url: UrlAnalysis,
  }),
  z.object({
    /** A URL elicitation the user consented to stopped waiting for the page to finish. */
    type: z.literal('url_elicitation_done'),
    cardKey: CardKey,
    /** `completed`: the agent said the page is done; `done`/`dismissed`: the user closed it. */
    how: z.enum(['completed', 'done', 'dismissed', 'agent_exited', 'tab_closed']),
  }),
  z.object({
    type: z.literal('elicitation_resolved'),
    cardKey: CardKey,
    action: ElicitationAction,
    /** Why it ended without the user's answer, if it did. */
    ended: CardEnd.optional(),
    /** What was sent, for an accepted form. */
    content: ElicitationContent.optional(),
  }),
  z.object({
    /**
     * What a terminal shows now: the end of its output (ANSI escapes and all, as the command
     * wrote it), and how it ended once it has. Each one replaces the terminal's earlier ones;
     * sent at most every so often while the command writes (see main/core/terminals/live.ts).
     */
    type: z.literal('terminal_output'),
    terminalId: shortText,
    output: z.string().max(MAX_TERMINAL_VIEW_CHARS),
    /** Whether earlier output was left out (by the agent's limit, Airlock's, or this view's). */
    truncated: z.boolean(),
    exitStatus: TerminalExitView.optional(),
  }),
  z.object({ type: z.literal('turn_end'), stopReason: shortText }),
  z.object({
    type: z.literal('turn_error'),
    /** Why the turn failed, in a sentence a person reads. */
    message: shortText,
    /** What lies behind it (a JSON-RPC code, the agent's raw data), shown under Details. */
    detail: shortText.optional(),
  }),
  z.object({ type: z.literal('agent_exit'), exit: AgentExit }),
  z.object({
    type: z.literal('system'),
    text: shortText,
    /**
     * Names a line that a later one replaces: a later `system` event with the same id stands in
     * its place (a "Restarting…" line that becomes "Restarted", or the error).
     */
    id: z.string().max(100).optional(),
  }),
]);
export type TranscriptEvent = z.infer<typeof TranscriptEvent>;

const empty = z.object({}).strict();

/**
 * How URL elicitations open here: where by default (`off`: URL mode is not advertised), and
 * whether the host opens them itself (the desktop app) or the page opens a browser tab (web).
 */
export const UrlElicitationView = z.object({
  default: z.enum(['isolated_window', 'system_browser', 'off']),
  opener: z.enum(['host', 'page']),
});
export type UrlElicitationView = z.infer<typeof UrlElicitationView>;

/** Whether the host can keep sign-in secrets (the OS keychain), and where or why not. */
export const SecretStorageView = z.object({ available: z.boolean(), description: shortText });
export type SecretStorageView = z.infer<typeof SecretStorageView>;

const linkText = z.string().max(LINK_TEXT_CEILING);

/** A link's address as the core analysed it: where it leads, or why it cannot open. */
export const LinkVerdict = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), analysis: UrlAnalysis }),
  z.object({ ok: z.literal(false), reason: shortText }),
]);
export type LinkVerdict = z.infer<typeof LinkVerdict>;

/** The most agents a settings file may configure. */
export const MAX_AGENTS = 1_000;
/** The longest command of an agent, in characters. */
export const MAX_AGENT_COMMAND_CHARS = 10_000;
/** The most arguments an agent's command may take. */
export const MAX_AGENT_ARGS = 1_000;
/** The longest argument of an agent's command, in characters. */
export const MAX_AGENT_ARG_CHARS = 10_000;
/** The most environment variables an agent may set. */
export const MAX_AGENT_ENV = 1_000;
/** The longest name of an agent's environment variable, in characters. */
export const MAX_ENV_NAME_CHARS = 200;
/** The longest value of an agent's environment variable, in characters. */
export const MAX_ENV_VALUE_CHARS = 100_000;
/** The most entries an agent's `url_domains` may list. */
export const MAX_URL_DOMAINS = 32;
/** The longest entry of an agent's `url_domains`, in characters. */
export const MAX_URL_DOMAIN_CHARS = 1_000;

const envName = z.string().max(MAX_ENV_NAME_CHARS);
const envValue = z.string().max(MAX_ENV_VALUE_CHARS);

/** The most MCP servers one `context_servers` list may hold (the global one, or an agent's). */
export const MAX_MCP_SERVERS = 100;
/** The longest URL of a remote MCP server, in characters. */
export const MAX_MCP_URL_CHARS = 10_000;
/** The most headers a remote MCP server may set. */
export const MAX_MCP_HEADERS = 100;

/**
 * One environment variable of an agent in the settings view. A value that looks secret (by its
 * name or its look) is not sent: only that it is set; the view asks for it on request.
 */
export const AgentEnvView = z.discriminatedUnion('secret', [
  z.object({ name: envName, secret: z.literal(false), value: envValue }),
  z.object({ name: envName, secret: z.literal(true), set: z.literal(true) }),
]);
export type AgentEnvView = z.infer<typeof AgentEnvView>;

/**
 * An MCP server from the settings file, as the settings view lists it (read-only): a local one
 * by its command, a remote one by its URL, its variables or headers masked like an agent's
 * environment. `extension` is a Zed extension's server, which Airlock cannot start.
 */
export const McpServerView = z.object({
  name,
  transport: z.enum(['stdio', 'http', 'sse', 'extension']),
  enabled: z.boolean(),
  command: z.string().max(MAX_AGENT_COMMAND_CHARS).optional(),
  args: z.array(z.string().max(MAX_AGENT_ARG_CHARS)).max(MAX_AGENT_ARGS).optional(),
  url: z.string().max(MAX_MCP_URL_CHARS).optional(),
  /** Environment variables (stdio) or headers (remote). */
  values: z.array(AgentEnvView).max(Math.max(MAX_AGENT_ENV, MAX_MCP_HEADERS)),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** An agent as the settings view shows it. The built-in agent cannot be changed. */
export const AgentSettingsView = z.object({
  name,
  builtIn: z.boolean(),
  command: z.string().max(MAX_AGENT_COMMAND_CHARS),
  args: z.array(z.string().max(MAX_AGENT_ARG_CHARS)).max(MAX_AGENT_ARGS),
  env: z.array(AgentEnvView).max(MAX_AGENT_ENV),
  urlDomains: z.array(z.string().max(MAX_URL_DOMAIN_CHARS)).max(MAX_URL_DOMAINS),
  /** The agent's own MCP servers (`context_servers` in its entry); absent when it has none. */
  mcpServers: z.array(McpServerView).max(MAX_MCP_SERVERS).optional(),
  /** `registry`: the agent comes from the ACP registry, and has no command to edit here. */
  source: AgentSource.optional(),
  ...AgentShown,
});
export type AgentSettingsView = z.infer<typeof AgentSettingsView>;

/**
 * An environment variable of an agent being saved: a value, or `keep` for the stored value of
 * the variable `from` (the same name by default), as a masked secret left unchanged is sent.
 */
export const AgentEnvInput = z.union([
  z.object({ name: envName, value: envValue }).strict(),
  z.object({ name: envName, keep: z.literal(true), from: envName.optional() }).strict(),
]);
export type AgentEnvInput = z.infer<typeof AgentEnvInput>;

/**
 * An agent as the settings view saves it. Bounds here are ceilings; the core checks each field
 * and answers in words.
 */
export const AgentSettingsInput = z
  .object({
    name: shortText,
    command: z.string().max(MAX_AGENT_COMMAND_CHARS * 2),
    args: z.array(z.string().max(MAX_AGENT_ARG_CHARS * 2)).max(MAX_AGENT_ARGS * 2),
    env: z.array(AgentEnvInput).max(MAX_AGENT_ENV * 2),
    urlDomains: z.array(shortText).max(MAX_URL_DOMAINS * 2),
  })
  .strict();
export type AgentSettingsInput = z.infer<typeof AgentSettingsInput>;

/** What is wrong with one field of an agent being saved (`name`, `command`, `args.2`, `env.0.name`…). */
export const FieldProblem = z.object({ field: shortText, message: shortText });
export type FieldProblem = z.infer<typeof FieldProblem>;

/** What "Test" found out about an agent: the check `airlock probe` runs. */
export const AgentTestReport = z.object({
  agentName: name,
  commandLine: shortText,
  /** Whether the agent started and answered `initialize`; `error` says why not. */
  ok: z.boolean(),
  error: shortText.optional(),
  name: shortText.optional(),
  title: shortText.optional(),
  version: shortText.optional(),
  protocolVersion: z.number().int().optional(),
  /**
   * What a session of this agent will offer, in sentences ("Can load past sessions"), each
   * marked available or not; decided as the session decides. Absent or empty when the
   * handshake failed.
   */
  offers: z
    .array(z.object({ text: shortText, available: z.boolean() }))
    .max(50)
    .optional(),
  /** Each capability as `path: value` (`loadSession: yes`, `promptCapabilities.image: no`). */
  capabilities: z.array(z.object({ name: shortText, value: shortText })).max(200),
  /** What Airlock offered the agent (`clientCapabilities`), the same way. */
  offered: z
    .array(z.object({ name: shortText, value: shortText }))
    .max(200)
    .optional(),
  /** The MCP servers `session/new` was given, and those left out with why. */
  mcpServers: z
    .array(z.object({ name: shortText, passed: z.boolean(), detail: shortText }))
    .max(MAX_MCP_SERVERS * 2)
    .optional(),
  authMethods: z.array(AuthMethodView).max(100),
  /** Whether `session/new` worked, and why not; absent when the handshake failed. */
  session: z
    .discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        /** The session's modes and options, by the names the agent shows a person. */
        modes: z.array(shortText).max(100),
        configOptions: z.array(shortText).max(100),
        /** The same by their ids, shown under Details. */
        modeIds: z.array(shortText).max(100).optional(),
        configOptionIds: z.array(shortText).max(100).optional(),
        signedInWith: shortText.optional(),
      }),
      z.object({
        ok: z.literal(false),
        authRequired: z.boolean(),
        /** Why, in words a person reads. */
        error: shortText,
        /** The protocol's side of it (the JSON-RPC code), shown under Details. */
        detail: shortText.optional(),
        signedInWith: shortText.optional(),
      }),
    ])
    .optional(),
  /** The agent's log file. */
  log: shortText,
});
export type AgentTestReport = z.infer<typeof AgentTestReport>;

/**
 * A command the host gives the window, from outside the page: the application menu's items, or
 * a click on a notification. The window runs the same action as the matching keyboard shortcut
 * (renderer/src/keyboard.ts); `showWaiting` shows session `key` and focuses the card that waits
 * there, as Alt+J does for the next one.
 */
export const HostCommand = z.discriminatedUnion('command', [
  z.object({ command: z.literal('newSession') }).strict(),
  z.object({ command: z.literal('closeSession') }).strict(),
  z.object({ command: z.literal('agentSettings') }).strict(),
  z.object({ command: z.literal('agentLog') }).strict(),
  z.object({ command: z.literal('showWaiting'), key: SessionKey }).strict(),
]);
export type HostCommand = z.infer<typeof HostCommand>;

/**
 * The URL fragment of a window opened to show session `key`'s waiting card: a notification
 * clicked while no window was open (macOS), when a `showWaiting` command would reach no page.
 */
export function waitingFragment(key: string): string {
  return `waiting=${SessionKey.parse(key)}`;
}

export {
  LINK_TEXT_CEILING,
  MAX_PROMPT_CHARS,
  MAX_SESSION_NAME_CHARS,
  waitingInFragment,
} from './contract-plain.js';

/** Every call the UI can make, with its request and response schemas. */
export const calls = {
  /** A snapshot of the app: agents, settings, open sessions. */
  'app:getState': {
    request: empty,
    response: z.object({
      agents: z.array(AgentEntry),
      settingsPath: shortText,
      settingsError: shortText.optional(),
      defaultCwd: shortText,
      canPickFolder: z.boolean(),
      secretStorage: SecretStorageView,
      urlElicitation: UrlElicitationView,
      sessions: z.array(SessionSummary),
    }),
  },
  /** Asks the host for a folder (Electron's dialog); `null` when cancelled or unsupported. */
  'app:pickFolder': {
    request: empty,
    response: z.object({ path: shortText.nullable() }),
  },
  /**
   * The working folders used recently that still exist, most recent first (kept in Airlock's
   * config folder), for the new-session form to offer.
   */
  'app:getRecentFolders': {
    request: empty,
    response: z.object({ folders: z.array(shortText).max(MAX_RECENT_FOLDERS) }),
  },
  /**
   * Starts a session with an agent in a working folder. The folder must be an existing one, named
   * by an absolute path: anything else is refused, saying why, and nothing starts.
   */
  'session:create': {
    request: z.object({ agentName: name, cwd: shortText.min(1) }).strict(),
    response: z.object({ key: SessionKey }),
  },
  /** The whole transcript so far, for a UI that (re)attaches to a session. */
  'session:getTranscript': {
    request: z.object({ key: SessionKey }).strict(),
    response: z.object({ events: z.array(TranscriptEvent) }),
  },
  /**
   * Sends a prompt: its text, and files of the session's folder and images attached to it (each
   * checked by the core; refused, and nothing sent, when the agent does not accept it). The
   * turn's progress arrives as events.
   */
  'session:prompt': {
    request: z
      .object({
        key: SessionKey,
        text: z.string().min(1).max(MAX_PROMPT_CHARS),
        attachments: PromptAttachments.optional(),
      })
      .strict(),
    response: empty,
  },
  /**
   * Files of the session's folder whose path fits `query` (what follows an `@`), best first, for
   * the composer to complete. The walk has a budget, so a huge folder answers quickly, partly.
   */
  'files:complete': {
    request: z.object({ key: SessionKey, query: z.string().max(1000) }).strict(),
    response: FileCompletion,
  },
  /**
   * Names the session the UI shows. Its transcript events go out as they come; the other
   * sessions' wait a little (at most a quarter of a second) and go out together, but a card that
   * waits on the user, and anything before it, goes at once. The latest call decides.
   */
  'session:show': {
    request: z.object({ key: SessionKey }).strict(),
    response: empty,
  },
  /** Cancels the running turn (`session/cancel`); pending permissions answer `cancelled`. */
  'session:cancel': {
    request: z.object({ key: SessionKey }).strict(),
    response: empty,
  },
  /**
   * Undoes one agent write: the file as it was before it (or no file, if the write made it).
   * A file changed since comes back `changed` with its three versions and is left as it is,
   * unless `force`. `refused` says why nothing was done.
   */
  'files:undoWrite': {
    request: z
      .object({ key: SessionKey, writeId: WriteId, force: z.boolean().optional() })
      .strict(),
    response: z.discriminatedUnion('outcome', [
      z.object({ outcome: z.literal('undone') }),
      z.object({
        outcome: z.literal('changed'),
        path: shortText,
        before: FileVersionView,
        agent: FileVersionView,
        now: FileVersionView,
      }),
      z.object({ outcome: z.literal('refused'), reason: shortText }),
    ]),
  },
  /**
   * Undoes every write of the turn that started at `turn`, latest first. Files changed since
   * are left as they are and listed, as are writes that could not be undone.
   */
  'files:undoTurn': {
    request: z.object({ key: SessionKey, turn: z.number().int().nonnegative() }).strict(),
    response: z.object({
      undone: z.number().int().nonnegative(),
      changed: z.array(shortText).max(MAX_UNDO_LIST),
      refused: z.array(shortText).max(MAX_UNDO_LIST),
    }),
  },
  /** Restarts the session's agent after it exited or failed, with a fresh ACP session. */
  'session:restart': {
    request: z.object({ key: SessionKey }).strict(),
    response: empty,
  },
  /**
   * Stops a session that is starting (the agent's `initialize`, its sign-in or `session/new`):
   * the agent process is stopped at once unless another tab uses it, and the tab shows that the
   * user stopped it (Restart starts it again).
   */
  'session:stopStart': {
    request: z.object({ key: SessionKey }).strict(),
    response: empty,
  },
  /**
   * Closes the tab; the agent keeps running for other sessions. A tab that is still starting
   * stops its start as `session:stopStart` does.
   */
  'session:close': {
    request: z.object({ key: SessionKey }).strict(),
    response: empty,
  },
  /**
   * Names the tab, for every host that shows it. The name is put on one line and trimmed; an
   * empty one gives the tab back its own name (the agent's title, or the first prompt).
   */
  'session:rename': {
    request: z.object({ key: SessionKey, title: z.string().max(MAX_SESSION_NAME_CHARS) }).strict(),
    response: empty,
  },
  /** Selects a mode the agent offered. */
  'session:setMode': {
    request: z.object({ key: SessionKey, modeId: shortText }).strict(),
    response: empty,
  },
  /** Sets one of the session's options (a select's value, or a toggle). */
  'session:setConfigOption': {
    request: z
      .object({ key: SessionKey, configId: shortText, value: z.union([shortText, z.boolean()]) })
      .strict(),
    response: empty,
  },
  /** Answers a permission card, or dismisses it (that card only; see PermissionReply). */
  'permission:respond': {
    request: z.object({ key: SessionKey, promptKey: PromptKey, outcome: PermissionReply }).strict(),
    response: empty,
  },
  /**
   * Answers an elicitation card. An `accept` is checked against the form's schema first; a
   * failing answer is refused with the reason and nothing is sent.
   */
  'elicitation:respond': {
    request: z
      .object({
        key: SessionKey,
        cardKey: CardKey,
        action: ElicitationAction,
        content: ElicitationContent.optional(),
      })
      .strict(),
    response: empty,
  },
  /**
   * Opens a URL elicitation's URL where the host can (the isolated window, or the system
   * browser) and, on first opening, tells the agent the user consented (`accept`). Refused on a
   * host that cannot open URLs itself (the web host opens a browser tab from the page).
   */
  'elicitation:openUrl': {
    request: z
      .object({ key: SessionKey, cardKey: CardKey, where: z.enum(['window', 'browser']) })
      .strict(),
    response: empty,
  },
  /** Ends the wait after a URL was opened: the user is done with the page, or dismisses it. */
  'elicitation:finishUrl': {
    request: z
      .object({ key: SessionKey, cardKey: CardKey, how: z.enum(['done', 'dismissed']) })
      .strict(),
    response: empty,
  },
  /**
   * Analyses the address of a link the user clicked in an agent's reply, as URL mode analyses
   * its URLs: where it leads and its warnings, or why it cannot be opened. Nothing is fetched.
   */
  'link:analyse': {
    request: z.object({ url: linkText }).strict(),
    response: LinkVerdict,
  },
  /**
   * Opens a link the user consented to in the system browser, on a host that opens URLs itself
   * (the desktop app). The address is analysed again and refused unless it may open; the web
   * host refuses (the page opens a new browser tab itself, inside the click).
   */
  'link:open': {
    request: z.object({ url: linkText }).strict(),
    response: empty,
  },
  /**
   * Stops a command an agent runs in a terminal of the session (its Stop button): its process
   * group gets SIGTERM, then SIGKILL. The agent sees it end as if it had killed it; the output
   * stays. A terminal the session does not hold (released, or never there) is refused.
   */
  'terminal:kill': {
    request: z.object({ key: SessionKey, terminalId: shortText }).strict(),
    response: empty,
  },
  /** Runs `authenticate` with an agent-handled method, then retries the session. */
  'agent:authenticate': {
    request: z.object({ key: SessionKey, methodId: shortText }).strict(),
    response: empty,
  },
  /**
   * Keeps values for an `env_var` sign-in method in the keychain, restarts the agent with them
   * and signs in. Refused on a host without a keychain.
   */
  'agent:saveSecrets': {
    request: z
      .object({
        key: SessionKey,
        methodId: shortText,
        values: z.record(EnvVarName, z.string().min(1).max(10_000)),
      })
      .strict(),
    response: empty,
  },
  /**
   * Runs a `terminal` sign-in method: the agent's command with the method's args in place of
   * its own and its env added, in a pseudo-terminal in the tab's folder. Its screen comes in
   * `agent:onDidChangeTerminal`; the answer is the screen now. When it exits with 0 the agent
   * restarts and the tab signs in. One per tab: the same method again gives its screen (the
   * panel shown again), unless `again` (Try again after it ended); another method ends it first.
   */
  'agent:startTerminalSignIn': {
    request: z
      .object({
        key: SessionKey,
        methodId: shortText,
        ...terminalSize,
        again: z.boolean().optional(),
      })
      .strict(),
    response: TerminalScreen,
  },
  /** Types into the tab's sign-in terminal: keys as terminal data, a paste in parts. */
  'agent:terminalInput': {
    request: z
      .object({ key: SessionKey, data: z.string().min(1).max(MAX_TERMINAL_INPUT_CHARS) })
      .strict(),
    response: empty,
  },
  /** Resizes the tab's sign-in terminal to the panel's size. */
  'agent:terminalResize': {
    request: z.object({ key: SessionKey, ...terminalSize }).strict(),
    response: empty,
  },
  /** Closes the tab's sign-in terminal, ending its command if it still runs. */
  'agent:closeTerminalSignIn': {
    request: z.object({ key: SessionKey }).strict(),
    response: empty,
  },
  /** Forgets every sign-in value kept in the keychain for an agent. */
  'agent:forgetSecrets': {
    request: z.object({ agentName: name }).strict(),
    response: empty,
  },
  /** The agent's stderr log: its file and its last lines. */
  'agent:readLog': {
    request: z.object({ agentName: name }).strict(),
    response: z.object({ path: shortText, text }),
  },
  /**
   * The agents for the settings view, the settings file, and its error if any. `editable` is
   * false while the file cannot be parsed: edits wait until the user fixes it.
   */
  'settings:getAgents': {
    request: empty,
    response: z.object({
      path: shortText,
      error: shortText.optional(),
      editable: z.boolean(),
      agents: z.array(AgentSettingsView).max(MAX_AGENTS + 1),
      /** The `agent_servers` entries Airlock cannot use, each with why; absent when none. */
      unusable: z.array(UnusableAgent).max(MAX_UNUSABLE_AGENTS).optional(),
      /** The MCP servers every agent gets (top-level `context_servers`); absent when none. */
      mcpServers: z.array(McpServerView).max(MAX_MCP_SERVERS).optional(),
      /** `ask_before_writes`: every file write an agent asks for waits on the user first. */
      askBeforeWrites: z.boolean(),
    }),
  },
  /** Sets `ask_before_writes` in the settings file, as an edit that keeps its comments. */
  'settings:setAskBeforeWrites': {
    request: z.object({ value: z.boolean() }).strict(),
    response: empty,
  },
  /** One environment variable's value, which the list masks when it looks secret. */
  'settings:revealEnv': {
    request: z.object({ agentName: name, envName }).strict(),
    response: z.object({ value: envValue }),
  },
  /**
   * Adds an agent, or changes agent `originalName` (renaming it when the name differs), as an
   * edit of the settings file that keeps its comments and order. Field problems come back in
   * words; a file that cannot be parsed, or the built-in agent, is refused.
   */
  'settings:saveAgent': {
    request: z.object({ originalName: name.optional(), agent: AgentSettingsInput }).strict(),
    response: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), name }),
      z.object({ ok: z.literal(false), problems: z.array(FieldProblem).max(1000) }),
    ]),
  },
  /** Copies an agent under a free name ("<name> copy"); returns that name. */
  'settings:duplicateAgent': {
    request: z.object({ agentName: name }).strict(),
    response: z.object({ name }),
  },
  /** Removes an agent from the settings file. Sessions already running keep going. */
  'settings:removeAgent': {
    request: z.object({ agentName: name }).strict(),
    response: empty,
  },
  /** Starts the agent on its own, as `airlock probe` does, and reports; within a deadline. */
  'settings:testAgent': {
    request: z.object({ agentName: name }).strict(),
    response: AgentTestReport,
  },
  // ── Sessions that last (issue 12): the tabs of the last run, history, reopening ──
  /** The tabs kept from the last run that the user has neither reopened nor dismissed. */
  'session:listSaved': {
    request: empty,
    response: z.object({ tabs: z.array(SavedTabView).max(1000) }),
  },
  /**
   * Reopens one kept tab (`id`), or all of them: each in a new tab, with `session/load` (the
   * transcript replays) or `session/resume` where the agent offers them.
   */
  'session:reopenSaved': {
    request: z.object({ id: SavedTabId.optional() }).strict(),
    response: z.object({ keys: z.array(SessionKey).max(1000) }),
  },
  /** Forgets the kept tabs: the offer does not come back. */
  'session:dismissSaved': {
    request: empty,
    response: empty,
  },
  /**
   * An agent's earlier sessions in a folder (`session/list`, starting the agent if needed), or
   * a note that it keeps none. `cursor` lists further.
   */
  'session:history': {
    request: AgentFolder.extend({ cursor: z.string().max(10_000).optional() }).strict(),
    response: HistoryView,
  },
  /** Reopens a session from the history in a tab (the open one, if it is open already). */
  'session:reopen': {
    request: ReopenRequest,
    response: z.object({ key: SessionKey }),
  },
  // ── end of sessions that last ──
  // ── The ACP registry's catalogue ──
  /** The registry's agents as last fetched (or the copy Airlock ships), without the network. */
  'registry:list': {
    request: empty,
    response: RegistryListing,
  },
  /** Fetches the registry anew; on failure the last good copy, with `problem` saying why. */
  'registry:refresh': {
    request: empty,
    response: RegistryListing,
  },
  /**
   * Installs an agent of the registry: unpacks its archive first when it runs as a binary
   * (progress comes as `registry:onDidProgress`), then adds `"<id>": { "type": "registry" }` to
   * the settings file, keeping its comments. Answers with the agent's name in the app.
   */
  'registry:install': {
    request: RegistryAgentRequest,
    response: z.object({ agentName: name }),
  },
  /** Cancels the install of an agent under way; nothing of it is left. */
  'registry:cancelInstall': {
    request: RegistryAgentRequest,
    response: empty,
  },
  /** Installs the registry's newer version of an agent, then removes the older ones. */
  'registry:update': {
    request: RegistryAgentRequest,
    response: empty,
  },
  /** Removes an agent of the registry: its settings entry and its installed files. */
  'registry:remove': {
    request: RegistryAgentRequest,
    response: empty,
  },
} as const;

/** Every event the core sends to the UI. */
export const events = {
  /** A session was created or changed state. */
  'session:onDidChange': SessionSummary,
  /** Transcript entries appended to a session, in order, batched. */
  'session:onDidAppend': z.object({ key: SessionKey, events: z.array(TranscriptEvent) }),
  /** The agent list or the settings file changed. */
  'app:onDidChangeAgents': z.object({
    agents: z.array(AgentEntry),
    settingsError: shortText.optional(),
    /** The `agent_servers` entries Airlock cannot use, each with why; absent when none. */
    unusable: z.array(UnusableAgent).max(MAX_UNUSABLE_AGENTS).optional(),
  }),
  /** A tab's sign-in terminal shows something new (at most every 30 ms), or its command ended. */
  'agent:onDidChangeTerminal': TerminalScreen,
  /** The host asks the window to run one of its commands (see {@link HostCommand}). */
  'app:onCommand': HostCommand,
  /** An install of a registry agent received bytes, ended (`done`) or failed (`error`). */
  'registry:onDidProgress': RegistryProgress,
} as const;

/** The name of a call. */
export type CallChannel = keyof typeof calls;
/** The name of an event. */
export type EventChannel = keyof typeof events;
/** A call's request payload. */
export type CallRequest<C extends CallChannel> = z.infer<(typeof calls)[C]['request']>;
/** A call's response payload. */
export type CallResponse<C extends CallChannel> = z.infer<(typeof calls)[C]['response']>;
/** An event's payload. */
export type EventPayload<E extends EventChannel> = z.infer<(typeof events)[E]>;

/** Whether a string names a call in the contract. */
export function isCallChannel(value: unknown): value is CallChannel {
  return typeof value === 'string' && Object.hasOwn(calls, value);
}

/** Whether a string names an event in the contract. */
export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && Object.hasOwn(events, value);
}

/**
 * The API the UI sees as `window.airlock`, on both hosts.
 *
 * `invoke` rejects with an Error whose message is meant for the user.
 */
export type AirlockApi = {
  invoke<C extends CallChannel>(channel: C, request: CallRequest<C>): Promise<CallResponse<C>>;
  on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void;
};
