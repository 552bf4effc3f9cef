/**
 * Hand-written payloads for every schema of the contract (preload/shared/contract.ts), for
 * contract-schemas.test.ts: a realistic exemplar of each view, of each call's request and
 * response and of each event, written from what the core and the UI send rather than read off
 * the schemas. Every optional field is present somewhere, every list the schema bounds holds
 * entries, and every string is longer than one character, so a schema that drops a field, a
 * value or a list entry, or whose bound turns the wrong way, refuses or changes one of them.
 */
import type {
  AgentExit,
  AgentIdentity,
  AgentSettingsView,
  AgentTestReport,
  AuthMethodView,
  CallChannel,
  CallRequest,
  CallResponse,
  ContentView,
  EventChannel,
  EventPayload,
  McpServerView,
  SessionSummary,
  ToolCallFields,
  ToolContentView,
  TranscriptEvent,
} from '../../../preload/shared/contract.js';
import type { FormModel } from '../../../preload/shared/form-model.js';
import type { UrlAnalysis } from '../../../preload/shared/url-analysis-view.js';

export const key = 's1k3';
export const agentName = 'Demo Agent';
export const cwd = '/home/ada/projects/airlock';

export const identity: AgentIdentity = {
  configName: agentName,
  name: 'demo-agent',
  title: 'Demo Agent',
  version: '0.3.1',
  protocolVersion: 1,
  commandLine: 'node demo-agent.js --acp',
};

export const authMethods: AuthMethodView[] = [
  { id: 'oauth', name: 'Sign in with GitHub', description: 'Opens a browser', kind: 'agent' },
  {
    id: 'api-key',
    name: 'API key',
    description: 'Reads the key from the environment',
    kind: 'env_var',
    vars: [
      { name: 'ANTHROPIC_API_KEY', label: 'API key', secret: true, optional: false, set: true },
      { name: 'ANTHROPIC_BASE_URL', secret: false, optional: true, set: false },
    ],
  },
  { id: 'login', name: 'Log in', kind: 'terminal', terminalCommand: 'demo-agent login' },
];

export const exit: AgentExit = {
  code: 1,
  signal: null,
  reason: 'The agent exited with code 1',
  stderrTail: ['Error: no API key', '    at main (agent.js:12:7)'],
};

export const summary: SessionSummary = {
  key,
  agentName,
  cwd,
  status: 'ready',
  title: 'Fix the flaky watcher test',
  agent: identity,
  error: 'Sign-in failed: the token expired',
  errorDetail: 'JSON-RPC error -32000 answering authenticate',
  authMethods,
  exit,
  commands: [
    { name: 'review', description: 'Reviews the current diff', hint: 'what to focus on' },
    { name: 'compact', description: 'Summarises the conversation' },
  ],
  modes: [
    { id: 'ask', name: 'Ask', description: 'Asks before every edit' },
    { id: 'code', name: 'Code' },
  ],
  currentModeId: 'ask',
  configOptions: [
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      currentValue: 'sonnet',
      choices: [
        { value: 'sonnet', name: 'Sonnet' },
        { value: 'opus', name: 'Opus' },
      ],
    },
    { id: 'thinking', name: 'Extended thinking', currentValue: true, choices: [] },
  ],
  usage: { used: 53_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } },
  pendingCards: 2,
  userTitle: 'Flaky test',
  firstPrompt: 'Why does the watcher test fail on CI?',
  promptCapabilities: { image: true, embeddedContext: false },
};

/** One of each kind of content. */
export const contents: ContentView[] = [
  { type: 'text', text: 'Here is what I found.' },
  { type: 'image', mimeType: 'image/png' },
  { type: 'audio', mimeType: 'audio/wav' },
  { type: 'resource_link', name: 'README.md', uri: `file://${cwd}/README.md` },
  {
    type: 'resource',
    uri: `file://${cwd}/notes.md`,
    text: '# Notes\n\nThe race is in the watcher.',
  },
];

/** One of each kind of tool-call content (a diff of a new file too). */
export const toolContents: ToolContentView[] = [
  ...contents.map((content): ToolContentView => ({ type: 'content', content })),
  {
    type: 'diff',
    path: 'src/watcher.ts',
    oldText: 'let ready;\n',
    newText: 'let ready = false;\n',
  },
  { type: 'diff', path: 'src/new.ts', oldText: null, newText: 'export {};\n' },
  { type: 'terminal', terminalId: 'term-1' },
];

export const toolFields: ToolCallFields = {
  title: 'Edit src/watcher.ts',
  kind: 'edit',
  status: 'in_progress',
  content: toolContents,
  locations: [
    { path: 'src/watcher.ts', line: 12 },
    { path: 'src/new.ts', line: null },
  ],
  command: { line: 'npm test -- watcher', cwd },
  rawInput: '{\n  "path": "src/watcher.ts"\n}',
  permission: 'asked',
};

export const form: FormModel = {
  title: 'Push the branch',
  description: 'Where the fix goes',
  fields: [
    {
      name: 'branch',
      title: 'Branch',
      description: 'The branch to push to',
      required: true,
      kind: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '^[a-z-]+$',
      default: 'main',
    },
    {
      name: 'remote',
      required: false,
      kind: 'single-select',
      titled: true,
      options: [
        { value: 'origin', title: 'Origin', description: 'Your fork' },
        { value: 'upstream', title: 'Upstream' },
      ],
    },
  ],
};

/** https://docs.example.com/setup?step=2, highlighting example.com. */
export const analysis: UrlAnalysis = {
  href: 'https://docs.example.com/setup?step=2',
  original: 'https://docs.example.com/setup?step=2',
  normalised: false,
  scheme: 'https',
  host: 'docs.example.com',
  hostUnicode: 'docs.example.com',
  registrableDomain: 'example.com',
  registrableDomainUnicode: 'example.com',
  port: null,
  path: '/setup?step=2',
  highlight: { start: 13, end: 24 },
  warnings: [
    { code: 'domain-mismatch', level: 'danger', message: 'The agent named another site.' },
  ],
  level: 'danger',
  headline: 'This address is not on a domain set for this agent.',
};

/** One event of each type, each with every optional field. */
export const transcript: TranscriptEvent[] = [
  { type: 'prompt', text: 'Why does the watcher test fail on CI?' },
  { type: 'chunk', role: 'agent', text: 'Let me look at the test.' },
  {
    type: 'content',
    role: 'user',
    content: { type: 'resource_link', name: 'watcher.ts', uri: `file://${cwd}/src/watcher.ts` },
  },
  { type: 'tool_call', toolCallId: 'call_1', fields: toolFields },
  { type: 'tool_call_update', toolCallId: 'call_1', fields: { status: 'completed' } },
  {
    type: 'tool_call',
    toolCallId: 'airlock-write-0',
    fields: {
      title: 'Airlock wrote notes.txt',
      undo: { state: 'available', writeId: 'w0', turn: 1 },
    },
  },
  {
    type: 'tool_call_update',
    toolCallId: 'airlock-write-0',
    fields: { undo: { state: 'undone', writeId: 'w0' } },
  },
  {
    type: 'tool_call_update',
    toolCallId: 'airlock-write-1',
    fields: { undo: { state: 'unavailable', reason: 'No longer kept' } },
  },
  {
    type: 'plan',
    entries: [
      { content: 'Reproduce the failure', priority: 'high', status: 'completed' },
      { content: 'Fix the race', priority: 'medium', status: 'in_progress' },
    ],
  },
  { type: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying soon' },
  {
    type: 'permission',
    promptKey: 'p1',
    agent: identity,
    toolCallId: 'call_2',
    title: 'Run npm test?',
    options: [
      { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
      { optionId: 'reject-always', name: 'Never allow', kind: 'reject_always' },
    ],
    tool: { ...toolFields, kind: 'execute', status: 'pending' },
  },
  {
    type: 'permission_resolved',
    promptKey: 'p1',
    outcome: { outcome: 'cancelled' },
    ended: 'turn_cancelled',
  },
  {
    type: 'elicitation',
    cardKey: 'e1',
    agent: identity,
    scope: 'session',
    toolCallId: 'call_3',
    message: 'Which branch should I push to?',
    mode: 'form',
    form,
  },
  {
    type: 'url_elicitation',
    cardKey: 'e2',
    agent: identity,
    scope: 'request',
    toolCallId: 'call_4',
    message: 'Sign in to continue',
    url: analysis,
  },
  { type: 'url_elicitation_done', cardKey: 'e2', how: 'completed' },
  {
    type: 'elicitation_resolved',
    cardKey: 'e1',
    action: 'accept',
    ended: 'withdrawn',
    content: { branch: 'main', force: false, retries: 2, labels: ['ci', 'flaky'] },
  },
  {
    type: 'terminal_output',
    terminalId: 'term-1',
    output: '\u001b[32mPASS\u001b[0m src/watcher.test.ts\n',
    truncated: true,
    exitStatus: { exitCode: 0, signal: null },
  },
  { type: 'turn_end', stopReason: 'end_turn' },
  {
    type: 'turn_error',
    message: 'Internal error: the model is overloaded',
    detail: 'JSON-RPC error -32603 answering session/prompt',
  },
  {
    type: 'agent_exit',
    exit: { code: null, signal: 'SIGTERM', reason: 'Stopped', stderrTail: [] },
  },
  { type: 'system', text: 'Restarting the agent…', id: 'restart-1' },
];

/** Every variant of the event types that have more than one. */
export const moreTranscript: TranscriptEvent[] = [
  {
    type: 'permission_resolved',
    promptKey: 'p2',
    outcome: { outcome: 'selected', optionId: 'allow-once' },
  },
  { type: 'agent_exit', exit },
];

export const mcpServers: McpServerView[] = [
  {
    name: 'filesystem',
    transport: 'stdio',
    enabled: true,
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem'],
    values: [
      { name: 'LOG_LEVEL', secret: false, value: 'debug' },
      { name: 'GITHUB_TOKEN', secret: true, set: true },
    ],
  },
  {
    name: 'linear',
    transport: 'http',
    enabled: false,
    url: 'https://mcp.linear.app/mcp',
    values: [{ name: 'Authorization', secret: true, set: true }],
  },
];

export const agentSettings: AgentSettingsView[] = [
  {
    name: agentName,
    builtIn: true,
    command: 'node',
    args: ['demo-agent.js', '--acp'],
    env: [{ name: 'DEMO_SPEED', secret: false, value: 'fast' }],
    urlDomains: ['example.com', 'docs.example.com'],
    mcpServers,
  },
  {
    name: 'Claude Code',
    builtIn: false,
    command: 'npx',
    args: ['@zed-industries/claude-code-acp'],
    env: [{ name: 'ANTHROPIC_API_KEY', secret: true, set: true }],
    urlDomains: ['anthropic.com'],
  },
];

export const report: AgentTestReport = {
  agentName,
  commandLine: 'node demo-agent.js --acp',
  ok: true,
  error: 'Sign-in needed before a session starts',
  name: 'demo-agent',
  title: 'Demo Agent',
  version: '0.3.1',
  protocolVersion: 1,
  capabilities: [
    { name: 'loadSession', value: 'yes' },
    { name: 'promptCapabilities.image', value: 'no' },
  ],
  offered: [
    { name: 'fs.readTextFile', value: 'yes' },
    { name: 'terminal', value: 'yes' },
  ],
  mcpServers: [
    { name: 'filesystem', passed: true, detail: 'stdio' },
    { name: 'zed-docs', passed: false, detail: 'A Zed extension: Airlock cannot start it' },
  ],
  authMethods,
  session: { ok: true, modes: ['ask', 'code'], configOptions: ['model'], signedInWith: 'oauth' },
  log: '/home/ada/.config/airlock/logs/demo-agent.log',
};

/** The registry's catalogue: an agent with every field, one that cannot run here. */
export const catalogue: CallResponse<'registry:list'> = {
  agents: [
    {
      id: 'codex-acp',
      name: 'Codex CLI',
      version: '0.9.2',
      description: 'ACP adapter for OpenAI Codex',
      authors: ['OpenAI', 'Zed Industries'],
      license: 'Apache-2.0',
      repository: 'https://github.com/zed-industries/codex-acp',
      iconUrl: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      distribution: 'binary',
      available: true,
      installed: { version: '0.9.1' },
      updateAvailable: true,
    },
    {
      id: 'mac-only',
      name: 'Mac Only',
      version: '1.0.0',
      description: 'Runs on macOS',
      authors: [],
      distribution: 'binary',
      available: false,
      unavailableReason: 'Not available for this platform',
      updateAvailable: false,
    },
  ],
  problem: 'Could not reach the agent registry; showing the copy from 3 Dec.',
  source: 'cache',
  fetchedAt: 1_764_000_000_000,
};

/** For each call, requests and responses: the first with every field, then other variants. */
/** A sign-in terminal's screen, every field present. */
export const terminalScreen: EventPayload<'agent:onDidChangeTerminal'> = {
  key,
  methodId: 'login',
  cols: 80,
  rows: 24,
  lines: [
    [{ text: 'What is your name? ' }, { text: 'Ada', fg: 12, bold: true }],
    [],
    [{ text: ' OK ', inverse: true }],
  ],
  cursor: { row: 0, col: 22, visible: true },
  appCursorKeys: true,
  exited: { code: 0 },
};

export const callExemplars: {
  [C in CallChannel]: { requests: CallRequest<C>[]; responses: CallResponse<C>[] };
} = {
  'app:getState': {
    requests: [{}],
    responses: [
      {
        agents: [
          { name: agentName, commandLine: 'node demo-agent.js --acp', builtIn: true },
          {
            name: 'Claude Code',
            commandLine: 'npx @zed-industries/claude-code-acp',
            builtIn: false,
          },
        ],
        settingsPath: '/home/ada/.config/airlock/settings.json',
        settingsError: 'Line 4: a comma is missing',
        defaultCwd: '/home/ada',
        canPickFolder: true,
        secretStorage: { available: true, description: 'GNOME Keyring' },
        urlElicitation: { default: 'isolated_window', opener: 'host' },
        sessions: [summary, { ...summary, key: 's2', status: 'prompting' }],
      },
    ],
  },
  'app:pickFolder': { requests: [{}], responses: [{ path: cwd }, { path: null }] },
  'app:getRecentFolders': { requests: [{}], responses: [{ folders: [cwd, '/home/ada/notes'] }] },
  'session:create': { requests: [{ agentName, cwd }], responses: [{ key }] },
  'session:getTranscript': {
    requests: [{ key }],
    responses: [{ events: [...transcript, ...moreTranscript] }],
  },
  'session:prompt': {
    requests: [
      {
        key,
        text: 'Fix the failing test in @src/watcher.test.ts',
        attachments: {
          files: ['src/watcher.test.ts', 'src/watcher.ts'],
          images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
        },
      },
    ],
    responses: [{}],
  },
  'files:complete': {
    requests: [{ key, query: 'src/wat' }],
    responses: [{ paths: ['src/watcher.ts', 'src/watcher.test.ts'], partial: true }],
  },
  'files:undoWrite': {
    requests: [
      { key, writeId: 'w0' },
      { key, writeId: 'w1a', force: true },
    ],
    responses: [
      { outcome: 'undone' },
      {
        outcome: 'changed',
        path: '/work/notes.txt',
        before: { kind: 'text', text: 'hello world\n' },
        agent: { kind: 'text', text: 'hello notes\n' },
        now: { kind: 'missing' },
      },
      {
        outcome: 'refused',
        reason: '/work/notes.txt was not restored: it is a folder, not a file',
      },
    ],
  },
  'files:undoTurn': {
    requests: [{ key, turn: 1764950400000 }],
    responses: [{ undone: 2, changed: ['/work/a.txt'], refused: [] }],
  },
  'session:show': { requests: [{ key }], responses: [{}] },
  'session:cancel': { requests: [{ key }], responses: [{}] },
  'session:restart': { requests: [{ key }], responses: [{}] },
  'session:stopStart': { requests: [{ key }], responses: [{}] },
  'session:close': { requests: [{ key }], responses: [{}] },
  'session:rename': { requests: [{ key, title: 'Flaky test' }], responses: [{}] },
  'session:setMode': { requests: [{ key, modeId: 'code' }], responses: [{}] },
  'session:setConfigOption': {
    requests: [
      { key, configId: 'model', value: 'opus' },
      { key, configId: 'thinking', value: false },
    ],
    responses: [{}],
  },
  'permission:respond': {
    requests: [
      { key, promptKey: 'p1', outcome: { outcome: 'selected', optionId: 'allow-once' } },
      { key, promptKey: 'p2', outcome: { outcome: 'cancelled' } },
    ],
    responses: [{}],
  },
  'elicitation:respond': {
    requests: [
      {
        key,
        cardKey: 'e1',
        action: 'accept',
        content: { branch: 'main', force: true, retries: 3, labels: ['ci', 'flaky'] },
      },
      { key, cardKey: 'e1', action: 'decline' },
      { key, cardKey: 'e1', action: 'cancel' },
    ],
    responses: [{}],
  },
  'elicitation:openUrl': {
    requests: [
      { key, cardKey: 'e2', where: 'window' },
      { key, cardKey: 'e2', where: 'browser' },
    ],
    responses: [{}],
  },
  'elicitation:finishUrl': {
    requests: [
      { key, cardKey: 'e2', how: 'done' },
      { key, cardKey: 'e2', how: 'dismissed' },
    ],
    responses: [{}],
  },
  'link:analyse': {
    requests: [{ url: 'https://docs.example.com/setup?step=2' }],
    responses: [
      { ok: true, analysis },
      { ok: false, reason: 'Only http and https links open' },
    ],
  },
  'link:open': { requests: [{ url: 'https://docs.example.com/setup?step=2' }], responses: [{}] },
  'terminal:kill': { requests: [{ key, terminalId: 'term-1' }], responses: [{}] },
  'agent:authenticate': { requests: [{ key, methodId: 'oauth' }], responses: [{}] },
  'agent:startTerminalSignIn': {
    requests: [
      { key, methodId: 'login', cols: 80, rows: 24, again: true },
      { key, methodId: 'login', cols: 80, rows: 24 },
    ],
    responses: [terminalScreen, { ...terminalScreen, exited: { code: null } }],
  },
  'agent:terminalInput': { requests: [{ key, data: 'Ada\r' }], responses: [{}] },
  'agent:terminalResize': { requests: [{ key, cols: 120, rows: 30 }], responses: [{}] },
  'agent:closeTerminalSignIn': { requests: [{ key }], responses: [{}] },
  'agent:saveSecrets': {
    requests: [
      {
        key,
        methodId: 'api-key',
        values: { ANTHROPIC_API_KEY: 'sk-ant-example', ANTHROPIC_BASE_URL: 'https://proxy.io' },
      },
    ],
    responses: [{}],
  },
  'agent:forgetSecrets': { requests: [{ agentName }], responses: [{}] },
  'agent:readLog': {
    requests: [{ agentName }],
    responses: [{ path: report.log, text: '[agent] started\n[agent] ready\n' }],
  },
  'settings:getAgents': {
    requests: [{}],
    responses: [
      {
        path: '/home/ada/.config/airlock/settings.json',
        error: 'Line 4: a comma is missing',
        editable: false,
        agents: agentSettings,
        mcpServers: [
          ...mcpServers,
          { name: 'events', transport: 'sse', enabled: true, url: 'https://x.io/sse', values: [] },
          { name: 'zed-docs', transport: 'extension', enabled: true, values: [] },
        ],
        askBeforeWrites: true,
      },
    ],
  },
  'settings:setAskBeforeWrites': { requests: [{ value: true }, { value: false }], responses: [{}] },
  'settings:revealEnv': {
    requests: [{ agentName, envName: 'ANTHROPIC_API_KEY' }],
    responses: [{ value: 'sk-ant-example' }],
  },
  'settings:saveAgent': {
    requests: [
      {
        originalName: 'Claude',
        agent: {
          name: 'Claude Code',
          command: 'npx',
          args: ['@zed-industries/claude-code-acp', '--verbose'],
          env: [
            { name: 'DEBUG', value: 'acp' },
            { name: 'ANTHROPIC_API_KEY', keep: true, from: 'CLAUDE_KEY' },
          ],
          urlDomains: ['github.com', 'anthropic.com'],
        },
      },
    ],
    responses: [
      { ok: true, name: 'Claude Code' },
      {
        ok: false,
        problems: [
          { field: 'command', message: 'A command is needed' },
          { field: 'env.0.name', message: 'Not a variable name' },
        ],
      },
    ],
  },
  'settings:duplicateAgent': {
    requests: [{ agentName }],
    responses: [{ name: 'Demo Agent copy' }],
  },
  'settings:removeAgent': { requests: [{ agentName }], responses: [{}] },
  'settings:testAgent': {
    requests: [{ agentName }],
    responses: [
      report,
      {
        ...report,
        ok: false,
        session: { ok: false, authRequired: true, error: 'Sign-in needed', signedInWith: 'oauth' },
      },
    ],
  },
  'session:listSaved': {
    requests: [{}],
    responses: [
      {
        tabs: [
          {
            id: 't1',
            agentName,
            cwd,
            title: 'Flaky test',
            lastActivity: 1_764_000_000_000,
            reopenable: true,
          },
          { id: 't2', agentName, cwd, lastActivity: 1_764_000_100_000, reopenable: false },
        ],
      },
    ],
  },
  'session:reopenSaved': { requests: [{ id: 't1' }, {}], responses: [{ keys: [key, 's2'] }] },
  'session:dismissSaved': { requests: [{}], responses: [{}] },
  'session:history': {
    requests: [{ agentName, cwd, cursor: 'page-2' }],
    responses: [
      {
        supported: true,
        note: 'Only the last 30 days are kept',
        entries: [
          { sessionId: 'sess_01HX', title: 'Fix the flaky test', updatedAt: 1_764_000_000_000 },
          { sessionId: 'sess_01HY' },
        ],
        nextCursor: 'page-3',
        canReopen: true,
      },
    ],
  },
  'session:reopen': {
    requests: [{ agentName, cwd, sessionId: 'sess_01HX', title: 'Fix the flaky test' }],
    responses: [{ key }],
  },
  'registry:list': { requests: [{}], responses: [catalogue, { agents: [], source: 'snapshot' }] },
  'registry:refresh': { requests: [{}], responses: [catalogue] },
  'registry:install': { requests: [{ id: 'codex-acp' }], responses: [{ agentName: 'codex-acp' }] },
  'registry:cancelInstall': { requests: [{ id: 'codex-acp' }], responses: [{}] },
  'registry:update': { requests: [{ id: 'codex-acp' }], responses: [{}] },
  'registry:remove': { requests: [{ id: 'codex-acp' }], responses: [{}] },
};

/** For each event, payloads: the first with every field, then other variants. */
export const eventExemplars: { [E in EventChannel]: EventPayload<E>[] } = {
  'session:onDidChange': [summary],
  'session:onDidAppend': [{ key, events: [...transcript, ...moreTranscript] }],
  'app:onDidChangeAgents': [
    {
      agents: [{ name: agentName, commandLine: 'node demo-agent.js --acp', builtIn: true }],
      settingsError: 'Line 4: a comma is missing',
    },
  ],
  'agent:onDidChangeTerminal': [terminalScreen],
  'registry:onDidProgress': [
    {
      id: 'codex-acp',
      received: 3_100_000,
      total: 12_400_000,
      done: false,
      error: 'The download of Codex CLI stopped: the connection was closed.',
    },
    { id: 'codex-acp', received: 3_100_000, total: 12_400_000 },
    { id: 'codex-acp', received: 12_400_000, total: 12_400_000, done: true },
    { id: 'codex-acp', received: 1_000, error: 'The install of Codex CLI was cancelled.' },
  ],
  'app:onCommand': [
    { command: 'newSession' },
    { command: 'closeSession' },
    { command: 'agentSettings' },
    { command: 'agentLog' },
    { command: 'showWaiting', key },
  ],
};
