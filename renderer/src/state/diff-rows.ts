/**
 * A tool call's diff as the lines a reader checks: each with its old and new line number, the
 * unchanged stretches between changes folded to a few lines of context.
 */
import { diffLines } from 'diff';

/** One line of a diff, or a fold standing for unchanged lines not shown. */
export type DiffRow =
  | { kind: 'added'; newLine: number; text: string }
  | { kind: 'removed'; oldLine: number; text: string }
  | { kind: 'same'; oldLine: number; newLine: number; text: string }
  /** Unchanged lines not shown; `cut`: the lines past the most a diff shows, of any kind. */
  | { kind: 'fold'; count: number; cut?: boolean };

/** A diff, ready to show. */
export type DiffRows = {
  rows: DiffRow[];
  added: number;
  removed: number;
};

/** Unchanged lines kept on each side of a change. */
export const DIFF_CONTEXT = 3;
/** Past this many characters (old and new together) a diff is not worked out in the page. */
export const MAX_DIFF_CHARS = 400_000;
/** Past this many lines shown, the rest of a diff is folded. */
export const MAX_DIFF_ROWS = 2_000;

function lines(value: string): string[] {
  return value === '' ? [] : value.replace(/\n$/, '').split('\n');
}

/**
 * Works out the rows of a diff from `oldText` (`null`: a new file) to `newText`, or nothing when
 * the texts are too long to compare here.
 */
export function diffRows(
  oldText: string | null,
  newText: string,
  context = DIFF_CONTEXT,
): DiffRows | undefined {
  if ((oldText?.length ?? 0) + newText.length > MAX_DIFF_CHARS) {
    return undefined;
  }
  const all: Exclude<DiffRow, { kind: 'fold' }>[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  for (const part of diffLines(oldText ?? '', newText)) {
    for (const text of lines(part.value)) {
      if (part.added) {
        all.push({ kind: 'added', newLine: newLine++, text });
        added++;
      } else if (part.removed) {
        all.push({ kind: 'removed', oldLine: oldLine++, text });
        removed++;
      } else {
        all.push({ kind: 'same', oldLine: oldLine++, newLine: newLine++, text });
      }
    }
  }
  return { rows: capped(folded(all, context)), added, removed };
}

/** Folds each run of unchanged lines longer than the context around the changes beside it. */
function folded(all: Exclude<DiffRow, { kind: 'fold' }>[], context: number): DiffRow[] {
  if (!all.some((row) => row.kind !== 'same')) {
    return all;
  }
  const rows: DiffRow[] = [];
  let i = 0;
  while (i < all.length) {
    if (all[i]!.kind !== 'same') {
      rows.push(all[i++]!);
      continue;
    }
    let end = i;
    while (end < all.length && all[end]!.kind === 'same') {
      end++;
    }
    // Context after the change before this run, and before the change after it.
    const keepHead = i === 0 ? 0 : context;
    const keepTail = end === all.length ? 0 : context;
    if (end - i > keepHead + keepTail + 1) {
      rows.push(...all.slice(i, i + keepHead));
      rows.push({ kind: 'fold', count: end - i - keepHead - keepTail });
      rows.push(...all.slice(end - keepTail, end));
    } else {
      rows.push(...all.slice(i, end));
    }
    i = end;
  }
  return rows;
}

function capped(rows: DiffRow[]): DiffRow[] {
  if (rows.length <= MAX_DIFF_ROWS) {
    return rows;
  }
  const rest = rows
    .slice(MAX_DIFF_ROWS)
    .reduce((count, row) => count + (row.kind === 'fold' ? row.count : 1), 0);
  return [...rows.slice(0, MAX_DIFF_ROWS), { kind: 'fold', count: rest, cut: true }];
}
