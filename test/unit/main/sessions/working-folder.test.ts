import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readySession, useCore } from '../../../helpers/core-harness.js';

const { start } = useCore();

describe('session:create and the working folder', () => {
  it('refuses a folder that is not an existing absolute one, before anything starts', async () => {
    const started = await start();
    const { core } = started;
    await writeFile(join(started.dir, 'notes.txt'), 'x');
    const refusals: [string, string][] = [
      ['relative/path', 'The working folder must be an absolute path (/…), not “relative/path”.'],
      [
        join(started.dir, 'missing'),
        `The working folder ${join(started.dir, 'missing')} does not exist.`,
      ],
      [
        join(started.dir, 'notes.txt'),
        `${join(started.dir, 'notes.txt')} is a file, not a folder.`,
      ],
    ];
    for (const [cwd, message] of refusals) {
      await expect(core.invoke('session:create', { agentName: 'Demo Agent', cwd })).rejects.toThrow(
        message,
      );
    }
    // No tab was made and no agent started (it would have a log).
    await expect(core.invoke('app:getState', {})).resolves.toMatchObject({ sessions: [] });
    expect(started.recorder.summaries.size).toBe(0);
    expect(existsSync(join(started.dir, 'logs'))).toBe(false);
    await expect(core.invoke('app:getRecentFolders', {})).resolves.toEqual({ folders: [] });
  });

  it('starts the session in the folder, normalised, and offers it as a recent one', async () => {
    const started = await start();
    const { core } = started;
    const first = join(started.dir, 'one');
    const second = join(started.dir, 'two');
    await mkdir(first);
    await mkdir(second);
    await readySession(core, started.recorder, 'Demo Agent', `${first}/`);
    const key = await readySession(core, started.recorder, 'Demo Agent', second);
    expect(started.recorder.summaries.get(key)?.cwd).toBe(second);
    const summaries = [...started.recorder.summaries.values()];
    expect(summaries.map((summary) => summary.cwd)).toEqual([first, second]);
    await expect(core.invoke('app:getRecentFolders', {})).resolves.toEqual({
      folders: [second, first],
    });
    // Kept in the config folder, beside the settings file.
    expect(existsSync(join(started.dir, 'recent-folders.json'))).toBe(true);
  });
});
