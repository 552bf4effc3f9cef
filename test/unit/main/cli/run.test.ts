import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ProbeReport } from '../../../../main/core/agents/probe.js';
import { runCli } from '../../../../main/cli/run.js';
import { clientCapabilities } from '../../../../main/core/agent-connection.js';
import { binaryEntry, scriptedAgentArchive } from '../../../helpers/agent-archive.js';
import { demoAgentSpec, fixtureSpec } from '../../../helpers/agents.js';
import { useLocalServer } from '../../../helpers/local-registry.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const fixture = join(root, 'test/fixtures/agents/scripted-agent.ts');

type Run = { code: number | null; stdout: string; stderr: string; configDir: string };

/** Runs `airlock <args>` from source, with its own config folder holding `settings`. */
async function airlock(args: string[], settings?: unknown): Promise<Run> {
  const configDir = await mkdtemp(join(tmpdir(), 'airlock-cli-'));
  if (settings !== undefined) {
    await writeFile(
      join(configDir, 'settings.json'),
      typeof settings === 'string' ? settings : JSON.stringify(settings),
    );
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'main/cli/airlock.ts'), ...args],
      // From the repo root, where `--import tsx` resolves (the agents it starts inherit it).
      {
        cwd: root,
        env: { ...process.env, AIRLOCK_CONFIG_DIR: configDir, FOO_KEY: '' },
        timeout: 25_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, configDir });
      },
    );
  });
}

/** A settings file with one fixture agent. */
function settingsWith(scenario: string, env: Record<string, string> = {}) {
  const spec = fixtureSpec(scenario);
  return { agent_servers: { [spec.name]: { command: spec.command, args: spec.args, env } } };
}

/** Runs the command line in this process (for what needs no agent), capturing its output. */
async function inProcess(argv: string[], settings?: unknown) {
  const configDir = await mkdtemp(join(tmpdir(), 'airlock-cli-'));
  if (settings !== undefined) {
    await writeFile(
      join(configDir, 'settings.json'),
      typeof settings === 'string' ? settings : JSON.stringify(settings),
    );
  }
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    env: { AIRLOCK_CONFIG_DIR: configDir },
    demoAgent: demoAgentSpec(),
  });
  return { code, stdout, stderr, configDir };
}

describe('airlock probe', () => {
  it('reports the demo agent by name: identity, protocol, capabilities and a working session', async () => {
    const run = await airlock(['probe', 'Demo Agent']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines).toContain('Agent         Demo Agent');
    expect(lines).toContain('Name          airlock-demo-agent');
    expect(lines).toContain('Title         Airlock Demo Agent');
    expect(lines).toContain('Version       0.1.0');
    expect(lines).toContain('Protocol      ACP version 1');
    expect(lines).toContain('Handshake     ok');
    expect(lines).toContain('  promptCapabilities.image: yes');
    // What a session offers, in words, before the raw rows.
    expect(lines).toContain('In a session');
    expect(lines).toContain('  + Asks for input with forms and web pages');
    expect(lines).toContain('  + Takes images as attachments');
    expect(lines).toContain('Sign-in       none needed');
    expect(lines.some((line) => /^New session {3}ok \(demo_[0-9a-f-]+\)$/.test(line))).toBe(true);
    expect(lines).toContain('  Modes       ask, code');
    expect(lines).toContain(`Log           ${join(run.configDir, 'logs', 'Demo_Agent.log')}`);
  });

  it('explains sign-in, naming the variable of an env_var method, when session/new needs it', async () => {
    const run = await airlock(['probe', 'fixture-auth-required'], settingsWith('auth-required'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '  login: Log in (Sign in with your account)\n    the agent signs you in itself',
    );
    expect(run.stdout).toContain(
      "  foo-key: FOO API key\n    set FOO_KEY (not set) in the agent's environment",
    );
    expect(run.stdout).toContain(
      'New session   FAILED: fixture-auth-required: Authentication required (-32000)\n' +
        '              The agent needs you to sign in first; see the sign-in methods above.',
    );
  });

  it('prints machine-readable JSON with --json; a variable set in the settings shows as set, never its value', async () => {
    const run = await airlock(
      ['probe', '--json', 'fixture-auth-required'],
      settingsWith('auth-required', { FOO_KEY: 'sekrit' }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('sekrit');
    const report = JSON.parse(run.stdout) as ProbeReport;
    expect(report).toEqual({
      ok: true,
      agent: 'fixture-auth-required',
      command: expect.stringContaining('scripted-agent.ts auth-required'),
      log: join(run.configDir, 'logs', 'fixture-auth-required.log'),
      name: 'scripted-agent',
      title: 'Scripted Agent',
      version: '9.9.9',
      protocolVersion: 1,
      capabilities: {
        loadSession: false,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      // The other side of the handshake: what Airlock advertised, as a session does (URL mode
      // unless the settings turn it off).
      offered: clientCapabilities({ form: true, url: true }),
      authMethods: [
        { id: 'login', name: 'Log in', description: 'Sign in with your account', kind: 'agent' },
        {
          id: 'foo-key',
          name: 'FOO API key',
          kind: 'env_var',
          vars: [{ name: 'FOO_KEY', secret: true, optional: false, set: true }],
        },
      ],
      // The settings name no MCP servers.
      mcpServers: [],
      // With FOO_KEY in its environment the agent opens sessions.
      session: {
        ok: true,
        sessionId: 'scripted-1',
        modes: [],
        configOptions: [],
        modeNames: [],
        configOptionNames: [],
      },
    });
  });

  it('signs in with an env_var method whose variable is set, as the app does, and says so', async () => {
    const run = await airlock(
      ['probe', 'fixture-auth-env'],
      settingsWith('auth-env', { FOO_KEY: 'sekrit' }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('sekrit');
    expect(run.stdout).toContain(
      "    set FOO_KEY (set now), FOO_ORG (not set) in the agent's environment",
    );
    expect(run.stdout).toContain(
      "Signed in     with foo-key, from the agent's environment\nNew session   ok (scripted-1)",
    );
  });

  it('probes a command given after --, and fails with the reason when the handshake fails', async () => {
    const run = await airlock([
      'probe',
      '--name',
      'future',
      '--',
      process.execPath,
      '--import',
      'tsx',
      fixture,
      'wrong-shape-version',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Agent         future\n');
    expect(run.stdout).toContain(
      `Command       ${process.execPath} --import tsx ${fixture} wrong-shape-version\n`,
    );
    expect(run.stdout).toContain(
      'Handshake     FAILED: future speaks ACP protocol version 99; Airlock supports version 1\n',
    );
  });

  it('gives up on an agent that never answers, after --timeout', async () => {
    const run = await inProcess([
      'probe',
      '--json',
      // Long enough for the agent to start under tsx on a loaded machine and say so in its log.
      '--timeout',
      '5',
      '--',
      process.execPath,
      '--import',
      'tsx',
      fixture,
      'never-answer',
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as ProbeReport;
    expect(report).toMatchObject({
      ok: false,
      agent: 'node',
      error: 'node did not finish starting within 5 s',
    });
    // The log holds what the agent wrote to stderr.
    expect(await readFile(report.log, 'utf8')).toContain('scripted agent: playing never-answer');
  });

  it('fails clearly when the command cannot be started', async () => {
    const run = await inProcess(['probe', '--', '/nonexistent/agent-binary']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'Handshake     FAILED: agent-binary could not be started: /nonexistent/agent-binary does not exist',
    );
  });

  it('still probes the demo agent when the settings file is broken, with a warning naming the file', async () => {
    const run = await inProcess(['probe', 'Demo Agent'], '{ not json');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `airlock: warning: ${join(run.configDir, 'settings.json')} is not valid JSON`,
    );
    expect(run.stdout).toContain('Handshake     ok');
  });
});

describe('airlock probe of an agent from the ACP registry', () => {
  const server = useLocalServer();

  it('installs it as the app does, with its progress on stderr, then probes it', async () => {
    server().route('/bin-agent.tar.gz', { body: await scriptedAgentArchive() });
    server().route('/registry.json', {
      body: {
        version: '1.0.0',
        agents: [binaryEntry('bin-agent', '1.0.0', server().url('/bin-agent.tar.gz'))],
      },
    });
    const settings = {
      agent_registry_url: server().url('/registry.json'),
      agent_servers: { 'bin-agent': { type: 'registry' }, 'gone-acp': { type: 'registry' } },
    };
    const run = await airlock(['probe', 'bin-agent'], settings);
    expect(run.stderr).toMatch(/^airlock: Installing Scripted Binary 1\.0\.0…$/m);
    expect(run.stdout).toMatch(/New session\s+ok/);
    expect(run.code).toBe(0);
    expect(await readdir(join(run.configDir, 'agents', 'bin-agent'))).toEqual(['1.0.0']);

    const missing = await airlock(['probe', 'gone-acp'], settings);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      'airlock: could not start gone-acp: gone-acp is not in the ACP registry. Check the id in your settings file.',
    );
  });
});

describe('airlock command line', () => {
  it('shows help with --help and exits 0', async () => {
    const run = await inProcess(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: airlock probe <agent name> [options]');
    expect(run.stdout).toContain('airlock probe [options] -- <command> [args...]');
    expect(run.stdout).toContain(join(run.configDir, 'settings.json'));
    const probeHelp = await inProcess(['probe', 'Demo Agent', '--help']);
    expect(probeHelp.code).toBe(0);
    expect(probeHelp.stdout).toBe(run.stdout.replace(run.configDir, probeHelp.configDir));
  });

  it('exits 2 with a message for an unknown agent, listing the known ones', async () => {
    const run = await inProcess(['probe', 'Nobody'], settingsWith('basic'));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `airlock: no agent named "Nobody" in ${join(run.configDir, 'settings.json')}; known agents: "Demo Agent", "fixture-basic"\n`,
    );
  });

  it.each([
    [[], 'Usage: airlock probe'],
    [['frobnicate'], 'airlock: unknown command "frobnicate"'],
    [['probe'], 'airlock: which agent? give its name, or -- and a command'],
    [['probe', 'a', 'b'], 'give one agent name (quote it if it has spaces)'],
    [['probe', 'a', '--', 'cmd'], 'give either an agent name or -- and a command, not both'],
    [['probe', '--'], 'nothing after --'],
    [['probe', '--timeout', 'soon', 'a'], '--timeout wants a number of seconds, not "soon"'],
    [['probe', '--cwd'], '--cwd needs a value'],
    [['probe', '--name', 'x', 'a'], '--name is for agents given with -- and a command'],
    [['probe', '--bogus', 'a'], 'unknown option --bogus'],
  ])('exits 2 on the wrong command line %j', async (argv, message) => {
    const run = await inProcess(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });
});

describe('bin/airlock.js', () => {
  it('tells the user to build first when the CLI is not built', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-bin-'));
    await mkdir(join(dir, 'bin'));
    await copyFile(join(root, 'bin/airlock.js'), join(dir, 'bin/airlock.js'));
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [join(dir, 'bin/airlock.js'), 'probe', 'Demo Agent'],
        (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
      ),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('run `npm run build`');
  });
});
