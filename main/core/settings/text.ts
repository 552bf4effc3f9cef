/**
 * The settings file's text, read and changed as Zed writes it: JSON with comments and trailing
 * commas (jsonc-parser, the library VS Code uses).
 *
 * A change is an edit of the text, not a rewrite of it: the user's comments, key order,
 * indentation and the rest of the file stay as they were; only the agent's own lines change.
 * Text that does not parse is never edited.
 */
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type Edit,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { UserFacingError } from '../errors.js';

/** How Zed's settings are read: comments and trailing commas allowed, an empty file is `{}`. */
const PARSE_OPTIONS = {
  allowTrailingComma: true,
  disallowComments: false,
  allowEmptyContent: true,
};

/** Where the text stops being JSON with comments, and why, in words. */
export type TextProblem = { line: number; column: number; message: string };

/** The settings text read: its value, or the first place it does not parse. */
export type ReadText = { ok: true; value: unknown } | { ok: false; problem: TextProblem };

/** Each parse error, by the name jsonc-parser gives it, in words. */
const PROBLEMS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'a number is written wrongly',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'nothing may follow the closing }',
  InvalidCommentToken: 'a comment is written wrongly',
  UnexpectedEndOfComment: 'a /* comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a \\u escape is written wrongly',
  InvalidEscapeCharacter: 'a \\ escape is not one JSON knows',
  InvalidCharacter: 'a string holds a control character (escape it)',
};

/** The 1-based line and column of an offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/**
 * The 1-based line of the value at `path` in `text`, or of its nearest ancestor the text has
 * (a missing key is reported on its object's line); undefined when the text does not parse.
 */
export function lineOfPath(text: string, path: (string | number)[]): number | undefined {
  return lineFinder(text)(path);
}

/**
 * {@link lineOfPath} for many paths of one text, parsing it once: a settings file with a problem
 * in each of a thousand entries is parsed once, not a thousand times.
 */
export function lineFinder(text: string): (path: (string | number)[]) => number | undefined {
  const root = parseTree(text, [], PARSE_OPTIONS);
  return (path) => {
    if (!root) {
      return undefined;
    }
    for (let length = path.length; length >= 0; length--) {
      const node = length === 0 ? root : findNodeAtLocation(root, path.slice(0, length));
      if (node) {
        // A property's line is its key's, where the user looks for it.
        const at = node.parent?.type === 'property' ? node.parent : node;
        return lineAndColumn(text, at.offset).line;
      }
    }
    return undefined;
  };
}

/** Reads settings text as JSON with comments; the first problem when it does not parse. */
export function readSettingsText(text: string): ReadText {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first) {
    return {
      ok: false,
      problem: {
        ...lineAndColumn(text, first.offset),
        message: PROBLEMS[printParseErrorCode(first.error)] ?? 'the text is not JSON',
      },
    };
  }
  return { ok: true, value: value ?? {} };
}

/**
 * What Airlock writes for one agent; the agent's other keys are the user's and stay.
 * `url_domains` left out is left as it is; an empty list removes it.
 */
export type AgentServerFields = {
  command: string;
  args: string[];
  env: Record<string, string>;
  url_domains?: string[];
};

/** The indentation and line ending a text already uses, for the lines an edit adds. */
type Style = { unit: string; eol: string };

function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = [...text.matchAll(/^([ \t]+)\S/gm)].map((match) => match[1]!);
  if (indents.some((indent) => indent.startsWith('\t'))) {
    return { unit: '\t', eol };
  }
  const widths = indents.map((indent) => indent.length);
  return { unit: ' '.repeat(widths.length > 0 ? Math.min(...widths) : 2), eol };
}

/** The whitespace a line starts with, for the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** A value as JSON laid out in `style`, its later lines indented by `indent`. */
function layout(value: unknown, indent: string, style: Style): string {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const inner = indent + style.unit;
    const entries = Object.entries(value).map(
      ([key, item]) => `${inner}${JSON.stringify(key)}: ${layout(item, inner, style)}`,
    );
    return entries.length === 0
      ? '{}'
      : `{${style.eol}${entries.join(`,${style.eol}`)}${style.eol}${indent}}`;
  }
  return JSON.stringify(value);
}

/** The object node at `path`, or undefined when there is none (or it is not an object). */
function objectAt(root: Node, path: string[]): Node | undefined {
  const node = path.length === 0 ? root : findNodeAtLocation(root, path);
  return node?.type === 'object' ? node : undefined;
}

/** The offset just after the comma that follows `offset` (past spaces and comments), if one does. */
function commaAfter(text: string, offset: number): number | undefined {
  const match = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*,/.exec(text.slice(offset));
  return match ? offset + match[0].length : undefined;
}

/** The edit that adds a property at the end of an object, on its own line. */
function addProperty(text: string, object: Node, key: string, value: unknown, style: Style): Edit {
  const children = object.children ?? [];
  const last = children.at(-1);
  if (!last) {
    const outer = indentAt(text, object.offset);
    const inner = outer + style.unit;
    const content = `{${style.eol}${inner}${JSON.stringify(key)}: ${layout(value, inner, style)}${style.eol}${outer}}`;
    return { offset: object.offset, length: object.length, content };
  }
  const indent = indentAt(text, last.offset);
  const property = `${JSON.stringify(key)}: ${layout(value, indent, style)}`;
  const trailing = commaAfter(text, last.offset + last.length);
  // A file that ends its properties with a comma keeps doing so.
  return trailing === undefined
    ? { offset: last.offset + last.length, length: 0, content: `,${style.eol}${indent}${property}` }
    : { offset: trailing, length: 0, content: `${style.eol}${indent}${property},` };
}

/** The edits that remove the property at `path`, keeping the next property's line as it was. */
function removeProperty(text: string, path: string[]): Edit[] {
  return modify(text, path, undefined, {}).map((edit) => {
    // Removing an object's only property leaves its trailing comma right after the `{`, which
    // does not parse: it goes too.
    const comma =
      text[edit.offset - 1] === '{' ? commaAfter(text, edit.offset + edit.length) : undefined;
    if (edit.content === '' && comma !== undefined) {
      return { ...edit, length: comma - edit.offset };
    }
    const removed = text.slice(edit.offset, edit.offset + edit.length);
    const lastBreak = removed.lastIndexOf('\n');
    // Removing the first property takes everything up to the next one; leave its line start.
    if (edit.content === '' && lastBreak >= 0 && /^[ \t]*$/.test(removed.slice(lastBreak + 1))) {
      const next = text.slice(edit.offset + edit.length);
      if (!/^\s*}/.test(next)) {
        return { ...edit, length: lastBreak };
      }
    }
    return edit;
  });
}

/** Applies edits made one at a time, each against the text the last one left. */
function editInTurn(text: string, steps: ((text: string, root: Node) => Edit[])[]): string {
  let current = text;
  for (const step of steps) {
    const root = parseTree(current, [], PARSE_OPTIONS);
    current = applyEdits(current, step(current, root ?? { type: 'object', offset: 0, length: 0 }));
  }
  return current;
}

/**
 * Throws, naming `file`, when `text` cannot be edited: it does not parse, or it is not an object
 * whose `agent_servers` (if any) is an object. Nothing is changed in that case.
 */
export function checkEditable(text: string, file = 'the settings file'): void {
  const File = `${file.charAt(0).toUpperCase()}${file.slice(1)}`;
  const read = readSettingsText(text);
  if (!read.ok) {
    const { line, column, message } = read.problem;
    throw new UserFacingError(
      `${File} has an error at line ${line}, column ${column} (${message}). ` +
        'Fix it in the file first; nothing was changed.',
    );
  }
  const value = read.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UserFacingError(
      `${File} does not hold an object ({ … }). Fix it in the file first; nothing was changed.`,
    );
  }
  const servers = (value as Record<string, unknown>).agent_servers;
  if (
    servers !== undefined &&
    (servers === null || typeof servers !== 'object' || Array.isArray(servers))
  ) {
    throw new UserFacingError(
      `"agent_servers" in ${file} is not an object. Fix it in the file first; nothing was changed.`,
    );
  }
}

/** Agent `name`'s object in the settings text, as written; undefined when there is none. */
export function serverOf(text: string, name: string): Record<string, unknown> | undefined {
  const read = readSettingsText(text);
  const servers = read.ok
    ? ((read.value as Record<string, unknown>).agent_servers as Record<string, unknown> | undefined)
    : undefined;
  const server = servers && Object.hasOwn(servers, name) ? servers[name] : undefined;
  return server !== null && typeof server === 'object' && !Array.isArray(server)
    ? (server as Record<string, unknown>)
    : undefined;
}

/**
 * The text with agent `name` set to `fields`: added at the end of `agent_servers` when it is
 * new, or changed in place (renamed from `from` when given) with its other keys, its comments
 * and its place kept. Fields left empty are not added to an agent that lacks them.
 */
export function setAgentServer(
  text: string,
  name: string,
  fields: AgentServerFields,
  from: string = name,
): string {
  checkEditable(text);
  if (text.trim() === '') {
    const style = { unit: '  ', eol: '\n' };
    return `${layout({ agent_servers: { [name]: compact(fields) } }, '', style)}\n`;
  }
  const style = styleOf(text);
  const existing = serverOf(text, from);
  if (from !== name && serverOf(text, name)) {
    throw new UserFacingError(`There is already an agent named "${name}". Choose another name.`);
  }
  if (!existing) {
    if (from !== name) {
      throw new UserFacingError(
        `There is no agent named "${from}" in the settings file any more. Reload the settings.`,
      );
    }
    return editInTurn(text, [
      (current, root) => {
        const servers = objectAt(root, ['agent_servers']);
        return servers
          ? [addProperty(current, servers, name, compact(fields), style)]
          : [addProperty(current, root, 'agent_servers', { [name]: compact(fields) }, style)];
      },
    ]);
  }
  const path = ['agent_servers', name];
  const steps: ((text: string, root: Node) => Edit[])[] = [];
  if (from !== name) {
    steps.push((_current, root) => {
      const key = findNodeAtLocation(root, ['agent_servers', from])!.parent!.children![0]!;
      return [{ offset: key.offset, length: key.length, content: JSON.stringify(name) }];
    });
  }
  const setValue = (key: string, value: unknown) =>
    steps.push((current, root) => {
      const node = findNodeAtLocation(root, [...path, key]);
      if (node) {
        const indent = indentAt(current, node.parent!.offset);
        return [
          { offset: node.offset, length: node.length, content: layout(value, indent, style) },
        ];
      }
      return [addProperty(current, objectAt(root, path)!, key, value, style)];
    });
  if (existing.command !== fields.command) {
    setValue('command', fields.command);
  }
  const args = Array.isArray(existing.args) ? existing.args : undefined;
  if (
    (args !== undefined || fields.args.length > 0) &&
    JSON.stringify(args ?? []) !== JSON.stringify(fields.args)
  ) {
    setValue('args', fields.args);
  }
  const env = existing.env;
  if (env !== null && typeof env === 'object' && !Array.isArray(env)) {
    const before = env as Record<string, unknown>;
    for (const key of Object.keys(before)) {
      if (!Object.hasOwn(fields.env, key)) {
        steps.push((current) => removeProperty(current, [...path, 'env', key]));
      }
    }
    for (const [key, value] of Object.entries(fields.env)) {
      if (before[key] !== value) {
        steps.push((current, root) => {
          const node = findNodeAtLocation(root, [...path, 'env', key]);
          return node
            ? [{ offset: node.offset, length: node.length, content: JSON.stringify(value) }]
            : [addProperty(current, objectAt(root, [...path, 'env'])!, key, value, style)];
        });
      }
    }
  } else if (Object.keys(fields.env).length > 0) {
    setValue('env', fields.env);
  }
  const domains = fields.url_domains;
  if (domains !== undefined && JSON.stringify(existing.url_domains) !== JSON.stringify(domains)) {
    if (domains.length > 0) {
      setValue('url_domains', domains);
    } else if (Object.hasOwn(existing, 'url_domains')) {
      steps.push((current) => removeProperty(current, [...path, 'url_domains']));
    }
  }
  return editInTurn(text, steps);
}

/** The text without agent `name` (and the comment lines just above it). */
export function removeAgentServer(text: string, name: string): string {
  checkEditable(text);
  if (!serverOf(text, name)) {
    throw new UserFacingError(
      `There is no agent named "${name}" in the settings file any more. Reload the settings.`,
    );
  }
  return editInTurn(text, [(current) => removeProperty(current, ['agent_servers', name])]);
}

/**
 * The text with agent `from` copied, every key of it, to a new agent `to` at the end of
 * `agent_servers`.
 */
export function copyAgentServer(text: string, from: string, to: string): string {
  checkEditable(text);
  const existing = serverOf(text, from);
  if (!existing) {
    throw new UserFacingError(
      `There is no agent named "${from}" in the settings file any more. Reload the settings.`,
    );
  }
  if (serverOf(text, to)) {
    throw new UserFacingError(`There is already an agent named "${to}". Choose another name.`);
  }
  const style = styleOf(text);
  return editInTurn(text, [
    (current, root) => [
      addProperty(current, objectAt(root, ['agent_servers'])!, to, existing, style),
    ],
  ]);
}

/**
 * The text with `ask_before_writes` set to `value`: changed in place when the file has it, else
 * added at the end of the top level, every other line kept.
 */
export function setAskBeforeWrites(text: string, value: boolean): string {
  checkEditable(text);
  if (text.trim() === '') {
    return `${JSON.stringify({ ask_before_writes: value }, null, 2)}\n`;
  }
  const style = styleOf(text);
  return editInTurn(text, [
    (current, root) => {
      const node = findNodeAtLocation(root, ['ask_before_writes']);
      return node
        ? [{ offset: node.offset, length: node.length, content: JSON.stringify(value) }]
        : [addProperty(current, root, 'ask_before_writes', value, style)];
    },
  ]);
}

/** The fields as written for a new agent: no empty `args`, `env` or `url_domains`. */
function compact(fields: AgentServerFields): Record<string, unknown> {
  return {
    command: fields.command,
    ...(fields.args.length > 0 ? { args: fields.args } : {}),
    ...(Object.keys(fields.env).length > 0 ? { env: fields.env } : {}),
    ...(fields.url_domains?.length ? { url_domains: fields.url_domains } : {}),
  };
}
