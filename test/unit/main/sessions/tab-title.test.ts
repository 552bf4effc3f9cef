import { describe, expect, it } from 'vitest';
import {
  FIRST_PROMPT_CHARS,
  firstPromptName,
  oneLine,
  userTabName,
} from '../../../../main/core/tab-title.js';
import { MAX_SESSION_NAME_CHARS } from '../../../../preload/shared/contract.js';
import { useCore } from '../../../helpers/core-harness.js';

const { start } = useCore();

describe('oneLine', () => {
  it('puts text on one line, trimmed, with runs of white space as one space', () => {
    expect(oneLine('  fix the\n\n build \t now  ', 100)).toBe('fix the build now');
  });

  it('drops control characters and the bidirectional controls that reorder text', () => {
    expect(oneLine('a\u0000b\u202ecba\u2066x\u2069\u200fy\u2028z', 100)).toBe('a b cba x y z');
  });

  it('keeps text within the bound whole, and cuts longer text with an ellipsis', () => {
    expect(oneLine('abcde', 5)).toBe('abcde');
    expect(oneLine('abcdef', 5)).toBe('abcd…');
    expect(Array.from(oneLine('x'.repeat(1000), 80))).toHaveLength(80);
  });

  it('never cuts a character in half', () => {
    // Each emoji is two UTF-16 code units; the cut counts characters.
    const cut = oneLine('😀'.repeat(10), 4);
    expect(cut).toBe('😀😀😀…');
  });

  it('leaves no space before the ellipsis', () => {
    expect(oneLine('abc def', 5)).toBe('abc…');
  });
});

describe('userTabName', () => {
  it('keeps a name on one line and gives nothing for a blank one', () => {
    expect(userTabName(' Release\nnotes ')).toBe('Release notes');
    expect(userTabName(' \n\t ')).toBeUndefined();
    expect(userTabName('')).toBeUndefined();
  });
});

describe('firstPromptName', () => {
  const commands = [
    { name: 'help', description: 'List what the\nagent can do' },
    { name: 'plan', description: 'Show a plan', hint: 'goal' },
    { name: 'quiet', description: '  ' },
  ];

  it('is the prompt on one line, bounded', () => {
    expect(firstPromptName('Why does\nthe build fail?', [])).toBe('Why does the build fail?');
    expect(Array.from(firstPromptName('word '.repeat(100), [])!)).toHaveLength(FIRST_PROMPT_CHARS);
    expect(firstPromptName('\n\n', commands)).toBeUndefined();
  });

  it("names a slash command by the agent's description of it, on one line", () => {
    expect(firstPromptName('/help', commands)).toBe('List what the agent can do');
    expect(firstPromptName('  /plan the trip\nnow', commands)).toBe('Show a plan');
  });

  it('bounds a long description like a prompt', () => {
    const long = [{ name: 'go', description: 'word '.repeat(100) }];
    expect(Array.from(firstPromptName('/go', long)!)).toHaveLength(FIRST_PROMPT_CHARS);
  });

  it('keeps the prompt as typed for a command the agent does not list or leaves undescribed', () => {
    expect(firstPromptName('/unknown thing', commands)).toBe('/unknown thing');
    expect(firstPromptName('/quiet', commands)).toBe('/quiet');
    expect(firstPromptName('/help', [])).toBe('/help');
    expect(firstPromptName('/', commands)).toBe('/');
  });

  it('names only a prompt that starts with the command, and only by the whole name', () => {
    expect(firstPromptName('please /help', commands)).toBe('please /help');
    expect(firstPromptName('/helpme', commands)).toBe('/helpme');
    expect(firstPromptName('/ help', commands)).toBe('/ help');
  });
});

describe('session:rename', () => {
  async function demoSession() {
    const started = await start();
    const key = await started.ready();
    return { core: started.core, recorder: started.recorder, key };
  }

  it("names the tab, wins over the agent's title, and an empty name clears it", async () => {
    const { core, recorder, key } = await demoSession();
    const summary = () => recorder.summaries.get(key)!;

    await core.invoke('session:rename', { key, title: '  Release\nnotes  ' });
    await recorder.until(() => summary().userTitle === 'Release notes', 'the name');

    // The agent names the session too: both are kept, the user's is the one a tab shows.
    await core.invoke('session:prompt', { key, text: '/title Tidy the docs' });
    await recorder.event(key, 'turn_end');
    expect(summary().title).toBe('Tidy the docs');
    expect(summary().userTitle).toBe('Release notes');

    await core.invoke('session:rename', { key, title: '   ' });
    await recorder.until(() => summary().userTitle === undefined, 'the name to be cleared');
    expect(summary().title).toBe('Tidy the docs');
  });

  it('refuses a name past the bound, and a closed tab', async () => {
    const { core, key } = await demoSession();
    await expect(
      core.invoke('session:rename', { key, title: 'x'.repeat(MAX_SESSION_NAME_CHARS + 1) }),
    ).rejects.toThrow(/Invalid session:rename request/);
    await expect(core.invoke('session:rename', { key, title: 'a', extra: true })).rejects.toThrow(
      /Invalid session:rename request/,
    );
    await core.invoke('session:close', { key });
    await expect(core.invoke('session:rename', { key, title: 'late' })).rejects.toThrow(
      'That session is closed',
    );
  });

  it('keeps the first prompt, on one line, as the name to fall back on', async () => {
    const { core, recorder, key } = await demoSession();
    const summary = () => recorder.summaries.get(key)!;
    expect(summary().firstPrompt).toBeUndefined();

    await core.invoke('session:prompt', { key, text: 'Why does\nthe build fail on CI?' });
    await recorder.event(key, 'turn_end');
    expect(summary().firstPrompt).toBe('Why does the build fail on CI?');

    // A later prompt does not rename the tab.
    const ended = recorder.transcript(key).length;
    await core.invoke('session:prompt', { key, text: 'and on my machine?' });
    await recorder.event(key, 'turn_end', ended);
    expect(summary().firstPrompt).toBe('Why does the build fail on CI?');
  });

  it("names a tab whose first prompt is a slash command by the command's description", async () => {
    const { core, recorder, key } = await demoSession();
    const summary = () => recorder.summaries.get(key)!;
    await recorder.until(() => summary().commands.length > 0, 'the commands');

    await core.invoke('session:prompt', { key, text: '/help' });
    await recorder.event(key, 'turn_end');
    expect(summary().firstPrompt).toBe('List what the demo agent can do');
  });
});
