/**
 * The demo agent's file commands, through the client's `fs` methods: `/read PATH`,
 * `/write PATH` (a small known text) and `/outside` (reads and writes Airlock must refuse).
 *
 * A relative PATH is taken in the session's folder, as a user typing it would mean; `/outside`
 * sends one relative path as it is, since the protocol requires absolute ones.
 */
import * as acp from '@agentclientprotocol/sdk';
import path from 'node:path';
import { runOutside } from './terminals.js';

/** What `/write` writes. */
export const DEMO_WRITE_TEXT = [
  '# Written by the Airlock demo agent',
  '',
  "Airlock wrote this file for me, inside this session's folder,",
  'with fs/write_text_file.',
  '',
].join('\n');

/** The longest part of a file `/read` repeats. */
const MAX_SHOWN_CHARS = 4000;

/** What a file command needs of its session. */
export type FileSession = { cwd: string };

/** Why a request failed, as the demo reports it. */
export function describeFailure(error: unknown): string {
  if (error instanceof acp.RequestError) {
    return `error ${error.code}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The file commands, each taking the rest of the prompt line. */
export function fileCommands(
  client: acp.AgentContext,
  sessionId: string,
  state: FileSession,
  capabilities: () => acp.ClientCapabilities,
  say: (text: string) => Promise<void>,
): Record<string, (arg: string) => Promise<void>> {
  const full = (arg: string) => path.resolve(state.cwd, arg);
  const read = (file: string) =>
    client.request(acp.methods.client.fs.readTextFile, { sessionId, path: file });
  const write = (file: string, content: string) =>
    client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: file, content });
  return {
    '/read': async (arg) => {
      if (!capabilities().fs?.readTextFile) {
        return say('This client does not offer fs/read_text_file, so I cannot read files.');
      }
      if (!arg) {
        return say('Which file? Type `/read PATH`.');
      }
      try {
        const { content } = await read(full(arg));
        const shown =
          content.length > MAX_SHOWN_CHARS ? `${content.slice(0, MAX_SHOWN_CHARS)}…` : content;
        const lines = content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
        await say(`I read ${full(arg)} (${lines} lines):\n\n~~~~\n${shown}\n~~~~`);
      } catch (error) {
        await say(`I could not read ${full(arg)}: ${describeFailure(error)}`);
      }
    },
    '/write': async (arg) => {
      if (!capabilities().fs?.writeTextFile) {
        return say('This client does not offer fs/write_text_file, so I cannot write files.');
      }
      if (!arg) {
        return say('Which file? Type `/write PATH`.');
      }
      try {
        await write(full(arg), DEMO_WRITE_TEXT);
        await say(`I wrote ${DEMO_WRITE_TEXT.length} characters to ${full(arg)}.`);
      } catch (error) {
        await say(`I could not write ${full(arg)}: ${describeFailure(error)}`);
      }
    },
    '/outside': async () => {
      const system = process.platform === 'win32' ? 'C:\\Windows\\win.ini' : '/etc/hostname';
      const attempts: [string, () => Promise<unknown>][] = [
        [`read ${system}`, () => read(system)],
        [
          `write ${path.join(state.cwd, '..', 'outside.txt')}`,
          () => write(path.join(state.cwd, '..', 'outside.txt'), DEMO_WRITE_TEXT),
        ],
        ['read ../outside.txt (a relative path)', () => read(`..${path.sep}outside.txt`)],
        // A terminal elsewhere (see terminals.ts).
        [`run pwd in ${path.dirname(state.cwd)}`, () => runOutside(client, sessionId, state)],
      ];
      const report: string[] = [];
      for (const [what, attempt] of attempts) {
        try {
          await attempt();
          report.push(`- ${what}: it was allowed (it should not have been)`);
        } catch (error) {
          report.push(`- ${what}: refused, ${describeFailure(error)}`);
        }
      }
      await say(`I tried to reach outside this session's folder:\n\n${report.join('\n')}`);
    },
  };
}
