/**
 * The settings file on disk: changed safely, and watched for the user's own changes.
 *
 * A change is applied to the text as it is right before writing, never to an older copy, so a
 * change made meanwhile (by hand, or by Zed) is kept. Text that does not parse is never written
 * over. The new text goes to a temporary file beside the real one, which then replaces it in one
 * step: a crash leaves the old file or the new one, never half of one. A symlinked settings file
 * stays a symlink (its target is what changes), and the file keeps its permissions.
 */
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  readFile,
  readlink,
  realpath,
  rename,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UserFacingError } from '../errors.js';
import { checkEditable } from './text.js';

/** How many times an edit is applied again when the file keeps changing under it. */
const MAX_ATTEMPTS = 5;

/** The file a path names: a symlink's target (followed to the end), or the path itself. */
export async function realFile(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  // A missing file, or a symlink whose target does not exist yet: that target is created.
  let current = path;
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!(await lstat(current)).isSymbolicLink()) {
        return current;
      }
      link = await readlink(current);
    } catch {
      return current;
    }
    current = resolve(dirname(current), link);
  }
  return current;
}

/** The file's text, or undefined when it does not exist. */
async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw new UserFacingError(
      `Could not read ${path}: ${(error as Error).message}. Check the file's permissions.`,
    );
  }
}

/** The file's permission bits, or undefined when it does not exist. */
async function modeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/**
 * Changes the settings file at `path` by `edit`, which gets the current text ('' when there is
 * no file) and returns the new text. Creates the folder and the file when missing. Throws,
 * writing nothing, when the text cannot be parsed or `edit` throws.
 *
 * Returns whether the file changed.
 */
export async function editSettingsFile(
  path: string,
  edit: (text: string) => string,
): Promise<boolean> {
  const target = await realFile(path);
  const folder = dirname(target);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const before = await readText(target);
    const text = before ?? '';
    checkEditable(text, path);
    const after = edit(text);
    if (after === text && before !== undefined) {
      return false;
    }
    await mkdir(folder, { recursive: true });
    const mode = await modeOf(target);
    const temporary = join(folder, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, after, { flag: 'wx', mode: mode ?? 0o600 });
      // writeFile's mode is masked by the umask; the file keeps exactly the mode it had.
      if (mode !== undefined) {
        await chmod(temporary, mode);
      }
      // The last look before replacing: text changed since it was read is edited anew.
      if ((await readText(target)) !== before) {
        continue;
      }
      await rename(temporary, target);
      return true;
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }
  throw new UserFacingError(
    `${path} kept changing while Airlock was saving; nothing was changed. Try again.`,
  );
}

/** Watches the settings file; `close` stops it. */
export type SettingsWatcher = { close(): void };

/**
 * Calls `onChange` after the settings file may have changed: created, written, replaced (as
 * editors save, by renaming a new file over it) or removed. The folder is watched, not the
 * file, since a file replaced by a rename is a new file; for a symlink, its target's folder
 * too. Changes that come while `settle` waits (50 ms: an editor writing in steps), or while
 * `onChange` runs, are coalesced into one call after them.
 */
export function watchSettings(
  path: string,
  onChange: () => Promise<void>,
  settle: () => Promise<void> = () => new Promise((done) => setTimeout(done, 50)),
): SettingsWatcher {
  const watchers: FSWatcher[] = [];
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const run = async () => {
    do {
      again = false;
      await settle();
      if (closed) {
        break;
      }
      await onChange().catch(() => undefined);
    } while (again && !closed);
    running = undefined;
  };
  const changed = () => {
    if (closed) {
      return;
    }
    if (running) {
      again = true;
      return;
    }
    running = run();
  };
  const watchFolder = (folder: string, names: Set<string>) => {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        // Without a name (some platforms), any change in the folder may be the file's.
        if (name === null || names.has(name.toString())) {
          changed();
        }
      });
      watcher.on('error', () => undefined);
      watchers.push(watcher);
    } catch {
      // A folder that cannot be watched: changes are picked up at the next start.
    }
  };
  void (async () => {
    await mkdir(dirname(path), { recursive: true }).catch(() => undefined);
    const target = await realFile(path).catch(() => path);
    if (closed) {
      return;
    }
    const folders = new Map<string, Set<string>>();
    for (const file of new Set([path, target])) {
      const names = folders.get(dirname(file)) ?? new Set<string>();
      names.add(basename(file));
      folders.set(dirname(file), names);
    }
    for (const [folder, names] of folders) {
      watchFolder(folder, names);
    }
    // Anything that changed while the watch was being set up.
    changed();
  })();
  return {
    close() {
      closed = true;
      for (const watcher of watchers) {
        watcher.close();
      }
    },
  };
}
