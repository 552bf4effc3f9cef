/**
 * The text a session tab is named by: the name the user gave it, or its first prompt while the
 * agent has sent no title (a slash command by what the agent says it does). Both are put on one
 * line and bounded here, in the core, so every host shows the same name.
 */
import { MAX_SESSION_NAME_CHARS, type CommandView } from '../../preload/shared/contract.js';

/** How many characters of the first prompt a tab keeps for its name. */
export const FIRST_PROMPT_CHARS = 80;

// Control characters, line and paragraph separators, and the bidirectional controls that could
// make a name read differently from what it holds (U+061C, U+200E/F, U+202A-E, U+2066-9).
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `text` on one line: unprintable characters become spaces, runs of white space one space,
 * both ends trimmed; longer than `max` characters (code points, so no character is cut in
 * half), it is cut and ends with `…`.
 */
export function oneLine(text: string, max: number): string {
  const line = text.replace(UNPRINTABLE, ' ').replace(/\s+/gu, ' ').trim();
  const characters = Array.from(line);
  return characters.length <= max
    ? line
    : `${characters
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * The name a user typed for a tab, ready to keep; `undefined` when nothing is left of it, which
 * gives the tab back its own title.
 */
export function userTabName(typed: string): string | undefined {
  const name = oneLine(typed, MAX_SESSION_NAME_CHARS);
  return name === '' ? undefined : name;
}

/**
 * A tab's name from its first prompt; `undefined` for a prompt with no visible text. A prompt
 * that runs one of the agent's `commands` (`/help`, `/plan now`) is named by that command's
 * description, which says what the session is about better than its name does; a command the
 * agent does not list, or one it gives no description, names the tab as typed.
 */
export function firstPromptName(
  prompt: string,
  commands: readonly CommandView[],
): string | undefined {
  const invoked = /^\s*\/(\S+)/u.exec(prompt)?.[1];
  const described = commands.find((command) => command.name === invoked)?.description;
  const name = oneLine(described ?? '', FIRST_PROMPT_CHARS) || oneLine(prompt, FIRST_PROMPT_CHARS);
  return name === '' ? undefined : name;
}
