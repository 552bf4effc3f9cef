/**
 * The demo agent's tool calls: `/tool` edits a file, `/permission` asks first, and
 * `/permission-run` asks before it runs a command.
 *
 * A permission request carries the tool call as a real agent sends it: its kind, title, the
 * paths it touches, its content (the diff of an edit) and its raw input (the command it runs).
 * ACP leaves remembering an "Always allow" to the agent: the demo remembers it per kind of tool
 * for the rest of the session, does not ask again, and says so.
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';

/** What a tool call needs of its session. */
export type ToolSession = {
  cancelled: boolean;
  /** The session's working folder. */
  cwd: string;
  /** The kinds of tool the user chose "Always allow" for, in this session. */
  alwaysAllowed: Set<acp.ToolKind>;
};

/** The file `/tool` and `/permission` edit. */
export const DEMO_FILE = '/demo/README.md';

const README_LINES = [
  '# Demo',
  '',
  'Hello.',
  '',
  'This project shows what Airlock can display.',
  '',
  '## Install',
  '',
  '```sh',
  'npm install',
  '```',
  '',
  '## Usage',
  '',
  'Start it with `npm start`.',
  '',
  '## Licence',
  '',
  'MIT',
];
const OLD_README = `${README_LINES.join('\n')}\n`;
const NEW_README = OLD_README.replace('Hello.', 'Hello from the Airlock demo agent.').replace(
  'Start it with `npm start`.',
  'Start it with `npm start`, then type `/help`.',
);

/** What the demo's test run prints. */
export const TEST_OUTPUT = [
  '> demo@1.0.0 test',
  '> vitest run --reporter=dot',
  '',
  '··········',
  '',
  ' Test Files  3 passed (3)',
  '      Tests  10 passed (10)',
].join('\n');

/** The options every request offers, as real agents offer them. */
const OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
];

type Tool = {
  /** The tool call as announced, and as the permission request describes it. */
  call: Omit<acp.ToolCall, 'toolCallId' | 'status'>;
  /** What its kind is called in the demo's replies. */
  plural: string;
  /** Its result: the content of its completed update. */
  result?: acp.ToolCallContent[];
  /** What the demo says when it ran, and when it was rejected. */
  done: string;
  rejected: string;
};

function editTool(): Tool {
  return {
    call: {
      title: 'Edit README.md',
      kind: 'edit',
      locations: [{ path: DEMO_FILE, line: 3 }],
      content: [{ type: 'diff', path: DEMO_FILE, oldText: OLD_README, newText: NEW_README }],
      rawInput: {
        file_path: DEMO_FILE,
        edits: [
          { old_string: 'Hello.', new_string: 'Hello from the Airlock demo agent.' },
          {
            old_string: 'Start it with `npm start`.',
            new_string: 'Start it with `npm start`, then type `/help`.',
          },
        ],
      },
    },
    plural: 'edits',
    done: 'I edited **README.md**; the diff is above.',
    rejected: 'Understood: I left README.md alone.',
  };
}

function runTestsTool(cwd: string): Tool {
  return {
    call: {
      title: 'Run the tests',
      kind: 'execute',
      locations: [{ path: cwd }],
      rawInput: { command: ['bash', '-lc', 'npm test -- --reporter=dot'], cwd },
    },
    plural: 'commands',
    result: [{ type: 'content', content: { type: 'text', text: TEST_OUTPUT } }],
    done: 'The tests pass: 10 of 10.',
    rejected: 'Understood: I did not run the tests.',
  };
}

/** Which tool a command runs. */
export type DemoTool = 'edit' | 'run-tests';

/**
 * Runs a tool call, asking permission first when `ask` is set (unless the user chose "Always
 * allow" for its kind earlier in the session). `say` streams the demo's reply.
 */
export async function runTool(
  client: acp.AgentContext,
  sessionId: string,
  state: ToolSession,
  which: DemoTool,
  ask: boolean,
  say: (text: string) => Promise<unknown>,
): Promise<acp.StopReason> {
  const tool = which === 'edit' ? editTool() : runTestsTool(state.cwd);
  const kind = tool.call.kind ?? 'other';
  const toolCallId = `call_${randomUUID().slice(0, 8)}`;
  const update = (u: acp.SessionUpdate) =>
    client.notify(acp.methods.client.session.update, { sessionId, update: u });
  // Announced with what it will do, as real agents announce a proposed edit or command.
  await update({ sessionUpdate: 'tool_call', toolCallId, status: 'pending', ...tool.call });
  let preface = '';
  if (ask && state.alwaysAllowed.has(kind)) {
    preface = `You chose “Always allow” for ${tool.plural} earlier in this session, so I did not ask again. `;
  } else if (ask) {
    const answer = await client.request(acp.methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId, ...tool.call },
      options: OPTIONS,
    });
    const outcome = answer.outcome;
    if (outcome.outcome === 'cancelled' || state.cancelled) {
      await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
      return 'cancelled';
    }
    const chosen = OPTIONS.find((option) => option.optionId === outcome.optionId);
    if (chosen?.kind !== 'allow_once' && chosen?.kind !== 'allow_always') {
      await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
      await say(tool.rejected);
      return 'end_turn';
    }
    if (chosen.kind === 'allow_always') {
      state.alwaysAllowed.add(kind);
      preface = `I will not ask again before ${tool.plural} in this session. `;
    }
  }
  await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  await update({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    ...(tool.result ? { content: tool.result } : {}),
  });
  await say(`${preface}${tool.done}`);
  return state.cancelled ? 'cancelled' : 'end_turn';
}
