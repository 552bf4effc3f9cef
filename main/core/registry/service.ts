/**
 * The ACP registry in the app: the catalogue's calls (list, refresh, install, cancel, update,
 * remove), and the `prepare` step that turns a settings entry `{ "type": "registry" }` into the
 * command that runs it, installing the agent's archive first when it is a binary not yet here.
 *
 * The registry is fetched by the client (client.ts), archives are unpacked by the installer
 * (install/installer.ts) under `<config folder>/agents`, and a catalogue install writes the
 * entry into the settings file as Zed writes it (settings-entry.ts), keeping the file's
 * comments. An install runs once per agent at a time: the catalogue's Install and a session
 * starting the agent share it, and its progress goes to both.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CallResponse } from '../../../preload/shared/contract.js';
import type {
  RegistryAgentView,
  RegistryListing,
  RegistryProgress,
} from '../../../preload/shared/registry-view.js';
import type { AgentSpec } from '../agents/spec.js';
import { UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import { editSettingsFile } from '../settings/file.js';
import { RegistryClient, registryUrl, type RegistryState } from './client.js';
import { currentPlatform, type Platform, type RegistryAgent } from './format.js';
import { AgentInstaller, type InstalledAgent } from './install/installer.js';
import { chooseDistribution, launchPlan } from './install/launch.js';
import {
  addRegistryEntry,
  registryEntries,
  registryUrlSetting,
  removeRegistryEntry,
} from './settings-entry.js';
import { megabytes, viewOf } from './view.js';

/** What the registry service needs from the core. */
export type RegistryServiceOptions = {
  settingsPath: string;
  /** Loads the settings file again (and tells the UI when the agents changed). */
  reload: () => Promise<void>;
  /** Sends an install's progress to the UI. */
  progress: (progress: RegistryProgress) => void;
  /** The platform to install for; this machine's by default. */
  platform?: Platform;
  /** The environment `AIRLOCK_REGISTRY_URL` is read from; the process's by default. */
  env?: NodeJS.ProcessEnv;
};

/** The least time between two progress events of one install, in ms. */
const PROGRESS_EVERY_MS = 100;

type ProgressListener = (progress: { received: number; total?: number }) => void;

/** One install under way: its cancel, who follows its progress, and its end. */
type Running = {
  abort: AbortController;
  listeners: Set<ProgressListener>;
  done: Promise<InstalledAgent>;
};

/** The registry's side of the core. One per core. */
export class RegistryService {
  private readonly client: RegistryClient;
  private readonly installer: AgentInstaller;
  private readonly platform: Platform | undefined;
  private readonly running = new Map<string, Running>();
  /** The settings file's `agent_registry_url` as last read. */
  private urlSetting: string | undefined;

  constructor(private readonly options: RegistryServiceOptions) {
    const config = dirname(options.settingsPath);
    const env = options.env ?? process.env;
    this.platform = options.platform ?? currentPlatform();
    this.client = new RegistryClient({
      url: () => registryUrl(env, this.urlSetting),
      cacheDir: join(config, 'registry'),
    });
    this.installer = new AgentInstaller({
      agentsDir: join(config, 'agents'),
      ...(this.platform ? { platform: this.platform } : {}),
    });
  }

  /** The catalogue's calls (`registry:*`). */
  readonly handlers: Handlers<
    | 'registry:list'
    | 'registry:refresh'
    | 'registry:install'
    | 'registry:cancelInstall'
    | 'registry:update'
    | 'registry:remove'
  > = {
    'registry:list': async () => this.listing(await this.withSettings(() => this.client.current())),
    'registry:refresh': async () =>
      this.listing(await this.withSettings(() => this.client.refresh())),
    'registry:install': ({ id }) => this.install(id),
    'registry:cancelInstall': async ({ id }) => {
      this.running.get(id)?.abort.abort();
      return {};
    },
    'registry:update': async ({ id }) => {
      await this.update(id);
      return {};
    },
    'registry:remove': async ({ id }) => {
      await this.remove(id);
      return {};
    },
  };

  /**
   * The spec of a registry agent ready to launch: its command, arguments and environment from
   * the registry (the entry's own `env` over the registry's), its binary installed first when
   * it is not here yet, each step told through `report`.
   */
  async prepare(spec: AgentSpec, report: (line: string) => void): Promise<AgentSpec> {
    const id = spec.registry?.id ?? spec.name;
    const agent = await this.find(id);
    const availability = chooseDistribution(agent, this.platform);
    if (!availability.ok) {
      throw new UserFacingError(
        `${agent.name} cannot run on this computer: ${availability.reason}`,
      );
    }
    let installed: InstalledAgent | undefined;
    if (availability.kind === 'binary') {
      installed = await this.installer.installed(id);
      if (!installed) {
        report(`Installing ${agent.name} ${agent.version}…`);
        installed = await this.runInstall(agent, ({ received, total }) =>
          report(
            `Installing ${agent.name} ${agent.version}: ${megabytes(received)}${total === undefined ? '' : ` of ${megabytes(total)}`} MB…`,
          ),
        );
      }
    }
    const plan = await launchPlan(
      agent,
      installed,
      this.platform ? { platform: this.platform } : {},
    );
    return {
      ...spec,
      command: plan.command,
      args: plan.args,
      env: { ...plan.env, ...spec.env },
    };
  }

  /** Cancels every install under way. */
  dispose(): void {
    for (const { abort } of this.running.values()) {
      abort.abort();
    }
  }

  /** Installs agent `id`: its archive when it is a binary, then its settings entry. */
  private async install(id: string): Promise<CallResponse<'registry:install'>> {
    const agent = await this.find(id);
    const availability = chooseDistribution(agent, this.platform);
    if (!availability.ok) {
      throw new UserFacingError(
        `${agent.name} cannot run on this computer: ${availability.reason}`,
      );
    }
    if (availability.kind === 'binary' && !(await this.installer.installed(id))) {
      await this.runInstall(agent);
    }
    await editSettingsFile(this.options.settingsPath, (text) =>
      addRegistryEntry(text, id, agent.name),
    );
    await this.options.reload();
    return { agentName: id };
  }

  /** Installs the registry's version of agent `id`, then removes the versions before it. */
  private async update(id: string): Promise<void> {
    const agent = await this.find(id);
    const availability = chooseDistribution(agent, this.platform);
    if (!availability.ok || availability.kind !== 'binary') {
      // npx and uvx fetch the registry's version themselves; nothing is kept here to update.
      return;
    }
    const installed = await this.installer.installed(id);
    if (installed?.version === agent.version) {
      return;
    }
    const fresh = await this.runInstall(agent);
    await this.installer.removeOtherVersions(id, fresh.version);
  }

  /** Removes agent `id`'s settings entry and its installed files. */
  private async remove(id: string): Promise<void> {
    this.running.get(id)?.abort.abort();
    await editSettingsFile(this.options.settingsPath, (text) => removeRegistryEntry(text, id));
    await this.installer.remove(id);
    await this.options.reload();
  }

  /**
   * Installs the agent's archive, or joins the install of it under way; progress goes to the UI
   * (at most every {@link PROGRESS_EVERY_MS}) and to `onProgress`.
   */
  private async runInstall(
    agent: RegistryAgent,
    onProgress?: ProgressListener,
  ): Promise<InstalledAgent> {
    let running = this.running.get(agent.id);
    if (!running) {
      const abort = new AbortController();
      const listeners = new Set<ProgressListener>();
      let last = 0;
      let received = 0;
      let total: number | undefined;
      let trailing: NodeJS.Timeout | undefined;
      // At most one report each PROGRESS_EVERY_MS, and the latest always reported in the end.
      const send = () => {
        clearTimeout(trailing);
        trailing = undefined;
        last = Date.now();
        const progress = { received, ...(total === undefined ? {} : { total }) };
        this.options.progress({ id: agent.id, ...progress });
        for (const listener of listeners) {
          listener(progress);
        }
      };
      const done = this.installer
        .install(agent, {
          signal: abort.signal,
          onProgress: (progress) => {
            received = progress.received;
            total = progress.total;
            const wait = last + PROGRESS_EVERY_MS - Date.now();
            if (wait <= 0) {
              send();
            } else {
              trailing ??= setTimeout(send, wait);
            }
          },
        })
        .finally(() => clearTimeout(trailing))
        .then(
          (installed) => {
            this.options.progress({ id: agent.id, received, total, done: true });
            return installed;
          },
          (error: unknown) => {
            const message = abort.signal.aborted
              ? `The install of ${agent.name} was cancelled.`
              : error instanceof UserFacingError
                ? error.message
                : `${agent.name} could not be installed.`;
            this.options.progress({ id: agent.id, received, total, error: message });
            throw new UserFacingError(message);
          },
        )
        .finally(() => this.running.delete(agent.id));
      running = { abort, listeners, done };
      this.running.set(agent.id, running);
    }
    if (onProgress) {
      running.listeners.add(onProgress);
    }
    return running.done;
  }

  /** The registry's agent `id`, fetching the registry anew when the copy here lacks it. */
  private async find(id: string): Promise<RegistryAgent> {
    const current = await this.withSettings(() => this.client.current());
    const known = current.registry.agents.find((agent) => agent.id === id);
    if (known) {
      return known;
    }
    const fresh = await this.client.refresh();
    const found = fresh.registry.agents.find((agent) => agent.id === id);
    if (!found) {
      throw new UserFacingError(
        `The ACP registry has no agent "${id}"${fresh.problem ? ` (${fresh.problem})` : ''}.`,
      );
    }
    return found;
  }

  /** Reads the settings file's registry address first, then runs `step`. */
  private async withSettings<T>(step: () => Promise<T>): Promise<T> {
    this.urlSetting = registryUrlSetting(await this.settingsText());
    return step();
  }

  private async settingsText(): Promise<string> {
    return readFile(this.options.settingsPath, 'utf8').catch(() => '');
  }

  /** The catalogue as the UI shows it. */
  private async listing(state: RegistryState): Promise<RegistryListing> {
    const entries = registryEntries(await this.settingsText());
    const agents: RegistryAgentView[] = await Promise.all(
      state.registry.agents.map(async (agent) =>
        viewOf(agent, {
          availability: chooseDistribution(agent, this.platform),
          entry: entries.has(agent.id),
          installed: await this.installer.installed(agent.id).catch(() => undefined),
          icon: await this.client.icon(agent).catch(() => undefined),
        }),
      ),
    );
    return {
      agents,
      ...(state.problem === undefined ? {} : { problem: state.problem.slice(0, 2_000) }),
      source: state.source,
      ...(state.fetchedAt === undefined ? {} : { fetchedAt: Math.floor(state.fetchedAt) }),
    };
  }
}
