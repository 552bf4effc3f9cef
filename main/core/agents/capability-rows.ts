/**
 * Both sides' capabilities as rows a person reads (`path: value`), the same in `airlock probe`
 * and in the settings view's Test: each capability ACP defines, as yes or no, then any others.
 */

/**
 * Every agent capability Airlock knows of, in ACP's schema (SDK 2.4; `fork` is still in its
 * unstable part), so one the agent leaves out reads `no` rather than not at all.
 */
const AGENT_CAPABILITIES = [
  'loadSession',
  'sessionCapabilities.list',
  'sessionCapabilities.resume',
  'sessionCapabilities.close',
  'sessionCapabilities.fork',
  'promptCapabilities.image',
  'promptCapabilities.audio',
  'promptCapabilities.embeddedContext',
  'mcpCapabilities.http',
  'mcpCapabilities.sse',
  'auth.logout',
];

/** Every client capability ACP defines that Airlock may offer. */
const CLIENT_CAPABILITIES = [
  'fs.readTextFile',
  'fs.writeTextFile',
  'terminal',
  'elicitation.form',
  'elicitation.url',
];

/** The agent's capabilities as `path: value` rows: each one known, then any others it adds. */
export function agentCapabilityRows(value: unknown): [string, string][] {
  return capabilityRows(value, AGENT_CAPABILITIES);
}

/** What Airlock offered, as `path: value` rows: each client capability, then any others. */
export function clientCapabilityRows(value: unknown): [string, string][] {
  return capabilityRows(value, CLIENT_CAPABILITIES);
}

function capabilityRows(value: unknown, known: string[]): [string, string][] {
  const rows = known.map((path): [string, string] => {
    let at: unknown = value;
    for (const key of path.split('.')) {
      at =
        at !== null && typeof at === 'object' && !Array.isArray(at)
          ? (at as Record<string, unknown>)[key]
          : undefined;
    }
    // Absent, null and false all mean "not supported" in ACP; `{}` (or any options) means yes.
    if (at === undefined || at === null || at === false) {
      return [path, 'no'];
    }
    return [path, at === true || typeof at === 'object' ? 'yes' : JSON.stringify(at)];
  });
  const others = flattenCapabilities(value).filter(
    ([path]) => !known.some((name) => path === name || path.startsWith(`${name}.`)),
  );
  return [...rows, ...others];
}

/** Capabilities as `path: value` pairs; an empty object (a capability with no options) reads `yes`. */
export function flattenCapabilities(value: unknown, prefix = ''): [string, string][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const shown = typeof value === 'boolean' ? (value ? 'yes' : 'no') : JSON.stringify(value);
    return [[prefix, shown]];
  }
  const entries = Object.entries(value).filter(([key]) => key !== '_meta');
  if (entries.length === 0) {
    return prefix ? [[prefix, 'yes']] : [];
  }
  return entries.flatMap(([key, inner]) =>
    flattenCapabilities(inner, prefix ? `${prefix}.${key}` : key),
  );
}
