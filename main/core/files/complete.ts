/**
 * The files of a session's folder that fit what the user typed after `@`, for the composer.
 *
 * The folder can be anything the user opened, a home folder or a monorepo with a million files,
 * and a completion is asked for at each pause in typing; so the walk has a budget (entries
 * visited, and time) and answers with what it found when it runs out. It goes breadth first,
 * so the files near the top are seen before deep ones; it skips hidden folders (`.git`),
 * dependency and cache folders, hidden files unless the query starts with `.`, and never
 * descends through a symlink. A symlink to a file is
 * offered only when it leads inside the folder (containment.ts): attaching it sends that file.
 */
import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileCompletion } from '../../../preload/shared/prompt-content.js';
import { MAX_COMPLETIONS } from '../../../preload/shared/prompt-content.js';
import { nodeResolver, resolveInside, type PathResolver } from './containment.js';

/** Folders never walked into: dependencies, caches and build output, often huge. */
const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__', 'bower_components', 'target']);

/** How far a completion may go before it answers with what it found. */
export type CompletionBudget = {
  /** Directory entries read, over all folders. */
  maxEntries: number;
  /** Time spent, in milliseconds. */
  maxMs: number;
  /** Paths answered. */
  limit: number;
};

/** The budget of the composer's completion: quick enough to run at each pause in typing. */
export const DEFAULT_BUDGET: CompletionBudget = {
  maxEntries: 20_000,
  maxMs: 250,
  limit: MAX_COMPLETIONS,
};

/** How a candidate fits the query; lower is better, `undefined` when it does not fit. */
export function matchRank(relative: string, query: string): number | undefined {
  const wanted = query.toLowerCase();
  if (wanted === '') {
    return 3;
  }
  const lower = relative.toLowerCase();
  const name = lower.slice(lower.lastIndexOf('/') + 1);
  if (name.startsWith(wanted)) {
    return 0;
  }
  if (name.includes(wanted)) {
    return 1;
  }
  if (lower.includes(wanted)) {
    return 2;
  }
  // Fuzzy: the query's characters in order, anywhere in the path (`cmpsr` finds composer.tsx).
  let at = 0;
  for (const char of wanted) {
    at = lower.indexOf(char, at) + 1;
    if (at === 0) {
      return undefined;
    }
  }
  return 3;
}

/** Orders candidates: by how they fit, then shallow before deep, then shorter, then by name. */
function compare(a: { rank: number; path: string }, b: { rank: number; path: string }): number {
  const depth = (p: string) => p.split('/').length;
  return (
    a.rank - b.rank ||
    depth(a.path) - depth(b.path) ||
    a.path.length - b.path.length ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
}

/**
 * The files under `root` whose relative path fits `query` (see {@link matchRank}), best first,
 * with `/` between names. `partial` says the budget ran out before the walk ended.
 */
export async function completeFiles(
  root: string,
  query: string,
  budget: CompletionBudget = DEFAULT_BUDGET,
  now: () => number = Date.now,
  fs: PathResolver = nodeResolver,
): Promise<FileCompletion> {
  const started = now();
  const found: { rank: number; path: string }[] = [];
  const queue: string[] = [''];
  let entries = 0;
  let partial = false;
  walk: while (queue.length > 0) {
    const folder = queue.shift()!;
    let dir;
    try {
      dir = await opendir(path.join(root, folder));
    } catch {
      // A folder that cannot be read (permissions, removed meanwhile) is left out.
      continue;
    }
    try {
      for await (const entry of dir) {
        entries += 1;
        if (entries > budget.maxEntries || now() - started > budget.maxMs) {
          partial = true;
          break walk;
        }
        const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) {
            queue.push(relative);
          }
          continue;
        }
        const rank = matchRank(relative, query);
        // Hidden files (`.env`) only when asked for by name.
        if (rank === undefined || (entry.name.startsWith('.') && !query.startsWith('.'))) {
          continue;
        }
        if (entry.isSymbolicLink() && !(await linksToFileInside(root, relative, fs))) {
          continue;
        }
        if (entry.isFile() || entry.isSymbolicLink()) {
          found.push({ rank, path: relative });
        }
      }
    } finally {
      // `break` closes the directory through the iterator; closing again is harmless.
      await dir.close().catch(() => undefined);
    }
  }
  found.sort(compare);
  return { paths: found.slice(0, budget.limit).map((entry) => entry.path), partial };
}

/** Whether the symlink at `relative` leads to a file inside `root` (a folder is never walked). */
async function linksToFileInside(
  root: string,
  relative: string,
  fs: PathResolver,
): Promise<boolean> {
  try {
    const real = await resolveInside(root, path.join(root, relative), path, fs);
    return (await stat(real)).isFile();
  } catch {
    return false;
  }
}
