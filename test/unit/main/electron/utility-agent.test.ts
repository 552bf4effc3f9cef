import './use-fake-electron.js';
import { fork, type Serializable } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeElectron, UtilityProcess, utilityProcess } from './fake-electron.js';
import { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';
import { parentPortInput } from '../../../../main/demo-agent/parent-port-input.js';
import { replyFor } from '../../../../main/demo-agent/script.js';
import {
  forkUtilityAgent,
  STDIO_DRAIN_MS,
  UtilityAgentProcess,
} from '../../../../main/electron/utility-agent.js';
import { readySession, Recorder } from '../../../helpers/core-harness.js';

beforeEach(() => resetFakeElectron());

/**
 * The adapter around a piped utility process (the fake behaves as Electron's does), which has
 * spawned as pid 4242 unless `spawned` is false.
 */
function adapt({ spawned = true } = {}) {
  const child = new UtilityProcess('/app/out/main/demo-agent.js', [], { stdio: 'pipe' });
  if (spawned) {
    child.spawn(4242);
  }
  return { child, agent: new UtilityAgentProcess(child), out: child.out!, err: child.err! };
}

/** What the child received on its parent port, in order. */
const received = (child: UtilityProcess) =>
  child.postMessage.mock.calls.map(([message]) => message);

/** Everything a stream delivers, as text, once it ends. */
async function collect(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += (chunk as Buffer).toString('utf8');
  }
  return text;
}

const closed = (agent: UtilityAgentProcess) =>
  new Promise<[number | null, string | null]>((resolve) =>
    agent.once('close', (code, signal) => resolve([code, signal])),
  );

describe('UtilityAgentProcess: input', () => {
  it('sends each stdin chunk as a Uint8Array copy, and null at the end', async () => {
    const { child, agent } = adapt();
    const chunk = Buffer.from('{"jsonrpc":"2.0"}\n');
    agent.stdin.write(chunk);
    agent.stdin.end();
    await new Promise((resolve) => agent.stdin.once('finish', resolve));
    const [sent, end, ...rest] = received(child) as [Uint8Array, null];
    expect(rest).toEqual([]);
    expect(sent).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(sent).equals(chunk)).toBe(true);
    // Cloning a view clones all its memory: for a pooled Buffer, other data too. Only this
    // chunk's bytes may cross.
    expect(sent.buffer.byteLength).toBe(chunk.length);
    expect(end).toBeNull();
  });

  it('delivers the exact bytes to the agent through parentPortInput, split or not', async () => {
    const { child, agent } = adapt();
    const input = collect(parentPortInput(child.parentPort));
    const bytes = Buffer.from('héllo → wörld 🙂\n', 'utf8');
    agent.stdin.write(bytes.subarray(0, 2));
    agent.stdin.write(bytes.subarray(2, 13));
    agent.stdin.write(bytes.subarray(13));
    agent.stdin.end();
    expect(await input).toBe('héllo → wörld 🙂\n');
  });

  it('sends input written before the child has spawned; Electron queues it', async () => {
    const { child, agent } = adapt({ spawned: false });
    const input = collect(parentPortInput(child.parentPort));
    agent.stdin.end('early\n');
    child.spawn();
    expect(await input).toBe('early\n');
  });

  it('fails writes after the exit without sending them or throwing', async () => {
    const { child, agent } = adapt();
    child.exit(0);
    const failed = new Promise<Error>((resolve) => agent.stdin.once('error', resolve));
    agent.stdin.write('late\n');
    expect((await failed).message).toBe('The agent has exited');
    expect(child.postMessage).not.toHaveBeenCalled();
  });

  it('sends no end of input after the exit', async () => {
    const { child, agent } = adapt();
    child.exit(0);
    agent.stdin.end();
    await new Promise((resolve) => agent.stdin.once('finish', resolve));
    expect(child.postMessage).not.toHaveBeenCalled();
  });
});

describe('parentPortInput', () => {
  it('ignores anything but bytes and stops at the first null', async () => {
    const port = new EventEmitter();
    const received = collect(parentPortInput(port));
    port.emit('message', { data: new TextEncoder().encode('one ') });
    port.emit('message', { data: 'not bytes' });
    port.emit('message', { data: { evil: true } });
    port.emit('message', { data: new TextEncoder().encode('two') });
    port.emit('message', { data: null });
    port.emit('message', { data: new TextEncoder().encode(' after the end') });
    expect(await received).toBe('one two');
  });
});

describe('UtilityAgentProcess: output and exit', () => {
  it('passes stdout and stderr through', async () => {
    const { child, agent, out, err } = adapt();
    const stdout = collect(agent.stdout);
    const stderr = collect(agent.stderr);
    out.write('{"id":1}\n');
    err.write('warning\n');
    out.end();
    err.end();
    child.exit(0);
    expect(await stdout).toBe('{"id":1}\n');
    expect(await stderr).toBe('warning\n');
  });

  it("emits 'close' with the exit code after output that arrives after the exit", async () => {
    const { child, agent, out, err } = adapt();
    const stderr = collect(agent.stderr);
    const done = closed(agent);
    err.write('first line\n');
    child.exit(3);
    // Electron has dropped every listener by now; the pipe still holds the last words, which
    // arrive on a later turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    err.write('last words\n');
    err.end();
    out.end();
    expect(await done).toEqual([3, null]);
    expect(await stderr).toBe('first line\nlast words\n');
    expect(agent.exitCode).toBe(3);
    expect(agent.signalCode).toBeNull();
  });

  it("emits 'close' within the drain deadline when the pipes never end", async () => {
    const { child, agent } = adapt();
    const started = Date.now();
    const done = closed(agent);
    child.exit(1);
    expect(await done).toEqual([1, null]);
    expect(Date.now() - started).toBeLessThan(STDIO_DRAIN_MS * 4);
    expect(agent.stdout.writableEnded).toBe(true);
  });

  it('survives a fatal error report, which Electron follows with an exit', () => {
    const { child } = adapt();
    expect(() => child.emit('error', 'FatalError', 'somewhere', 'report')).not.toThrow();
  });
});

describe('UtilityAgentProcess: kill', () => {
  it('asks Electron to end the child and reports SIGTERM', async () => {
    const { child, agent, out, err } = adapt();
    const done = closed(agent);
    expect(agent.kill('SIGTERM')).toBe(true);
    expect(child.kill).toHaveBeenCalledTimes(1);
    expect(child.killed).toBe(true);
    out.end();
    err.end();
    child.exit(0);
    expect(await done).toEqual([null, 'SIGTERM']);
    expect(agent.exitCode).toBeNull();
    expect(agent.signalCode).toBe('SIGTERM');
  });

  it('escalates SIGKILL to the pid directly', () => {
    const { child, agent } = adapt();
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    expect(agent.kill('SIGKILL')).toBe(true);
    expect(kill).toHaveBeenCalledExactlyOnceWith(4242, 'SIGKILL');
    expect(child.kill).not.toHaveBeenCalled();
  });

  it('reports a SIGKILL that failed (the pid is gone)', () => {
    const { agent } = adapt();
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' });
    });
    expect(agent.kill('SIGKILL')).toBe(false);
  });

  it('does nothing once the child has exited', () => {
    const { child, agent } = adapt();
    child.exit(0);
    expect(agent.kill()).toBe(false);
    expect(child.kill).not.toHaveBeenCalled();
  });

  // Electron's kill() needs a pid, which a utility process has only once it has spawned.
  it('ends a child stopped before it spawned as soon as it spawns', () => {
    const { child, agent } = adapt({ spawned: false });
    expect(agent.kill('SIGTERM')).toBe(true);
    expect(child.killed).toBe(false);
    child.spawn(4343);
    expect(child.killed).toBe(true);
  });

  it('kills the pid of a child given SIGKILL before it spawned, once it spawns', () => {
    const { child, agent } = adapt({ spawned: false });
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    expect(agent.kill('SIGKILL')).toBe(true);
    expect(kill).not.toHaveBeenCalled();
    child.spawn(4343);
    expect(kill).toHaveBeenCalledExactlyOnceWith(4343, 'SIGKILL');
  });

  it('reports the exit of a child stopped before it spawned as that stop', async () => {
    const { child, agent } = adapt({ spawned: false });
    const done = closed(agent);
    agent.kill('SIGTERM');
    // It never started: Electron reports an exit without a spawn.
    child.exit(1);
    expect(await done).toEqual([null, 'SIGTERM']);
  });
});

describe('forkUtilityAgent', () => {
  it("forks the spec's script with piped output, its args and its environment", () => {
    const spec: AgentSpec = {
      name: 'Demo Agent',
      command: '/app/out/main/demo-agent.js',
      args: ['--fast'],
      env: { DEMO: '1' },
      builtIn: true,
    };
    const agent = forkUtilityAgent(spec);
    expect(agent).toBeInstanceOf(UtilityAgentProcess);
    expect(utilityProcess.fork).toHaveBeenCalledTimes(1);
    const [child] = UtilityProcess.created;
    expect(child?.modulePath).toBe('/app/out/main/demo-agent.js');
    expect(child?.args).toEqual(['--fast']);
    expect(child?.options).toMatchObject({ stdio: 'pipe', serviceName: 'Demo Agent' });
    expect(child?.options.env).toMatchObject({ DEMO: '1', PATH: process.env.PATH });
  });
});

describe('the demo agent behind the adapter', () => {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  const shim = fileURLToPath(new URL('./parent-port-shim.ts', import.meta.url));
  let core: AirlockCore | undefined;
  afterEach(() => core?.dispose());

  /**
   * Runs a script the way utilityProcess does, in plain Node: input only over the parent
   * port (Node IPC standing in for Electron's), a pid from the spawn on, output on pipes that
   * drop their listeners at the exit.
   */
  const nodeUtilityChild = (script: string, args: string[]): UtilityProcess => {
    const child = fork(script, args, {
      execArgv: ['--import', 'tsx', '--import', shim],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const fake = new UtilityProcess(script, args, { stdio: 'pipe' });
    child.once('spawn', () => fake.spawn(child.pid));
    child.stdout?.pipe(fake.out!);
    child.stderr?.pipe(fake.err!);
    fake.postMessage.mockImplementation((message: unknown) => {
      if (child.connected) {
        // Node's types leave out null, which its 'advanced' serialization carries fine.
        child.send(message as Serializable);
      }
    });
    fake.kill.mockImplementation(() => child.kill());
    child.on('exit', (code) => fake.exit(code ?? 0));
    return fake;
  };

  it('starts, answers a prompt, and reports its crash with the stderr tail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'airlock-utility-'));
    core = new AirlockCore({
      settingsPath: join(dir, 'settings.json'),
      logsDir: join(dir, 'logs'),
      demoAgent: {
        name: 'Demo Agent',
        command: join(root, 'main/demo-agent/index.ts'),
        args: [],
        env: {},
        builtIn: true,
        launch: (spec) => new UtilityAgentProcess(nodeUtilityChild(spec.command, spec.args)),
      },
      defaultCwd: dir,
    });
    await core.init();
    const recorder = new Recorder(core);
    const key = await readySession(core, recorder, 'Demo Agent', dir);
    expect(recorder.summaries.get(key)?.agent?.title).toBe('Airlock Demo Agent');

    await core.invoke('session:prompt', { key, text: 'hello there' });
    await recorder.event(key, 'turn_end');
    expect(recorder.text(key)).toBe(replyFor('hello there'));

    await core.invoke('session:prompt', { key, text: '/crash' });
    const { exit } = await recorder.event(key, 'agent_exit');
    expect(exit.code).toBe(3);
    expect(exit.stderrTail.join('\n')).toContain('crashing on request');
  });
});
