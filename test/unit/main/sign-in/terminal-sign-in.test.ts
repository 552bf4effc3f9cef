import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../../preload/shared/contract.js';
import { binaryEntry, tarGz } from '../../../helpers/agent-archive.js';
import { TSX_LOADER, terminalLoginSpec } from '../../../helpers/agents.js';
import { useLocalServer } from '../../../helpers/local-registry.js';
import { tempFolder } from '../../../helpers/temp-folder.js';
import { deadline, TEST_TIMEOUTS, useCore, type CoreRun } from '../../../helpers/core-harness.js';

const { start } = useCore({ timeouts: TEST_TIMEOUTS });
const server = useLocalServer();

type Screen = EventPayload<'agent:onDidChangeTerminal'>;

/**
 * A core with the terminal-login agent, a tab of it waiting to sign in, and its screens.
 * `env`: more of the agent's settings env.
 */
async function signInTab(env: Record<string, string> = {}) {
  const tokenFile = join(tempFolder('airlock-terminal-login-'), 'token');
  const spec = terminalLoginSpec(tokenFile);
  const agent = { ...spec, env: { ...spec.env, ...env } };
  const run = await start({ agents: [agent] });
  const screens: Screen[] = [];
  const waiters = new Set<() => void>();
  run.core.onEvent((channel, payload) => {
    if (channel === 'agent:onDidChangeTerminal') {
      screens.push(payload as Screen);
      for (const wake of [...waiters]) {
        wake();
      }
    }
  });
  const { key, summary } = await run.settled(agent.name);
  const latest = () => screens.at(-1);
  const text = (screen = latest()) =>
    (screen?.lines ?? []).map((runs) => runs.map((part) => part.text).join(''));
  /** Resolves once the latest screen holds `check`. */
  const until = (check: (screen: Screen) => boolean, what: string) =>
    deadline(
      new Promise<void>((resolve) => {
        const wake = () => {
          if (screens.length > 0 && check(latest()!)) {
            waiters.delete(wake);
            resolve();
          }
        };
        waiters.add(wake);
        wake();
      }),
      `${what}; the screen: ${JSON.stringify(text())}`,
    );
  return { ...run, tokenFile, key, summary, screens, latest, text, until };
}

async function openTerminal(run: CoreRun, key: string) {
  return run.call('agent:startTerminalSignIn', { key, methodId: 'login', cols: 60, rows: 12 });
}

describe('signing in through a terminal inside the app', () => {
  it('offers the terminal method with the command it runs: its args after the custom agent’s own', async () => {
    const { summary } = await signInTab();
    expect(summary.status).toBe('auth_required');
    expect(summary.authMethods).toEqual([
      expect.objectContaining({ id: 'login', name: 'Log in', kind: 'terminal' }),
    ]);
    expect(summary.authMethods[0]?.terminalCommand).toMatch(
      /terminal-login-agent\.sh --acp --login$/,
    );
  });

  it('runs a registry agent’s sign-in as its installed program with the method’s args alone, in the registry’s env', async () => {
    const tokenFile = join(tempFolder('airlock-terminal-login-'), 'token');
    const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
    const script = fileURLToPath(
      new URL('../../../fixtures/agents/terminal-login-agent.ts', import.meta.url),
    );
    server().route('/login-agent.tar.gz', {
      body: await tarGz({
        'bin/agent': `#!/bin/sh\nexec ${quote(process.execPath)} --import ${quote(TSX_LOADER)} ${quote(script)} "$@"\n`,
      }),
    });
    const entry = binaryEntry('login-agent', '1.0.0', server().url('/login-agent.tar.gz'));
    Object.assign(Object.values(entry.distribution.binary)[0]!, {
      args: ['--acp'],
      env: { AIRLOCK_TEST_TOKEN_FILE: tokenFile },
    });
    server().route('/registry.json', { body: { version: '1.0.0', agents: [entry] } });
    const run = await start({
      settings: {
        agent_registry_url: server().url('/registry.json'),
        agent_servers: { 'login-agent': { type: 'registry' } },
      },
    });
    const screens: Screen[] = [];
    run.core.onEvent((channel, payload) => {
      if (channel === 'agent:onDidChangeTerminal') {
        screens.push(payload as Screen);
      }
    });
    const { key, summary } = await run.settled('login-agent');
    expect(summary.status).toBe('auth_required');
    const shown = summary.authMethods[0]?.terminalCommand ?? '';
    // The registry's own args (--acp) give way to the method's: `<program> --login`.
    expect(shown).toMatch(/agents\/login-agent\/1\.0\.0\/bin\/agent --login$/);
    await openTerminal(run, key);
    await deadline(
      run.recorder.status(key, 'auth_required').then(async () => {
        while (
          !screens.at(-1)?.lines[0]?.some((part) => part.text.includes('What is your name?'))
        ) {
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
      'the question on the screen',
    );
    await run.call('agent:terminalInput', { key, data: 'Grace\r' });
    await run.recorder.status(key, 'ready');
    expect(await readFile(tokenFile, 'utf8')).toBe('Grace');
  });

  it('runs the sign-in in a terminal, then restarts the agent, authenticates and opens the session', async () => {
    const run = await signInTab();
    const first = await openTerminal(run, run.key);
    expect(first).toMatchObject({ key: run.key, methodId: 'login', cols: 60, rows: 12 });
    await run.until(
      (screen) => run.text(screen)[0] === 'What is your name?',
      'the question on the screen',
    );
    const question = run.latest()!;
    expect(question.lines[0]?.[0]).toMatchObject({ fg: 14, bold: true });
    expect(question.cursor).toEqual({ row: 0, col: 19, visible: true });
    expect(question.exited).toBeUndefined();

    await run.call('agent:terminalInput', { key: run.key, data: 'Ada\r' });
    await run.until((screen) => screen.exited !== undefined, 'the sign-in command to end');
    expect(run.latest()!.exited).toEqual({ code: 0 });
    expect(run.text()).toContain('Signed in as Ada.');
    expect(await readFile(run.tokenFile, 'utf8')).toBe('Ada');

    // The agent's session/new succeeds only after authenticate on its new process.
    const ready = await run.recorder.status(run.key, 'ready');
    expect(ready.authMethods).toEqual([]);
    const lines = run.recorder
      .transcript(run.key)
      .flatMap((event) => (event.type === 'system' ? [event.text] : []));
    expect(lines).toContain('Signed in with “Log in”.');
    await run.turn(run.key, 'hi');
    expect(run.recorder.text(run.key)).toBe('Hello, Ada.');
  });

  it('says how a sign-in that failed ended, restarts nothing, and can be tried again', async () => {
    const run = await signInTab();
    await openTerminal(run, run.key);
    await run.until((screen) => run.text(screen)[0] === 'What is your name?', 'the question');
    await run.call('agent:terminalInput', { key: run.key, data: '\r' });
    await run.until((screen) => screen.exited !== undefined, 'the sign-in command to end');
    expect(run.latest()!.exited).toEqual({ code: 3 });
    expect(run.text()).toContain('No name given.');
    expect(run.recorder.summaries.get(run.key)?.status).toBe('auth_required');
    await expect(run.call('agent:terminalInput', { key: run.key, data: 'x' })).resolves.toEqual({});

    // Shown again, the panel gets the ended terminal as it is; Try again starts it anew.
    await expect(openTerminal(run, run.key)).resolves.toMatchObject({ exited: { code: 3 } });
    const again = await run.call('agent:startTerminalSignIn', {
      key: run.key,
      methodId: 'login',
      cols: 60,
      rows: 12,
      again: true,
    });
    expect(again.exited).toBeUndefined();
    await run.until(
      (screen) => screen.exited === undefined && run.text(screen)[0] === 'What is your name?',
      'the question again',
    );
  });

  it('ends the command when the panel closes, and when the tab closes', async () => {
    const run = await signInTab();
    await openTerminal(run, run.key);
    await run.until((screen) => run.text(screen)[0] === 'What is your name?', 'the question');
    const pid = Number(await readFile(`${run.tokenFile}.pid`, 'utf8'));
    expect(alive(pid)).toBe(true);
    await run.call('agent:closeTerminalSignIn', { key: run.key });
    expect(alive(pid)).toBe(false);
    await expect(run.call('agent:terminalInput', { key: run.key, data: 'x' })).rejects.toThrow(
      'No sign-in terminal is open in this tab',
    );

    const before = run.screens.length;
    await openTerminal(run, run.key);
    await run.until(
      (screen) => run.screens.length > before && run.text(screen)[0] === 'What is your name?',
      'the question in a new terminal',
    );
    const second = Number(await readFile(`${run.tokenFile}.pid`, 'utf8'));
    expect(second).not.toBe(pid);
    const ended = waitForExit(second);
    await run.call('session:close', { key: run.key });
    await ended;
    expect(existsSync(run.tokenFile)).toBe(false);
  });

  it('kills a command that ignores the hang-up once its grace is over', async () => {
    const run = await signInTab({ AIRLOCK_TEST_IGNORE_HUP: '1' });
    await openTerminal(run, run.key);
    await run.until((screen) => run.text(screen)[0] === 'What is your name?', 'the question');
    const pid = Number(await readFile(`${run.tokenFile}.pid`, 'utf8'));
    await run.call('agent:closeTerminalSignIn', { key: run.key });
    expect(alive(pid)).toBe(false);
  });

  it('ends the command when the user restarts the agent', async () => {
    const run = await signInTab();
    await openTerminal(run, run.key);
    await run.until((screen) => run.text(screen)[0] === 'What is your name?', 'the question');
    const pid = Number(await readFile(`${run.tokenFile}.pid`, 'utf8'));
    const ended = waitForExit(pid);
    await run.call('session:restart', { key: run.key });
    await ended;
    await run.recorder.status(run.key, 'auth_required');
    await expect(run.call('agent:terminalInput', { key: run.key, data: 'x' })).rejects.toThrow(
      'No sign-in terminal is open in this tab',
    );
  });

  it('refuses input that is too long, a bad size, a tab that is not there, or a method that is not a terminal one', async () => {
    const run = await signInTab();
    await openTerminal(run, run.key);
    await expect(
      run.call('agent:terminalInput', { key: run.key, data: 'x'.repeat(5_000) }),
    ).rejects.toThrow(/^Invalid agent:terminalInput request: Too big/);
    await expect(
      run.call('agent:terminalResize', { key: run.key, cols: 100_000, rows: 10 }),
    ).rejects.toThrow(/^Invalid agent:terminalResize request: Too big/);
    await expect(run.call('agent:terminalInput', { key: 's999', data: 'x' })).rejects.toThrow(
      'That session is closed',
    );
    await expect(
      run.call('agent:startTerminalSignIn', {
        key: run.key,
        methodId: 'other',
        cols: 80,
        rows: 24,
      }),
    ).rejects.toThrow('That sign-in method does not run in a terminal');
    await run.call('agent:terminalResize', { key: run.key, cols: 100, rows: 30 });
    await run.until((screen) => screen.cols === 100 && screen.rows === 30, 'the new size');
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `pid` has ended (checked as the test's event loop turns, not on a timer). */
async function waitForExit(pid: number): Promise<void> {
  while (alive(pid)) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
