/**
 * The agent and folder the last session was started with, kept in the page's storage, so the
 * new-session dialog opens on them again.
 */

/** Where the choice is kept. */
export const NEW_SESSION_STORAGE_KEY = 'airlock.newSession';

/** An agent and a working folder. */
export type NewSessionChoice = { agentName: string; cwd: string };

/** The last choice, or `undefined` when none was kept (or storage is off or damaged). */
export function lastChoice(): NewSessionChoice | undefined {
  try {
    const kept: unknown = JSON.parse(
      window.localStorage.getItem(NEW_SESSION_STORAGE_KEY) ?? 'null',
    );
    if (
      typeof kept === 'object' &&
      kept !== null &&
      'agentName' in kept &&
      'cwd' in kept &&
      typeof kept.agentName === 'string' &&
      typeof kept.cwd === 'string'
    ) {
      return { agentName: kept.agentName, cwd: kept.cwd };
    }
  } catch {
    // Storage off (a locked-down browser) or a value not written here: nothing was kept.
  }
  return undefined;
}

/** Keeps `choice` as the last one. */
export function keepChoice(choice: NewSessionChoice): void {
  try {
    window.localStorage.setItem(NEW_SESSION_STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // Not remembered, and nothing else is lost.
  }
}

/**
 * What the dialog opens on: the last choice where it still holds (an agent that is still
 * configured), else the first agent and the app's default folder.
 */
export function initialChoice(
  agentNames: readonly string[],
  defaultCwd: string,
  last: NewSessionChoice | undefined = lastChoice(),
): NewSessionChoice {
  const agentName =
    last !== undefined && agentNames.includes(last.agentName) ? last.agentName : agentNames[0];
  return { agentName: agentName ?? '', cwd: last?.cwd || defaultCwd };
}
