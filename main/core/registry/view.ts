/**
 * A registry agent as the catalogue shows it (the contract's RegistryAgentView): what it is,
 * whether this machine can run it, and whether it is installed and up to date.
 *
 * Every string comes from the registry and is already bounded by format.ts; here only what the
 * UI may show passes: a repository only when https, an icon only as a base64 SVG `data:` URL.
 */
import type { RegistryAgentView } from '../../../preload/shared/registry-view.js';
import type { RegistryAgent } from './format.js';
import type { InstalledAgent } from './install/installer.js';
import type { Availability } from './install/launch.js';

/** What the catalogue knows of one agent besides its registry entry. */
export type AgentFacts = {
  availability: Availability;
  /** Whether the settings file has it as a registry agent. */
  entry: boolean;
  /** Its newest version unpacked here, if any. */
  installed: InstalledAgent | undefined;
  /** Its icon as a `data:` URL, if the client has one. */
  icon: string | undefined;
};

const ICON = /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/;
/** The longest icon the contract carries. */
const MAX_ICON_CHARS = 90_000;

/** The catalogue's view of `agent`. */
export function viewOf(agent: RegistryAgent, facts: AgentFacts): RegistryAgentView {
  const { availability, entry, installed, icon } = facts;
  const offered = agent.distribution;
  const distribution = availability.ok
    ? availability.kind
    : offered.binary
      ? 'binary'
      : offered.npx
        ? 'npx'
        : 'uvx';
  // A binary counts as installed once its archive is unpacked here too; npx and uvx fetch the
  // registry's version themselves when they run.
  const onDisk = distribution === 'binary' ? installed : undefined;
  const isInstalled = entry && (distribution !== 'binary' || onDisk !== undefined);
  return {
    id: agent.id,
    name: agent.name,
    version: agent.version,
    description: agent.description,
    authors: agent.authors,
    ...(agent.license === undefined ? {} : { license: agent.license }),
    ...(agent.repository?.startsWith('https://') ? { repository: agent.repository } : {}),
    ...(icon !== undefined && icon.length <= MAX_ICON_CHARS && ICON.test(icon)
      ? { iconUrl: icon }
      : {}),
    distribution,
    available: availability.ok,
    ...(availability.ok ? {} : { unavailableReason: availability.reason.slice(0, 2_000) }),
    ...(isInstalled ? { installed: { version: onDisk?.version ?? agent.version } } : {}),
    updateAvailable: isInstalled && onDisk !== undefined && onDisk.version !== agent.version,
  };
}
