/**
 * Installs registry agents' binaries under `<config folder>/agents/<id>/<version>/`, all or
 * nothing: an archive is downloaded and unpacked into a temporary folder beside them, checked,
 * and only then renamed into place.
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { UserFacingError } from '../../errors.js';
import { currentPlatform, type Platform, type RegistryAgent } from '../format.js';
import { cancelled, download } from './download.js';
import { commandInside } from './launch.js';
import { archiveKind, unpack, type FileWriter } from './unpack.js';
import { compareVersions } from './versions.js';

/** How far a download has come; `total` when the server says. */
export type InstallProgress = { received: number; total?: number };
/** An agent's version installed on this machine, and its folder. */
export type InstalledAgent = { id: string; version: string; folder: string };

/** The prefix of temporary folders in the agents folder; never an agent id (ids are `[a-z]…`). */
const TEMP_PREFIX = '.tmp-';
/** How old a temporary folder is before it counts as left behind. */
const STALE_MS = 24 * 60 * 60 * 1000;
/** Agent ids, as the registry format has them. */
const ID = /^[a-z][a-z0-9-]{0,63}$/;
/** Versions usable as a folder name: the format's `1.2.3…` without separators. */
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+_-]{0,100}$/;

/** The installer's settings. */
export type InstallerOptions = {
  /** `<config folder>/agents`. */
  agentsDir: string;
  /** This machine's platform in the registry's words (default: the one it runs on). */
  platform?: Platform;
  /** Writes an unpacked file (tests make it fail half-way). */
  writeFile?: FileWriter;
  /** The most bytes of one download (tests lower it). */
  maxDownloadBytes?: number;
  /** How long a server may send nothing before a download is given up (tests lower it). */
  downloadIdleMs?: number;
};

/** Downloads, unpacks, lists and removes registry agents' binaries. */
export class AgentInstaller {
  /** Installs under way, by agent id: a second call joins the first. */
  private readonly running = new Map<string, Promise<InstalledAgent>>();

  constructor(private readonly options: InstallerOptions) {}

  /** Downloads and unpacks this platform's archive into agentsDir/<id>/<version>/: all or nothing. Throws UserFacingError in words. */
  install(
    agent: RegistryAgent,
    options: { signal?: AbortSignal; onProgress?: (progress: InstallProgress) => void } = {},
  ): Promise<InstalledAgent> {
    const under = this.running.get(agent.id);
    if (under) {
      return under;
    }
    const started = this.installNow(agent, options).finally(() => this.running.delete(agent.id));
    this.running.set(agent.id, started);
    return started;
  }

  /** The newest installed version of the agent, if any. */
  async installed(id: string): Promise<InstalledAgent | undefined> {
    const versions = await this.versions(id);
    const newest = versions.sort(compareVersions).at(-1);
    return newest === undefined
      ? undefined
      : { id, version: newest, folder: join(this.options.agentsDir, id, newest) };
  }

  /** Removes every installed version of the agent. */
  async remove(id: string): Promise<void> {
    checkId(id);
    await this.discard(join(this.options.agentsDir, id));
  }

  /** Removes every version but `keep` (after a successful update). */
  async removeOtherVersions(id: string, keep: string): Promise<void> {
    for (const version of await this.versions(id)) {
      if (version !== keep) {
        await this.discard(join(this.options.agentsDir, id, version));
      }
    }
  }

  private async installNow(
    agent: RegistryAgent,
    {
      signal,
      onProgress,
    }: { signal?: AbortSignal; onProgress?: (progress: InstallProgress) => void },
  ): Promise<InstalledAgent> {
    const platform = this.options.platform ?? currentPlatform();
    const target = platform === undefined ? undefined : agent.distribution.binary?.[platform];
    if (target === undefined) {
      const other = agent.distribution.npx ? 'npx' : agent.distribution.uvx ? 'uvx' : undefined;
      throw new UserFacingError(
        other === undefined
          ? `${agent.name} is not available for this platform.`
          : `${agent.name} has nothing to download for this platform; it runs with ${other}.`,
      );
    }
    checkId(agent.id);
    if (!VERSION.test(agent.version)) {
      throw new UserFacingError(
        `${agent.name} cannot be installed: its version is not one Airlock can name a folder after.`,
      );
    }
    const kind = archiveKind(target.archive);
    if (kind === undefined) {
      throw new UserFacingError(
        `${agent.name} cannot be installed: its download is neither a .tar.gz nor a .zip archive.`,
      );
    }
    const agentDir = join(this.options.agentsDir, agent.id);
    const folder = join(agentDir, agent.version);
    const installed = { id: agent.id, version: agent.version, folder };
    if (await isComplete(folder, target.cmd)) {
      return installed;
    }
    await mkdir(this.options.agentsDir, { recursive: true });
    await this.sweepStale();
    const temp = join(this.options.agentsDir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
    await mkdir(temp);
    try {
      const archive = join(temp, `archive.${kind}`);
      const root = join(temp, 'unpacked');
      const got = await download(target.archive, archive, agent.name, {
        signal,
        onProgress,
        maxBytes: this.options.maxDownloadBytes,
        idleMs: this.options.downloadIdleMs,
      });
      if (target.sha256 !== undefined && got.sha256 !== target.sha256) {
        throw new UserFacingError(
          `The download of ${agent.name} did not match its checksum; nothing was installed.`,
          `expected sha256 ${target.sha256}, got ${got.sha256}`,
        );
      }
      await mkdir(root);
      await unpack(archive, kind, root, agent.name, { signal, write: this.options.writeFile });
      const program = await commandInside(root, target.cmd).catch(() => {
        throw new UserFacingError(
          `The archive of ${agent.name} does not hold its program ${target.cmd.slice(0, 200)}; nothing was installed.`,
        );
      });
      // A zip made without Unix modes loses the executable bit; the program named is meant to run.
      await chmod(program, 0o755);
      if (signal?.aborted) {
        throw cancelled();
      }
      await mkdir(agentDir, { recursive: true });
      // A folder of this version without its program (its cmd changed, say) is replaced whole.
      await this.discard(folder);
      try {
        await rename(root, folder);
      } catch (error) {
        // Another Airlock installed the same version meanwhile: its complete folder is kept.
        if (!(await isComplete(folder, target.cmd))) {
          throw error;
        }
      }
      return installed;
    } catch (error) {
      if (error instanceof UserFacingError) {
        throw error;
      }
      throw new UserFacingError(
        `${agent.name} could not be installed: its files could not be written to ${this.options.agentsDir}.`,
        error instanceof Error ? error.message : undefined,
      );
    } finally {
      await rm(temp, { recursive: true, force: true, maxRetries: 3 });
    }
  }

  /**
   * Removes temporary folders that an Airlock which stopped half-way (a crash, a power cut) left
   * behind; a day old, so never one an install under way is using.
   */
  private async sweepStale(): Promise<void> {
    const entries = await readdir(this.options.agentsDir).catch(() => []);
    for (const name of entries) {
      if (!name.startsWith(TEMP_PREFIX)) {
        continue;
      }
      const path = join(this.options.agentsDir, name);
      const found = await lstat(path).catch(() => undefined);
      if (found && Date.now() - found.mtimeMs > STALE_MS) {
        await rm(path, { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }

  /** The version folders of an agent (real folders only, never links). */
  private async versions(id: string): Promise<string[]> {
    checkId(id);
    const dir = join(this.options.agentsDir, id);
    const found = await lstat(dir).catch(() => undefined);
    if (!found?.isDirectory()) {
      return [];
    }
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && VERSION.test(entry.name))
      .map((entry) => entry.name);
  }

  /**
   * Removes a folder: renamed aside first, so a removal cut short never leaves a half version
   * that looks installed. A link is removed itself, never followed.
   */
  private async discard(path: string): Promise<void> {
    const aside = join(this.options.agentsDir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
    try {
      await rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return;
      }
      throw error;
    }
    await rm(aside, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Refuses an id that is not the registry format's (and so could name another path). */
function checkId(id: string): void {
  if (!ID.test(id)) {
    throw new UserFacingError('That is not a registry agent id.');
  }
}

/** Whether `folder` holds `cmd` (inside it, a file). */
async function isComplete(folder: string, cmd: string): Promise<boolean> {
  return (await commandInside(folder, cmd).catch(() => undefined)) !== undefined;
}
