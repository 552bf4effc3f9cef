import { describe, expect, it } from 'vitest';
import type { AgentSettingsInput } from '../../../../preload/contract.js';
import {
  agentView,
  copyName,
  fieldsToWrite,
  formProblems,
  looksSecret,
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
