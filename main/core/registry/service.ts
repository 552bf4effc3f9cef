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
import {
  downloaded,
  type RegistryAgentView,
  type RegistryListing,
  type RegistryProgress,
} from '../../../preload/shared/registry-view.js';
import type { AgentSpec } from '../agents/spec.js';
import { UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import { revealInvisible } from '../reveal.js';
import { editSettingsFile } from '../settings/file.js';
import { RegistryClient, registryUrl, type RegistryState } from './client.js';
import { currentPlatform, type Platform, type RegistryAgent } from './format.js';
import { AgentInstaller, type InstalledAgent } from './install/installer.js';
import { InstallRuns } from './install-runs.js';
import { chooseDistribution, launchPlan } from './install/launch.js';
import {
  addRegistryEntry,
  registryEntries,
  registryUrlSetting,
  removeRegistryEntry,
} from './settings-entry.js';
import { viewOf } from './view.js';

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
  /** The registry copy read changed the names its agents show with (see `nameOf`). */
  namesChanged?: () => void;
};

/**
 * How the app shows an agent from the registry: with the registry's name, or, when the registry
 * copy Airlock could read does not list its id, as not in the registry.
 */
export type RegistryName = { label: string } | { missing: true };

/** How long a listing waits for an agent's icon, in ms. */
const ICON_WAIT_MS = 2_000;

/** The registry's side of the core. One per core. */
export class RegistryService {
  private readonly client: RegistryClient;
  private readonly installer: AgentInstaller;
  private readonly platform: Platform | undefined;
  private readonly runs: InstallRuns;
  /** The settings file's `agent_registry_url` as last read. */
  private urlSetting: string | undefined;
  /** Each agent's name in the registry copy last read, by id; undefined until one is read. */
  private names: ReadonlyMap<string, string> | undefined;
  /** Whether `follow` has asked the network once. */
  private followed = false;

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
    this.runs = new InstallRuns(this.installer, options.progress);
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
    'registry:list': async () => this.listing(await this.current()),
    'registry:refresh': async () => this.listing(await this.refresh()),
    'registry:install': ({ id }) => this.install(id),
    'registry:cancelInstall': async ({ id }) => {
      this.runs.cancel(id);
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
        installed = await this.runs.run(agent, ({ received, total }) =>
          report(`Installing ${agent.name} ${agent.version}: ${downloaded(received, total)}…`),
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
      launcherArgs: plan.launcherArgs,
      env: { ...plan.env, ...spec.env },
    };
  }

  /**
   * How agent `id` shows: the registry's name for it, or that the copy read lacks it; undefined
   * before any copy is read. Never waits: see `follow`.
   */
  nameOf(id: string): RegistryName | undefined {
    if (this.names === undefined) {
      return undefined;
    }
    const label = this.names.get(id);
    return label === undefined ? { missing: true } : { label };
  }

  /** What the app shows of `spec` beside its name: the contract's `label` and `notInRegistry`. */
  shown(spec: Pick<AgentSpec, 'registry'>): { label?: string; notInRegistry?: true } {
    const name = spec.registry && this.nameOf(spec.registry.id);
    if (name === undefined) {
      return {};
    }
    return 'label' in name ? { label: name.label } : { notInRegistry: true };
  }

  /**
   * Reads the registry copy on hand for the names of `ids` (the settings' registry agents), and
   * once per run fetches the registry anew in the background: `namesChanged` tells when either
   * changes what they show. Nothing is asked when there is no registry agent.
   */
  async follow(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    if (this.names === undefined) {
      await this.current().catch(() => undefined);
    }
    if (!this.followed) {
      this.followed = true;
      await this.refresh().catch(() => undefined);
    }
  }

  /** Removes agent `id`'s installed files (its settings entry is removed by the caller). */
  async removeFiles(id: string): Promise<void> {
    this.runs.cancel(id);
    await this.installer.remove(id);
  }

  /** Cancels every install under way. */
  dispose(): void {
    this.runs.dispose();
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
    // The settings file is checked before anything is downloaded: one that cannot be edited,
    // or that has an agent of the user's own by that name, is refused in words at once.
    addRegistryEntry(await this.settingsText(), id, agent.name);
    if (availability.kind === 'binary' && !(await this.installer.installed(id))) {
      await this.runs.run(agent);
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
    const fresh = await this.runs.run(agent);
    await this.installer.removeOtherVersions(id, fresh.version);
  }

  /** Removes agent `id`'s settings entry and its installed files. */
  private async remove(id: string): Promise<void> {
    this.runs.cancel(id);
    await editSettingsFile(this.options.settingsPath, (text) => removeRegistryEntry(text, id));
    await this.installer.remove(id);
    await this.options.reload();
  }

  /** The registry's agent `id`, fetching the registry anew when the copy here lacks it. */
  private async find(id: string): Promise<RegistryAgent> {
    const current = await this.current();
    const known = current.registry.agents.find((agent) => agent.id === id);
    if (known) {
      return known;
    }
    const fresh = await this.refresh();
    const found = fresh.registry.agents.find((agent) => agent.id === id);
    if (!found) {
      throw new UserFacingError(notListed(id, fresh), fresh.problem);
    }
    return found;
  }

  /**
   * The agent's icon if the client has it within {@link ICON_WAIT_MS}: a slow icon server never
   * holds the list up, and the icon it fetches meanwhile shows at the next listing.
   */
  private async iconSoon(agent: RegistryAgent): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ICON_WAIT_MS);
    });
    try {
      return await Promise.race([this.client.icon(agent).catch(() => undefined), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The registry copy on hand, its names taken. */
  private async current(): Promise<RegistryState> {
    return this.took(await this.withSettings(() => this.client.current()));
  }

  /** The registry fetched anew (or the last good copy), its names taken. */
  private async refresh(): Promise<RegistryState> {
    return this.took(await this.withSettings(() => this.client.refresh()));
  }

  /** Keeps the names of `state`'s agents, telling `namesChanged` when they differ. */
  private took(state: RegistryState): RegistryState {
    const names = new Map(
      state.registry.agents.map((agent) => [agent.id, revealInvisible(agent.name).slice(0, 200)]),
    );
    const before = this.names;
    this.names = names;
    const same =
      before !== undefined &&
      before.size === names.size &&
      [...names].every(([id, name]) => before.get(id) === name);
    if (!same) {
      this.options.namesChanged?.();
    }
    return state;
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
          icon: await this.iconSoon(agent),
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

/**
 * Why agent `id` cannot start when the registry copy on hand (`state`) does not list it, in
 * words: which copy was read, and what to do.
 */
export function notListed(id: string, state: RegistryState): string {
  const shownId = id.slice(0, 200);
  if (state.source === 'network') {
    return `${shownId} is not in the ACP registry. Check the id in your settings file.`;
  }
  const copy =
    state.source === 'snapshot' || state.fetchedAt === undefined
      ? 'the copy that came with Airlock'
      : `the copy from ${new Date(state.fetchedAt).toLocaleDateString('en-GB', {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
        })}`;
  return `${shownId} is not in the ACP registry Airlock could read (${copy}). Check the id in your settings file, or connect to the internet and try again.`;
}
