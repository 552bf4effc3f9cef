import { describe, expect, it } from 'vitest';
import type { AgentSettingsInput } from '../../../../preload/shared/contract.js';
import {
  agentView,
  copyName,
  fieldsToWrite,
  formProblems,
  looksSecret,
  refuseBuiltIn,
} from '../../../../main/core/settings/form.js';

describe('looksSecret', () => {
  it('masks values by their variable’s name', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'client_secret',
      'DB_PASSWORD',
      'PGPASSWD',
      'GPG_PASSPHRASE',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'AUTH_HEADER',
      'SESSION_COOKIE',
      'PRIVATE_PEM',
    ]) {
      expect(looksSecret(name, 'x'), name).toBe(true);
    }
  });

  it('masks values that look like keys, whatever the name', () => {
    for (const value of [
      'sk-proj-abc',
      'ghp_0123456789abcdef',
      'github_pat_11AAAA',
      'xoxb-1-2',
      'AKIAIOSFODNN7EXAMPLE',
      'AIzaSyA-0123456789',
      'eyJhbGciOiJIUzI1NiJ9.e30.x',
      'hf_abcdef',
      'glpat-abc',
      'a8Fk29dLq0ZmXp3Rt7Yv1Nc', // a long random token
      'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY0123==', // base64
    ]) {
      expect(looksSecret('VALUE', value), value).toBe(true);
    }
  });

  it('shows ordinary values', () => {
    for (const value of [
      '1',
      'true',
      'debug',
      '/usr/local/bin/node',
      './relative/path/to/file123456',
      'https://api.example.com/v1/endpoint2',
      'en_US.UTF-8',
      'a value with spaces and 123 digits in it',
      'abcdefghijklmnopqrstuvwxyz', // long, but letters only
      '2024-01-01',
    ]) {
      expect(looksSecret('MODE', value), value).toBe(false);
    }
  });
});

describe('agentView', () => {
  it('sends ordinary values and only that a secret is set, never its value', () => {
    const view = agentView({
      name: 'Gemini',
      command: 'gemini',
      args: ['--experimental-acp'],
      env: { GEMINI_API_KEY: 'k1', DEBUG: '1', OTHER: 'sk-live-123' },
      builtIn: false,
      urlDomains: ['google.com'],
    });
    expect(view).toEqual({
      name: 'Gemini',
      builtIn: false,
      command: 'gemini',
      args: ['--experimental-acp'],
      env: [
        { name: 'GEMINI_API_KEY', secret: true, set: true },
        { name: 'DEBUG', secret: false, value: '1' },
        { name: 'OTHER', secret: true, set: true },
      ],
      urlDomains: ['google.com'],
    });
    expect(JSON.stringify(view)).not.toContain('k1');
    expect(JSON.stringify(view)).not.toContain('sk-live');
  });
});

const input = (fields: Partial<AgentSettingsInput> = {}): AgentSettingsInput => ({
  name: 'Goose',
  command: 'goose',
  args: ['acp'],
  env: [],
  urlDomains: [],
  ...fields,
});
const none = () => false;

describe('formProblems', () => {
  it('has none for a complete agent', () => {
    expect(
      formProblems(
        input({ env: [{ name: 'A', value: '' }], urlDomains: ['https://block.xyz/'] }),
        none,
      ),
    ).toEqual([]);
  });

  it('says for each field what to do', () => {
    expect(
      formProblems(
        input({
          name: '',
          command: '  ',
          args: ['x'.repeat(10_001)],
          env: [
            { name: 'A', value: '1' },
            { name: '', value: '2' },
            { name: 'A', value: '3' },
            { name: 'B=C', keep: true },
          ],
          urlDomains: ['openai.com', 'not a domain'],
        }),
        none,
      ),
    ).toEqual([
      { field: 'name', message: 'Enter a name for the agent.' },
      {
        field: 'command',
        message: 'Enter the command that starts the agent, such as npx or a full path.',
      },
      { field: 'env.1.name', message: 'Enter a name for the variable, or remove the row.' },
      { field: 'env.2.name', message: 'A is set twice. Remove one of them.' },
      { field: 'env.3.name', message: 'A variable name cannot hold "=". Rename it.' },
      { field: 'args.0', message: 'Argument 1 must be at most 10000 characters.' },
      {
        field: 'urlDomains.1',
        message: 'Domain 2 must be a host name (openai.com) or a URL (https://chatgpt.com/).',
      },
    ]);
  });

  it('refuses a name taken, the built-in agent’s name, or one with spaces around it', () => {
    const taken = (name: string) => name === 'Codex';
    expect(formProblems(input({ name: 'Codex' }), taken)).toEqual([
      { field: 'name', message: 'There is already an agent named "Codex". Choose another name.' },
    ]);
    expect(formProblems(input({ name: 'Demo Agent' }), none)).toEqual([
      { field: 'name', message: "Demo Agent is the built-in agent's name. Choose another name." },
    ]);
    expect(formProblems(input({ name: ' Goose' }), none)).toEqual([
      { field: 'name', message: 'Remove the spaces at the start or end of the name.' },
    ]);
    expect(formProblems(input({ name: 'g'.repeat(201) }), none)[0]?.message).toBe(
      'Shorten the name to at most 200 characters.',
    );
  });

  it('checks the limits the settings file is read with', () => {
    const many = Array.from({ length: 33 }, (_, i) => `d${i}.example`);
    expect(formProblems(input({ urlDomains: many }), none)).toEqual([
      { field: 'urlDomains', message: 'The domains must list at most 32 domains.' },
    ]);
    expect(formProblems(input({ command: 'c'.repeat(10_001) }), none)).toEqual([
      { field: 'command', message: 'The command must be at most 10000 characters.' },
    ]);
    expect(formProblems(input({ env: [{ name: 'V', value: 'v'.repeat(100_001) }] }), none)).toEqual(
      [{ field: 'env.0.value', message: 'Shorten the value to at most 100000 characters.' }],
    );
  });
});

describe('fieldsToWrite', () => {
  it('keeps the stored value of a masked variable left unchanged, or renamed', () => {
    const stored = { command: 'gemini', env: { GEMINI_API_KEY: 'k1', OLD_TOKEN: 't' } };
    expect(
      fieldsToWrite(
        input({
          env: [
            { name: 'GEMINI_API_KEY', keep: true },
            { name: 'NEW_TOKEN', keep: true, from: 'OLD_TOKEN' },
            { name: 'DEBUG', value: '1' },
          ],
          urlDomains: [],
        }),
        stored,
      ),
    ).toEqual({
      command: 'goose',
      args: ['acp'],
      env: { GEMINI_API_KEY: 'k1', NEW_TOKEN: 't', DEBUG: '1' },
      url_domains: [],
    });
  });

  it('asks for the value again when the file no longer holds it', () => {
    expect(() =>
      fieldsToWrite(input({ env: [{ name: 'GONE_KEY', keep: true }] }), { env: {} }),
    ).toThrow('The settings file no longer holds a value for GONE_KEY. Enter the value again.');
    expect(() =>
      fieldsToWrite(input({ env: [{ name: 'GONE_KEY', keep: true }] }), undefined),
    ).toThrow('no longer holds a value for GONE_KEY');
  });
});

describe('copyName', () => {
  it('is "<name> copy", then numbered, and never longer than a name may be', () => {
    const taken = new Set(['Codex', 'Codex copy', 'Codex copy 2']);
    expect(copyName('Gemini', (name) => taken.has(name))).toBe('Gemini copy');
    expect(copyName('Codex', (name) => taken.has(name))).toBe('Codex copy 3');
    const long = copyName('x'.repeat(200), none);
    expect(long).toHaveLength(200);
    expect(long.endsWith(' copy')).toBe(true);
  });
});

describe('looksSecret, at its edges', () => {
  it('masks by each word a secret’s name may hold, in any case', () => {
    for (const name of [
      'api_key',
      'Token',
      'SECRET',
      'password',
      'passwd',
      'passphrase',
      'credential',
      'auth',
      'cookie',
      'private',
      'session',
      'signature',
    ]) {
      expect(looksSecret(name, 'x'), name).toBe(true);
    }
  });

  it('masks each known key prefix, only at the start', () => {
    for (const prefix of [
      'sk-',
      'sk_',
      'pk_',
      'rk_',
      'ghp_',
      'gho_',
      'ghu_',
      'ghs_',
      'ghr_',
      'github_pat_',
      'glpat-',
      'xoxa-',
      'xoxb-',
      'xoxp-',
      'xoxo-',
      'xoxr-',
      'xoxs-',
      'hf_',
      'AKIA',
      'ASIA',
      'AIza',
      'ya29.',
      'eyJ',
    ]) {
      expect(looksSecret('MODE', `${prefix}x`), prefix).toBe(true);
      expect(looksSecret('MODE', `x ${prefix}x`), prefix).toBe(false);
    }
  });

  it('masks a random-looking token from 20 characters on, of letters and digits both', () => {
    expect(looksSecret('MODE', 'a1b2c3d4e5f6g7h8i9j0')).toBe(true);
    expect(looksSecret('MODE', 'a1b2c3d4e5f6g7h8i9j')).toBe(false);
    expect(looksSecret('MODE', '12345678901234567890')).toBe(false);
    expect(looksSecret('MODE', 'a1b2c3d4e5f6g7h8i9j0 ')).toBe(false);
    expect(looksSecret('MODE', ' a1b2c3d4e5f6g7h8i9j0')).toBe(false);
    expect(looksSecret('MODE', '~a1b2c3d4e5f6g7h8i9j0')).toBe(false);
    expect(looksSecret('MODE', 'x/a1b2c3d4e5f6g7h8i9j0')).toBe(true);
  });
});

describe('agentView, for what the catalog may hold', () => {
  it('has no domains without them, and lists the agent’s own MCP servers masked', () => {
    const spec = { name: 'A', command: 'a', args: [], env: {}, builtIn: false };
    expect(agentView(spec)).toEqual({
      name: 'A',
      builtIn: false,
      command: 'a',
      args: [],
      env: [],
      urlDomains: [],
    });
    expect(agentView({ ...spec, mcpServers: [] })).not.toHaveProperty('mcpServers');
    expect(
      agentView({
        ...spec,
        mcpServers: [
          {
            name: 'fs',
            enabled: true,
            transport: 'stdio',
            command: 'mcp-fs',
            args: ['/'],
            env: { TOKEN: 't', MODE: 'm' },
          },
          {
            name: 'web',
            enabled: false,
            transport: 'http',
            url: 'https://x.example/',
            headers: { Authorization: 'b' },
          },
          {
            name: 'sse',
            enabled: true,
            transport: 'sse',
            url: 'https://y.example/',
            headers: { Accept: 'a' },
          },
          { name: 'ext', enabled: true, transport: 'extension' },
        ],
      }).mcpServers,
    ).toEqual([
      {
        name: 'fs',
        enabled: true,
        transport: 'stdio',
        command: 'mcp-fs',
        args: ['/'],
        values: [
          { name: 'TOKEN', secret: true, set: true },
          { name: 'MODE', secret: false, value: 'm' },
        ],
      },
      {
        name: 'web',
        enabled: false,
        transport: 'http',
        url: 'https://x.example/',
        values: [{ name: 'Authorization', secret: true, set: true }],
      },
      {
        name: 'sse',
        enabled: true,
        transport: 'sse',
        url: 'https://y.example/',
        values: [{ name: 'Accept', secret: false, value: 'a' }],
      },
      { name: 'ext', enabled: true, transport: 'extension', values: [] },
    ]);
  });
});

describe('refuseBuiltIn', () => {
  it('refuses the built-in agent only, saying what to do instead', () => {
    expect(() => refuseBuiltIn('Demo Agent', 'changed')).toThrow(
      'Demo Agent is built in and cannot be changed. Add your own agent instead.',
    );
    expect(() => refuseBuiltIn('Demo Agent', 'removed')).toThrow(
      'Demo Agent is built in and cannot be removed. Add your own agent instead.',
    );
    expect(() => refuseBuiltIn('Demo Agent', 'copied')).toThrow(
      'Demo Agent is built in and cannot be copied. Add a new agent instead.',
    );
    expect(() => refuseBuiltIn('Codex', 'removed')).not.toThrow();
  });
});

describe('formProblems, at the limits', () => {
  it('takes a name of 200 characters and a variable name of 200, and no more', () => {
    expect(formProblems(input({ name: 'g'.repeat(200) }), none)).toEqual([]);
    expect(formProblems(input({ name: 'g'.repeat(201) }), none)).toEqual([
      { field: 'name', message: 'Shorten the name to at most 200 characters.' },
    ]);
    expect(
      formProblems(input({ env: [{ name: 'N'.repeat(200), value: 'v'.repeat(100_000) }] }), none),
    ).toEqual([]);
    expect(formProblems(input({ env: [{ name: 'N'.repeat(201), value: 'v' }] }), none)).toEqual([
      { field: 'env.0.name', message: 'Shorten the name to at most 200 characters.' },
    ]);
  });

  it('refuses a variable name with a NUL in it, and says so once for a name set twice', () => {
    expect(formProblems(input({ env: [{ name: 'A\0B', value: 'v' }] }), none)).toEqual([
      { field: 'env.0.name', message: 'A variable name cannot hold "=". Rename it.' },
    ]);
    expect(
      formProblems(
        input({
          env: [
            { name: 'A', value: '1' },
            { name: 'B', keep: true },
            { name: 'A', value: '2' },
            { name: 'A', value: '3' },
          ],
        }),
        none,
      ),
    ).toEqual([
      { field: 'env.2.name', message: 'A is set twice. Remove one of them.' },
      { field: 'env.3.name', message: 'A is set twice. Remove one of them.' },
    ]);
  });

  it('takes 1,000 variables and refuses more', () => {
    const env = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ name: `V${index}`, value: 'v' }));
    expect(formProblems(input({ env: env(1_000) }), none)).toEqual([]);
    expect(formProblems(input({ env: env(1_001) }), none)).toEqual([
      { field: 'env', message: 'Remove variables: an agent can have at most 1000.' },
    ]);
  });

  it('names the arguments, the domains and the command as a whole', () => {
    expect(formProblems(input({ args: Array.from({ length: 1_001 }, () => 'a') }), none)).toEqual([
      { field: 'args', message: 'The arguments must list at most 1000 arguments.' },
    ]);
    expect(formProblems(input({ urlDomains: ['x.example', 'y'.repeat(1_001)] }), none)).toEqual([
      { field: 'urlDomains.1', message: 'Domain 2 must be at most 1000 characters.' },
    ]);
    expect(formProblems(input({ command: 'c'.repeat(10_001) }), none)).toEqual([
      { field: 'command', message: 'The command must be at most 10000 characters.' },
    ]);
  });

  it('says only once what is wrong with the command', () => {
    expect(formProblems(input({ command: '' }), none)).toEqual([
      {
        field: 'command',
        message: 'Enter the command that starts the agent, such as npx or a full path.',
      },
    ]);
  });
});

describe('fieldsToWrite, with what the file holds', () => {
  it('finds no stored value in an env that is not an object, or a value that is not text', () => {
    for (const env of [null, ['k1'], 'k1', { KEY: 1 }]) {
      expect(
        () => fieldsToWrite(input({ env: [{ name: 'KEY', keep: true }] }), { env }),
        JSON.stringify(env),
      ).toThrow('no longer holds a value for KEY');
    }
    expect(() =>
      fieldsToWrite(input({ env: [{ name: 'toString', keep: true }] }), { env: {} }),
    ).toThrow('no longer holds a value for toString');
    expect(fieldsToWrite(input({ urlDomains: ['x.example'] }), undefined)).toEqual({
      command: 'goose',
      args: ['acp'],
      env: {},
      url_domains: ['x.example'],
    });
  });
});

describe('copyName, counting on', () => {
  it('numbers on past the first few, each cut to fit 200 characters', () => {
    const taken = new Set(['A copy', 'A copy 2', 'A copy 3']);
    expect(copyName('A', (name) => taken.has(name))).toBe('A copy 4');
    const long = 'x'.repeat(200);
    expect(copyName(long, (name) => name === `${'x'.repeat(195)} copy`)).toBe(
      `${'x'.repeat(193)} copy 2`,
    );
  });
});
