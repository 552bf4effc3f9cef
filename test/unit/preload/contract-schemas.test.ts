/**
 * Every schema of the contract (preload/shared/contract.ts), one by one: each call's request and
 * response and each event keeps every field of a hand-written payload (contract-exemplars.ts),
 * takes each of its choices and variants, and refuses what breaks it: a required field
 * missing, a key of the wrong shape, an unknown key in a request, a list or text one past its
 * bound. The core's own tests validate what it sends but keep the payload as sent, so a schema
 * that drops a field shows only here.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AgentEnvInput,
  AgentEnvView,
  AgentSettingsInput,
  AgentSettingsView,
  AgentTestReport,
  AuthMethodView,
  calls,
  ContentView,
  events,
  HostCommand,
  LINK_TEXT_CEILING,
  MAX_AGENT_ARG_CHARS,
  MAX_AGENT_ARGS,
  MAX_AGENT_COMMAND_CHARS,
  MAX_AGENT_ENV,
  MAX_AGENTS,
  MAX_ENV_NAME_CHARS,
  MAX_ENV_VALUE_CHARS,
  MAX_MCP_HEADERS,
  MAX_MCP_SERVERS,
  MAX_MCP_URL_CHARS,
  MAX_PROMPT_CHARS,
  MAX_RAW_INPUT_CHARS,
  MAX_RECENT_FOLDERS,
  MAX_SESSION_NAME_CHARS,
  MAX_TERMINAL_VIEW_CHARS,
  MAX_URL_DOMAIN_CHARS,
  MAX_URL_DOMAINS,
  McpServerView,
  PermissionOptionView,
  PlanEntryView,
  SessionSummary,
  ToolCallFields,
  ToolContentView,
  TranscriptEvent,
  UrlElicitationView,
} from '../../../preload/shared/contract.js';
import {
  agentSettings,
  authMethods,
  callExemplars,
  contents,
  eventExemplars,
  key,
  mcpServers,
  moreTranscript,
  report,
  summary,
  toolContents,
  transcript,
} from './contract-exemplars.js';

type Payload = Record<string, unknown>;
type Case = [label: string, schema: z.ZodType, payload: Payload];

function first<T>(list: readonly T[]): T {
  if (list[0] === undefined) {
    throw new Error('an empty list of exemplars');
  }
  return list[0];
}

function byType(type: string): Payload {
  return first(transcript.filter((event) => event.type === type));
}

/** Each exemplar of each call and event, with the schema that reads it. */
const requests: Case[] = Object.entries(callExemplars).flatMap(([channel, exemplar]) =>
  exemplar.requests.map((request, i): Case => [
    `${channel} request ${i}`,
    calls[channel as keyof typeof calls].request,
    request,
  ]),
);
const responses: Case[] = Object.entries(callExemplars).flatMap(([channel, exemplar]) =>
  exemplar.responses.map((response, i): Case => [
    `${channel} response ${i}`,
    calls[channel as keyof typeof calls].response,
    response,
  ]),
);
const payloads: Case[] = Object.entries(eventExemplars).flatMap(([channel, list]) =>
  list.map((payload, i): Case => [
    `${channel} ${i}`,
    events[channel as keyof typeof events],
    payload,
  ]),
);

describe('the exemplars', () => {
  it('cover every call and every event of the contract, and nothing else', () => {
    expect(Object.keys(callExemplars).sort()).toEqual(Object.keys(calls).sort());
    expect(Object.keys(eventExemplars).sort()).toEqual(Object.keys(events).sort());
    for (const [channel, { requests: asked, responses: answered }] of Object.entries(
      callExemplars,
    )) {
      expect(asked.length, channel).toBeGreaterThan(0);
      expect(answered.length, channel).toBeGreaterThan(0);
    }
  });

  it.each([
    ['TranscriptEvent', TranscriptEvent, 'type', transcript],
    ['ContentView', ContentView, 'type', contents],
    ['ToolContentView', ToolContentView, 'type', toolContents],
    ['HostCommand', HostCommand, 'command', eventExemplars['app:onCommand']],
  ] as const)('hold every variant of %s', (_name, union, tag, exemplars) => {
    const variants = union.options.map((option) => {
      const literal: unknown = option.shape[tag as keyof typeof option.shape];
      return (literal as z.ZodLiteral).value;
    });
    const held = new Set(exemplars.map((exemplar) => (exemplar as Payload)[tag]));
    expect(variants.length).toBeGreaterThan(1);
    for (const variant of variants) {
      expect(held.has(variant), String(variant)).toBe(true);
    }
  });
});

describe('every payload keeps what it carries', () => {
  it.each([...requests, ...responses, ...payloads])('%s', (_label, schema, payload) => {
    expect(schema.parse(payload)).toEqual(payload);
  });

  it.each([
    ...transcript.map((entry): Case => [entry.type, TranscriptEvent, entry]),
    ...moreTranscript.map((entry): Case => [entry.type, TranscriptEvent, entry]),
    ...contents.map((entry): Case => [entry.type, ContentView, entry]),
    ...toolContents.map((entry): Case => [entry.type, ToolContentView, entry]),
  ])('a %s entry', (_type, schema, entry) => {
    expect(schema.parse(entry)).toEqual(entry);
  });
});

describe('each choice', () => {
  const tool = { title: 'Run the tests' };
  const step = { content: 'Fix the race', priority: 'high', status: 'pending' };
  const option = { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' };
  const cardEnds = ['withdrawn', 'turn_cancelled', 'tab_closed', 'agent_exited'];
  const openUrl = first(callExemplars['elicitation:openUrl'].requests);
  const finishUrl = first(callExemplars['elicitation:finishUrl'].requests);

  it.each([
    [
      'auth method kind',
      AuthMethodView,
      first(authMethods),
      'kind',
      ['agent', 'env_var', 'terminal'],
    ],
    [
      'session status',
      SessionSummary,
      summary,
      'status',
      ['starting', 'auth_required', 'ready', 'prompting', 'exited', 'failed', 'closed'],
    ],
    [
      'tool kind',
      ToolCallFields,
      tool,
      'kind',
      [
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
      ],
    ],
    [
      'tool status',
      ToolCallFields,
      tool,
      'status',
      ['pending', 'in_progress', 'completed', 'failed'],
    ],
    [
      'permission on a tool',
      ToolCallFields,
      tool,
      'permission',
      ['asked', 'allowed', 'rejected', 'cancelled'],
    ],
    ['plan priority', PlanEntryView, step, 'priority', ['high', 'medium', 'low']],
    ['plan status', PlanEntryView, step, 'status', ['pending', 'in_progress', 'completed']],
    [
      'permission option',
      PermissionOptionView,
      option,
      'kind',
      ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
    ],
    ['chunk role', TranscriptEvent, byType('chunk'), 'role', ['agent', 'user', 'thought']],
    ['content role', TranscriptEvent, byType('content'), 'role', ['agent', 'user', 'thought']],
    ['form card scope', TranscriptEvent, byType('elicitation'), 'scope', ['session', 'request']],
    ['URL card scope', TranscriptEvent, byType('url_elicitation'), 'scope', ['session', 'request']],
    [
      'URL wait ending',
      TranscriptEvent,
      byType('url_elicitation_done'),
      'how',
      ['completed', 'done', 'dismissed', 'agent_exited', 'tab_closed'],
    ],
    ['permission card ending', TranscriptEvent, byType('permission_resolved'), 'ended', cardEnds],
    ['elicitation card ending', TranscriptEvent, byType('elicitation_resolved'), 'ended', cardEnds],
    [
      'elicitation answer',
      TranscriptEvent,
      byType('elicitation_resolved'),
      'action',
      ['accept', 'decline', 'cancel'],
    ],
    [
      'URL default',
      UrlElicitationView,
      { default: 'off', opener: 'page' },
      'default',
      ['isolated_window', 'system_browser', 'off'],
    ],
    [
      'URL opener',
      UrlElicitationView,
      { default: 'off', opener: 'page' },
      'opener',
      ['host', 'page'],
    ],
    [
      'MCP transport',
      McpServerView,
      first(mcpServers),
      'transport',
      ['stdio', 'http', 'sse', 'extension'],
    ],
    [
      'where a URL opens',
      calls['elicitation:openUrl'].request,
      openUrl,
      'where',
      ['window', 'browser'],
    ],
    [
      'how a URL wait ends',
      calls['elicitation:finishUrl'].request,
      finishUrl,
      'how',
      ['done', 'dismissed'],
    ],
  ] as [string, z.ZodType, Payload, string, string[]][])(
    'takes each %s, and no other',
    (_label, schema, base, field, values) => {
      for (const value of values) {
        const payload = { ...base, [field]: value };
        expect(schema.parse(payload), value).toEqual(payload);
      }
      expect(schema.safeParse({ ...base, [field]: 'unknown' }).success).toBe(false);
      expect(schema.safeParse({ ...base, [field]: '' }).success).toBe(false);
    },
  );
});

/** The fields each payload may leave out (all others are required), by hand. */
const optional: Record<string, string[]> = {
  'session:prompt request': ['attachments'],
  'elicitation:respond request': ['content'],
  'settings:saveAgent request': ['originalName'],
  'session:reopenSaved request': ['id'],
  'session:history request': ['cursor'],
  'session:reopen request': ['title'],
  'app:getState response': ['settingsError'],
  'settings:getAgents response': ['error', 'mcpServers'],
  'settings:testAgent response': [
    ...['error', 'name', 'title', 'version', 'protocolVersion'],
    ...['offered', 'mcpServers', 'session'],
  ],
  'session:history response': ['note', 'nextCursor'],
  'session:onDidChange': [
    ...['title', 'agent', 'error', 'errorDetail', 'exit', 'currentModeId', 'usage'],
    ...['userTitle', 'firstPrompt', 'promptCapabilities'],
  ],
  'app:onDidChangeAgents': ['settingsError'],
  'agent:startTerminalSignIn request': ['again'],
  'agent:startTerminalSignIn response': ['exited'],
  'agent:onDidChangeTerminal': ['exited'],
  'registry:list response': ['problem', 'fetchedAt'],
  'registry:refresh response': ['problem', 'fetchedAt'],
  'registry:onDidProgress': ['total', 'done', 'error'],
  notice: ['description'],
  permission: ['title', 'tool'],
  permission_resolved: ['ended'],
  elicitation: ['toolCallId'],
  url_elicitation: ['toolCallId'],
  elicitation_resolved: ['ended', 'content'],
  terminal_output: ['exitStatus'],
  turn_error: ['detail'],
  system: ['id'],
};

describe('what each payload refuses', () => {
  /** The first exemplar of each channel (the one with every field), named by its channel. */
  const firsts = (cases: Case[]): Case[] =>
    cases
      .filter(([label]) => label.endsWith(' 0'))
      .map(([label, schema, payload]) => [label.replace(/ 0$/, ''), schema, payload]);
  const entries: Case[] = transcript.map((event) => [event.type, TranscriptEvent, event]);

  it.each([...firsts(requests), ...firsts(responses), ...firsts(payloads), ...entries])(
    '%s without a required field',
    (label, schema, payload) => {
      const left = optional[label] ?? [];
      for (const field of Object.keys(payload).filter((name) => !left.includes(name))) {
        const { [field]: _dropped, ...rest } = payload;
        expect(schema.safeParse(rest).success, field).toBe(false);
      }
      for (const field of left) {
        expect(Object.keys(payload), `${label} holds its optional ${field}`).toContain(field);
      }
    },
  );

  it.each(requests)('%s with a key it does not know', (_label, schema, payload) => {
    expect(schema.safeParse({ ...payload, extra: 'x' }).success).toBe(false);
  });

  it.each(eventExemplars['app:onCommand'])(
    'a host command $command with a key it does not know',
    (command) => {
      expect(HostCommand.safeParse({ ...command, extra: key }).success).toBe(false);
    },
  );

  /** What breaks each of Airlock's keys: another letter, a capital, a sign, nothing after it. */
  const wrong: Record<string, string[]> = {
    key: ['', 's', 'S1', 's-1', 's1 ', 'p1', 'e1'],
    promptKey: ['', 'p', 'P1', 'p-1', 's1', 'e1'],
    cardKey: ['', 'e', 'E1', 'e-1', 's1', 'p1'],
  };
  const keyed = (field: string) => (cases: Case[]) =>
    cases
      .filter(([, , payload]) => typeof payload[field] === 'string')
      .map(([label, schema, payload]) => [label, field, schema, payload] as const);
  const all = [...requests, ...responses, ...payloads, ...entries];

  it.each([...keyed('key')(all), ...keyed('promptKey')(all), ...keyed('cardKey')(all)])(
    '%s with a %s of the wrong shape',
    (_label, field, schema, payload) => {
      for (const bad of wrong[field] ?? []) {
        expect(schema.safeParse({ ...payload, [field]: bad }).success, bad).toBe(false);
      }
    },
  );

  it('a permission card with no options', () => {
    expect(TranscriptEvent.safeParse({ ...byType('permission'), options: [] }).success).toBe(false);
  });

  it('an environment variable to keep that also holds a value', () => {
    const keep = { name: 'API_KEY', keep: true };
    expect(AgentEnvInput.parse(keep)).toEqual(keep);
    expect(AgentEnvInput.safeParse({ ...keep, value: 'sk' }).success).toBe(false);
    expect(AgentEnvInput.safeParse({ name: 'API_KEY', keep: false }).success).toBe(false);
    expect(AgentEnvView.safeParse({ name: 'API_KEY', secret: true, value: 'sk' }).success).toBe(
      false,
    );
  });
});

const text = (n: number) => 'x'.repeat(n);
const many = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item);
const agentView = first(agentSettings);
const agentInput = first(callExemplars['settings:saveAgent'].requests).agent;
const plainEnv = { name: 'DEBUG', secret: false, value: 'acp' };

describe('each bound: taken at the bound, refused one past it', () => {
  it.each([
    [
      'a prompt',
      MAX_PROMPT_CHARS,
      (n) => [calls['session:prompt'].request, { key, text: text(n) }],
    ],
    [
      'a tab name',
      MAX_SESSION_NAME_CHARS,
      (n) => [calls['session:rename'].request, { key, title: text(n) }],
    ],
    [
      'a tab name shown',
      MAX_SESSION_NAME_CHARS,
      (n) => [SessionSummary, { ...summary, userTitle: text(n) }],
    ],
    ['a first prompt shown', 200, (n) => [SessionSummary, { ...summary, firstPrompt: text(n) }]],
    ['a system line id', 100, (n) => [TranscriptEvent, { ...byType('system'), id: text(n) }]],
    [
      'recent folders',
      MAX_RECENT_FOLDERS,
      (n) => [calls['app:getRecentFolders'].response, { folders: many(n, '/home/ada') }],
    ],
    ['a raw input', MAX_RAW_INPUT_CHARS, (n) => [ToolCallFields, { rawInput: text(n) }]],
    [
      'a terminal view',
      MAX_TERMINAL_VIEW_CHARS,
      (n) => [TranscriptEvent, { ...byType('terminal_output'), output: text(n) }],
    ],
    [
      'a link to analyse',
      LINK_TEXT_CEILING,
      (n) => [calls['link:analyse'].request, { url: text(n) }],
    ],
    ['a link to open', LINK_TEXT_CEILING, (n) => [calls['link:open'].request, { url: text(n) }]],
    [
      'agents in the settings view (one past the file’s limit, to show it)',
      MAX_AGENTS + 1,
      (n) => [
        calls['settings:getAgents'].response,
        { ...first(callExemplars['settings:getAgents'].responses), agents: many(n, agentView) },
      ],
    ],
    [
      'an agent’s command',
      MAX_AGENT_COMMAND_CHARS,
      (n) => [AgentSettingsView, { ...agentView, command: text(n) }],
    ],
    [
      'its arguments',
      MAX_AGENT_ARGS,
      (n) => [AgentSettingsView, { ...agentView, args: many(n, 'arg') }],
    ],
    [
      'an argument',
      MAX_AGENT_ARG_CHARS,
      (n) => [AgentSettingsView, { ...agentView, args: [text(n)] }],
    ],
    [
      'its variables',
      MAX_AGENT_ENV,
      (n) => [AgentSettingsView, { ...agentView, env: many(n, plainEnv) }],
    ],
    [
      'its URL domains',
      MAX_URL_DOMAINS,
      (n) => [AgentSettingsView, { ...agentView, urlDomains: many(n, 'example.com') }],
    ],
    [
      'a URL domain',
      MAX_URL_DOMAIN_CHARS,
      (n) => [AgentSettingsView, { ...agentView, urlDomains: [text(n)] }],
    ],
    [
      'its MCP servers',
      MAX_MCP_SERVERS,
      (n) => [AgentSettingsView, { ...agentView, mcpServers: many(n, first(mcpServers)) }],
    ],
    [
      'the MCP servers of every agent',
      MAX_MCP_SERVERS,
      (n) => [
        calls['settings:getAgents'].response,
        {
          ...first(callExemplars['settings:getAgents'].responses),
          mcpServers: many(n, first(mcpServers)),
        },
      ],
    ],
    [
      'a variable’s name',
      MAX_ENV_NAME_CHARS,
      (n) => [AgentEnvView, { ...plainEnv, name: text(n) }],
    ],
    [
      'a variable’s value',
      MAX_ENV_VALUE_CHARS,
      (n) => [AgentEnvView, { ...plainEnv, value: text(n) }],
    ],
    [
      'a variable to reveal',
      MAX_ENV_NAME_CHARS,
      (n) => [calls['settings:revealEnv'].request, { agentName: 'Demo Agent', envName: text(n) }],
    ],
    [
      'a revealed value',
      MAX_ENV_VALUE_CHARS,
      (n) => [calls['settings:revealEnv'].response, { value: text(n) }],
    ],
    [
      'a local MCP server’s command',
      MAX_AGENT_COMMAND_CHARS,
      (n) => [McpServerView, { ...first(mcpServers), command: text(n) }],
    ],
    [
      'its arguments',
      MAX_AGENT_ARGS,
      (n) => [McpServerView, { ...first(mcpServers), args: many(n, 'arg') }],
    ],
    [
      'an argument',
      MAX_AGENT_ARG_CHARS,
      (n) => [McpServerView, { ...first(mcpServers), args: [text(n)] }],
    ],
    [
      'a remote MCP server’s URL',
      MAX_MCP_URL_CHARS,
      (n) => [McpServerView, { ...first(mcpServers), url: text(n) }],
    ],
    [
      'its variables or headers',
      Math.max(MAX_AGENT_ENV, MAX_MCP_HEADERS),
      (n) => [McpServerView, { ...first(mcpServers), values: many(n, plainEnv) }],
    ],
    [
      'the MCP servers a test passed',
      MAX_MCP_SERVERS * 2,
      (n) => [
        AgentTestReport,
        { ...report, mcpServers: many(n, { name: 'fs', passed: true, detail: 'stdio' }) },
      ],
    ],
    [
      'a command being saved',
      MAX_AGENT_COMMAND_CHARS * 2,
      (n) => [AgentSettingsInput, { ...agentInput, command: text(n) }],
    ],
    [
      'its arguments',
      MAX_AGENT_ARGS * 2,
      (n) => [AgentSettingsInput, { ...agentInput, args: many(n, 'arg') }],
    ],
    [
      'an argument',
      MAX_AGENT_ARG_CHARS * 2,
      (n) => [AgentSettingsInput, { ...agentInput, args: [text(n)] }],
    ],
    [
      'its variables',
      MAX_AGENT_ENV * 2,
      (n) => [AgentSettingsInput, { ...agentInput, env: many(n, { name: 'A', value: 'b' }) }],
    ],
    [
      'its URL domains',
      MAX_URL_DOMAINS * 2,
      (n) => [AgentSettingsInput, { ...agentInput, urlDomains: many(n, 'example.com') }],
    ],
    [
      'a variable’s name being saved',
      MAX_ENV_NAME_CHARS,
      (n) => [AgentEnvInput, { name: text(n), value: 'b' }],
    ],
    [
      'the variable it keeps',
      MAX_ENV_NAME_CHARS,
      (n) => [AgentEnvInput, { name: 'A', keep: true, from: text(n) }],
    ],
    [
      'a value being saved',
      MAX_ENV_VALUE_CHARS,
      (n) => [AgentEnvInput, { name: 'A', value: text(n) }],
    ],
  ] as [string, number, (n: number) => [z.ZodType, Payload]][])(
    '%s: %i',
    (_label, bound, build) => {
      const [schema, atBound] = build(bound);
      expect(schema.safeParse(atBound).success).toBe(true);
      const [, past] = build(bound + 1);
      expect(schema.safeParse(past).success).toBe(false);
    },
  );
});
