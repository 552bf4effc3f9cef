import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AirlockCore } from '../../../../main/core/core.js';
import {
  configDir,
  loadAgentCatalog,
  logsDir,
  MAX_URL_DOMAIN_CHARS,
  MAX_URL_DOMAINS,
  parseAgentCatalog,
  settingsPath,
  settingsProblems,
} from '../../../../main/core/settings/catalog.js';
import { commandLine } from '../../../../main/core/agents/spec.js';
import type { AgentEntry } from '../../../../preload/shared/contract.js';
import { demoAgentSpec } from '../../../helpers/agents.js';
import { Recorder, readySession } from '../../../helpers/core-harness.js';

type State = { agents: AgentEntry[]; settingsPath: string; settingsError?: string };

let core: AirlockCore | undefined;
afterEach(() => core?.dispose());

/** A core whose settings file holds `text` (or is a folder, when `text` is null). */
async function coreWithSettings(text: string | null) {
  const dir = await mkdtemp(join(tmpdir(), 'airlock-settings-'));
  const path = join(dir, 'settings.json');
  if (text === null) {
    await mkdir(path);
  } else {
    await writeFile(path, text);
  }
  core = new AirlockCore({
    settingsPath: path,
    logsDir: join(dir, 'logs'),
    demoAgent: demoAgentSpec(),
    defaultCwd: dir,
    timeouts: { requestMs: 10_000, cancelGraceMs: 500 },
  });
  await core.init();
  const state = (await core.invoke('app:getState', {})) as State;
  return { core, dir, path, state };
}

const names = (state: State) => state.agents.map((agent) => agent.name);

describe('the settings file', () => {
  it('lists the demo agent first, then the configured agents with their command lines', async () => {
    const { state } = await coreWithSettings(
      JSON.stringify({
        agent_servers: {
          Codex: { command: 'codex-acp' },
          Claude: {
            command: 'npx',
            args: ['claude-agent-acp', '--model', 'big model'],
            env: { A: 'b' },
          },
        },
        theme: 'dark',
      }),
    );
    expect(state.settingsError).toBeUndefined();
    expect(state.agents).toEqual([
      {
        name: 'Demo Agent',
        commandLine: expect.stringContaining('main/demo-agent/index.ts'),
        builtIn: true,
      },
      { name: 'Codex', commandLine: 'codex-acp', builtIn: false },
      { name: 'Claude', commandLine: 'npx claude-agent-acp --model "big model"', builtIn: false },
    ]);
  });

  it("says what is wrong with an environment variable's name, not only that it is wrong", async () => {
    const empty = await coreWithSettings(
      JSON.stringify({ agent_servers: { Codex: { command: 'codex-acp', env: { '': 'x' } } } }),
    );
    expect(empty.state.settingsError).toMatch(
      /: agent_servers\.Codex\.env\.: names must not be empty$/,
    );
    expect(names(empty.state)).toEqual(['Demo Agent']);
  });

  it('is optional: without one there is the demo agent and no error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-settings-'));
    core = new AirlockCore({
      settingsPath: join(dir, 'none.json'),
      logsDir: dir,
      demoAgent: demoAgentSpec(),
      defaultCwd: dir,
    });
    await core.init();
    const state = (await core.invoke('app:getState', {})) as State;
    expect(names(state)).toEqual(['Demo Agent']);
    expect(state.settingsError).toBeUndefined();
  });

  it('when it is not JSON, still offers a working demo agent and names the file and line', async () => {
    const { core, dir, path, state } = await coreWithSettings('{ "agent_servers": { "Codex": ');
    expect(names(state)).toEqual(['Demo Agent']);
    expect(state.settingsPath).toBe(path);
    expect(state.settingsError).toBe(
      `${path} is not valid JSON at line 1, column 31: a value is expected. ` +
        'Fix it in the file; until then only the built-in agent is offered and agents cannot be edited in Airlock.',
    );

    const recorder = new Recorder(core);
    const key = await readySession(core, recorder, 'Demo Agent', dir);
    await core.invoke('session:prompt', { key, text: 'hi' });
    expect((await recorder.event(key, 'turn_end')).stopReason).toBe('end_turn');
  });

  it('reads comments and trailing commas, as Zed writes them', async () => {
    const { state } = await coreWithSettings(
      '// mine\n{\n  "agent_servers": {\n    /* OpenAI */ "Codex": { "command": "codex-acp", },\n  },\n}\n',
    );
    expect(state.settingsError).toBeUndefined();
    expect(names(state)).toEqual(['Demo Agent', 'Codex']);
  });

  it('when it is not JSON, names the line and column of the first problem', () => {
    const catalog = parseAgentCatalog(
      '{\n  "agent_servers": {\n    "Codex": { "command": "codex-acp" }\n    "Gemini": {}\n  }\n}',
      '/s.json',
      demoAgentSpec(),
    );
    expect(catalog.unreadable).toBe(true);
    expect(catalog.agents).toEqual([demoAgentSpec()]);
    expect(catalog.urlElicitation).toBe('isolated_window');
    expect(catalog.error).toBe(
      '/s.json is not valid JSON at line 4, column 5: a comma is expected. ' +
        'Fix it in the file; until then only the built-in agent is offered and agents cannot be edited in Airlock.',
    );
  });

  it('when an agent has the wrong shape, names the file, the line and the field', async () => {
    const { state, path } = await coreWithSettings(
      JSON.stringify({ agent_servers: { Codex: { args: ['x'] } } }),
    );
    expect(names(state)).toEqual(['Demo Agent']);
    expect(state.settingsError).toMatch(
      new RegExp(`^${escape(path)}, line 1: agent_servers\\.Codex\\.command: `),
    );
  });

  it('when agent_servers is not an object, names the file', async () => {
    const { state, path } = await coreWithSettings(
      JSON.stringify({ agent_servers: ['codex-acp'] }),
    );
    expect(names(state)).toEqual(['Demo Agent']);
    expect(state.settingsError).toMatch(new RegExp(`^${escape(path)}: agent_servers: `));
  });

  it('refuses an agent that takes the demo agent name, and offers the others', async () => {
    const { state, path } = await coreWithSettings(
      JSON.stringify({
        agent_servers: { Codex: { command: 'codex-acp' }, 'Demo Agent': { command: 'evil' } },
      }),
    );
    expect(state.agents).toEqual([
      expect.objectContaining({ name: 'Demo Agent', builtIn: true }),
      expect.objectContaining({ name: 'Codex', commandLine: 'codex-acp' }),
    ]);
    expect(state.settingsError).toBe(
      `${path}, line 1: agent_servers.Demo Agent: "Demo Agent" is reserved for the built-in agent`,
    );
  });

  it('when it cannot be read, names the file', async () => {
    const { state, path } = await coreWithSettings(null);
    expect(names(state)).toEqual(['Demo Agent']);
    expect(state.settingsError).toMatch(new RegExp(`^Could not read ${escape(path)}: EISDIR`));
  });

  it('lives in AIRLOCK_CONFIG_DIR when set, else under XDG_CONFIG_HOME', () => {
    expect(settingsPath({ AIRLOCK_CONFIG_DIR: '/cfg' })).toBe('/cfg/settings.json');
    expect(logsDir({ AIRLOCK_CONFIG_DIR: '/cfg' })).toBe('/cfg/logs');
    if (process.platform === 'linux') {
      expect(configDir({ XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/airlock');
    }
  });
});

describe('sessions with an unknown agent', () => {
  it('are refused with the name', async () => {
    const { core, dir } = await coreWithSettings('{}');
    await expect(core.invoke('session:create', { agentName: 'Nobody', cwd: dir })).rejects.toThrow(
      'No agent named "Nobody"',
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('where URL-mode elicitations open', () => {
  const demo = demoAgentSpec();
  it('is the isolated window unless the file says otherwise', () => {
    expect(parseAgentCatalog('{}', '/s.json', demo).urlElicitation).toBe('isolated_window');
    for (const value of ['system_browser', 'off', 'isolated_window'] as const) {
      const catalog = parseAgentCatalog(
        JSON.stringify({ url_elicitation: value }),
        '/s.json',
        demo,
      );
      expect(catalog.urlElicitation).toBe(value);
      expect(catalog.error).toBeUndefined();
    }
  });

  it('keeps what the file says when another part of it is wrong', () => {
    const broken = JSON.stringify({ url_elicitation: 'off', agent_servers: { Codex: {} } });
    const catalog = parseAgentCatalog(broken, '/s.json', demo);
    expect(settingsProblems(catalog)).toMatch(
      /^\/s\.json, line 1: agent_servers\.Codex\.command: /,
    );
    expect(catalog.urlElicitation).toBe('off');
  });

  it('names the field when its value is not one of the choices', () => {
    const catalog = parseAgentCatalog('{ "url_elicitation": "popup" }', '/s.json', demo);
    expect(catalog.error).toMatch(/^\/s\.json: url_elicitation: /);
    expect(catalog.urlElicitation).toBe('isolated_window');
  });
});

describe('the domains an agent’s URLs should lead to (url_domains)', () => {
  const demo = demoAgentSpec();
  const withDomains = (urlDomains: unknown) =>
    parseAgentCatalog(
      JSON.stringify({
        agent_servers: { Codex: { command: 'codex-acp', url_domains: urlDomains } },
      }),
      '/s.json',
      demo,
    );

  it('are carried on the agent as written, hosts or URLs; without them there are none', () => {
    const catalog = withDomains(['openai.com', 'https://chatgpt.com/', 'MÜNCHEN.de.']);
    expect(catalog.error).toBeUndefined();
    expect(catalog.agents[1]).toMatchObject({
      name: 'Codex',
      urlDomains: ['openai.com', 'https://chatgpt.com/', 'MÜNCHEN.de.'],
    });
    const none = parseAgentCatalog(
      JSON.stringify({ agent_servers: { Codex: { command: 'codex-acp' } } }),
      '/s.json',
      demo,
    );
    expect(none.agents[1]).not.toHaveProperty('urlDomains');
  });

  it(`take up to ${MAX_URL_DOMAINS} entries of up to ${MAX_URL_DOMAIN_CHARS} characters`, () => {
    expect(MAX_URL_DOMAINS).toBe(32);
    expect(MAX_URL_DOMAIN_CHARS).toBe(1_000);
    const longest = `https://example.com/${'a'.repeat(MAX_URL_DOMAIN_CHARS - 20)}`;
    expect(longest).toHaveLength(MAX_URL_DOMAIN_CHARS);
    const full = withDomains([...Array.from({ length: 31 }, (_, i) => `d${i}.example`), longest]);
    expect(full.error).toBeUndefined();
    expect(full.agents[1]?.urlDomains).toHaveLength(MAX_URL_DOMAINS);
  });

  it('name the file, the agent and the entry when an entry is neither a host nor a URL', () => {
    for (const bad of ['openai.com/path', 'not a domain', 'ftp://openai.com/', '', 'a..b']) {
      const catalog = withDomains(['chatgpt.com', bad]);
      expect(
        catalog.agents.map((agent) => agent.name),
        bad,
      ).toEqual(['Demo Agent']);
      expect(settingsProblems(catalog), bad).toBe(
        '/s.json, line 1: agent_servers.Codex.url_domains.1: must be a host name (openai.com) or a URL (https://chatgpt.com/)',
      );
    }
  });

  it('name the field when it is too long, too many, empty or not a list of text', () => {
    const long = `https://example.com/${'a'.repeat(MAX_URL_DOMAIN_CHARS - 19)}`;
    expect(settingsProblems(withDomains([long]))).toBe(
      `/s.json, line 1: agent_servers.Codex.url_domains.0: must be at most ${MAX_URL_DOMAIN_CHARS} characters`,
    );
    const many = Array.from({ length: MAX_URL_DOMAINS + 1 }, (_, i) => `d${i}.example`);
    expect(settingsProblems(withDomains(many))).toBe(
      `/s.json, line 1: agent_servers.Codex.url_domains: must list at most ${MAX_URL_DOMAINS} domains`,
    );
    expect(settingsProblems(withDomains([]))).toBe(
      '/s.json, line 1: agent_servers.Codex.url_domains: must list at least one domain; leave it out to expect none',
    );
    expect(settingsProblems(withDomains('openai.com'))).toMatch(
      /^\/s\.json, line 1: agent_servers\.Codex\.url_domains: must be a list, in \[ \]$/,
    );
    expect(settingsProblems(withDomains([42]))).toMatch(
      /^\/s\.json, line 1: agent_servers\.Codex\.url_domains\.0: must be text, in quotes$/,
    );
  });
});

describe('the limits on what the settings file lists', () => {
  const demo = demoAgentSpec();
  const parse = (settings: unknown) => parseAgentCatalog(JSON.stringify(settings), '/s.json', demo);
  const agent = (fields: Record<string, unknown>) =>
    parse({ agent_servers: { A: { command: 'c', ...fields } } });
  const many = (count: number, entry: (index: number) => [string, unknown]) =>
    Object.fromEntries(Array.from({ length: count }, (_, index) => entry(index)));

  it('takes an agent at every limit', () => {
    const full = agent({
      command: 'c'.repeat(10_000),
      args: Array.from({ length: 1_000 }, () => 'a'.repeat(10_000)),
      env: {
        ...many(999, (index) => [`V${index}`, 'v']),
        ['N'.repeat(200)]: 'v'.repeat(100_000),
      },
    });
    expect(full.error).toBeUndefined();
    expect(full.agents).toHaveLength(2);
    const agents = parse({
      agent_servers: many(1_000, (index) => [`A${index}`, { command: 'c' }]),
    });
    expect(agents.error).toBeUndefined();
    expect(agents.agents).toHaveLength(1_001);
    expect(parse({ agent_servers: { ['n'.repeat(200)]: { command: 'c' } } }).error).toBeUndefined();
  });

  it('names the field and the limit one past each', () => {
    const problems: [Record<string, unknown>, string][] = [
      [{ command: 'c'.repeat(10_001) }, 'A.command: must be at most 10000 characters'],
      [{ args: ['a'.repeat(10_001)] }, 'A.args.0: must be at most 10000 characters'],
      [
        { args: Array.from({ length: 1_001 }, () => 'a') },
        'A.args: must list at most 1000 arguments',
      ],
      [{ env: { N: 'v'.repeat(100_001) } }, 'A.env.N: must be at most 100000 characters'],
      [
        { env: many(1_001, (index) => [`V${index}`, 'v']) },
        'A.env: must set at most 1000 variables',
      ],
      [
        { env: { ['N'.repeat(201)]: 'v' } },
        `A.env.${'N'.repeat(201)}: names must be at most 200 characters`,
      ],
    ];
    for (const [fields, said] of problems) {
      const catalog = agent(fields);
      expect(settingsProblems(catalog), said).toBe(`/s.json, line 1: agent_servers.${said}`);
      expect(catalog.agents).toEqual([demo]);
    }
    expect(
      parse({ agent_servers: many(1_001, (index) => [`A${index}`, { command: 'c' }]) }).error,
    ).toBe('/s.json: agent_servers: must list at most 1000 agents');
    expect(settingsProblems(parse({ agent_servers: { '': { command: 'c' } } }))).toMatch(
      /^\/s\.json, line 1: agent_servers\.: /,
    );
    expect(
      settingsProblems(parse({ agent_servers: { ['n'.repeat(201)]: { command: 'c' } } })),
    ).toMatch(/^\/s\.json, line 1: agent_servers\.n{201}: .*200/);
  });

  it('names the top level when the file is not an object', () => {
    for (const text of ['[]', '1']) {
      const catalog = parseAgentCatalog(text, '/s.json', demo);
      expect(catalog.error, text).toMatch(/^\/s\.json: the top level: /);
      expect(catalog.urlElicitation).toBe('isolated_window');
      expect(catalog).not.toHaveProperty('askBeforeWrites');
      expect(catalog).not.toHaveProperty('unreadable');
    }
  });

  it('names an agent that is not an object, with no crash reading its MCP servers', () => {
    expect(settingsProblems(parse({ agent_servers: { A: null } }))).toMatch(
      /^\/s\.json, line 1: agent_servers\.A: /,
    );
  });

  it('keeps "off" and asking before writes when an agent takes the built-in name', () => {
    const catalog = parse({
      url_elicitation: 'off',
      ask_before_writes: true,
      agent_servers: { A: { command: 'a' }, 'Demo Agent': { command: 'x' } },
    });
    expect(catalog).toEqual({
      agents: [demo, { name: 'A', command: 'a', args: [], env: {}, builtIn: false }],
      urlElicitation: 'off',
      askBeforeWrites: true,
      unusable: [
        {
          name: 'Demo Agent',
          reason:
            '/s.json, line 1: agent_servers.Demo Agent: "Demo Agent" is reserved for the built-in agent',
        },
      ],
    });
    expect(parse({ agent_servers: { 'Demo Agent': { command: 'x' } } })).not.toHaveProperty(
      'askBeforeWrites',
    );
  });

  it('reads an agent’s MCP servers for at most as many agents as it lists', () => {
    const bad = { command: 'c', context_servers: { s: { command: '' } } };
    const error = parse({ agent_servers: many(1_001, (index) => [`A${index}`, bad]) }).error!;
    // The error for too many agents, then one line for each of the first 1,000 agents' servers.
    expect(error.split('\n').at(-1)).toBe('…and 991 more');
  });

  it('cuts each problem line to 900 characters', () => {
    const name = 'n'.repeat(2_000);
    const catalog = parse({ agent_servers: { [name]: { command: 'c', context_servers: 1 } } });
    const lines = settingsProblems(catalog)!.split('\n');
    // The name is too long for an agent, and its MCP servers are not an object: two lines.
    expect(lines.map((line) => line.length)).toEqual([900, 900]);
    expect(lines[1]).toMatch(/^\/s\.json, line 1: agent_servers\.n+$/);
  });
});

describe('loadAgentCatalog', () => {
  const demo = demoAgentSpec();

  it('offers the demo agent alone, with no error, when there is no file', async () => {
    expect(await loadAgentCatalog(join(tmpdir(), 'airlock-none', 'settings.json'), demo)).toEqual({
      agents: [demo],
      urlElicitation: 'isolated_window',
    });
  });

  it('says what to do when the file cannot be read, and marks it not to be edited', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-settings-'));
    const catalog = await loadAgentCatalog(dir, demo);
    expect(catalog).toEqual({
      agents: [demo],
      urlElicitation: 'isolated_window',
      error: expect.stringMatching(
        new RegExp(
          `^Could not read ${escape(dir)}: EISDIR.*\\. Check the file's permissions or remove it\\.$`,
        ),
      ),
      unreadable: true,
    });
  });
});

describe('where the configuration lives on each platform', () => {
  const platform = process.platform;
  const on = (name: NodeJS.Platform) => Object.defineProperty(process, 'platform', { value: name });
  afterEach(() => on(platform));

  it('is under APPDATA on Windows, or AppData/Roaming without it', () => {
    on('win32');
    expect(configDir({ APPDATA: '/appdata' })).toBe(join('/appdata', 'Airlock'));
    expect(configDir({})).toBe(join(homedir(), 'AppData', 'Roaming', 'Airlock'));
  });

  it('is under Library/Application Support on macOS', () => {
    on('darwin');
    expect(configDir({ XDG_CONFIG_HOME: '/xdg' })).toBe(
      join(homedir(), 'Library', 'Application Support', 'Airlock'),
    );
  });

  it('is under XDG_CONFIG_HOME on Linux, or ~/.config without it', () => {
    on('linux');
    expect(configDir({ XDG_CONFIG_HOME: '/xdg' })).toBe(join('/xdg', 'airlock'));
    expect(configDir({})).toBe(join(homedir(), '.config', 'airlock'));
    expect(configDir({ AIRLOCK_CONFIG_DIR: '', XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/airlock');
  });
});

describe('commandLine', () => {
  it('quotes the parts with spaces or quotes in them, and only those', () => {
    expect(commandLine({ command: 'my agent', args: ['a', 'b\tc', '"q"', "it's", ''] })).toBe(
      `"my agent" a "b\\tc" "\\"q\\"" "it's" `,
    );
  });
});
