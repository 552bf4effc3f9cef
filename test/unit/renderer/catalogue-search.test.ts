import { describe, expect, it } from 'vitest';
import type { RegistryAgentView } from '../../../preload/shared/registry-view';
import { matches } from '../../../renderer/src/state/catalogue-search';

const codex: RegistryAgentView = {
  id: 'codex-acp',
  name: 'Codex CLI',
  version: '0.9.2',
  description: 'ACP adapter for the coding assistant',
  authors: ['OpenAI', 'Zed Industries'],
  distribution: 'binary',
  available: true,
  updateAvailable: false,
};

describe('matches', () => {
  it('finds an agent by its name, id, description or an author, in any case', () => {
    expect(matches(codex, 'codex')).toBe(true);
    expect(matches(codex, 'CODEX-acp')).toBe(true);
    expect(matches(codex, 'adapter')).toBe(true);
    expect(matches(codex, 'zed industries')).toBe(true);
  });

  it('needs every word, wherever each is', () => {
    expect(matches(codex, 'openai  coding')).toBe(true);
    expect(matches(codex, 'openai gemini')).toBe(false);
    expect(matches(codex, 'version 0.9.2')).toBe(false);
  });

  it('matches every agent with an empty or blank query', () => {
    expect(matches(codex, '')).toBe(true);
    expect(matches(codex, '   ')).toBe(true);
  });
});
