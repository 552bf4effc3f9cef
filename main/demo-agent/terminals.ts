/**
 * The demo agent's terminal command, through the client's `terminal/*` methods: `/run CMD`
 * runs CMD in the session's folder as a tool call that embeds the terminal (the client shows
 * its output as it comes), and reports how it ended. `/outside` also tries a terminal elsewhere (see
 * {@link runOutside}).
 *
 * CMD is split into words as a shell would split them (quotes and backslashes), but no shell
 * runs it: Airlock starts the program with those words as its arguments.
 */
import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

/** What the demo keeps of a command's output. */
const OUTPUT_LIMIT = 64 * 1024;

/** What a terminal command needs of its session. */
export type TerminalSession = {
  cwd: string;
  cancelled: boolean;
  /** Called once when the running turn is cancelled. */
  onCancel: (() => void)[];
};

/** Splits a command line into words: single and double quotes group, a backslash escapes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) {
        quote = undefined;
      } else if (char === '\\' && quote === '"' && i + 1 < line.length) {
        word = (word ?? '') + line[++i];
      } else {
        word = (word ?? '') + char;
      }
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(char)) {
      if (word !== undefined) {
        words.push(word);
      }
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) {
    words.push(word);
  }
  return words;
}

/** Why a request failed, as the demo reports it. */
function failure(error: unknown): string {
  if (error instanceof acp.RequestError) {
    return `error ${error.code}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** How a command ended, in words. */
function ended(exit: acp.TerminalExitStatus): string {
  return exit.signal ? `was stopped by ${exit.signal}` : `exited with code ${exit.exitCode ?? '?'}`;
}

/** The `/run` command, taking the rest of the prompt line. */
export function terminalCommands(
  client: acp.AgentContext,
  sessionId: string,
  state: TerminalSession,
  capabilities: () => acp.ClientCapabilities,
  say: (text: string) => Promise<void>,
): Record<string, (arg: string) => Promise<acp.StopReason | void>> {
  return {
    '/run': async (arg) => {
      if (!capabilities().terminal) {
        return say('This client does not offer terminals, so I cannot run commands.');
      }
      const [command, ...args] = splitWords(arg);
      if (command === undefined) {
        return say('Which command? Type `/run CMD`, for example `/run ls -la`.');
      }
      let terminalId: string;
      try {
        ({ terminalId } = await client.request(acp.methods.client.terminal.create, {
          sessionId,
          command,
          args,
          outputByteLimit: OUTPUT_LIMIT,
        }));
      } catch (error) {
        return say(`I could not run \`${arg}\`: ${failure(error)}`);
      }
      const toolCallId = `run_${randomUUID()}`;
      const terminal = { type: 'terminal' as const, terminalId };
      const update = (fields: Omit<acp.ToolCallUpdate, 'toolCallId'>) =>
        client.notify(acp.methods.client.session.update, {
          sessionId,
          update: { sessionUpdate: 'tool_call_update', toolCallId, ...fields },
        });
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId,
          title: `Run ${arg}`,
          kind: 'execute',
          status: 'in_progress',
          content: [terminal],
          rawInput: { command, args },
        },
      });
      const exited = client.request(acp.methods.client.terminal.waitForExit, {
        sessionId,
        terminalId,
      });
      // The user's cancel stops the command; the terminal stays readable until released.
      const onCancel = () => {
        void client
          .request(acp.methods.client.terminal.kill, { sessionId, terminalId })
          .catch(() => undefined);
      };
      state.onCancel.push(onCancel);
      try {
        // The embedded terminal shows the output live; the demo only waits for the end.
        const exit = await exited;
        const last = await client.request(acp.methods.client.terminal.output, {
          sessionId,
          terminalId,
        });
        await update({
          status: exit.exitCode === 0 ? 'completed' : 'failed',
          rawOutput: {
            exitCode: exit.exitCode ?? null,
            signal: exit.signal ?? null,
            truncated: last.truncated,
          },
        });
        await say(
          `\`${arg}\` ${ended(exit)}${last.truncated ? ` (I kept the last ${OUTPUT_LIMIT / 1024} KB of its output)` : ''}.`,
        );
      } catch (error) {
        await update({ status: 'failed' });
        await say(`I lost track of \`${arg}\`: ${failure(error)}`);
      } finally {
        const at = state.onCancel.indexOf(onCancel);
        if (at >= 0) {
          state.onCancel.splice(at, 1);
        }
        await client
          .request(acp.methods.client.terminal.release, { sessionId, terminalId })
          .catch(() => undefined);
      }
      return state.cancelled ? 'cancelled' : undefined;
    },
  };
}

/**
 * `/outside`'s terminal part: asks to run `pwd` in the folder above the session's. Resolves
 * when the client ran it (it should not have), rejects with the client's refusal.
 */
export async function runOutside(
  client: acp.AgentContext,
  sessionId: string,
  state: { cwd: string },
): Promise<unknown> {
  const cwd = path.dirname(state.cwd);
  const { terminalId } = await client.request(acp.methods.client.terminal.create, {
    sessionId,
    command: 'pwd',
    cwd,
  });
  await client.request(acp.methods.client.terminal.release, { sessionId, terminalId });
  return terminalId;
}
