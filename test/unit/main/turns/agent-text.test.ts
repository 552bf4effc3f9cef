/**
 * Every string an agent sends that names something the user acts on (a file, a command, an
 * option, a URL, a tool call's title, raw input and diffs) reaches the UI with its invisible and
 * reordering characters shown (`⟨U+202E⟩`); prose reaches it as the agent wrote it.
 *
 * The contract's schemas drive the check: each free-text field of a transcript event and of the
 * summary fields an update sets is listed below with what it carries, and a field added to the
 * contract without a place in the list fails the first test.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { permissionEvents, permissionOptions } from '../../../../main/core/tool-calls.js';
import {
  configViews,
  mapUpdate,
  modeViews,
  toolCallFields,
} from '../../../../main/core/updates.js';
import { SessionSummary, TranscriptEvent } from '../../../../preload/shared/contract.js';
import { stringPaths, visitStrings } from '../../../helpers/schema-strings.js';

/**
 * What a field carries. `shown`: agent text that names something, its hidden characters shown.
 * `prose`: agent text read as written. `id`: an agent's id, kept as sent (it goes back to the
 * agent, or keys what the UI shows). `airlock`: Airlock's own. `elsewhere`: made by another
 * module (the elicitation broker, the terminals, the turn), never by this mapping.
 */
type Carries = 'shown' | 'prose' | 'id' | 'airlock' | 'elsewhere';

function under(prefix: string, fields: Record<string, Carries>): Record<string, Carries> {
  return Object.fromEntries(
    Object.entries(fields).map(([path, carries]) => [`${prefix}.${path}`, carries]),
  );
}

const CONTENT: Record<string, Carries> = {
  'text.text': 'prose',
  'image.mimeType': 'prose',
  'audio.mimeType': 'prose',
  'resource_link.name': 'shown',
  'resource_link.uri': 'shown',
  'resource.uri': 'shown',
  'resource.text': 'prose',
};

const TOOL_FIELDS: Record<string, Carries> = {
  title: 'shown',
  ...under('content[].content.content', CONTENT),
  'content[].diff.path': 'shown',
  'content[].diff.oldText': 'shown',
  'content[].diff.newText': 'shown',
  'content[].terminal.terminalId': 'id',
  'locations[].path': 'shown',
  'command.line': 'shown',
  'command.cwd': 'shown',
  rawInput: 'shown',
  // Set on Airlock's own write rows (see files/service.ts), never by the agent.
  'undo.available.writeId': 'airlock',
  'undo.undone.writeId': 'airlock',
  'undo.unavailable.reason': 'airlock',
};

const FIELDS: Record<string, Carries> = {
  'prompt.text': 'elsewhere',
  'chunk.text': 'prose',
  ...under('content.content', CONTENT),
  'tool_call.toolCallId': 'id',
  ...under('tool_call.fields', TOOL_FIELDS),
  'tool_call_update.toolCallId': 'id',
  ...under('tool_call_update.fields', TOOL_FIELDS),
  'plan.entries[].content': 'prose',
  'notice.severity': 'prose',
  'notice.title': 'prose',
  'notice.description': 'prose',
  'permission.promptKey': 'airlock',
  // Who asks: the identity the connection made of the agent's `initialize` answer, passed on.
  'permission.agent.configName': 'airlock',
  'permission.agent.name': 'airlock',
  'permission.agent.title': 'airlock',
  'permission.agent.version': 'airlock',
  'permission.agent.commandLine': 'airlock',
  'permission.toolCallId': 'id',
  'permission.title': 'shown',
  'permission.options[].optionId': 'id',
  'permission.options[].name': 'shown',
  ...under('permission.tool', TOOL_FIELDS),
  'permission_resolved.promptKey': 'airlock',
  'permission_resolved.outcome.selected.optionId': 'elsewhere',
  elicitation: 'elsewhere',
  url_elicitation: 'elsewhere',
  'url_elicitation_done.cardKey': 'elsewhere',
  'elicitation_resolved.cardKey': 'elsewhere',
  'elicitation_resolved.content{}': 'elsewhere',
  'elicitation_resolved.content{}[]': 'elsewhere',
  'terminal_output.terminalId': 'elsewhere',
  'terminal_output.output': 'elsewhere',
  'terminal_output.exitStatus.signal': 'elsewhere',
  'turn_end.stopReason': 'elsewhere',
  'turn_error.message': 'elsewhere',
  'turn_error.detail': 'elsewhere',
  'agent_exit.exit.signal': 'elsewhere',
  'agent_exit.exit.reason': 'elsewhere',
  'agent_exit.exit.stderrTail[]': 'elsewhere',
  'system.text': 'elsewhere',
  'system.id': 'elsewhere',
  // The summary fields updates and `session/new` set.
  'summary.title': 'prose',
  'summary.commands[].name': 'shown',
  'summary.commands[].description': 'prose',
  'summary.commands[].hint': 'prose',
  'summary.modes[].id': 'id',
  'summary.modes[].name': 'shown',
  'summary.modes[].description': 'prose',
  'summary.currentModeId': 'id',
  'summary.configOptions[].id': 'id',
  'summary.configOptions[].name': 'shown',
  'summary.configOptions[].category': 'id',
  'summary.configOptions[].currentValue': 'id',
  'summary.configOptions[].choices[].value': 'id',
  'summary.configOptions[].choices[].name': 'shown',
  'summary.usage.cost.currency': 'prose',
};

// Elicitation cards are built and checked by the elicitation broker (main/core/elicitation/).
const ELICITATION = new Set(['elicitation', 'url_elicitation']);
const SUMMARY = SessionSummary.pick({
  title: true,
  commands: true,
  modes: true,
  currentModeId: true,
  configOptions: true,
  usage: true,
});

/** The contract's free-text fields that this mapping can fill. */
function contractFields(): string[] {
  return [
    ...stringPaths(TranscriptEvent, ELICITATION),
    ...stringPaths(SUMMARY).map((path) => `summary.${path}`),
  ];
}

describe('the list of agent text in the contract', () => {
  it('names every free-text field of the transcript events and the summary an update sets', () => {
    expect(Object.keys(FIELDS).sort()).toEqual(contractFields().sort());
  });
});

/** An agent string with a right-to-left override and a zero-width space in it. */
const marked = (text: string) => `${text}\u202E\u200Bx`;
const RAW = /[\u202E\u200B]/;

const tool = {
  title: marked('Edit'),
  kind: 'edit',
  status: 'pending',
  content: [
    { type: 'content', content: { type: 'text', text: marked('out') } },
    { type: 'content', content: { type: 'image', data: '', mimeType: marked('image/png') } },
    { type: 'content', content: { type: 'audio', data: '', mimeType: marked('audio/wav') } },
    {
      type: 'content',
      content: { type: 'resource_link', name: marked('a.txt'), uri: marked('file:///a') },
    },
    {
      type: 'content',
      content: { type: 'resource', resource: { uri: marked('file:///b'), text: marked('b') } },
    },
    { type: 'diff', path: marked('/w/a'), oldText: marked('old'), newText: marked('new') },
    { type: 'terminal', terminalId: marked('t1') },
  ],
  locations: [{ path: marked('safe'), line: 1 }],
  rawInput: { command: marked('rm'), cwd: marked('/w') },
} as const;

const updates = [
  { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: marked('hi') } },
  {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'resource_link', name: marked('n'), uri: marked('https://a.example/') },
  },
  {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'resource', resource: { uri: marked('file:///c'), text: marked('c') } },
  },
  { sessionUpdate: 'tool_call', toolCallId: marked('c1'), ...tool },
  { sessionUpdate: 'tool_call_update', toolCallId: marked('c1'), ...tool },
  {
    sessionUpdate: 'plan',
    entries: [{ content: marked('step'), priority: 'high', status: 'pending' }],
  },
  {
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: marked('deploy'), description: marked('d'), input: { hint: marked('h') } },
    ],
  },
  { sessionUpdate: 'current_mode_update', currentModeId: marked('code') },
  {
    sessionUpdate: 'config_option_update',
    configOptions: [
      {
        type: 'select',
        id: marked('model'),
        name: marked('Model'),
        category: marked('model'),
        currentValue: marked('fast'),
        options: [{ value: marked('fast'), name: marked('Fast') }],
      },
    ],
  },
  { sessionUpdate: 'session_info_update', title: marked('Title') },
  { sessionUpdate: 'usage_update', used: 1, size: 2, cost: { amount: 1, currency: marked('$') } },
  { sessionUpdate: 'notice', severity: marked('info'), title: marked('t'), description: 'd\u202E' },
] as unknown as acp.SessionUpdate[];

/** Each free-text field the mapping filled from the agent's updates and requests. */
function mappedFields(): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  const visit = (path: string, text: string) => found.push({ path, text });
  for (const update of updates) {
    const effect = mapUpdate(update);
    for (const event of effect.events) {
      visitStrings(TranscriptEvent, event, visit);
    }
    visitStrings(SUMMARY, effect.summary ?? {}, (path, text) => visit(`summary.${path}`, text));
  }
  const request = {
    sessionId: 's',
    toolCall: { toolCallId: marked('c2'), ...tool },
    options: [{ optionId: marked('yes'), name: marked('Allow'), kind: 'allow_once' }],
  } as unknown as acp.RequestPermissionRequest;
  const agent = { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' };
  const { update, card } = permissionEvents('p1', agent, request, undefined);
  visitStrings(TranscriptEvent, update, visit);
  visitStrings(TranscriptEvent, card, visit);
  const modes = modeViews({
    currentModeId: 'code',
    availableModes: [{ id: marked('code'), name: marked('Code'), description: marked('d') }],
  });
  const options = configViews(
    updates.flatMap((u) => ('configOptions' in u ? u.configOptions : [])),
  );
  visitStrings(SUMMARY, { modes, configOptions: options }, (path, text) =>
    visit(`summary.${path}`, text),
  );
  return found;
}

describe('agent text mapped to the contract', () => {
  const found = mappedFields();

  it('shows the hidden characters of every name, command, option, URL, title and diff', () => {
    const shown = Object.keys(FIELDS).filter((path) => FIELDS[path] === 'shown');
    // Every such field was filled, so none is left unchecked.
    expect(shown.filter((path) => !found.some((field) => field.path === path))).toEqual([]);
    const raw = found.filter(({ path, text }) => FIELDS[path] === 'shown' && RAW.test(text));
    expect(raw).toEqual([]);
    for (const { path, text } of found.filter((field) => FIELDS[field.path] === 'shown')) {
      expect(text, path).toContain('⟨U+202E⟩⟨U+200B⟩');
    }
  });

  it('leaves prose and ids as the agent sent them, and fills no field it does not list', () => {
    expect(found.filter(({ path }) => !(path in FIELDS))).toEqual([]);
    const asSent = found.filter(({ path }) => FIELDS[path] === 'prose' || FIELDS[path] === 'id');
    expect(asSent.length).toBeGreaterThan(0);
    expect(asSent.filter(({ text }) => !text.includes('\u202E'))).toEqual([]);
    expect(found.filter(({ path }) => FIELDS[path] === 'elsewhere')).toEqual([]);
  });
});

describe('a permission card about a file', () => {
  it('shows the override that would turn a name around and the space after a path', () => {
    const fields = toolCallFields({
      locations: [{ path: 'safe\u202Etxt.exe' }, { path: '/etc/passwd\u200B', line: 2 }],
    });
    expect(fields.locations).toEqual([
      { path: 'safe⟨U+202E⟩txt.exe', line: null },
      { path: '/etc/passwd⟨U+200B⟩', line: 2 },
    ]);
    const [option] = permissionOptions([
      { optionId: 'y\u202E', name: 'Allow \u202Eelif', kind: 'allow_once' },
    ]);
    // The name is shown; the id goes back to the agent as it sent it.
    expect(option).toEqual({ optionId: 'y\u202E', name: 'Allow ⟨U+202E⟩elif', kind: 'allow_once' });
  });
});
