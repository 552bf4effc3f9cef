/**
 * What the composer does with keys, as plain functions: which slash command is being typed and
 * what completes it, and stepping through the messages sent before (like a shell's history).
 */
import type { CommandView } from '../../../preload/shared/contract';

/**
 * The slash command being typed: the first word after a leading `/`, while the caret is in it.
 * `undefined` when the text is not a command or the caret has left its first word.
 */
export function slashQuery(text: string, caret: number): string | undefined {
  const word = /^\/(\S*)/.exec(text)?.[1];
  if (word === undefined || caret < 1 || caret > word.length + 1) {
    return undefined;
  }
  return word;
}

/**
 * The commands that fit `query`: those whose name starts with it first, then those that contain
 * it, each in the agent's order. Case does not matter.
 */
export function matchCommands(commands: readonly CommandView[], query: string): CommandView[] {
  const wanted = query.toLowerCase();
  const starts: CommandView[] = [];
  const contains: CommandView[] = [];
  for (const command of commands) {
    const name = command.name.toLowerCase();
    if (name.startsWith(wanted)) {
      starts.push(command);
    } else if (wanted && name.includes(wanted)) {
      contains.push(command);
    }
  }
  return [...starts, ...contains];
}

/** The text with its first word replaced by `/name ` and the caret after it. */
export function completeCommand(text: string, name: string): { text: string; caret: number } {
  const rest = text.replace(/^\/\S*/, '').trimStart();
  const head = `/${name} `;
  return { text: head + rest, caret: head.length };
}

/** Where the user is in the history: not in it, or on an entry (0 is the latest). */
export type HistoryPosition = { index: number; shown: string; saved: string } | undefined;

/**
 * The messages sent in a tab, oldest first, without a message repeated straight after itself
 * (as shells keep their history).
 */
export function historyOf(prompts: readonly string[]): string[] {
  const entries: string[] = [];
  for (const prompt of prompts) {
    if (entries.at(-1) !== prompt) {
      entries.push(prompt);
    }
  }
  return entries;
}

/**
 * Whether an arrow key moves through the history rather than the caret: Up at the very start of
 * the text, Down at its very end, or either while an entry is shown unchanged.
 */
export function arrowBrowses(
  key: 'up' | 'down',
  text: string,
  selection: { start: number; end: number },
  position: HistoryPosition,
): boolean {
  if (position !== undefined && position.shown === text) {
    return true;
  }
  if (selection.start !== selection.end) {
    return false;
  }
  return key === 'up' ? selection.start === 0 : selection.end === text.length;
}

/**
 * One step through the history: Up shows an older entry, Down a newer one and then, past the
 * latest, the text the user had before. `undefined` when there is nowhere to go.
 */
export function stepHistory(
  entries: readonly string[],
  key: 'up' | 'down',
  text: string,
  position: HistoryPosition,
): { text: string; position: HistoryPosition } | undefined {
  if (key === 'up') {
    const index = position === undefined ? 0 : position.index + 1;
    const entry = entries[entries.length - 1 - index];
    if (entry === undefined) {
      return undefined;
    }
    return { text: entry, position: { index, shown: entry, saved: position?.saved ?? text } };
  }
  if (position === undefined) {
    return undefined;
  }
  if (position.index === 0) {
    return { text: position.saved, position: undefined };
  }
  const index = position.index - 1;
  const entry = entries[entries.length - 1 - index]!;
  return { text: entry, position: { ...position, index, shown: entry } };
}
