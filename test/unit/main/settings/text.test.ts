import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  readSettingsText,
  removeAgentServer,
  setAgentServer,
} from '../../../../main/core/settings/text.js';
import { ZED } from '../../../fixtures/zed-settings.js';

const value = (text: string) => {
  const read = readSettingsText(text);
  if (!read.ok) {
    throw new Error(`does not parse: ${JSON.stringify(read.problem)}`);
  }
  return read.value as { agent_servers: Record<string, Record<string, unknown>> };
};

describe('readSettingsText', () => {
  it('reads comments and trailing commas as Zed writes them', () => {
    expect(value(ZED).agent_servers.Codex).toEqual({ command: 'codex-acp' });
  });

  it('reads an empty file as an empty object', () => {
    expect(readSettingsText('  \n')).toEqual({ ok: true, value: {} });
  });

  it('names the line, the column and the problem in words', () => {
    expect(readSettingsText('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      ok: false,
      problem: { line: 3, column: 3, message: 'a comma is expected' },
    });
    expect(readSettingsText('{ "a": "open }')).toMatchObject({
      ok: false,
      problem: { line: 1, message: 'a string is not closed' },
    });
  });
});

describe('setAgentServer', () => {
  it("adds a new agent at the end, in the file's own indentation and trailing-comma style", () => {
    const text = setAgentServer(ZED, 'Goose', { command: 'goose', args: ['acp'], env: {} });
    expect(text).toBe(
      ZED.replace(
        '            "default_mode": "plan",\n        },\n',
        '            "default_mode": "plan",\n        },\n        "Goose": {\n            "command": "goose",\n            "args": ["acp"]\n        },\n',
      ),
    );
  });

  it('adds to a file without trailing commas without adding one', () => {
    const text = setAgentServer(
      '{\n  "agent_servers": {\n    "A": { "command": "a" }\n  }\n}\n',
      'B',
      {
        command: 'b',
        args: [],
        env: { K: 'v' },
      },
    );
    expect(text).toBe(
      '{\n  "agent_servers": {\n    "A": { "command": "a" },\n    "B": {\n      "command": "b",\n      "env": {\n        "K": "v"\n      }\n    }\n  }\n}\n',
    );
  });

  it('creates agent_servers, or the whole file, when there is none', () => {
    expect(
      setAgentServer('{\n  // mine\n  "theme": "dark"\n}\n', 'A', {
        command: 'a',
        args: [],
        env: {},
      }),
    ).toBe(
      '{\n  // mine\n  "theme": "dark",\n  "agent_servers": {\n    "A": {\n      "command": "a"\n    }\n  }\n}\n',
    );
    expect(setAgentServer('', 'A', { command: 'a', args: [], env: {} })).toBe(
      '{\n  "agent_servers": {\n    "A": {\n      "command": "a"\n    }\n  }\n}\n',
    );
    expect(setAgentServer('{}', 'A', { command: 'a', args: [], env: {} })).toBe(
      '{\n  "agent_servers": {\n    "A": {\n      "command": "a"\n    }\n  }\n}',
    );
  });

  it('changes only the values that changed, keeping comments, other keys and order', () => {
    const text = setAgentServer(ZED, 'Gemini', {
      command: 'gemini',
      args: ['--experimental-acp', '--yolo'],
      env: { GEMINI_API_KEY: 'k2', DEBUG: '1' },
    });
    expect(text).toBe(
      ZED.replace('["--experimental-acp"]', '["--experimental-acp", "--yolo"]').replace(
        '"k1"',
        '"k2"',
      ),
    );
  });

  it('removes an environment variable the user removed, and adds one they added', () => {
    const text = setAgentServer(ZED, 'Gemini', {
      command: 'gemini',
      args: ['--experimental-acp'],
      env: { DEBUG: '1', NEW: 'x' },
    });
    expect(value(text).agent_servers.Gemini).toEqual({
      command: 'gemini',
      args: ['--experimental-acp'],
      env: { DEBUG: '1', NEW: 'x' },
      default_mode: 'plan',
    });
    expect(text).toContain('// on the PATH');
  });

  it("renames in place, keeping the agent's comment and position", () => {
    const text = setAgentServer(
      ZED,
      'OpenAI Codex',
      { command: 'codex-acp', args: [], env: {} },
      'Codex',
    );
    expect(text).toBe(ZED.replace('"Codex": {', '"OpenAI Codex": {'));
    expect(Object.keys(value(text).agent_servers)).toEqual(['OpenAI Codex', 'Gemini']);
  });

  it('refuses a rename onto an agent that exists, and an agent that is gone', () => {
    expect(() =>
      setAgentServer(ZED, 'Gemini', { command: 'x', args: [], env: {} }, 'Codex'),
    ).toThrow('There is already an agent named "Gemini"');
    expect(() => setAgentServer(ZED, 'New', { command: 'x', args: [], env: {} }, 'Gone')).toThrow(
      'There is no agent named "Gone"',
    );
  });

  it('never edits text that does not parse, and says where it breaks', () => {
    expect(() =>
      setAgentServer('{ "agent_servers": { "A": { "command": "a" } ', 'B', {
        command: 'b',
        args: [],
        env: {},
      }),
    ).toThrow(/error at line 1, column \d+ \(a closing } is expected\)\. Fix it in the file first/);
    expect(() => setAgentServer('[1]', 'B', { command: 'b', args: [], env: {} })).toThrow(
      'does not hold an object',
    );
    expect(() =>
      setAgentServer('{ "agent_servers": [] }', 'B', { command: 'b', args: [], env: {} }),
    ).toThrow('"agent_servers" in the settings file is not an object');
  });

  it('keeps Windows line endings', () => {
    const text = setAgentServer(
      '{\r\n  "agent_servers": {\r\n    "A": { "command": "a" }\r\n  }\r\n}\r\n',
      'B',
      {
        command: 'b',
        args: [],
        env: {},
      },
    );
    expect(text).not.toMatch(/[^\r]\n/);
    expect(value(text).agent_servers.B).toEqual({ command: 'b' });
  });

  it('writes any name, command, arguments and environment so that they read back exactly', () => {
    const fields = fc.record({
      command: fc.string({ minLength: 1 }),
      args: fc.array(fc.string()),
      env: fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
    });
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fields, fields, (name, first, second) => {
        fc.pre(
          name !== '__proto__' &&
            !Object.hasOwn(first.env, '__proto__') &&
            !Object.hasOwn(second.env, '__proto__'),
        );
        const added = setAgentServer(
          ZED,
          name === 'Codex' || name === 'Gemini' ? `${name}!` : name,
          first,
        );
        const key = name === 'Codex' || name === 'Gemini' ? `${name}!` : name;
        expect(value(added).agent_servers[key]).toEqual(compacted(first));
        const changed = setAgentServer(added, key, second);
        expect(value(changed).agent_servers[key]).toMatchObject({
          command: second.command,
          ...(second.args.length > 0 || first.args.length > 0 ? { args: second.args } : {}),
        });
        expect(value(changed).agent_servers[key]!.env ?? {}).toEqual(second.env);
        // The other agents are untouched.
        expect(value(changed).agent_servers.Codex).toEqual({ command: 'codex-acp' });
      }),
    );
  });
});

function compacted(fields: { command: string; args: string[]; env: Record<string, string> }) {
  return {
    command: fields.command,
    ...(fields.args.length > 0 ? { args: fields.args } : {}),
    ...(Object.keys(fields.env).length > 0 ? { env: fields.env } : {}),
  };
}

describe('removeAgentServer', () => {
  it("removes the agent with the comment above it, leaving the next one's line as it was", () => {
    expect(removeAgentServer(ZED, 'Codex')).toBe(
      ZED.replace(
        '        // OpenAI\'s agent\n        "Codex": { "command": "codex-acp", },\n',
        '',
      ),
    );
  });

  it('removes the last agent, leaving valid text', () => {
    const text = removeAgentServer(ZED, 'Gemini');
    expect(value(text).agent_servers).toEqual({ Codex: { command: 'codex-acp' } });
    expect(text).toContain('"theme": "dark", // the app\'s own');
  });

  it('refuses an agent that is not there', () => {
    expect(() => removeAgentServer(ZED, 'Goose')).toThrow('There is no agent named "Goose"');
  });
});
