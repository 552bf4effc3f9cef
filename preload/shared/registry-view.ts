/**
 * The contract's part about the ACP agent registry's catalogue: the agents it lists as the UI
 * shows them, and the progress of an install. Imports only zod, as the contract does.
 *
 * Everything here comes from the registry, which is not trusted: every string is bounded, and
 * the UI shows each as text. An icon is only ever an SVG as a `data:` URL (shown in an `<img>`,
 * where an SVG runs no script and loads nothing), a repository only an https address.
 */
import { z } from 'zod';

/** The most agents one catalogue answer lists. */
export const MAX_CATALOGUE_AGENTS = 1_000;
/** The longest icon, as a `data:` URL (64 KB of SVG in base64, and its prefix). */
export const MAX_ICON_URL_CHARS = 90_000;

const label = z.string().min(1).max(200);
const words = z.string().max(2_000);

/** A registry id, as the registry writes them (`codex-acp`). */
export const RegistryId = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9-]*$/);

/** How the agent runs on this machine: its platform's archive, or its npm or PyPI package. */
export const DistributionKind = z.enum(['binary', 'npx', 'uvx']);
export type DistributionKind = z.infer<typeof DistributionKind>;

/** One agent of the registry, as the catalogue shows it. */
export const RegistryAgentView = z.object({
  id: RegistryId,
  name: label,
  version: label,
  description: words,
  authors: z.array(label).max(50),
  license: label.optional(),
  /** Its source, an https address (opened only through the link consent). */
  repository: z
    .string()
    .max(2_048)
    .regex(/^https:\/\//)
    .optional(),
  /** Its icon: an SVG as a base64 `data:` URL, nothing else. */
  iconUrl: z
    .string()
    .max(MAX_ICON_URL_CHARS)
    .regex(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/)
    .optional(),
  /** The distribution this machine would use (the first the registry offers when none fits). */
  distribution: DistributionKind,
  /** Whether this machine can run it; when not, `unavailableReason` says why, in words. */
  available: z.boolean(),
  unavailableReason: words.optional(),
  /**
   * Present when the settings file has it as a registry agent (and, for a binary, its archive
   * is unpacked here): the version installed, or the registry's for npx and uvx, which fetch it.
   */
  installed: z.object({ version: label }).optional(),
  /** Whether the registry has a newer version than the one unpacked here. */
  updateAvailable: z.boolean(),
});
export type RegistryAgentView = z.infer<typeof RegistryAgentView>;

/** The catalogue: the agents, where the list came from, and why it could not be refreshed. */
export const RegistryListing = z.object({
  agents: z.array(RegistryAgentView).max(MAX_CATALOGUE_AGENTS),
  /** Why the registry could not be fetched anew, in words; the list is the last good copy. */
  problem: words.optional(),
  /** `network`: fetched now; `cache`: the last copy fetched; `snapshot`: the one Airlock ships. */
  source: z.enum(['network', 'cache', 'snapshot']),
  /** When the list was fetched, in ms since the epoch. */
  fetchedAt: z.number().int().nonnegative().optional(),
});
export type RegistryListing = z.infer<typeof RegistryListing>;

/** Which agent a catalogue call is about. */
export const RegistryAgentRequest = z.object({ id: RegistryId }).strict();

/**
 * An install's progress: bytes received of `total` (when the server says), then `done`, or an
 * `error` in words (a cancelled install says so).
 */
export const RegistryProgress = z.object({
  id: RegistryId,
  received: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().optional(),
  done: z.boolean().optional(),
  error: words.optional(),
});
export type RegistryProgress = z.infer<typeof RegistryProgress>;

/**
 * How much of a download has come, in words: "3.1 of 12.4 MB", "120 of 480 KB", or "3.1 MB"
 * when the size is not known. Both numbers take the unit of the larger.
 */
export function downloaded(received: number, total?: number): string {
  const largest = Math.max(received, total ?? 0);
  const [divisor, unit, digits] =
    largest >= 1_000_000 ? [1_000_000, 'MB', 1] : [1_000, 'KB', largest >= 10_000 ? 0 : 1];
  const amount = (bytes: number) => (bytes / divisor).toFixed(digits);
  return `${amount(received)}${total === undefined ? '' : ` of ${amount(total)}`} ${unit}`;
}
