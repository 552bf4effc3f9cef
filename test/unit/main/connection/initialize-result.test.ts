/**
 * An agent's `initialize` result checked on its own (main/core/initialize.ts): what Airlock keeps,
 * each limit, and the sign-in methods as the UI shows them. initialize.test.ts and auth.test.ts
 * start real agents; this names each rule without one.
 */
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../../../main/core/errors.js';
import { parseInitializeResponse } from '../../../../main/core/initialize.js';
import type { AgentSpec } from '../../../../main/core/agents/spec.js';

describe('parseInitializeResponse', () => {
  const spec: AgentSpec = {
    name: 'probe',
    command: 'node',
    args: ['agent.js'],
    env: {},
    builtIn: false,
  };
  const valid = { protocolVersion: PROTOCOL_VERSION };
  const problem = (raw: unknown) => {
    try {
      parseInitializeResponse(raw, spec);
    } catch (error) {
      expect(error).toBeInstanceOf(UserFacingError);
      // The sentence, then what Details holds, if anything.
      const { message, detail } = error as UserFacingError;
      return detail === undefined ? message : `${message} | Details: ${detail}`;
    }
    throw new Error('accepted');
  };

  it('keeps who the agent is, its capabilities and its sign-in methods', () => {
    const capabilities = { loadSession: true, promptCapabilities: { image: true } };
    expect(
      parseInitializeResponse(
        {
          protocolVersion: PROTOCOL_VERSION,
          agentCapabilities: capabilities,
          agentInfo: { name: 'a', title: 'A', version: '1.0', homepage: 'kept out' },
          authMethods: [{ id: 'login', name: 'Log in', description: 'In the browser' }],
          _meta: { later: 'fields' },
        },
        spec,
      ),
    ).toEqual({
      identity: {
        configName: 'probe',
        name: 'a',
        title: 'A',
        version: '1.0',
        protocolVersion: PROTOCOL_VERSION,
        commandLine: 'node agent.js',
      },
      authMethods: [{ id: 'login', name: 'Log in', description: 'In the browser', kind: 'agent' }],
      apiKeyProviders: new Map(),
      capabilities,
      terminalLaunches: new Map(),
    });
  });

  it('leaves out what the agent does not say', () => {
    for (const agentInfo of [undefined, null]) {
      expect(parseInitializeResponse({ ...valid, agentInfo }, spec)).toEqual({
        identity: {
          configName: 'probe',
          name: undefined,
          title: undefined,
          version: undefined,
          protocolVersion: PROTOCOL_VERSION,
          commandLine: 'node agent.js',
        },
        authMethods: [],
        apiKeyProviders: new Map(),
        capabilities: {},
        terminalLaunches: new Map(),
      });
    }
    const untitled = parseInitializeResponse(
      { ...valid, agentInfo: { name: 'a', title: null, version: '1' } },
      spec,
    );
    expect(untitled.identity.title).toBeUndefined();
    const method = { id: 'm', name: 'M', description: null };
    expect(parseInitializeResponse({ ...valid, authMethods: [method] }, spec).authMethods).toEqual([
      { id: 'm', name: 'M', description: undefined, kind: 'agent' },
    ]);
  });

  it('names the first wrong field, or the result, in the error', () => {
    expect(problem(null)).toBe(
      'probe answered in a way Airlock cannot read when it started | Details: ' +
        'The answer to initialize is invalid at the result: Invalid input: expected object, received null',
    );
    expect(problem({ ...valid, authMethods: [{ id: '', name: 'M' }] })).toMatch(
      /^probe answered in a way Airlock cannot read when it started \| Details: The answer to initialize is invalid at authMethods\.0\.id: Too small/,
    );
    expect(problem({ protocolVersion: -1 })).toMatch(/ at protocolVersion: Too small/);
    expect(problem({ protocolVersion: 1.5 })).toMatch(
      / at protocolVersion: Invalid input: expected int/,
    );
  });

  it('names both versions when the agent speaks another one', () => {
    expect(problem({ protocolVersion: PROTOCOL_VERSION + 1 })).toBe(
      `probe speaks ACP protocol version ${PROTOCOL_VERSION + 1}; Airlock supports version ${PROTOCOL_VERSION}`,
    );
  });

  it('takes text of up to 10,000 characters and up to 100 of each list', () => {
    const long = 'x'.repeat(10_000);
    const method = (extra: object) => ({ id: 'm', name: 'M', ...extra });
    const many = (count: number) =>
      Array.from({ length: count }, (_, i) => method({ id: `m${i}` }));
    expect(
      parseInitializeResponse({ ...valid, authMethods: many(100) }, spec).authMethods,
    ).toHaveLength(100);
    expect(problem({ ...valid, authMethods: many(101) })).toMatch(/ at authMethods: Too big/);
    const agentInfo = { name: long, version: long, title: long };
    expect(parseInitializeResponse({ ...valid, agentInfo }, spec).identity.name).toBe(long);
    expect(problem({ ...valid, agentInfo: { ...agentInfo, title: `${long}x` } })).toMatch(
      / at agentInfo\.title: Too big/,
    );
    const vars = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `V${i}` }));
    const args = (count: number) => Array.from({ length: count }, () => '-a');
    const envVar = (extra: object) => [method({ type: 'env_var', ...extra })];
    expect(() =>
      parseInitializeResponse({ ...valid, authMethods: envVar({ vars: vars(100) }) }, spec),
    ).not.toThrow();
    expect(problem({ ...valid, authMethods: envVar({ vars: vars(101) }) })).toMatch(
      / at authMethods\.0\.vars: Too big/,
    );
    expect(problem({ ...valid, authMethods: envVar({ vars: [{ name: '' }] }) })).toMatch(
      / at authMethods\.0\.vars\.0\.name: Too small/,
    );
    const terminal = (count: number) => [method({ type: 'terminal', args: args(count) })];
    expect(() =>
      parseInitializeResponse({ ...valid, authMethods: terminal(100) }, spec),
    ).not.toThrow();
    expect(problem({ ...valid, authMethods: terminal(101) })).toMatch(
      / at authMethods\.0\.args: Too big/,
    );
  });

  it('turns an env_var method into the variables to set, secret and required unless it says', () => {
    const [method] = parseInitializeResponse(
      {
        ...valid,
        authMethods: [
          {
            id: 'key',
            name: 'API key',
            type: 'env_var',
            vars: [
              { name: 'KEY', label: 'Key' },
              { name: 'REGION', label: null, secret: false, optional: true },
            ],
          },
        ],
      },
      spec,
    ).authMethods;
    expect(method).toEqual({
      id: 'key',
      name: 'API key',
      description: undefined,
      kind: 'env_var',
      vars: [
        { name: 'KEY', label: 'Key', secret: true, optional: false, set: false },
        { name: 'REGION', label: undefined, secret: false, optional: true, set: false },
      ],
    });
  });

  it('reads the early varName, and an env_var method with neither as no variables', () => {
    const methods = parseInitializeResponse(
      {
        ...valid,
        authMethods: [
          { id: 'old', name: 'Old', type: 'env_var', varName: 'TOKEN' },
          { id: 'none', name: 'None', type: 'env_var' },
          { id: 'both', name: 'Both', type: 'env_var', varName: 'OLD', vars: [{ name: 'NEW' }] },
        ],
      },
      spec,
    ).authMethods;
    expect(methods.map((method) => method.vars)).toEqual([
      [{ name: 'TOKEN', label: undefined, secret: true, optional: false, set: false }],
      [],
      [{ name: 'NEW', label: undefined, secret: true, optional: false, set: false }],
    ]);
  });

  it("keeps the provider a method Airlock runs names in _meta['api-key'], and ignores any other shape", () => {
    const method = (id: string, extra: object) => ({ id, name: id, ...extra });
    const result = parseInitializeResponse(
      {
        ...valid,
        authMethods: [
          // codex-acp 2.6's, word for word.
          method('api-key', {
            description: 'Use an API key to authenticate',
            _meta: { 'api-key': { provider: 'openai' } },
          }),
          method('typed', { type: 'agent', _meta: { 'api-key': { provider: 'OpenAI', x: 1 } } }),
          method('api-key', { _meta: { 'api-key': { provider: 'later' } } }),
          method('env', { type: 'env_var', _meta: { 'api-key': { provider: 'openai' } } }),
          method('term', { type: 'terminal', _meta: { 'api-key': { provider: 'openai' } } }),
          method('string', { _meta: { 'api-key': 'openai' } }),
          method('number', { _meta: { 'api-key': { provider: 7 } } }),
          method('empty', { _meta: { 'api-key': { provider: '' } } }),
          method('long', { _meta: { 'api-key': { provider: 'x'.repeat(10_001) } } }),
          method('null', { _meta: null }),
          method('list', { _meta: [{ 'api-key': { provider: 'openai' } }] }),
          method('text', { _meta: 'api-key' }),
          method('none', {}),
        ],
      },
      spec,
    );
    expect([...result.apiKeyProviders]).toEqual([
      ['api-key', 'openai'],
      ['typed', 'OpenAI'],
    ]);
    // The methods themselves show as before: one the agent runs, named as it names it.
    expect(result.authMethods[0]).toEqual({
      id: 'api-key',
      name: 'api-key',
      description: 'Use an API key to authenticate',
      kind: 'agent',
    });
    expect(result.authMethods).toHaveLength(13);
  });

  it('gives a terminal method the custom agent’s command with its arguments after the agent’s own, quoted', () => {
    const [plain, more] = parseInitializeResponse(
      {
        ...valid,
        authMethods: [
          { id: 't', name: 'T', type: 'terminal' },
          { id: 'u', name: 'U', type: 'terminal', args: ['--login', 'two words'] },
        ],
      },
      spec,
    ).authMethods;
    expect(plain).toEqual({
      id: 't',
      name: 'T',
      description: undefined,
      kind: 'terminal',
      terminalCommand: 'node agent.js',
    });
    expect(more?.terminalCommand).toBe('node agent.js --login "two words"');
    expect(spec.args).toEqual(['agent.js']);
  });

  it('keeps how each terminal method runs the agent: its command, args, and its env added', () => {
    const { terminalLaunches } = parseInitializeResponse(
      {
        ...valid,
        authMethods: [
          { id: 't', name: 'T', type: 'terminal' },
          { id: 'u', name: 'U', type: 'terminal', args: ['--login'], env: { MODE: 'setup' } },
          { id: 'u', name: 'Again', type: 'terminal', args: ['--other'] },
          { id: 'a', name: 'A', args: ['--not-a-terminal'] },
        ],
      },
      { ...spec, env: { MODE: 'serve', KEPT: '1' } },
    );
    expect([...terminalLaunches]).toEqual([
      ['t', { command: 'node', args: ['agent.js'], env: { MODE: 'serve', KEPT: '1' } }],
      ['u', { command: 'node', args: ['agent.js', '--login'], env: { MODE: 'setup', KEPT: '1' } }],
    ]);
    expect(
      problem({
        ...valid,
        authMethods: [{ id: 'u', name: 'U', type: 'terminal', env: { 'BAD NAME': 'x' } }],
      }),
    ).toMatch(/ at authMethods\.0\.env\.BAD NAME/);
  });
});

describe('the agent’s names as the UI shows them', () => {
  const spec: AgentSpec = { name: 'probe', command: 'node', args: [], env: {}, builtIn: false };

  it('write out the hidden characters of its name, title, version and sign-in methods', () => {
    const parsed = parseInitializeResponse(
      {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: { name: 'Air\u202Elock', title: 'Airlock\u200B', version: '1\u2066.0' },
        authMethods: [{ id: 'x\u202E', name: 'Sign in\u202E', description: 'Prose\u200D kept' }],
      },
      spec,
    );
    expect(parsed.identity).toMatchObject({
      name: 'Air⟨U+202E⟩lock',
      title: 'Airlock⟨U+200B⟩',
      version: '1⟨U+2066⟩.0',
    });
    // The id goes back to the agent as it came; the description is prose.
    expect(parsed.authMethods[0]).toMatchObject({
      id: 'x\u202E',
      name: 'Sign in⟨U+202E⟩',
      description: 'Prose\u200D kept',
    });
  });
});
