/**
 * A registry agent's settings entry, written as Zed writes it into any shape of settings text:
 * an empty file, one without `agent_servers`, trailing commas, tabs, and comments kept.
 */
import { describe, expect, it } from 'vitest';
import {
  addRegistryEntry,
  registryEntries,
  registryUrlSetting,
  removeRegistryEntry,
} from '../../../../../main/core/registry/settings-entry';
import { readSettingsText } from '../../../../../main/core/settings/text';

const value = (text: string) => {
  const read = readSettingsText(text);
  if (!read.ok) {
    throw new Error(`does not parse: ${read.problem.message}`);
  }
  return read.value;
};

describe('addRegistryEntry', () => {
  it('writes a whole file when there is none', () => {
    const text = addRegistryEntry('', 'codex-acp', 'Codex');
    expect(value(text)).toEqual({ agent_servers: { 'codex-acp': { type: 'registry' } } });
  });

  it('adds agent_servers to a file without it, keeping its lines', () => {
    const before = '{\n  // the theme\n  "theme": "dark"\n}\n';
    const text = addRegistryEntry(before, 'codex-acp', 'Codex');
    expect(text).toBe(
      '{\n  // the theme\n  "theme": "dark",\n  "agent_servers": { "codex-acp": { "type": "registry" } }\n}\n',
    );
  });

  it('adds to an empty agent_servers and after a trailing comma, with tabs', () => {
    expect(value(addRegistryEntry('{ "agent_servers": {} }', 'a', 'A'))).toEqual({
      agent_servers: { a: { type: 'registry' } },
    });
    const tabbed = '{\n\t"agent_servers": {\n\t\t"x": { "command": "x" },\n\t},\n}\n';
    expect(addRegistryEntry(tabbed, 'a', 'A')).toBe(
      '{\n\t"agent_servers": {\n\t\t"x": { "command": "x" },\n\t\t"a": { "type": "registry" },\n\t},\n}\n',
    );
  });

  it('leaves a registry entry already there as it is, with its env', () => {
    const before = '{ "agent_servers": { "a": { "type": "registry", "env": { "K": "v" } } } }';
    expect(addRegistryEntry(before, 'a', 'A')).toBe(before);
  });

  it('refuses a file that does not parse', () => {
    expect(() => addRegistryEntry('{ "agent_servers": ', 'a', 'A')).toThrow(/nothing was changed/);
  });
});

describe('removeRegistryEntry', () => {
  it('removes the entry and keeps the others and their comments', () => {
    const before =
      '{\n  "agent_servers": {\n    // mine\n    "x": { "command": "x" },\n    "a": { "type": "registry" }\n  }\n}\n';
    const text = removeRegistryEntry(before, 'a');
    expect(text).toContain('// mine');
    expect(value(text)).toEqual({ agent_servers: { x: { command: 'x' } } });
    expect(removeRegistryEntry(text, 'a')).toBe(text);
  });

  it('refuses to remove an agent of the user’s own', () => {
    expect(() =>
      removeRegistryEntry('{ "agent_servers": { "x": { "command": "x" } } }', 'x'),
    ).toThrow(/one of your own/);
  });
});

describe('registryEntries and registryUrlSetting', () => {
  it('reads the registry agents and the address from the text', () => {
    const text =
      '{ "agent_registry_url": "https://r.test/r.json", "agent_servers": { "a": { "type": "registry" }, "b": { "command": "b" }, "c": null } }';
    expect([...registryEntries(text)]).toEqual(['a']);
    expect(registryUrlSetting(text)).toBe('https://r.test/r.json');
    expect(registryUrlSetting('{ "agent_registry_url": 3 }')).toBeUndefined();
    expect([...registryEntries('not json')]).toEqual([]);
  });
});
