/**
 * The settings view's calls, through the core, on real settings files in a temporary folder.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLogPath } from '../../../../main/core/agent-connection.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import type { CoreOptions } from '../../../../main/core/options.js';
import { watchSettings } from '../../../../main/core/settings/file.js';
import {
  calls,
  type AgentEntry,
  type CallChannel,
  type CallRequest,
  type CallResponse,
} from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { deadline, readySession, startCore } from '../../../helpers/core-harness.js';
import { alive } from '../../../helpers/processes.js';
import { ZED } from '../../../fixtures/zed-settings.js';

const timeouts = { requestMs: 10_000, cancelGraceMs: 500 };

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

type AgentsEvent = { agents: AgentEntry[]; settingsError?: string };

/** A core whose settings file holds `text`, and every `app:onDidChangeAgents` it sends. */
async function withSettings(text: string, overrides: Partial<CoreOptions> = {}) {
  const started = await startCore([], timeouts, overrides);
  core = started.core;
  const agentEvents: AgentsEvent[] = [];
  const waiters = new Set<() => void>();
  core.onEvent((channel, payload) => {
    if (channel === 'app:onDidChangeAgents') {
      agentEvents.push(payload as AgentsEvent);
      for (const waiter of [...waiters]) {
        waiter();
      }
    }
  });
  /** Resolves once the last agents event passes `check`; fails the test after 10 s. */
  const agentsEvent = (check: (event: AgentsEvent | undefined) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(
          new Error(
            `Waited 10 s for an agents event; the last: ${JSON.stringify(agentEvents.at(-1))}`,
          ),
        );
      }, 10_000);
      const waiter = () => {
        if (check(agentEvents.at(-1))) {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve();
        }
      };
      waiters.add(waiter);
      waiter();
    });
  await writeFile(started.settingsPath, text);
  await core.init();
  const path = started.settingsPath;
  // Every call has a deadline: one that never answers fails the test naming the call, rather
  // than leaving it to run out the test's time.
  const call = async <C extends CallChannel>(channel: C, request: CallRequest<C>) => {
    const response = await deadline(
      started.core.invoke(channel, request),
      `the answer to ${channel} ${JSON.stringify(request)}`,
    );
    // What the core answers must pass the contract the UI checks it against.
    return calls[channel].response.parse(response) as CallResponse<C>;
  };
  return { ...started, path, call, agentEvents, agentsEvent, read: () => readFile(path, 'utf8') };
}

const agentNames = (event: AgentsEvent | undefined) => event?.agents.map((agent) => agent.name);

describe('the agent list for the settings view', () => {
  it('lists every agent with its command, arguments, variables and domains; secrets masked', async () => {
    const { call, path } = await withSettings(
      ZED.replace('"DEBUG": "1"', '"DEBUG": "1", "HELPER": "sk-ant-0123"').replace(
        '"default_mode": "plan",',
        '"default_mode": "plan", "url_domains": ["google.com"],',
      ),
    );
    const list = await call('settings:getAgents', {});
    expect(list).toEqual({
      path,
      editable: true,
      askBeforeWrites: false,
      agents: [
        expect.objectContaining({ name: 'Demo Agent', builtIn: true, env: [], urlDomains: [] }),
        {
          name: 'Codex',
          builtIn: false,
          command: 'codex-acp',
          args: [],
          env: [],
          urlDomains: [],
        },
        {
          name: 'Gemini',
          builtIn: false,
          command: 'gemini',
          args: ['--experimental-acp'],
          env: [
            { name: 'GEMINI_API_KEY', secret: true, set: true },
            { name: 'DEBUG', secret: false, value: '1' },
            { name: 'HELPER', secret: true, set: true },
          ],
          urlDomains: ['google.com'],
        },
      ],
    });
    expect(JSON.stringify(list)).not.toMatch(/k1|sk-ant/);
  });

  it('reveals one value on request, and only a variable the agent has', async () => {
    const { call } = await withSettings(ZED);
    expect(
      await call('settings:revealEnv', { agentName: 'Gemini', envName: 'GEMINI_API_KEY' }),
    ).toEqual({ value: 'k1' });
    await expect(
      call('settings:revealEnv', { agentName: 'Gemini', envName: 'PATH' }),
    ).rejects.toThrow('Gemini has no variable named PATH any more. Reload the settings.');
    await expect(
      call('settings:revealEnv', { agentName: 'Nobody', envName: 'PATH' }),
    ).rejects.toThrow('No agent named "Nobody". Reload the settings.');
  });
});

describe('saving an agent', () => {
  it('adds it as an edit that keeps the comments, order and trailing commas, and tells the UI', async () => {
    const { call, read, agentEvents } = await withSettings(ZED);
    expect(
      await call('settings:saveAgent', {
        agent: {
          name: 'Goose',
          command: 'goose',
          args: ['acp'],
          env: [{ name: 'GOOSE_MODE', value: 'auto' }],
          urlDomains: [],
        },
      }),
    ).toEqual({ ok: true, name: 'Goose' });
    expect(await read()).toBe(
      ZED.replace(
        '            "default_mode": "plan",\n        },\n',
        '            "default_mode": "plan",\n        },\n        "Goose": {\n            "command": "goose",\n            "args": ["acp"],\n            "env": {\n                "GOOSE_MODE": "auto"\n            }\n        },\n',
      ),
    );
    // Already in the list and sent to the UI when the call answers.
    expect(agentNames(agentEvents.at(-1))).toEqual(['Demo Agent', 'Codex', 'Gemini', 'Goose']);
    const list = await call('settings:getAgents', {});
    expect(list.agents.at(-1)).toMatchObject({ name: 'Goose', command: 'goose', args: ['acp'] });
  });

  it('edits and renames in place, keeping a masked secret the view never had', async () => {
    const { call, read } = await withSettings(ZED);
    await call('settings:saveAgent', {
      originalName: 'Gemini',
      agent: {
        name: 'Google Gemini',
        command: 'gemini',
        args: ['--experimental-acp', '--yolo'],
        env: [
          { name: 'GEMINI_API_KEY', keep: true },
          { name: 'DEBUG', value: '0' },
        ],
        urlDomains: ['google.com'],
      },
    });
    expect(await read()).toBe(
      ZED.replace('"Gemini": {', '"Google Gemini": {')
        .replace('["--experimental-acp"]', '["--experimental-acp", "--yolo"]')
        .replace('"DEBUG": "1"', '"DEBUG": "0"')
        .replace(
          '"default_mode": "plan",\n',
          '"default_mode": "plan",\n            "url_domains": ["google.com"],\n',
        ),
    );
    expect(
      await call('settings:revealEnv', { agentName: 'Google Gemini', envName: 'GEMINI_API_KEY' }),
    ).toEqual({ value: 'k1' });
  });

  it('answers each field’s problem in words and writes nothing', async () => {
    const { call, read } = await withSettings(ZED);
    expect(
      await call('settings:saveAgent', {
        agent: { name: 'Codex', command: '', args: [], env: [], urlDomains: ['a b'] },
      }),
    ).toEqual({
      ok: false,
      problems: [
        { field: 'name', message: 'There is already an agent named "Codex". Choose another name.' },
        {
          field: 'command',
          message: 'Enter the command that starts the agent, such as npx or a full path.',
        },
        {
          field: 'urlDomains.0',
          message: 'Domain 1 must be a host name (openai.com) or a URL (https://chatgpt.com/).',
        },
      ],
    });
    // Renaming onto another agent is refused; keeping one's own name is not a clash.
    expect(
      await call('settings:saveAgent', {
        originalName: 'Gemini',
        agent: { name: 'Codex', command: 'gemini', args: [], env: [], urlDomains: [] },
      }),
    ).toMatchObject({ ok: false, problems: [{ field: 'name' }] });
    expect(await read()).toBe(ZED);
    expect(
      await call('settings:saveAgent', {
        originalName: 'Codex',
        agent: { name: 'Codex', command: 'codex-acp', args: [], env: [], urlDomains: [] },
      }),
    ).toEqual({ ok: true, name: 'Codex' });
    expect(await read()).toBe(ZED);
  });

  it('creates the settings file, readable by the user alone, when there is none', async () => {
    const { call, path } = await withSettings('{}');
    await unlink(path);
    await call('settings:saveAgent', {
      agent: { name: 'Goose', command: 'goose', args: [], env: [], urlDomains: [] },
    });
    expect(await readFile(path, 'utf8')).toBe(
      '{\n  "agent_servers": {\n    "Goose": {\n      "command": "goose"\n    }\n  }\n}\n',
    );
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await call('settings:getAgents', {})).agents.map((agent) => agent.name)).toEqual([
      'Demo Agent',
      'Goose',
    ]);
  });

  it('refuses an agent whose name is in the file but not yet in the list, instead of changing it', async () => {
    const { call, read, path } = await withSettings('{ "agent_servers": {} }');
    // Written by hand a moment ago; the app has not reloaded yet.
    await writeFile(path, '{ "agent_servers": { "Late": { "command": "late" } } }');
    await expect(
      call('settings:saveAgent', {
        agent: { name: 'Late', command: 'other', args: [], env: [], urlDomains: [] },
      }),
    ).rejects.toThrow('There is already an agent named "Late". Choose another name.');
    expect(await read()).toBe('{ "agent_servers": { "Late": { "command": "late" } } }');
  });

  it('refuses to change an agent the file no longer has, instead of adding it again', async () => {
    const { call, read, path } = await withSettings(
      '{ "agent_servers": { "Gone": { "command": "gone" } } }',
    );
    // Removed by hand a moment ago; the app may not have reloaded yet.
    await writeFile(path, '{ "agent_servers": {} }');
    await expect(
      call('settings:saveAgent', {
        originalName: 'Gone',
        agent: { name: 'Gone', command: 'other', args: [], env: [], urlDomains: [] },
      }),
    ).rejects.toThrow(
      'There is no agent named "Gone" in the settings file any more. Reload the settings.',
    );
    expect(await read()).toBe('{ "agent_servers": {} }');
  });

  it('sends no agents event when a save changes nothing', async () => {
    const { call, agentEvents } = await withSettings(ZED);
    const before = agentEvents.length;
    await call('settings:saveAgent', {
      originalName: 'Codex',
      agent: { name: 'Codex', command: 'codex-acp', args: [], env: [], urlDomains: [] },
    });
    expect(agentEvents).toHaveLength(before);
    await call('settings:saveAgent', {
      originalName: 'Codex',
      agent: { name: 'Codex', command: 'codex-acp', args: ['--x'], env: [], urlDomains: [] },
    });
    expect(agentEvents).toHaveLength(before + 1);
  });
});

describe('duplicating and removing an agent', () => {
  it('copies every key of the agent under a free name', async () => {
    const { call, read } = await withSettings(ZED);
    expect(await call('settings:duplicateAgent', { agentName: 'Gemini' })).toEqual({
      name: 'Gemini copy',
    });
    expect(await call('settings:duplicateAgent', { agentName: 'Gemini' })).toEqual({
      name: 'Gemini copy 2',
    });
    const text = await read();
    expect(text.startsWith(ZED.slice(0, ZED.indexOf('    },\n}')))).toBe(true);
    expect(text).toContain(
      '        "Gemini copy": {\n            "command": "gemini",\n            "args": ["--experimental-acp"],\n            "env": {\n                "GEMINI_API_KEY": "k1",\n                "DEBUG": "1"\n            },\n            "default_mode": "plan"\n        },\n',
    );
    const list = await call('settings:getAgents', {});
    expect(list.agents.map((agent) => agent.name)).toEqual([
      'Demo Agent',
      'Codex',
      'Gemini',
      'Gemini copy',
      'Gemini copy 2',
    ]);
  });

  it('removes the agent and the comment above it, and nothing else', async () => {
    const { call, read, agentEvents } = await withSettings(ZED);
    await call('settings:removeAgent', { agentName: 'Codex' });
    expect(await read()).toBe(
      ZED.replace(
        '        // OpenAI\'s agent\n        "Codex": { "command": "codex-acp", },\n',
        '',
      ),
    );
    expect(agentNames(agentEvents.at(-1))).toEqual(['Demo Agent', 'Gemini']);
    await expect(call('settings:removeAgent', { agentName: 'Codex' })).rejects.toThrow(
      'There is no agent named "Codex" in the settings file any more. Reload the settings.',
    );
  });

  it('never changes, copies or removes the built-in agent', async () => {
    const { call, read } = await withSettings(ZED);
    const demo = { name: 'Demo Agent', command: 'x', args: [], env: [], urlDomains: [] };
    await expect(
      call('settings:saveAgent', { originalName: 'Demo Agent', agent: demo }),
    ).rejects.toThrow('Demo Agent is built in and cannot be changed. Add your own agent instead.');
    await expect(call('settings:removeAgent', { agentName: 'Demo Agent' })).rejects.toThrow(
      'Demo Agent is built in and cannot be removed. Add your own agent instead.',
    );
    await expect(call('settings:duplicateAgent', { agentName: 'Demo Agent' })).rejects.toThrow(
      'Demo Agent is built in and cannot be copied. Add a new agent instead.',
    );
    expect(await call('settings:saveAgent', { agent: demo })).toMatchObject({
      ok: false,
      problems: [{ field: 'name' }],
    });
    expect(await read()).toBe(ZED);
  });
});

describe('a settings file that cannot be parsed', () => {
  const BROKEN =
    '{\n  "agent_servers": {\n    "A": { "command": "a" }\n    "B": { "command": "b" }\n  }\n}\n';

  it('is listed with its error, naming the file and line, and never written', async () => {
    const { call, read, path, dir } = await withSettings(BROKEN);
    const list = await call('settings:getAgents', {});
    expect(list).toMatchObject({
      path,
      editable: false,
      error: `${path} is not valid JSON at line 4, column 5: a comma is expected. Fix it in the file; until then only the built-in agent is offered and agents cannot be edited in Airlock.`,
    });
    expect(list.agents.map((agent) => agent.name)).toEqual(['Demo Agent']);
    const refusal = `${path} has an error at line 4, column 5 (a comma is expected). Fix it in the file first; nothing was changed.`;
    await expect(
      call('settings:saveAgent', {
        agent: { name: 'C', command: 'c', args: [], env: [], urlDomains: [] },
      }),
    ).rejects.toThrow(refusal);
    await expect(
      call('settings:saveAgent', {
        originalName: 'A',
        agent: { name: 'A', command: 'c', args: [], env: [], urlDomains: [] },
      }),
    ).rejects.toThrow(refusal);
    await expect(call('settings:removeAgent', { agentName: 'A' })).rejects.toThrow(refusal);
    await expect(call('settings:duplicateAgent', { agentName: 'A' })).rejects.toThrow(refusal);
    expect(await read()).toBe(BROKEN);
    expect((await readdir(dir)).filter((name) => name.includes('settings'))).toEqual([
      'settings.json',
    ]);
  });
});

describe('the settings file changed by hand while the app runs', () => {
  it('is picked up and sent to the UI; a running session keeps its agent', async () => {
    const agent = fixtureSpec('basic');
    const servers = { [agent.name]: { command: agent.command, args: agent.args } };
    const { core, recorder, dir, path, agentEvents, agentsEvent } = await withSettings(
      JSON.stringify({ agent_servers: servers }, null, 2),
    );
    const key = await readySession(core, recorder, agent.name, dir);
    const before = (await stat(path)).ino;

    // The user breaks the agent's command and adds another, saving as editors do.
    const edited = {
      agent_servers: {
        [agent.name]: { command: '/nonexistent/agent' },
        Added: { command: 'added' },
      },
    };
    await writeFile(`${path}.new`, `// by hand\n${JSON.stringify(edited, null, 2)}\n`);
    const { rename } = await import('node:fs/promises');
    await rename(`${path}.new`, path);
    expect((await stat(path)).ino).not.toBe(before);
    await agentsEvent((event) => agentNames(event)?.includes('Added') === true);
    expect(agentEvents.at(-1)).toEqual({
      agents: [
        expect.objectContaining({ name: 'Demo Agent' }),
        { name: agent.name, commandLine: '/nonexistent/agent', builtIn: false },
        { name: 'Added', commandLine: 'added', builtIn: false },
      ],
    });

    // The running session still talks to the agent it started with.
    await core.invoke('session:prompt', { key, text: 'hi' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
    expect(recorder.summaries.get(key)?.status).toBe('ready');
  });

  it('shows a file broken by hand as the error, and its fix as the agents', async () => {
    const { path, agentEvents, agentsEvent, call } = await withSettings(ZED);
    await writeFile(path, ZED.replace('"dark",', '"dark"'));
    await agentsEvent((event) => event?.settingsError !== undefined);
    expect(agentEvents.at(-1)?.settingsError).toMatch(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON at line 4, column 5: `,
      ),
    );
    expect((await call('settings:getAgents', {})).editable).toBe(false);
    await writeFile(path, ZED);
    await agentsEvent((event) => agentNames(event)?.includes('Gemini') === true);
    expect(agentEvents.at(-1)?.settingsError).toBeUndefined();
    expect((await call('settings:getAgents', {})).editable).toBe(true);
  });

  it('is no longer watched once the core is disposed', async () => {
    const { core, path, agentEvents } = await withSettings(ZED);
    const seen = agentEvents.length;
    await core.dispose();
    // Another watcher tells when the change has been seen; the core's would have come first.
    let sawChange!: () => void;
    const changed = new Promise<void>((resolve) => (sawChange = resolve));
    const witness = watchSettings(path, async () => {
      if ((await readFile(path, 'utf8')).includes('Later')) {
        sawChange();
      }
    });
    try {
      await writeFile(path, '{ "agent_servers": { "Later": { "command": "later" } } }');
      await deadline(changed, 'the other watcher to see the change');
    } finally {
      witness.close();
    }
    expect(agentEvents).toHaveLength(seen);
  });
});

describe('testing an agent', () => {
  it('reports who the agent is, its capabilities, sign-in and that a session starts', async () => {
    const { call, dir } = await withSettings('{}');
    const report = await call('settings:testAgent', { agentName: 'Demo Agent' });
    expect(report).toMatchObject({
      agentName: 'Demo Agent',
      ok: true,
      name: 'airlock-demo-agent',
      title: 'Airlock Demo Agent',
      version: '0.1.0',
      protocolVersion: 1,
      authMethods: [],
      // The names a person reads, the ids apart for Details.
      session: {
        ok: true,
        modes: ['Ask', 'Code'],
        modeIds: ['ask', 'code'],
        configOptions: ['Reply style', 'Show thinking', 'Ask at start'],
        configOptionIds: ['style', 'thinking', 'ask_at_start'],
      },
    });
    expect(report.capabilities).toContainEqual({ name: 'loadSession', value: expect.any(String) });
    expect(report.log).toBe(agentLogPath(join(dir, 'logs'), 'Demo Agent'));
  });

  it('says why a session does not start: the agent wants a sign-in', async () => {
    const agent = fixtureSpec('auth-required');
    const { call } = await withSettings(
      JSON.stringify({
        agent_servers: { [agent.name]: { command: agent.command, args: agent.args } },
      }),
    );
    const report = await call('settings:testAgent', { agentName: agent.name });
    expect(report).toMatchObject({
      ok: true,
      authMethods: [
        { id: 'login', kind: 'agent' },
        { id: 'foo-key', kind: 'env_var' },
      ],
      session: { ok: false, authRequired: true },
    });
  });

  it.each([
    ['signs in', 'auth-env', {}, { ok: true }, 'foo-key'],
    [
      'is refused',
      'auth-env',
      { SCRIPTED_AUTH_REFUSE: 'The key was revoked' },
      { ok: false, authRequired: true, error: expect.stringContaining('The key was revoked') },
      'foo-key',
    ],
    ['signs in with an API key', 'auth-api-key', { OPENAI_API_KEY: 'sk' }, { ok: true }, 'api-key'],
  ])('says which method it signed in with when it %s', async (_how, scenario, env, session, id) => {
    const agent = fixtureSpec(scenario);
    const { call } = await withSettings(
      JSON.stringify({
        agent_servers: {
          [agent.name]: {
            command: agent.command,
            args: agent.args,
            env: { FOO_KEY: 'k1', ...env },
          },
        },
      }),
    );
    const report = await call('settings:testAgent', { agentName: agent.name });
    expect(report.session).toMatchObject({ ...session, signedInWith: id });
  });

  it('says why an agent that cannot start did not', async () => {
    const { call } = await withSettings(
      '{ "agent_servers": { "Gone": { "command": "/nonexistent/agent" } } }',
    );
    const report = await call('settings:testAgent', { agentName: 'Gone' });
    expect(report.ok).toBe(false);
    expect(report.error).toContain('could not be started');
    expect(report.session).toBeUndefined();
  });

  it('answers by its deadline when the agent never does, and stops the agent', async () => {
    // Only the deadline can end this start: the agent's own timeout is a minute away.
    const { call, dir, pidFile } = await withSilentAgent({
      testDeadlineMs: 2_000,
      timeouts: { requestMs: 60_000, cancelGraceMs: 500 },
    });
    const report = await call('settings:testAgent', { agentName: 'Silent' });
    expect(report).toMatchObject({
      ok: false,
      error:
        'Silent did not finish the check within 2 s. It may be waiting for input or downloading; look at its log, then test again.',
      log: agentLogPath(join(dir, 'logs'), 'Silent'),
    });
    const pid = Number(await readFile(pidFile, 'utf8'));
    await until(() => !alive(pid), `the silent agent (pid ${pid}) to be stopped`);
  });

  it('stops an agent still starting for a test when the core is disposed', async () => {
    const { call, pidFile } = await withSilentAgent({
      timeouts: { requestMs: 60_000, cancelGraceMs: 500 },
    });
    const report = call('settings:testAgent', { agentName: 'Silent' });
    await until(() => existsSync(pidFile), 'the silent agent to start');
    const pid = Number(await readFile(pidFile, 'utf8'));
    await core!.dispose();
    expect(await report).toMatchObject({
      ok: false,
      error: 'Silent was stopped while it was starting',
    });
    await until(() => !alive(pid), `the silent agent (pid ${pid}) to be stopped`);
  });

  it('clips what the agent says of itself, and keeps its lists as short as the contract', async () => {
    const { call, dir } = await withSettings('{}');
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({ agent_servers: { Verbose: verboseAgent() } }),
    );
    await core!.init();
    const report = await call('settings:testAgent', { agentName: 'Verbose' });
    expect(report.ok).toBe(true);
    // The SDK's defaults first (`loadSession: no`…), then the agent's own, cut at 200.
    expect(report.capabilities).toHaveLength(200);
    expect(report.capabilities.at(-1)?.name).toMatch(/^many\.k\d+$/);
    const long = report.capabilities.find(({ name }) => name.startsWith('y'));
    expect(Array.from(long?.name ?? '')).toHaveLength(10_000);
    expect(long?.name.endsWith('y…')).toBe(true);
    expect(Array.from(long?.value ?? '')).toHaveLength(10_000);
    expect(long?.value.startsWith('"xxx')).toBe(true);
    expect(report.session).toMatchObject({ ok: true });
    const modes = report.session?.ok ? (report.session.modeIds ?? []) : [];
    const options = report.session?.ok ? (report.session.configOptionIds ?? []) : [];
    // A person reads the names; the ids, clipped the same way, are for Details.
    expect(report.session?.ok ? report.session.modes : []).toEqual(Array(100).fill('Mode'));
    expect(report.session?.ok ? report.session.configOptions : []).toEqual(
      Array(100).fill('Option'),
    );
    expect(options).toHaveLength(100);
    expect(options.at(-1)).toBe('o99');
    expect(modes).toHaveLength(100);
    expect(modes[0]).toBe(`${'m'.repeat(9_999)}…`);
    expect(modes[1]).toBe('mode-1');
    // At the contract's bound exactly: kept whole.
    expect(modes[2]).toBe('n'.repeat(10_000));
  });

  it('refuses an agent that is not configured', async () => {
    const { call } = await withSettings('{}');
    await expect(call('settings:testAgent', { agentName: 'Nobody' })).rejects.toThrow(
      'No agent named "Nobody". Reload the settings.',
    );
  });
});

/** Checks `condition` on every turn of the event loop until it holds; fails after 10 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const expires = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > expires) {
      throw new Error(`Waited 10 s for ${what}`);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * An agent that says more than the contract takes: a capability with a 20,000-character name and
 * value, 250 more, and 150 modes, the first with a 20,000-character id, the third with one of
 * 10,000 (the bound itself), and 150 configuration options.
 */
function verboseAgent() {
  const script = `
    const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
    const many = (count, make) => Array.from({ length: count }, (_, index) => make(index));
    require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const { id, method } = JSON.parse(line);
      if (method === 'initialize') {
        const capabilities = { ['y'.repeat(20000)]: 'x'.repeat(20000) };
        capabilities.many = Object.fromEntries(many(250, (index) => ['k' + index, true]));
        send({ id, result: { protocolVersion: 1, agentCapabilities: capabilities } });
      } else if (method === 'session/new') {
        const modeId = (index) => (index === 0 ? 'm'.repeat(20000) : index === 2 ? 'n'.repeat(10000) : 'mode-' + index);
        const modes = many(150, (index) => ({ id: modeId(index), name: 'Mode' }));
        const configOptions = many(150, (index) => ({ id: 'o' + index, name: 'Option', type: 'boolean', currentValue: false }));
        send({ id, result: { sessionId: 's1', modes: { currentModeId: 'mode-1', availableModes: modes }, configOptions } });
      } else if (id !== undefined) {
        send({ id, result: {} });
      }
    });`;
  return { command: process.execPath, args: ['-e', script] };
}

/** A core whose settings name one agent, Silent, that never answers and writes its pid. */
async function withSilentAgent(overrides: Partial<CoreOptions>) {
  const started = await withSettings('{}', overrides);
  const pidFile = join(started.dir, 'silent.pid');
  await writeFile(
    join(started.dir, 'settings.json'),
    JSON.stringify({ agent_servers: { Silent: silentAgent(pidFile) } }),
  );
  await core!.init();
  return { ...started, pidFile };
}

/** An agent that writes its pid to `pidFile` and then never answers. */
function silentAgent(pidFile: string) {
  return {
    command: process.execPath,
    args: [
      '-e',
      'require("fs").writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)',
      pidFile,
    ],
  };
}
