/**
 * The forwarding part of `npm run bench` (`npm run bench -- core`): how fast the core passes
 * `session/update`s on, against the fastest clients of the same agent.
 *
 * The flood agent (test/fixtures/agents/flood-agent.ts) writes pre-serialised lines faster than
 * any client reads them, so every figure here is the reader's own speed:
 *
 * - a line-counting client: this process reads the agent's stdout and counts newline bytes,
 *   nothing else; its rate is the agent's raw write rate into a pipe, the ceiling for the rest;
 * - a bare SDK client: `acp.client()` over the same pipe, with an update handler that counts;
 * - the core: an {@link AirlockCore} with the flood agent, counting the updates whose text
 *   reached `onEvent`, where the hosts pick them up (the core joins a batch's pieces of text).
 *
 * The agent must write at least 3 times as fast as the bare SDK client reads, or the SDK and
 * core figures would measure a share of the agent's speed; the part prints whether it does.
 *
 * Each rate is also given per second of this process's CPU time (the reader's, the agent's
 * left out): the cost of an update, which other work on a shared machine stretches less than
 * it does the wall clock.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { AirlockCore } from '../../main/core/core.js';
import { demoAgentSpec, TSX_LOADER } from '../helpers/agents.js';
import { CHUNK_TEXT } from '../fixtures/agents/flood-agent.js';
import { quiet } from './quiet.js';
import { percent, spread, whole } from './spread.js';

/** The flood agent run from source. */
export const FLOOD_AGENT = fileURLToPath(
  new URL('../fixtures/agents/flood-agent.ts', import.meta.url),
);
/** How many updates one prompt gets in this part. */
const UPDATES = 100_000;
const RUNS = 5;
/** How much faster than the bare SDK client the agent must write for the figures to hold. */
const HEADROOM = 3;

/** The flood agent's command line, writing `count` updates a prompt. */
export function floodArgs(count: number): string[] {
  return ['--import', TSX_LOADER, FLOOD_AGENT, String(count)];
}

type Agent = ChildProcessByStdio<Writable, Readable, null>;

function spawnFlood(): Agent {
  return spawn(process.execPath, floodArgs(UPDATES), { stdio: ['pipe', 'pipe', 'inherit'] });
}

/** A reader's rate: updates a second of wall time, and a second of this process's CPU time. */
type Rate = { wall: number; cpu: number };

/** This process's CPU time (all its threads, the agent's not included) in seconds since `from`. */
function cpuSeconds(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

/** Ends an agent process and resolves once it has gone. */
function stop(child: Agent): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill();
  });
}

/**
 * The line-counting client: after a hand-parsed `initialize` and `session/new`, it sends the
 * prompt and from then on only counts newline bytes, until the prompt's answer (the line after
 * the last update). Updates a second, from writing the prompt to reading that answer.
 */
async function lineCountingRate(): Promise<Rate> {
  const child = spawnFlood();
  const write = (id: number, method: string, params: object) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  try {
    return await new Promise<Rate>((resolve, reject) => {
      let pending = '';
      let counting = false;
      let newlines = 0;
      let start = 0;
      let cpu = process.cpuUsage();
      let previous: Buffer = Buffer.alloc(0);
      child.once('exit', (code) =>
        reject(new Error(`the flood agent exited (code ${code}) before its answer`)),
      );
      child.stdout.on('data', (chunk: Buffer) => {
        if (!counting) {
          pending += chunk.toString('utf8');
          for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
            const message = JSON.parse(pending.slice(0, end)) as {
              id?: number;
              result?: { sessionId?: string };
            };
            pending = pending.slice(end + 1);
            if (message.id === 1) {
              write(2, 'session/new', { cwd: tmpdir(), mcpServers: [] });
            } else if (message.id === 2) {
              // Nothing else comes before the prompt's updates, so nothing is left to parse.
              counting = true;
              start = performance.now();
              cpu = process.cpuUsage();
              write(3, 'session/prompt', {
                sessionId: message.result?.sessionId,
                prompt: [{ type: 'text', text: 'flood' }],
              });
            }
          }
          return;
        }
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) {
          newlines++;
        }
        if (newlines < UPDATES + 1) {
          previous = chunk;
          return;
        }
        const seconds = (performance.now() - start) / 1000;
        const last = Buffer.concat([previous, chunk]).toString('utf8').trimEnd().split('\n').at(-1);
        if (newlines !== UPDATES + 1 || !last?.startsWith('{"jsonrpc":"2.0","id":3,"result"')) {
          reject(new Error(`the flood agent's line ${newlines} was not its answer: ${last}`));
          return;
        }
        resolve({ wall: UPDATES / seconds, cpu: UPDATES / cpuSeconds(cpu) });
      });
      write(1, 'initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    });
  } finally {
    await stop(child);
  }
}

/**
 * A bare SDK client: updates a second, from sending the prompt until both its answer and the
 * last update are in (the SDK can resolve the answer before it has run the last handlers).
 */
async function bareSdkRate(): Promise<Rate> {
  const child = spawnFlood();
  let count = 0;
  let lastUpdate = 0;
  let resolveAll!: () => void;
  const allIn = new Promise<void>((resolve) => (resolveAll = resolve));
  const connection = acp
    .client({ name: 'bench' })
    .onNotification(acp.methods.client.session.update, () => {
      count++;
      lastUpdate = performance.now();
      if (count === UPDATES) {
        resolveAll();
      }
    })
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  try {
    await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, {
      cwd: tmpdir(),
      mcpServers: [],
    });
    const start = performance.now();
    const cpu = process.cpuUsage();
    await connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'flood' }],
    });
    const answered = performance.now();
    // The handlers still queued run within moments; a second is far more than they need.
    await Promise.race([allIn, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    if (count !== UPDATES) {
      throw new Error(`the bare SDK client got ${count} of the ${UPDATES} updates`);
    }
    return {
      wall: count / ((Math.max(answered, lastUpdate) - start) / 1000),
      cpu: count / cpuSeconds(cpu),
    };
  } finally {
    connection.close();
    await stop(child);
  }
}

/**
 * The core with the flood agent: updates a second, from the prompt call to the turn's end,
 * counting the chunks that reach `onEvent`.
 */
async function coreRate(): Promise<Rate> {
  const dir = await mkdtemp(join(tmpdir(), 'airlock-bench-'));
  const settingsPath = join(dir, 'settings.json');
  await writeFile(
    settingsPath,
    JSON.stringify({
      agent_servers: { 'Flood Agent': { command: process.execPath, args: floodArgs(UPDATES) } },
    }),
  );
  const core = new AirlockCore({
    settingsPath,
    logsDir: join(dir, 'logs'),
    demoAgent: demoAgentSpec(),
    defaultCwd: dir,
  });
  await core.init();
  let count = 0;
  let settled!: (status: string) => void;
  let resolveEnd!: (end: string) => void;
  const started = new Promise<string>((resolve) => (settled = resolve));
  const ended = new Promise<string>((resolve) => (resolveEnd = resolve));
  core.onEvent((channel, payload) => {
    if (channel === 'session:onDidChange') {
      const { status, error } = payload as { status: string; error?: string };
      if (status !== 'starting') {
        settled(error ? `${status}: ${error}` : status);
      }
    }
    if (channel === 'session:onDidAppend') {
      const appended = (
        payload as { events: { type: string; text?: string; stopReason?: string }[] }
      ).events;
      for (const event of appended) {
        if (event.type === 'chunk') {
          // The core joins a batch's pieces of text: its updates are counted by their text.
          count += event.text!.length / CHUNK_TEXT.length;
        } else if (['turn_end', 'turn_error', 'agent_exit'].includes(event.type)) {
          resolveEnd(event.stopReason ?? event.type);
        }
      }
    }
  });
  try {
    const { key } = (await core.invoke('session:create', {
      agentName: 'Flood Agent',
      cwd: dir,
    })) as { key: string };
    const status = await started;
    if (status !== 'ready') {
      throw new Error(`the flood agent's session did not start: ${status}`);
    }
    const start = performance.now();
    const cpu = process.cpuUsage();
    await core.invoke('session:prompt', { key, text: 'flood' });
    const stopReason = await ended;
    const seconds = (performance.now() - start) / 1000;
    const cpuUsed = cpuSeconds(cpu);
    if (count !== UPDATES || stopReason !== 'end_turn') {
      throw new Error(`the core forwarded ${count} of ${UPDATES} updates (${stopReason})`);
    }
    return { wall: count / seconds, cpu: count / cpuUsed };
  } finally {
    await core.dispose();
  }
}

/** Runs the forwarding part and prints its figures. */
export async function forwardingBench(): Promise<void> {
  const figures = { lines: [] as Rate[], sdk: [] as Rate[], core: [] as Rate[] };
  const measures: [keyof typeof figures, () => Promise<Rate>][] = [
    ['lines', lineCountingRate],
    ['sdk', bareSdkRate],
    ['core', coreRate],
  ];
  for (let run = 0; run < RUNS; run++) {
    // A different one goes first each run, so none gains from always following the same one.
    for (let i = 0; i < measures.length; i++) {
      const [name, measure] = measures[(run + i) % measures.length]!;
      // Each from a quiet machine: the last run's agent gone and its work done.
      await quiet();
      figures[name].push(await measure());
    }
  }
  const of = (name: keyof typeof figures, clock: keyof Rate) =>
    figures[name].map((rate) => rate[clock]);
  const rate = (values: number[]) => `${spread(values, whole)} updates/s`;
  const perRun = (over: keyof typeof figures, clock: keyof Rate) =>
    of('core', clock).map((core, run) => core / of(over, clock)[run]!);
  const headroom = Math.min(...of('lines', 'wall')) / Math.max(...of('sdk', 'wall'));
  console.log(
    `forwarding: the flood agent's ${whole(UPDATES)} session/update lines ` +
      `(agent_message_chunk, ${CHUNK_TEXT.length} characters each), ${RUNS} runs of each reader:`,
  );
  console.log(
    `  line-counting client (reads the pipe, counts newline bytes; the agent's raw write rate): ` +
      rate(of('lines', 'wall')),
  );
  console.log(`  bare SDK client (acp.client, a handler that counts): ${rate(of('sdk', 'wall'))}`);
  console.log(
    `  core (AirlockCore, updates whose text reached onEvent): ${rate(of('core', 'wall'))}`,
  );
  console.log(
    `  agent headroom: its slowest run wrote ${headroom.toFixed(1)}× as fast as the fastest ` +
      `bare SDK run read (needs >= ${HEADROOM}×: ` +
      `${headroom >= HEADROOM ? 'yes, the figures are the readers’ own' : 'NO, the agent caps the figures'})`,
  );
  console.log(
    `  core as a share of the bare SDK client, run by run: ` +
      `${spread(perRun('sdk', 'wall'), percent)} (goal >= 90%)`,
  );
  console.log(
    `  core as a share of the line-counting client, run by run: ${spread(perRun('lines', 'wall'), percent)}`,
  );
  // The readers' own CPU time, which other work on the machine does not stretch as it does the
  // wall clock: the cost of an update, the agent's writing left out.
  console.log(
    `  per second of the reader's CPU time: bare SDK client ${rate(of('sdk', 'cpu'))}; ` +
      `core ${rate(of('core', 'cpu'))}`,
  );
  console.log(
    `  core as a share of the bare SDK client per CPU second, run by run: ` +
      `${spread(perRun('sdk', 'cpu'), percent)} (goal >= 90%)`,
  );
}
