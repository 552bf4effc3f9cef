/**
 * The bounds that keep an agent's output within what the contract carries and what memory
 * holds: clipped strings, split and merged text, the stderr tail, the log tail, and the
 * updates kept for a session that is not open yet. Each test fails if its bound goes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calls } from '../../../../preload/shared/contract.js';
import { agentLogPath } from '../../../../main/core/agent-connection.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import { StderrTail } from '../../../../main/core/stderr-tail.js';
import { fixtureSpec, scriptedTurn } from '../../../helpers/agents.js';
import { TEST_TIMEOUTS, useCore } from '../../../helpers/core-harness.js';

/** The contract's bound on a short agent string, and the largest piece of streamed text. */
const SHORT = 10_000;
const PIECE = 64 * 1024;

// What an exit leaves behind, and the user's Restart: no restart by itself.
const { start, startWith } = useCore({
  timeouts: TEST_TIMEOUTS,
  options: { restartCrashed: false },
});

async function sessionWith(scenario: string) {
  const agent = fixtureSpec(scenario);
  const started = await startWith(agent);
  const { key } = started;
  return { ...started, agent, key };
}

/** Runs a turn and returns the events it appended, up to its end. */
async function turn(started: Awaited<ReturnType<typeof sessionWith>>, text: string) {
  const { core, recorder, key } = started;
  const from = recorder.transcript(key).length;
  await core.invoke('session:prompt', { key, text });
  await recorder.event(key, 'turn_end', from);
  return recorder.transcript(key).slice(from);
}

/** The stored transcript, as the UI fetches it, checked against the contract. */
async function storedTranscript(core: AirlockCore, key: string) {
  const response = await core.invoke('session:getTranscript', { key });
  return calls['session:getTranscript'].response.parse(response).events;
}

describe('an agent string longer than the contract allows', () => {
  it('is clipped to the bound, so its event still reaches the transcript', async () => {
    const started = await sessionWith('long-strings');
    const events = await turn(started, 'title');
    expect(started.recorder.dropped).toEqual([]);
    expect(events.find((event) => event.type === 'tool_call')).toEqual({
      type: 'tool_call',
      toolCallId: 'call-long',
      fields: { title: `${'t'.repeat(SHORT - 1)}…`, kind: 'read', status: 'pending' },
    });
  });
});

describe('a text chunk longer than one piece', () => {
  it('reaches the UI in pieces of at most 64 KiB, in order, and is stored so', async () => {
    const started = await sessionWith('long-strings');
    const events = await turn(started, 'chunk');
    expect(started.recorder.dropped).toEqual([]);
    const pieces = events.flatMap((event) => (event.type === 'chunk' ? [event.text] : []));
    // 1,200,000 characters: 18 whole pieces and the rest.
    expect(pieces.map((piece) => piece.length)).toEqual([
      ...Array<number>(18).fill(PIECE),
      1_200_000 - 18 * PIECE,
    ]);
    expect(pieces.join('')).toBe('c'.repeat(1_200_000));

    // Full pieces are not merged back when stored.
    const stored = await storedTranscript(started.core, started.key);
    expect(
      stored.map((event) => (event.type === 'chunk' ? event.text.length : event.type)),
    ).toEqual(['prompt', ...pieces.map((piece) => piece.length), 'turn_end']);
  });
});

describe('many small text chunks', () => {
  it('are stored merged, each merged chunk at most 64 KiB', async () => {
    const started = await sessionWith('long-strings');
    const events = await turn(started, 'pieces');
    // The UI gets the text whole, in order, in chunks of at most 64 KiB.
    const sent = events.flatMap((event) => (event.type === 'chunk' ? [event.text] : []));
    expect(sent.join('')).toBe(
      Array.from({ length: 200 }, (_unused, n) => String(n % 10).repeat(6000)).join(''),
    );
    expect(sent.filter((chunk) => chunk.length > 64 * 1024)).toEqual([]);

    const stored = await storedTranscript(started.core, started.key);
    const chunks = stored.flatMap((event) => (event.type === 'chunk' ? [event.text] : []));
    // Ten chunks of 6,000 characters fit in 64 KiB, an eleventh does not.
    expect(chunks.map((chunk) => chunk.length)).toEqual(Array<number>(20).fill(60_000));
    expect(chunks.join('')).toBe(
      Array.from({ length: 200 }, (_unused, n) => String(n % 10).repeat(6000)).join(''),
    );
    expect(stored.map((event) => event.type)).toEqual([
      'prompt',
      ...Array<string>(20).fill('chunk'),
      'turn_end',
    ]);
  });
});

describe("an agent's stderr", () => {
  it('is reported with its last 50 lines, each cut to 500 characters', async () => {
    const started = await sessionWith('stderr-flood');
    await started.core.invoke('session:prompt', { key: started.key, text: 'go' });
    const exit = (await started.recorder.event(started.key, 'agent_exit')).exit;
    expect(exit.code).toBe(5);
    expect(exit.stderrTail).toEqual([
      ...Array.from({ length: 49 }, (_unused, n) => `stderr line ${n + 152}`),
      'e'.repeat(500),
    ]);
    expect((await started.recorder.status(started.key, 'exited')).exit).toEqual(exit);
    expect(started.recorder.dropped).toEqual([]);
  });

  it('keeps only the last 2000 characters of a line that never ends', () => {
    const tail = new StderrTail(50);
    tail.push(`${'a'.repeat(100_000)}${'b'.repeat(2000)}`);
    // What is shown of it is cut to 500 characters, from what was kept: its end.
    expect(tail.lines()).toEqual(['b'.repeat(500)]);
    tail.push('c\n');
    expect(tail.lines()).toEqual(['b'.repeat(500)]);
  });
});

describe("an agent's log file", () => {
  it('is read back by its last 64 KiB only', async () => {
    const agent = fixtureSpec('basic');
    const started = await start({ agents: [agent] });
    // A log grown over earlier runs: 2 MB of numbered lines.
    const logsDir = join(started.dir, 'logs');
    await mkdir(logsDir, { recursive: true });
    const old = Array.from({ length: 100_000 }, (_unused, n) => `earlier run ${n}\n`).join('');
    expect(old.length).toBeGreaterThan(1_000_000);
    await writeFile(agentLogPath(logsDir, agent.name), old);
    await started.ready(agent.name);

    const response = await started.core.invoke('agent:readLog', { agentName: agent.name });
    const { text } = calls['agent:readLog'].response.parse(response);
    expect(text).toHaveLength(PIECE);
    // What this run added is short: the earlier run's last line is in the tail, its first is not.
    expect(text).toContain('earlier run 99999\n');
    expect(text).not.toContain('earlier run 0\n');
  });
});

describe('updates for a session before session/new answers', () => {
  it('are kept, at most 1000 for a session and for at most 16 sessions', async () => {
    const agent = fixtureSpec('early-flood');
    const started = await start({ agents: [agent] });
    const { recorder } = started;
    const first = await started.ready(agent.name);
    // 1500 came before the answer; the first 1000 are shown, in order, and nothing else.
    expect(recorder.shown(first)).toEqual([
      {
        type: 'chunk',
        role: 'agent',
        text: Array.from({ length: 1000 }, (_unused, n) => `${n},`).join(''),
      },
    ]);

    // "early-20" was the 20th session id it sent updates for: none were kept.
    const second = await started.ready(agent.name);
    await started.core.invoke('session:prompt', { key: second, text: 'hello' });
    await recorder.event(second, 'turn_end');
    expect(recorder.transcript(second)).toEqual(scriptedTurn('hello'));

    // "early-2" was among the 16 held, and got one more after the 20th id: both are shown.
    const third = await started.ready(agent.name);
    expect(recorder.text(third)).toBe('early 2, again');
  });
});
