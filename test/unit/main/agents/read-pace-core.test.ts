/**
 * The core reads the shown tab's agent first: each agent's output runs through a reader of the
 * core's pace, and showing a tab names its agent's reader. The pace here runs on a clock that
 * stands still until the test moves it, so a hidden flood it holds stays held until then.
 */
import { describe, expect, it } from 'vitest';
import {
  PacedReader,
  ReadPace,
  RECENT_MS,
  FLOOD_BYTES,
} from '../../../../main/core/agents/read-pace.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { deadline, TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

const secondDemo: AgentSpec = { ...demoAgentSpec(), name: 'Second Demo', builtIn: false };
const { start } = useCore({ timeouts: TEST_TIMEOUTS, agents: [secondDemo], bounded: true });

/** Lets what is ready run: a few turns of the event loop. */
async function turns(count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("the core's read pace", () => {
  it('names the shown tab agent’s reader: the latest tab shown, none once it is closed', async () => {
    const pace = new ReadPace();
    const run = await start({ options: { readPace: pace } });
    const first = await run.ready();
    const second = await run.ready(secondDemo.name);
    expect(pace.shown()).toBeUndefined();
    await run.call('session:show', { key: first });
    const firstReader = pace.shown();
    expect(firstReader).toBeInstanceOf(PacedReader);
    await run.call('session:show', { key: second });
    expect(pace.shown()).toBeInstanceOf(PacedReader);
    expect(pace.shown()).not.toBe(firstReader);
    await run.call('session:close', { key: second });
    expect(pace.shown()).toBeUndefined();
  });

  it("reads the shown tab's agent through its reader: another's flood waits while it streams", async () => {
    let clock = 0;
    const pace = new ReadPace(() => clock);
    const run = await start({ options: { readPace: pace } });
    const shown = await run.ready();
    await run.call('session:show', { key: shown });
    // Its answer came through its reader, at the standing clock's time.
    await run.turn(shown, 'hello');
    const other = pace.reader();
    const source = other.stream.readable.getReader();
    void other.stream.writable.getWriter().write(new Uint8Array(FLOOD_BYTES + 1));
    // FLOOD_BYTES pass as a window's first; the byte more is a flood, and waits.
    const first = await deadline(source.read(), 'the first part to pass');
    expect(first.value?.byteLength).toBe(FLOOD_BYTES);
    let passed: number | undefined;
    const passing = source.read().then((read) => (passed = read.value?.byteLength));
    await turns(5);
    expect(passed).toBeUndefined();
    // The shown agent has been quiet for RECENT_MS: the flood goes on.
    clock += RECENT_MS;
    await deadline(passing, 'the held part to pass');
    expect(passed).toBe(1);
  });
});
