/**
 * The built-in demo agent: model-free, its own process, speaking ACP over stdio.
 *
 * It streams replies in chunks, and its commands show every feature Airlock renders:
 * `/help`, `/tool`, `/permission`, `/permission-run`, `/plan`, `/long N`, `/long-line MB [LINES]`,
 * `/title TEXT`, `/crash`, the file commands `/read PATH`, `/write PATH` and `/outside` (see
 * files.ts), `/run CMD` in a terminal (see terminals.ts), and the form elicitations (`/form`
 * and its variants, see elicit.ts). Given a folder (`AIRLOCK_DEMO_STATE_DIR`), it keeps its
 * sessions for `session/list`, `session/load`, `session/resume` (see sessions.ts).
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { describeOutcome, formCommands } from './elicit.js';
import { fileCommands } from './files.js';
import { terminalCommands } from './terminals.js';
import { SETUP } from './forms.js';
import { batchedOutput } from './batched-output.js';
import { agentInput } from './parent-port-input.js';
import { urlAtStart, urlCommands } from './url-flows.js';
import { longLines, longText, replyFor, HELP_TEXT, LINKS_TEXT, type ReplyStyle } from './script.js';
import { runTool } from './tools.js';
import { demoPromptCapabilities, describeAttachments } from './prompt-echo.js';
import { historyCapabilities, sessionHistory } from './sessions.js';

type DemoSession = {
  cancelled: boolean;
  /** Called once when the running turn is cancelled. */
  onCancel: (() => void)[];
  modeId: string;
  turns: number;
  style: ReplyStyle;
  thinking: boolean;
  /** The session's working folder. */
  cwd: string;
  /** The kinds of tool the user chose "Always allow" for (see tools.ts). */
  alwaysAllowed: Set<acp.ToolKind>;
};

const sessions = new Map<string, DemoSession>();

/** What the client advertised in `initialize`. */
let clientCapabilities: acp.ClientCapabilities = {};
/** Whether the next tab's `session/new` asks a setup question first ("Ask at start"). */
let askAtStart = false;
/** Whether the next tab's `session/new` asks to visit the consent page first (`/url-setup`). */
let urlAtStartNext = false;
const formSupported = () => Boolean(clientCapabilities.elicitation?.form);
const urlSupported = () => Boolean(clientCapabilities.elicitation?.url);

const MODES: acp.SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Answer questions without changing files' },
  { id: 'code', name: 'Code', description: 'Make changes' },
];

const COMMANDS: acp.AvailableCommand[] = [
  { name: 'help', description: 'List what the demo agent can do' },
  { name: 'tool', description: 'Run a tool call that edits a file, with a diff' },
  { name: 'permission', description: 'Ask for permission before a tool call' },
  { name: 'permission-run', description: 'Ask for permission before running a command' },
  { name: 'plan', description: 'Show a plan and work through it' },
  { name: 'long', description: 'Stream N kilobytes of text', input: { hint: 'N (kilobytes)' } },
  {
    name: 'long-line',
    description: 'Send MB megabytes on one line (or on LINES lines) in one update',
    input: { hint: 'MB [LINES]' },
  },
  { name: 'title', description: 'Name this session', input: { hint: 'title' } },
  { name: 'crash', description: 'Exit in the middle of a turn' },
  { name: 'links', description: 'Show links and a code block' },
  { name: 'read', description: 'Read a file through Airlock', input: { hint: 'PATH' } },
  {
    name: 'write',
    description: 'Write a small text file through Airlock',
    input: { hint: 'PATH' },
  },
  { name: 'outside', description: 'Try to read and write outside the session folder' },
  { name: 'run', description: 'Run a command in a terminal', input: { hint: 'CMD' } },
  { name: 'form', description: 'Ask with a form of every field type' },
  { name: 'form-titled', description: 'Ask with a titled single select' },
  { name: 'form-multi', description: 'Ask with multi selects' },
  { name: 'form-lookalike', description: 'Ask with a form titled as if the app asked' },
  { name: 'form-defaults', description: 'Ask with defaults filled in' },
  { name: 'form-tool', description: 'Ask on a tool call' },
  { name: 'form-setup', description: 'Ask while the next tab starts' },
  { name: 'form-burst', description: 'Ask N questions at once', input: { hint: 'N' } },
  {
    name: 'form-withdraw',
    description: 'Ask, then withdraw the question',
    input: { hint: 'seconds' },
  },
  { name: 'form-invalid', description: 'Send forms Airlock must refuse' },
  { name: 'url', description: 'Connect a service through its consent page (URL mode)' },
  { name: 'url-setup', description: 'Ask to visit a page while the next tab starts' },
  { name: 'url-lookalike', description: 'Ask to visit a look-alike domain' },
  { name: 'url-bad-scheme', description: 'Send URLs Airlock must refuse' },
  { name: 'url-never-completes', description: 'Ask to visit a page and never say it is done' },
  { name: 'url-duplicate-id', description: 'Send two URL requests with one id' },
];

/** The session's options: a select and a toggle. */
function configOptions(state: DemoSession): acp.SessionConfigOption[] {
  return [
    {
      id: 'style',
      name: 'Reply style',
      category: 'model',
      type: 'select',
      currentValue: state.style,
      options: [
        { value: 'plain', name: 'Plain' },
        { value: 'detailed', name: 'Detailed' },
      ],
    },
    {
      id: 'thinking',
      name: 'Show thinking',
      category: 'thought_level',
      type: 'boolean',
      currentValue: state.thinking,
    },
    {
      id: 'ask_at_start',
      name: 'Ask at start',
      description: 'Ask a setup question while the next tab starts',
      type: 'boolean',
      currentValue: askAtStart,
    },
  ];
}

/** Sessions kept across restarts when Airlock gives the demo a folder (see sessions.ts). */
const history = sessionHistory({
  sessions,
  // A reopened session starts as `session/new` starts one.
  fresh: (cwd): DemoSession => ({
    cancelled: false,
    onCancel: [],
    modeId: 'code',
    turns: 0,
    style: 'plain',
    thinking: true,
    cwd,
    alwaysAllowed: new Set(),
  }),
  announce: (client, sessionId) =>
    setImmediate(() => {
      void client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS },
      });
    }),
});

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves when the session's running turn is cancelled. */
function untilCancelled(state: DemoSession): Promise<void> {
  return state.cancelled
    ? Promise.resolve()
    : new Promise((resolve) => state.onCancel.push(resolve));
}

function session(sessionId: string): DemoSession {
  const found = sessions.get(sessionId);
  if (!found) {
    throw acp.RequestError.invalidParams(undefined, `Unknown session ${sessionId}`);
  }
  return found;
}

async function streamText(
  client: acp.AgentContext,
  sessionId: string,
  state: DemoSession,
  text: string,
  size: number,
): Promise<boolean> {
  for (let i = 0; i < text.length; i += size) {
    if (state.cancelled) {
      return false;
    }
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: text.slice(i, i + size) },
      },
    });
    if (i % (size * 50) === 0) {
      await yieldToLoop();
    }
  }
  return !state.cancelled;
}

async function runPlan(
  client: acp.AgentContext,
  sessionId: string,
  state: DemoSession,
): Promise<acp.StopReason> {
  const steps = ['Read the code', 'Write the change', 'Run the tests'];
  for (let done = 0; done <= steps.length; done++) {
    if (state.cancelled) {
      return 'cancelled';
    }
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: 'plan',
        entries: steps.map((content, index) => ({
          content,
          priority: index === 0 ? 'high' : 'medium',
          status: index < done ? 'completed' : index === done ? 'in_progress' : 'pending',
        })),
      },
    });
    await yieldToLoop();
  }
  await streamText(client, sessionId, state, 'All three steps of the plan are done.', 12);
  return 'end_turn';
}

async function prompt(
  client: acp.AgentContext,
  params: acp.PromptRequest,
): Promise<acp.PromptResponse> {
  const state = session(params.sessionId);
  state.cancelled = false;
  state.onCancel.length = 0;
  state.turns += 1;
  const text = params.prompt
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
    .trim();
  const [command = '', arg] = text.split(/\s+/);
  let stopReason: acp.StopReason = 'end_turn';
  const say = async (reply: string) => {
    await streamText(client, params.sessionId, state, reply, 24);
  };
  // Attached files and images: a line about each first (prompt-echo.ts).
  const attached = describeAttachments(params.prompt);
  if (attached) {
    await say(attached);
  }
  const forms = formCommands(client, params.sessionId, say, formSupported);
  const urls = urlCommands(client, params.sessionId, say, urlSupported, () =>
    untilCancelled(state),
  );
  const files = fileCommands(client, params.sessionId, state, () => clientCapabilities, say);
  const terminals = terminalCommands(
    client,
    params.sessionId,
    state,
    () => clientCapabilities,
    say,
  );
  switch (command) {
    case '/help':
      await streamText(client, params.sessionId, state, HELP_TEXT, 24);
      break;
    case '/tool':
      stopReason = await runTool(client, params.sessionId, state, 'edit', false, say);
      break;
    case '/permission':
      stopReason = await runTool(client, params.sessionId, state, 'edit', true, say);
      break;
    case '/permission-run':
      stopReason = await runTool(client, params.sessionId, state, 'run-tests', true, say);
      break;
    case '/plan':
      stopReason = await runPlan(client, params.sessionId, state);
      break;
    case '/long': {
      const kb = Math.min(Math.max(Number.parseInt(arg ?? '100', 10) || 100, 1), 100_000);
      if (!(await streamText(client, params.sessionId, state, longText(kb * 1000), 100))) {
        stopReason = 'cancelled';
      }
      break;
    }
    case '/long-line': {
      // One update holds it all: the worst case for a client, which must not stall on it.
      const mb = Math.min(Math.max(Number.parseFloat(arg ?? '10') || 10, 0.001), 50);
      const lines = Math.min(
        Math.max(Number.parseInt(text.split(/\s+/)[2] ?? '1', 10) || 1, 1),
        10_000,
      );
      const whole = longLines(Math.round(mb * 1_000_000), lines);
      if (!(await streamText(client, params.sessionId, state, whole, whole.length))) {
        stopReason = 'cancelled';
      }
      break;
    }
    case '/url-setup':
      urlAtStartNext = true;
      await say(
        'Start a new tab with the demo agent: I will ask you to visit the Demo Service page while it starts.',
      );
      break;
    case '/form-setup':
      askAtStart = true;
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'config_option_update', configOptions: configOptions(state) },
      });
      await say(
        '"Ask at start" is on: start a new tab with the demo agent, and I will ask a setup question while it starts.',
      );
      break;
    case '/title': {
      // The rest of the line, as the session's title (`session_info_update`).
      const title = text.slice(command.length).trim() || 'A session about the demo';
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'session_info_update', title },
      });
      await say(`I named this session "${title}".`);
      break;
    }
    case '/links':
      await streamText(client, params.sessionId, state, LINKS_TEXT, 24);
      break;
    case '/crash':
      await streamText(client, params.sessionId, state, 'Crashing now, as asked…', 8);
      process.stderr.write('demo agent: crashing on request (/crash)\n');
      process.exit(3);
      break;
    default:
      if (Object.hasOwn(forms, command)) {
        await forms[command]!(arg);
        break;
      }
      if (Object.hasOwn(urls, command)) {
        await urls[command]!();
        break;
      }
      if (Object.hasOwn(terminals, command)) {
        // The rest of the line: the command and its arguments.
        stopReason = (await terminals[command]!(text.slice(command.length).trim())) ?? stopReason;
        break;
      }
      if (Object.hasOwn(files, command)) {
        // The rest of the line: a path may hold spaces.
        await files[command]!(text.slice(command.length).trim());
        break;
      }
      if (state.thinking) {
        await client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update: {
            sessionUpdate: 'agent_thought_chunk',
            content: { type: 'text', text: 'The user wrote something; I will echo it back.' },
          },
        });
      }
      if (!(await streamText(client, params.sessionId, state, replyFor(text, state.style), 6))) {
        stopReason = 'cancelled';
      }
  }
  if (state.cancelled) {
    stopReason = 'cancelled';
  }
  await client.notify(acp.methods.client.session.update, {
    sessionId: params.sessionId,
    update: { sessionUpdate: 'usage_update', used: 1000 * state.turns, size: 200_000 },
  });
  return { stopReason };
}

const app = acp
  .agent({ name: 'airlock-demo-agent' })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    clientCapabilities = params.clientCapabilities ?? {};
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        ...historyCapabilities(),
        promptCapabilities: demoPromptCapabilities(),
      },
      authMethods: [],
      agentInfo: { name: 'airlock-demo-agent', title: 'Airlock Demo Agent', version: '0.1.0' },
    };
  })
  .onRequest(acp.methods.agent.session.new, async ({ client, params, requestId }) => {
    const sessionId = `demo_${randomUUID()}`;
    // `/url-setup`: a request-scoped URL elicitation about this very `session/new`.
    const visit =
      urlAtStartNext && urlSupported() && requestId !== null
        ? await urlAtStart(client, requestId)
        : undefined;
    urlAtStartNext = false;
    // "Ask at start": a request-scoped question about this very `session/new`.
    const setup =
      askAtStart && formSupported() && requestId !== null
        ? await client
            .request(acp.methods.client.elicitation.create, {
              requestId,
              mode: 'form',
              message: 'Before this session starts: what are we working on?',
              requestedSchema: SETUP,
            })
            .catch((error: unknown) => error as Error)
        : undefined;
    const state: DemoSession = {
      cancelled: false,
      onCancel: [],
      modeId: 'code',
      turns: 0,
      style: 'plain',
      thinking: true,
      cwd: params.cwd,
      alwaysAllowed: new Set(),
    };
    sessions.set(sessionId, state);
    await history.started(sessionId, params.cwd);
    // Commands are announced right after the session exists, as real agents do.
    setImmediate(() => {
      void client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS },
      });
      for (const [what, outcome] of [
        ['Set up at start.', setup],
        ['Asked to visit the Demo Service at start.', visit],
      ] as const) {
        if (outcome) {
          void client.notify(acp.methods.client.session.update, {
            sessionId,
            update: {
              sessionUpdate: 'agent_message_chunk',
              content: { type: 'text', text: `${what} ${describeOutcome(outcome)}` },
            },
          });
        }
      }
    });
    return {
      sessionId,
      modes: { currentModeId: 'code', availableModes: MODES },
      configOptions: configOptions(state),
    };
  })
  .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
    const state = session(params.sessionId);
    if (!MODES.some((mode) => mode.id === params.modeId)) {
      throw acp.RequestError.invalidParams(undefined, `Unknown mode ${params.modeId}`);
    }
    state.modeId = params.modeId;
    await client.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'current_mode_update', currentModeId: params.modeId },
    });
    return {};
  })
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    const state = session(params.sessionId);
    if (params.configId === 'style' && (params.value === 'plain' || params.value === 'detailed')) {
      state.style = params.value;
    } else if (params.configId === 'thinking' && typeof params.value === 'boolean') {
      state.thinking = params.value;
    } else if (params.configId === 'ask_at_start' && typeof params.value === 'boolean') {
      askAtStart = params.value;
    } else {
      throw acp.RequestError.invalidParams(
        undefined,
        `No option ${params.configId} with value ${String(params.value)}`,
      );
    }
    return { configOptions: configOptions(state) };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const reply = await prompt(history.recording(client, params), params);
    await history.turnEnded(params.sessionId);
    return reply;
  })
  .onRequest(acp.methods.agent.session.load, async ({ client, params }) => {
    const state = await history.load(client, params);
    return {
      modes: { currentModeId: state.modeId, availableModes: MODES },
      configOptions: configOptions(state),
    };
  })
  .onRequest(acp.methods.agent.session.resume, async ({ client, params }) => {
    const state = await history.resume(client, params);
    return {
      modes: { currentModeId: state.modeId, availableModes: MODES },
      configOptions: configOptions(state),
    };
  })
  .onRequest(acp.methods.agent.session.list, ({ params }) => history.list(params))
  .onRequest(acp.methods.agent.session.close, ({ params }) => {
    history.close(params);
    return {};
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const state = sessions.get(params.sessionId);
    if (state) {
      state.cancelled = true;
      for (const wake of state.onCancel.splice(0)) {
        wake();
      }
    }
  });

const connection = app.connect(
  acp.ndJsonStream(
    batchedOutput(process.stdout),
    Readable.toWeb(agentInput()) as ReadableStream<Uint8Array>,
  ),
);
void connection.closed.then(() => process.exit(0));
