import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../../preload/shared/contract.js';
import { useCore } from '../../../helpers/core-harness.js';

const { start } = useCore();

/** What the terminals showed, in order. */
function shownOutputs(events: TranscriptEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'terminal_output' ? [event.output] : []));
}

async function demo() {
  const started = await start();
  const key = await started.ready();
  return { ...started, key, folder: await realpath(started.dir) };
}

describe("the demo agent's /run", () => {
  it('runs the command in a tool call that embeds its terminal, and says how it ended', async () => {
    const { core, recorder, key, folder } = await demo();
    await core.invoke('session:prompt', { key, text: "/run echo '$(echo hi)' two" });
    const end = await recorder.event(key, 'turn_end');
    expect(end.stopReason).toBe('end_turn');
    const events = recorder.transcript(key);
    const call = events.find((event) => event.type === 'tool_call');
    expect(call?.fields).toMatchObject({
      title: "Run echo '$(echo hi)' two",
      kind: 'execute',
      content: [{ type: 'terminal', terminalId: expect.stringMatching(/^term_/) }],
    });
    // No shell: the argument arrives as it was typed.
    expect(shownOutputs(events).at(-1)).toBe('$(echo hi) two\n');
    expect(recorder.text(key)).toContain("`echo '$(echo hi)' two` exited with code 0.");
    const system = events.flatMap((event) => (event.type === 'system' ? [event.text] : []));
    expect(system).toEqual([
      `Running: echo '$(echo hi)' two in ${folder}`,
      `Ran: echo '$(echo hi)' two in ${folder}: exited with code 0`,
    ]);
    expect(recorder.dropped).toEqual([]);
  });

  it('shows the output while the command runs, and the cancel stops it', async () => {
    const { core, recorder, key } = await demo();
    await core.invoke('session:prompt', {
      key,
      text: `/run "${process.execPath}" -e "console.log('first'); setInterval(() => {}, 1000)"`,
    });
    await recorder.until(() => shownOutputs(recorder.transcript(key)).includes('first\n'));
    expect(recorder.summaries.get(key)?.status).toBe('prompting');
    await core.invoke('session:cancel', { key });
    const end = await recorder.event(key, 'turn_end');
    expect(end.stopReason).toBe('cancelled');
    // The demo says nothing more in a cancelled turn; the tool call and the terminal's line tell.
    const events = recorder.transcript(key);
    expect(
      events.some((event) => event.type === 'tool_call_update' && event.fields.status === 'failed'),
    ).toBe(true);
    expect(
      events.some(
        (event) => event.type === 'system' && event.text.endsWith(': stopped by the agent'),
      ),
    ).toBe(true);
  });
});

describe("the demo agent's /outside", () => {
  it('is refused a terminal outside the folder', async () => {
    const { core, recorder, key, folder } = await demo();
    await core.invoke('session:prompt', { key, text: '/outside' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toMatch(
      new RegExp(
        `- run pwd in ${dirname(folder)}: refused, error -32602: .*outside the session's folder`,
      ),
    );
  });
});
