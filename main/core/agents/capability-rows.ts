/**
 * Both sides' capabilities, two ways: as the raw `path: value` rows `airlock probe` prints and
 * the settings view's Test keeps under Details (each capability ACP defines, as yes or no, then
 * any others), and as sentences saying what a session of the agent will offer.
 */
import type { ElicitationModes } from '../agent-connection.js';
import { mcpTransports } from '../mcp-servers.js';
import { promptAccepts } from '../prompt-content.js';
import { lastingFrom } from '../sessions/history.js';

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

/** One thing a session of this agent offers or does not, as a sentence a person reads. */
export type OfferRow = { text: string; available: boolean };

/** What {@link sessionOffers} describes: the handshake's two sides, as a session sees them. */
export type OffersInput = {
  /** The agent's raw `agentCapabilities`, read the way sessions read them. */
  capabilities: unknown;
  /** The elicitation modes a session of this agent advertises. */
  elicitation: ElicitationModes;
  /** The agent's sign-in methods, by the names the UI shows. */
  authMethods: readonly { name: string }[];
};

/**
 * What Airlock will offer a session of this agent, in sentences: each row is decided by the
 * same function the session uses (reopening and history, attachments, MCP transports, the
 * elicitation modes it advertises), so Test never says one thing while a session does another.
 */
export function sessionOffers({ capabilities, elicitation, authMethods }: OffersInput): OfferRow[] {
  const lasting = lastingFrom(capabilities);
  const prompt = promptAccepts(capabilities);
  const mcp = mcpTransports(capabilities);
  return [
    lasting.load
      ? { text: 'Can load past sessions, with their messages', available: true }
      : lasting.resume
        ? { text: 'Can resume past sessions, without their earlier messages', available: true }
        : { text: 'Cannot reopen past sessions', available: false },
    lasting.list
      ? { text: 'Lists its past sessions in a folder', available: true }
      : { text: 'Keeps no list of past sessions to pick from', available: false },
    prompt.image
      ? { text: 'Takes images as attachments', available: true }
      : { text: 'Takes no images as attachments', available: false },
    prompt.embeddedContext
      ? { text: 'Takes attached files with their contents', available: true }
      : { text: 'Takes attached files as links only, not their contents', available: true },
    elicitationOffer(elicitation),
    { text: "Reads and writes files in the session's folder", available: true },
    { text: "Runs commands in the session's folder", available: true },
    mcp.http || mcp.sse
      ? {
          text: `Takes MCP servers on this computer and over ${[mcp.http ? 'HTTP' : '', mcp.sse ? 'SSE' : ''].filter(Boolean).join(' and ')}`,
          available: true,
        }
      : { text: 'Takes MCP servers on this computer only, none over HTTP', available: true },
    authMethods.length > 0
      ? {
          text: `Signs in with: ${authMethods.map((method) => method.name).join(', ')}`,
          available: true,
        }
      : { text: 'No sign-in to set up', available: true },
  ];
}

function elicitationOffer(modes: ElicitationModes): OfferRow {
  if (modes.form && modes.url) {
    return { text: 'Asks for input with forms and web pages', available: true };
  }
  if (modes.form) {
    return {
      text: 'Asks for input with forms; web pages are turned off in the settings',
      available: true,
    };
  }
  return { text: 'Does not ask for input with forms or web pages', available: false };
}
