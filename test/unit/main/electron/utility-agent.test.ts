import { fork, type Serializable } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeElectron, utilityProcess } from './fake-electron.js';
import { AirlockCore } from '../../../../main/core/core.js';
import type { AgentSpec } from '../../../../main/core/settings.js';
import {
  parentPortInput,
  type InputMessage,
} from '../../../../main/demo-agent/parent-port-input.js';
import { replyFor } from '../../../../main/demo-agent/script.js';
import {
  forkUtilityAgent,
  STDIO_DRAIN_MS,
  UtilityAgentProcess,
  type UtilityChild,
} from '../../../../main/electron/utility-agent.js';
import { readySession, Recorder } from '../../../helpers/core-harness.js';

vi.mock('electron', () => import('./fake-electron.js'));

beforeEach(() => resetFakeElectron());

/**
 * A utility process as Electron's `ForkUtilityProcess` behaves: output streams that read
 * `null` once it has exited, and every listener on them dropped right after 'exit'.
 */
class FakeUtilityChild extends EventEmitter {
  pid: number | undefined = 4242;
  readonly out = new PassThrough();
  readonly err = new PassThrough();
  readonly messages: InputMessage[] = [];
  private exited = false;
  postMessage = vi.fn((message: InputMessage) => {
    this.messages.push(message);
  });
  kill = vi.fn(() => true);

  get stdout() {
    return this.exited ? null : this.out;
  }

  get stderr() {
    return this.exited ? null : this.err;
  }

  exit(code: number): void {
    try {
      this.emit('exit', code);
    } finally {
      this.exited = true;
      this.out.removeAllListeners();
      this.err.removeAllListeners();
    }
  }
}

function adapt() {
  const child = new FakeUtilityChild();
  return { child, agent: new UtilityAgentProcess(child as UtilityChild) };
}

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
    expect(child.messages).toHaveLength(2);
    const [sent, end] = child.messages;
    expect(sent).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(sent)).toBe(false);
    expect(Buffer.from(sent!).equals(chunk)).toBe(true);
    // Only this chunk's bytes: never the rest of a pooled Buffer's memory.
    expect(sent!.buffer.byteLength).toBe(chunk.length);
    expect(end).toBeNull();
  });

  it('delivers the exact bytes to the agent through parentPortInput, split or not', async () => {
    const { child, agent } = adapt();
    const port = new EventEmitter();
    // Structured clone on the way, as Electron's postMessage does.
    child.postMessage.mockImplementation((message) => {
      port.emit('message', { data: structuredClone(message) });
    });
    const input = parentPortInput(port);
    const received = collect(input);
    const bytes = Buffer.from('héllo → wörld 🙂\n', 'utf8');
    agent.stdin.write(bytes.subarray(0, 2));
    agent.stdin.write(bytes.subarray(2, 13));
    agent.stdin.write(bytes.subarray(13));
    agent.stdin.end();
    expect(await received).toBe('héllo → wörld 🙂\n');
  });

  it('fails writes after the exit without sending them or throwing', async () => {
    const { child, agent } = adapt();
    child.exit(0);
    const failed = new Promise<Error>((resolve) => agent.stdin.once('error', resolve));
    agent.stdin.write('late\n');
    expect((await failed).message).toBe('The agent has exited');
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
    const { child, agent } = adapt();
    const out = collect(agent.stdout);
    const err = collect(agent.stderr);
    child.out.write('{"id":1}\n');
    child.err.write('warning\n');
    child.out.end();
    child.err.end();
    child.exit(0);
    expect(await out).toBe('{"id":1}\n');
    expect(await err).toBe('warning\n');
  });

  it("emits 'close' with the exit code after output that arrives after the exit", async () => {
    const { child, agent } = adapt();
    const err = collect(agent.stderr);
    const done = closed(agent);
    child.err.write('first line\n');
    child.exit(3);
    // Electron has dropped every listener by now; the pipe still holds the last words, which
    // arrive on a later turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    child.err.write('last words\n');
    child.err.end();
    child.out.end();
    expect(await done).toEqual([3, null]);
    expect(await err).toBe('first line\nlast words\n');
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
    const { child, agent } = adapt();
    const done = closed(agent);
    expect(agent.kill('SIGTERM')).toBe(true);
    expect(child.kill).toHaveBeenCalledTimes(1);
    child.out.end();
    child.err.end();
    child.exit(0);
    expect(await done).toEqual([null, 'SIGTERM']);
    expect(agent.exitCode).toBeNull();
    expect(agent.signalCode).toBe('SIGTERM');
  });

  it('escalates SIGKILL to the pid directly', () => {
    const { child, agent } = adapt();
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      expect(agent.kill('SIGKILL')).toBe(true);
      expect(kill).toHaveBeenCalledWith(4242, 'SIGKILL');
      expect(child.kill).not.toHaveBeenCalled();
    } finally {
      kill.mockRestore();
    }
  });

  it('does nothing once the child has exited', () => {
    const { child, agent } = adapt();
    child.exit(0);
    expect(agent.kill()).toBe(false);
    expect(child.kill).not.toHaveBeenCalled();
  });
});

describe('forkUtilityAgent', () => {
  it("forks the spec's script with piped output, its args and its environment", () => {
    const child = new FakeUtilityChild();
    utilityProcess.fork.mockReturnValue(child);
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
    const [script, args, options] = utilityProcess.fork.mock.calls[0] as [
      string,
      string[],
      { stdio: string; serviceName: string; env: Record<string, string> },
    ];
    expect(script).toBe('/app/out/main/demo-agent.js');
    expect(args).toEqual(['--fast']);
    expect(options.stdio).toBe('pipe');
    expect(options.serviceName).toBe('Demo Agent');
    expect(options.env.DEMO).toBe('1');
  });
});

describe('the demo agent behind the adapter', () => {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  const shim = fileURLToPath(new URL('./parent-port-shim.ts', import.meta.url));
  let core: AirlockCore | undefined;
  afterEach(() => core?.dispose());

  /**
   * Runs a script the way utilityProcess does, in plain Node: input only over the parent
   * port (Node IPC standing in for Electron's), output on pipes that drop their listeners
   * at the exit.
   */
  const nodeUtilityChild = (script: string, args: string[]): UtilityChild => {
    const child = fork(script, args, {
      execArgv: ['--import', 'tsx', '--import', shim],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const fake = new FakeUtilityChild();
    fake.pid = child.pid;
    child.stdout?.pipe(fake.out);
    child.stderr?.pipe(fake.err);
    fake.postMessage.mockImplementation((message) => {
      if (child.connected) {
        // Node's types leave out null, which its 'advanced' serialization carries fine.
        child.send(message as Serializable);
      }
    });
    fake.kill.mockImplementation(() => child.kill());
    child.on('exit', (code) => fake.exit(code ?? 0));
    return fake as UtilityChild;
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
