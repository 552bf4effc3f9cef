/**
 * `npm run bench`: performance figures (printed beside their goals, never asserted). Each figure
 * is measured over several runs and printed with its spread: min, median, max.
 *
 * 1. `core` (test/bench/forwarding.ts): the flood agent writes 100,000 `session/update`s faster
 *    than any client reads them; the rates of a client that only counts lines (the agent's raw
 *    write rate), a bare SDK client and the core, and the core's as a share of the other two
 *    (goal: 90% or more of the bare SDK client), each run from a quiet machine; and the same per
 *    second of the reader's own CPU time, which other work on the machine stretches less.
 * 2. `ui` (test/bench/ui-path.ts): the whole path to the UI, the flood agent's 100,000 updates
 *    through the core and the web host's socket into Chromium: updates a second reaching the
 *    renderer and applied to its store, and the page's JS heap after GC holding that session.
 * 3. `renderer` (test/bench/renderer.ts): a 1 MB reply streamed as 10,000 chunks through the web
 *    host, cold page and warm: time to on screen, main-thread tasks over 50 ms (goal: none), and
 *    a check that all of the text arrived, in the store and on screen; then (also alone, as
 *    `long-lines`) a single 10 MB line and 10 MB of 100 KB lines, each in one update: the
 *    longest main-thread task (goal: none over 100 ms of CPU).
 * 4. `elicitation` (test/bench/elicitation.ts): 1,000 invalid requests answered, and a 20-field
 *    form from the agent's request to interactive in Chromium, and from Accept to the agent.
 * 5. `writes` (test/bench/writes.ts): a 100 KB agent write, plain and with its undo copy kept:
 *    what the session's undo store adds to the median write (goal: at most 1 ms).
 * 6. `recovery` (test/bench/recovery.ts): three tabs of the demo agent when it crashes: the time
 *    from the crash to all three ready again in their sessions.
 * 7. `start` (test/bench/start.ts): from launching the web host to the page interactive and to a
 *    demo session ready, cold (a fresh browser context) and warm (a reload), each from a quiet
 *    machine, with the script the page loaded and the first screen's script in the build output
 *    (goal: at most about 350 KB).
 * 8. `agents` (test/bench/ten-agents.ts): ten demo sessions in ten tabs of one page, each streaming
 *    1 MB at once: the shown tab's reply on screen (goal: 1 s), main-thread tasks over 50 ms of
 *    CPU (goal: none), the work of a tab switch after (goal: 16 ms), and the JS heap per idle tab
 *    (goal: 5 MB).
 *
 * `npm run bench -- <part>...` runs only the parts named, in this order.
 */
import { elicitationBench } from './elicitation.js';
import { forwardingBench } from './forwarding.js';
import { longLineBench, rendererBench } from './renderer.js';
import { uiPathBench } from './ui-path.js';
import { recoveryBench } from './recovery.js';
import { startBench } from './start.js';
import { tenAgentsBench } from './ten-agents.js';
import { writesBench } from './writes.js';

const PARTS: Record<string, () => Promise<void>> = {
  core: forwardingBench,
  ui: uiPathBench,
  renderer: rendererBench,
  'long-lines': longLineBench,
  elicitation: elicitationBench,
  writes: writesBench,
  recovery: recoveryBench,
  start: startBench,
  agents: tenAgentsBench,
};

const named = process.argv.slice(2);
const unknown = named.filter((part) => !Object.hasOwn(PARTS, part));
if (unknown.length > 0) {
  console.error(
    `unknown bench part "${unknown.join('", "')}"; the parts are ${Object.keys(PARTS).join(', ')}`,
  );
  process.exit(2);
}

for (const [part, bench] of Object.entries(PARTS)) {
  // `long-lines` is part of `renderer`: alone only when named.
  if (named.length === 0 ? part !== 'long-lines' : named.includes(part)) {
    await bench();
  }
}
