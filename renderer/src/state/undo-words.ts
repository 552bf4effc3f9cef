/**
 * What the undo of an agent's writes says to the user: the name a changed file goes by, how a
 * version of it reads, and what undoing a whole turn did.
 */
import type { FileVersionView } from '../../../preload/shared/contract';

/** The result of `files:undoTurn`. */
export type TurnUndoResult = { undone: number; changed: string[]; refused: string[] };

/** A path's last part: `/work/a/notes.txt` is `notes.txt` (either separator). */
export function pathName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}

/** The title of the dialog that asks about a file changed since the agent's write. */
export function changedTitle(path: string): string {
  return `${pathName(path)} changed since the agent wrote it`;
}

/** A version of a file as text: its text, or why there is none to show. */
export function versionText(version: FileVersionView): { text: string; plain: boolean } {
  switch (version.kind) {
    case 'text':
      return { text: version.text, plain: true };
    case 'missing':
      return { text: 'No file', plain: false };
    case 'binary':
      return {
        text: `Not text (${version.bytes} ${version.bytes === 1 ? 'byte' : 'bytes'})`,
        plain: false,
      };
  }
}

/** `a`, `a and b`, `a, b and c`. */
function joinNames(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
}

/** What undoing a turn did, in sentences: files restored, files left as changed, refusals. */
export function turnUndoSentence(result: TurnUndoResult): string {
  const parts: string[] = [];
  if (result.undone > 0) {
    parts.push(`${result.undone} ${result.undone === 1 ? 'file' : 'files'} restored.`);
  }
  if (result.changed.length > 0) {
    const one = result.changed.length === 1;
    parts.push(
      `${joinNames(result.changed.map(pathName))} changed since, so ${one ? 'it was' : 'they were'} left as ${one ? 'it is' : 'they are'}.`,
    );
  }
  parts.push(...result.refused);
  return parts.length > 0 ? parts.join(' ') : 'There was nothing left to undo in this turn.';
}
