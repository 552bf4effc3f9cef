/**
 * A registry agent's entry in the settings file, written as Zed writes it:
 * `"agent_servers": { "<id>": { "type": "registry" } }`.
 *
 * An edit of the text (jsonc-parser's tree, as settings/text.ts edits), so the user's
 * comments, order and indentation stay; the entry's own `env`, `default_mode` and
 * `default_model`, when the user added them, stay too.
 */
import { applyEdits, findNodeAtLocation, parseTree, type Edit, type Node } from 'jsonc-parser';
import { UserFacingError } from '../errors.js';
import { checkEditable, readSettingsText, removeAgentServer, serverOf } from '../settings/text.js';

/** The settings file's top-level key for the registry's address. */
export const REGISTRY_URL_SETTING = 'agent_registry_url';

/** The whitespace the line of `offset` starts with. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The offset just after the comma that follows `offset` (past spaces and comments), if one does. */
function commaAfter(text: string, offset: number): number | undefined {
  const match = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*,/.exec(text.slice(offset));
  return match ? offset + match[0].length : undefined;
}

/**
 * The edit that adds `"key": value` at the end of `object`, on its own line indented as the
 * property before it (a file that ends its properties with a comma keeps doing so).
 */
function addLast(text: string, object: Node, key: string, value: string): Edit {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const last = object.children?.at(-1);
  const property = `${JSON.stringify(key)}: ${value}`;
  if (!last) {
    const outer = indentAt(text, object.offset);
    const unit = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
    return {
      offset: object.offset,
      length: object.length,
      content: `{${eol}${outer}${unit}${property}${eol}${outer}}`,
    };
  }
  const indent = indentAt(text, last.offset);
  const trailing = commaAfter(text, last.offset + last.length);
  return trailing === undefined
    ? { offset: last.offset + last.length, length: 0, content: `,${eol}${indent}${property}` }
    : { offset: trailing, length: 0, content: `${eol}${indent}${property},` };
}

/** Whether agent `id` is in the settings text as a registry agent. */
export function isRegistryEntry(text: string, id: string): boolean {
  return serverOf(text, id)?.type === 'registry';
}

/** The ids of every registry agent in the settings text (none when it does not parse). */
export function registryEntries(text: string): Set<string> {
  const read = readSettingsText(text);
  const servers = read.ok ? (read.value as Record<string, unknown>).agent_servers : undefined;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    return new Set();
  }
  return new Set(
    Object.entries(servers as Record<string, unknown>).flatMap(([id, server]) =>
      server !== null &&
      typeof server === 'object' &&
      (server as Record<string, unknown>).type === 'registry'
        ? [id]
        : [],
    ),
  );
}

/** The settings text's `agent_registry_url`, when it is a string. */
export function registryUrlSetting(text: string): string | undefined {
  const read = readSettingsText(text);
  if (!read.ok || read.value === null || typeof read.value !== 'object') {
    return undefined;
  }
  const value = (read.value as Record<string, unknown>)[REGISTRY_URL_SETTING];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The text with `"<id>": { "type": "registry" }` in `agent_servers` (added at its end), or the
 * text as it is when the agent is there already. An agent of that name that is not a registry
 * agent is the user's own: refused, in words, and nothing changes.
 */
export function addRegistryEntry(text: string, id: string, name: string): string {
  checkEditable(text);
  const existing = serverOf(text, id);
  if (existing?.type === 'registry') {
    return text;
  }
  if (existing) {
    throw new UserFacingError(
      `The settings file already has an agent named "${id}" of its own, so ${name} cannot be added under that name. Rename or remove that agent first.`,
    );
  }
  if (text.trim() === '') {
    return `${JSON.stringify({ agent_servers: { [id]: { type: 'registry' } } }, null, 2)}\n`;
  }
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const servers = root && findNodeAtLocation(root, ['agent_servers']);
  const entry = `{ "type": "registry" }`;
  const edit =
    servers?.type === 'object'
      ? addLast(text, servers, id, entry)
      : root?.type === 'object'
        ? addLast(text, root, 'agent_servers', `{ ${JSON.stringify(id)}: ${entry} }`)
        : undefined;
  if (!edit) {
    throw new UserFacingError('The settings file does not hold an object ({ … }).');
  }
  return applyEdits(text, [edit]);
}

/** The text without registry agent `id`; as it is when the file does not have it. */
export function removeRegistryEntry(text: string, id: string): string {
  checkEditable(text);
  const existing = serverOf(text, id);
  if (!existing) {
    return text;
  }
  if (existing.type !== 'registry') {
    throw new UserFacingError(
      `The agent "${id}" in the settings file is one of your own, not the registry's; remove it in the agent settings.`,
    );
  }
  return removeAgentServer(text, id);
}
