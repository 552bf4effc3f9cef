/**
 * The ACP agent registry's format (`registry.json`), as Airlock reads it: nothing in it is
 * trusted.
 *
 * The published file is `{ "version", "agents": [...], "extensions": [...] }` (see
 * `spec/acp-registry/FORMAT.md`). Each agent is checked on its own: one entry Airlock cannot use
 * is left out with its reason, and the others are offered. Every string is bounded, every URL
 * must be https (or http to this machine, for a registry served locally), ids are the format's
 * `^[a-z][a-z0-9-]*$`, and maps whose keys come from the file (`env`) refuse names such as
 * `__proto__` that mean something to JavaScript. Fields the format adds later are read past.
 */
import { z } from 'zod';

/** The most bytes of `registry.json` read; a bigger answer is refused, not cut. */
export const MAX_REGISTRY_BYTES = 4 * 1024 * 1024;
/** The most agents read from one registry. */
export const MAX_REGISTRY_AGENTS = 1_000;
/** The most characters of an id. */
export const MAX_ID_CHARS = 64;
/** The most characters of a name, version, license or author. */
export const MAX_LABEL_CHARS = 200;
/** The most characters of a description. */
export const MAX_DESCRIPTION_CHARS = 2_000;
/** The most characters of a URL. */
export const MAX_URL_CHARS = 2_048;
/** The most arguments, and characters of one. */
export const MAX_ARGS = 100;
export const MAX_ARG_CHARS = 2_000;
/** The most environment variables, and characters of a value. */
export const MAX_ENV = 100;
export const MAX_ENV_VALUE_CHARS = 10_000;
/** The most authors listed. */
export const MAX_AUTHORS = 50;

/** The platforms a binary distribution names. */
export const PLATFORMS = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Names that mean something to JavaScript objects and are never used as keys from a file. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether `text` is a URL Airlock fetches from: https, or http to this machine. */
export function isFetchableUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') {
    return false;
  }
  if (url.protocol === 'https:') {
    return true;
  }
  // A registry served on this machine (tests, a mirror the user runs) cannot be read by others
  // on the way; browsers treat loopback the same way.
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost')
  );
}

const label = z.string().min(1).max(MAX_LABEL_CHARS);

const fetchableUrl = z
  .string()
  .max(MAX_URL_CHARS)
  .refine(isFetchableUrl, { message: 'must be an https address' });

const args = z.array(z.string().max(MAX_ARG_CHARS)).max(MAX_ARGS);

/** Whether an object from JSON has a key such as `__proto__` of its own. */
function hasReservedKey(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.keys(value).some((key) => RESERVED_KEYS.has(key))
  );
}

const env = z
  .unknown()
  // zod would drop such a key without a word; the entry is refused instead.
  .refine((value) => !hasReservedKey(value), { message: 'names a variable __proto__ or alike' })
  .pipe(
    z.record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/, 'must be a variable name')
        .refine((name) => !RESERVED_KEYS.has(name), { message: 'is not a usable variable name' }),
      z.string().max(MAX_ENV_VALUE_CHARS),
    ),
  )
  .refine((map) => Object.keys(map).length <= MAX_ENV, {
    message: `must set at most ${MAX_ENV} variables`,
  });

/** One platform's archive, and the command inside it. */
export const BinaryTarget = z
  .object({
    archive: fetchableUrl,
    /** The command, relative to the unpacked archive (`./codex-acp`). */
    cmd: z.string().min(1).max(MAX_LABEL_CHARS),
    args: args.default([]),
    env: env.default({}),
    /** The archive's SHA-256, hex, when the registry gives it. */
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits')
      .transform((hex) => hex.toLowerCase())
      .optional(),
  })
  .loose();
export type BinaryTarget = z.infer<typeof BinaryTarget>;

/** An npm or PyPI package, run with `npx` or `uvx`. */
export const PackageDistribution = z
  .object({
    /** The package, with an optional version (`@google/gemini-cli@0.27.3`). */
    package: z
      .string()
      .min(1)
      .max(MAX_LABEL_CHARS)
      // Never an option to npx or uvx, nor a path or URL they would fetch instead.
      .regex(/^(@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.+~-]*(@[\w.+~^<>=*-]+)?$/, {
        message: 'must be a package name',
      }),
    /** The command inside the package, when it is not the package's own (`--package` / `--from`). */
    cmd: z
      .string()
      .min(1)
      .max(MAX_LABEL_CHARS)
      .regex(/^[A-Za-z0-9][\w.-]*$/)
      .optional(),
    args: args.default([]),
    env: env.default({}),
  })
  .loose();
export type PackageDistribution = z.infer<typeof PackageDistribution>;

/** How an agent is distributed: at least one of the three. */
export const Distribution = z
  .object({
    binary: z
      .partialRecord(z.enum(PLATFORMS), BinaryTarget)
      .refine((targets) => Object.keys(targets).length > 0, {
        message: 'must name at least one platform',
      })
      .optional(),
    npx: PackageDistribution.optional(),
    uvx: PackageDistribution.optional(),
  })
  .loose()
  .refine((found) => found.binary || found.npx || found.uvx, {
    message: 'must offer binary, npx or uvx',
  });
export type Distribution = z.infer<typeof Distribution>;

/** One agent of the registry. */
export const RegistryAgent = z
  .object({
    id: z
      .string()
      .max(MAX_ID_CHARS)
      .regex(/^[a-z][a-z0-9-]*$/, 'must be lowercase letters, digits and hyphens'),
    name: label,
    version: z
      .string()
      .max(MAX_LABEL_CHARS)
      .regex(/^[0-9]+\.[0-9]+\.[0-9]+/, 'must be a version such as 1.2.3'),
    description: z.string().min(1).max(MAX_DESCRIPTION_CHARS),
    repository: fetchableUrl.optional(),
    authors: z.array(label).max(MAX_AUTHORS).default([]),
    license: label.optional(),
    /** Where its icon is: an https address, or (in the bundled snapshot) a `data:` SVG. */
    icon: z
      .string()
      .max(256 * 1024)
      .optional(),
    distribution: Distribution,
  })
  .loose();
export type RegistryAgent = z.infer<typeof RegistryAgent>;

/** A registry agent left out, and why, in words. */
export type SkippedEntry = { index: number; id?: string; reason: string };

/** The registry as read: the agents Airlock can offer, and the entries it left out. */
export type Registry = {
  version: string;
  agents: RegistryAgent[];
  skipped: SkippedEntry[];
};

/** The file's outer shape; each agent is checked on its own after. */
const RegistryFile = z
  .object({
    version: z.string().max(MAX_LABEL_CHARS),
    agents: z.array(z.unknown()).max(MAX_REGISTRY_AGENTS),
  })
  .loose();

/** The words of a zod problem, with where it is ("distribution.npx.package: must be …"). */
function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) {
    return 'is not an agent entry';
  }
  const where = issue.path.map(String).join('.');
  return `${where === '' ? '' : `${where}: `}${issue.message}`.slice(0, 500);
}

/**
 * Reads a parsed `registry.json`. Throws an Error in words when the file as a whole is not a
 * registry; leaves out (into `skipped`) each agent that is not usable, and the second of two
 * entries with the same id.
 */
export function readRegistry(value: unknown): Registry {
  const file = RegistryFile.safeParse(value);
  if (!file.success) {
    throw new Error(`The registry is not in the registry format (${reasonOf(file.error)}).`);
  }
  const agents: RegistryAgent[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  file.data.agents.forEach((entry, index) => {
    const agent = RegistryAgent.safeParse(entry);
    const id =
      entry !== null &&
      typeof entry === 'object' &&
      typeof (entry as { id?: unknown }).id === 'string'
        ? ((entry as { id: string }).id.slice(0, MAX_ID_CHARS) as string)
        : undefined;
    if (!agent.success) {
      skipped.push({ index, ...(id === undefined ? {} : { id }), reason: reasonOf(agent.error) });
      return;
    }
    if (seen.has(agent.data.id)) {
      skipped.push({ index, id: agent.data.id, reason: 'the same id is listed earlier' });
      return;
    }
    seen.add(agent.data.id);
    agents.push(agent.data);
  });
  return { version: file.data.version, agents, skipped };
}

/** This machine's platform in the registry's words, or undefined for one it does not name. */
export function currentPlatform(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): Platform | undefined {
  const os = platform === 'win32' ? 'windows' : platform;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  const name = `${os}-${cpu}`;
  return (PLATFORMS as readonly string[]).includes(name) ? (name as Platform) : undefined;
}
