import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkEditable,
  copyAgentServer,
  lineFinder,
  lineOfPath,
  readSettingsText,
  removeAgentServer,
  serverOf,
  setAgentServer,
  setAskBeforeWrites,
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

  it('says each problem the parser finds in words, at the first one', () => {
    const problems: [string, string, number][] = [
      ['{ "a": @ }', 'unexpected character', 8],
      ['{ 1: 2 }', 'a property name in double quotes is expected', 3],
      ['{ "a": }', 'a value is expected', 8],
      ['{ "a" 1 }', 'a colon is expected', 7],
      ['{ "a": 1', 'a closing } is expected', 9],
      ['[1', 'a closing ] is expected', 3],
      ['{} {}', 'nothing may follow the closing }', 4],
      ['{ /* x', 'a /* comment is not closed', 3],
      ['{ "a": "x', 'a string is not closed', 8],
      ['{ "a": 1. }', 'a number is cut short', 8],
      ['{ "a": "\\u12" }', 'a \\u escape is written wrongly', 8],
      ['{ "a": "\\q" }', 'a \\ escape is not one JSON knows', 8],
      ['{ "a": "x\ty" }', 'a string holds a control character (escape it)', 8],
    ];
    for (const [text, message, column] of problems) {
      expect(readSettingsText(text), text).toEqual({
        ok: false,
        problem: { line: 1, column, message },
      });
    }
  });

  it('counts lines and columns from the last line break before the problem', () => {
    expect(readSettingsText('{\n  "a": 1,\n  "b": @\n}')).toEqual({
      ok: false,
      problem: { line: 3, column: 8, message: 'unexpected character' },
    });
    expect(readSettingsText('@')).toEqual({
      ok: false,
      problem: { line: 1, column: 1, message: 'unexpected character' },
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

describe('setAgentServer, in the corners of a hand-written file', () => {
  const plain = { command: 'b', args: [], env: {} };

  it('keeps a trailing comma that comes after comments, adding the new agent after it', () => {
    const text =
      '{\n  "agent_servers": {\n    "A": { "command": "a" } // first\n    /* the first */ ,\n  }\n}\n';
    expect(setAgentServer(text, 'B', plain)).toBe(
      text.replace(
        '/* the first */ ,\n',
        '/* the first */ ,\n    "B": {\n      "command": "b"\n    },\n',
      ),
    );
    const spaced = '{\n  "agent_servers": {\n    "A": { "command": "a" } ,\n  }\n}\n';
    expect(setAgentServer(spaced, 'B', plain)).toBe(
      spaced.replace('} ,\n', '} ,\n    "B": {\n      "command": "b"\n    },\n'),
    );
  });

  it('indents an agent added to an empty agent_servers by the line that opens it', () => {
    expect(setAgentServer('{\n  "agent_servers": {\n}\n}\n', 'A', plain)).toBe(
      '{\n  "agent_servers": {\n    "A": {\n      "command": "b"\n    }\n  }\n}\n',
    );
  });

  it('writes a whole file for one that holds only spaces or only a comment', () => {
    expect(setAgentServer(' \n', 'A', { ...plain, url_domains: ['x.com'] })).toBe(
      '{\n  "agent_servers": {\n    "A": {\n      "command": "b",\n      "url_domains": ["x.com"]\n    }\n  }\n}\n',
    );
    expect(setAgentServer('// only a comment\n', 'A', plain)).toBe(
      '{\n  "agent_servers": {\n    "A": {\n      "command": "b"\n    }\n  }\n}// only a comment\n',
    );
  });

  it('writes the lines it adds with the Windows line endings the file has', () => {
    expect(
      setAgentServer(
        '{\r\n  "agent_servers": {\r\n    "A": { "command": "a" }\r\n  }\r\n}\r\n',
        'B',
        { ...plain, env: { K: 'v' } },
      ),
    ).toBe(
      '{\r\n  "agent_servers": {\r\n    "A": { "command": "a" },\r\n    "B": {\r\n      "command": "b",\r\n      "env": {\r\n        "K": "v"\r\n      }\r\n    }\r\n  }\r\n}\r\n',
    );
  });

  it('leaves values that did not change exactly as written, escapes and all', () => {
    const text =
      '{ "agent_servers": { "\\u0041": { "command": "\\u0061", "args": ["\\u0078"], "env": { "K": "\\u0076" } } } }';
    const same = { command: 'a', args: ['x'], env: { K: 'v' } };
    expect(setAgentServer(text, 'A', same)).toBe(text);
    expect(setAgentServer(text, 'A', { ...same, env: { K: 'v', L: 'w' } })).toBe(
      text.replace('"\\u0076" }', '"\\u0076",\n"L": "w" }'),
    );
  });

  it('removes the only variable of an environment written with a trailing comma', () => {
    const text = '{ "agent_servers": { "A": { "command": "a", "env": { "K": "v", }, }, }, }';
    const changed = setAgentServer(text, 'A', { ...plain, command: 'a' });
    expect(changed).toBe('{ "agent_servers": { "A": { "command": "a", "env": { }, }, }, }');
    expect(readSettingsText(changed).ok).toBe(true);
  });

  it('sets the environment of an agent whose env is null', () => {
    expect(
      setAgentServer('{ "agent_servers": { "A": { "command": "a", "env": null } } }', 'A', {
        ...plain,
        command: 'a',
        env: { K: 'v' },
      }),
    ).toBe('{ "agent_servers": { "A": { "command": "a", "env": {\n  "K": "v"\n} } } }');
  });

  it('adds, changes and removes the domains, and leaves them when not given', () => {
    const text = '{\n  "agent_servers": {\n    "A": {\n      "command": "a"\n    }\n  }\n}\n';
    const added = setAgentServer(text, 'A', { ...plain, command: 'a', url_domains: ['x.com'] });
    expect(added).toBe(text.replace('"a"\n', '"a",\n      "url_domains": ["x.com"]\n'));
    const changed = setAgentServer(added, 'A', {
      ...plain,
      command: 'a',
      url_domains: ['x.com', 'y.com'],
    });
    expect(changed).toBe(added.replace('["x.com"]', '["x.com", "y.com"]'));
    expect(setAgentServer(changed, 'A', { ...plain, command: 'a' })).toBe(changed);
    expect(setAgentServer(changed, 'A', { ...plain, command: 'a', url_domains: [] })).toBe(text);
    expect(setAgentServer(text, 'A', { ...plain, command: 'a', url_domains: [] })).toBe(text);
    const spaced = '{ "agent_servers": { "A": { "command": "a", "url_domains": [ "x.com" ] } } }';
    expect(setAgentServer(spaced, 'A', { ...plain, command: 'a', url_domains: ['x.com'] })).toBe(
      spaced,
    );
  });
});

describe('removeAgentServer, wherever the agent is', () => {
  it('removes the first, a middle and the only agent, on their own lines or one line', () => {
    const three =
      '{\n  "agent_servers": {\n    "A": { "command": "a" },\n    "B": { "command": "b" },\n    "C": { "command": "c" }\n  }\n}\n';
    expect(removeAgentServer(three, 'A')).toBe(three.replace('    "A": { "command": "a" },\n', ''));
    expect(removeAgentServer(three, 'B')).toBe(three.replace('    "B": { "command": "b" },\n', ''));
    expect(removeAgentServer(three, 'C')).toBe(three.replace(',\n    "C": { "command": "c" }', ''));
    const only = '{\n  "agent_servers": {\n    "A": { "command": "a" }\n  }\n}\n';
    expect(removeAgentServer(only, 'A')).toBe('{\n  "agent_servers": {\n  }\n}\n');
    // The only agent's trailing comma goes with it: `{,` would not parse.
    expect(
      removeAgentServer('{\n  "agent_servers": {\n    "A": { "command": "a" },\n  }\n}\n', 'A'),
    ).toBe('{\n  "agent_servers": {\n  }\n}\n');
    expect(
      removeAgentServer(
        '{\n  "agent_servers": {\n    "A": { "command": "a" } /* a */ , // b\n  },\n}\n',
        'A',
      ),
    ).toBe('{\n  "agent_servers": { // b\n  },\n}\n');
    expect(removeAgentServer(ZED, 'Gemini')).toBe(
      ZED.replace(/\n {8}"Gemini": \{[\s\S]*?\n {8}\},/, ''),
    );
    const inline = '{ "agent_servers": { "A": { "command": "a" }, "B": { "command": "b" } } }';
    expect(removeAgentServer(inline, 'A')).toBe('{ "agent_servers": {"B": { "command": "b" } } }');
    expect(removeAgentServer(inline, 'B')).toBe('{ "agent_servers": { "A": { "command": "a" } } }');
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

describe('lineOfPath', () => {
  it("names the line of a value's key, or of its nearest ancestor the text has", () => {
    expect(lineOfPath(ZED, ['agent_servers', 'Gemini', 'env', 'DEBUG'])).toBe(10);
    expect(lineOfPath(ZED, ['agent_servers', 'Gemini', 'args', 0])).toBe(9);
    expect(lineOfPath(ZED, ['agent_servers', 'Gemini', 'missing', 'deeper'])).toBe(7);
    expect(lineOfPath(ZED, ['nothing'])).toBe(2);
    expect(lineOfPath(ZED, [])).toBe(2);
  });

  it('names the line of the key when its value starts on a later line', () => {
    expect(lineOfPath('{\n  "a":\n    { "b": 1 }\n}', ['a'])).toBe(2);
    expect(lineOfPath('{\n  "a":\n    { "b": 1 }\n}', ['a', 'b'])).toBe(3);
  });

  it('has no line to name in text with no value', () => {
    expect(lineOfPath('', ['agent_servers'])).toBeUndefined();
    expect(lineOfPath('// only a comment\n', [])).toBeUndefined();
  });

  it('names the lines of many paths of one text, read once', () => {
    // Keys at the very start of a line, at its end, on the first line and on the last.
    const text = '{"a": 1,\n"b": 2, "c":\n3,\n\n  "d": [\n0, 1]}';
    const lineOf = lineFinder(text);
    expect([[], ['a'], ['b'], ['c'], ['d'], ['d', 1], ['d', 5]].map(lineOf)).toEqual([
      1, 1, 2, 2, 5, 6, 5,
    ]);
    // Each line by a scan of the text up to its offset: the same, for every key of a long text.
    const long = `{${Array.from({ length: 300 }, (_, i) => `${'\n'.repeat(i % 3)}"k${i}": ${i}`).join(',')}}`;
    const findLong = lineFinder(long);
    for (let i = 0; i < 300; i++) {
      const offset = long.indexOf(`"k${i}"`);
      expect(findLong([`k${i}`])).toBe(long.slice(0, offset).split('\n').length);
    }
    expect(lineFinder('')(['a'])).toBeUndefined();
  });
});

describe('serverOf', () => {
  it("answers an agent's object as written, and nothing for what is not one", () => {
    expect(serverOf(ZED, 'Codex')).toEqual({ command: 'codex-acp' });
    expect(serverOf(ZED, 'Goose')).toBeUndefined();
    expect(serverOf(ZED, 'toString')).toBeUndefined();
    expect(serverOf('{ "agent_servers": { "A": null, "B": [], "C": "c" } }', 'A')).toBeUndefined();
    expect(serverOf('{ "agent_servers": { "A": null, "B": [], "C": "c" } }', 'B')).toBeUndefined();
    expect(serverOf('{ "agent_servers": { "A": null, "B": [], "C": "c" } }', 'C')).toBeUndefined();
    expect(serverOf('{ "theme": "dark" }', 'A')).toBeUndefined();
    expect(serverOf('{ "agent_servers": ', 'A')).toBeUndefined();
  });
});

describe('copyAgentServer', () => {
  it('copies every key of the agent to a new one at the end, in the file’s style', () => {
    expect(copyAgentServer(ZED, 'Gemini', 'Gemini 2')).toBe(
      ZED.replace(
        '            "default_mode": "plan",\n        },\n',
        '            "default_mode": "plan",\n        },\n' +
          '        "Gemini 2": {\n' +
          '            "command": "gemini",\n' +
          '            "args": ["--experimental-acp"],\n' +
          '            "env": {\n' +
          '                "GEMINI_API_KEY": "k1",\n' +
          '                "DEBUG": "1"\n' +
          '            },\n' +
          '            "default_mode": "plan"\n' +
          '        },\n',
      ),
    );
  });

  it('lays out every kind of value the agent holds as JSON', () => {
    const text =
      '{\n  "agent_servers": {\n    "A": { "command": "a", "n": null, "e": {}, "m": ["a", { "b": 1 }], "k": [1, 2], "t": true }\n  }\n}\n';
    expect(copyAgentServer(text, 'A', 'B')).toBe(
      text.replace(
        ' }\n  }',
        ' },\n    "B": {\n      "command": "a",\n      "n": null,\n      "e": {},\n      "m": ["a",{"b":1}],\n      "k": [1,2],\n      "t": true\n    }\n  }',
      ),
    );
  });

  it('indents with tabs in a file indented with tabs', () => {
    const text =
      '{\n\t"agent_servers": {\n\t\t"A": {\n\t\t\t"command": "a",\n\t\t\t"env": {"K": "v"}\n\t\t}\n\t}\n}\n';
    expect(copyAgentServer(text, 'A', 'B')).toBe(
      text.replace(
        '\t\t}\n\t}',
        '\t\t},\n\t\t"B": {\n\t\t\t"command": "a",\n\t\t\t"env": {\n\t\t\t\t"K": "v"\n\t\t\t}\n\t\t}\n\t}',
      ),
    );
  });

  it('indents with tabs when a line starts with one, spaces after it or not', () => {
    const text = '{\n\t "agent_servers": {\n\t   "A": { "command": "a" }\n\t }\n}\n';
    expect(copyAgentServer(text, 'A', 'B')).toBe(
      text.replace('"a" }\n', '"a" },\n\t   "B": {\n\t   \t"command": "a"\n\t   }\n'),
    );
  });

  it('refuses an agent that is gone, a name that is taken, and text that does not parse', () => {
    expect(() => copyAgentServer(ZED, 'Goose', 'Goose 2')).toThrow(
      'There is no agent named "Goose" in the settings file any more. Reload the settings.',
    );
    expect(() => copyAgentServer(ZED, 'Codex', 'Gemini')).toThrow(
      'There is already an agent named "Gemini". Choose another name.',
    );
    expect(() => copyAgentServer('{ "agent_servers": [] }', 'A', 'B')).toThrow('is not an object');
  });
});

describe('checkEditable', () => {
  it('names the file, capitalised where the sentence starts', () => {
    expect(() => checkEditable('{ "a": ', '/home/me/settings.json')).toThrow(
      '/home/me/settings.json has an error at line 1, column 8 (a value is expected). Fix it in the file first; nothing was changed.',
    );
    expect(() => checkEditable('{ "a": ', 'the settings file')).toThrow(
      'The settings file has an error at line 1, column 8',
    );
    expect(() => checkEditable('[]')).toThrow(
      'The settings file does not hold an object ({ … }). Fix it in the file first; nothing was changed.',
    );
    expect(() => checkEditable('{ "agent_servers": 1 }', 'my file')).toThrow(
      '"agent_servers" in my file is not an object. Fix it in the file first; nothing was changed.',
    );
  });

  it('takes an empty file, an object without agents and one with agents', () => {
    for (const text of ['', '{}', '{ "agent_servers": {} }', ZED]) {
      expect(() => checkEditable(text), text).not.toThrow();
    }
  });

  it('refuses every value that is not an object, at the top or in agent_servers', () => {
    for (const value of ['1', '"x"', '[]', 'true']) {
      expect(() => checkEditable(value), value).toThrow('does not hold an object');
    }
    for (const value of ['null', '1', '"x"', '[]', 'true']) {
      expect(() => checkEditable(`{ "agent_servers": ${value} }`), value).toThrow(
        '"agent_servers" in the settings file is not an object',
      );
    }
  });
});

describe('setAskBeforeWrites, in a file with no value', () => {
  it('writes a whole file for one that holds only spaces, and adds to one with only a comment', () => {
    expect(setAskBeforeWrites(' \n', true)).toBe('{\n  "ask_before_writes": true\n}\n');
    expect(setAskBeforeWrites('// mine\n', false)).toBe(
      '{\n  "ask_before_writes": false\n}// mine\n',
    );
  });
});
