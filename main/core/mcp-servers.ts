/**
 * Which MCP servers a session is given (`mcpServers` of `session/new`, `session/load` and
 * `session/resume`), from the settings and what the agent advertised.
 *
 * ACP: every agent MUST support stdio servers, so they always go; an `http` server only to an
 * agent that advertises `mcpCapabilities.http`, an `sse` one only with `mcpCapabilities.sse`.
 * Servers left out get a line in the session's transcript saying which and why, so a tool that
 * never shows up is explained where the user looks for it. A server turned off in the settings
 * (`"enabled": false`) is the user's choice and is left out silently.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { createHash } from 'node:crypto';
import type { TranscriptEvent } from '../../preload/shared/contract.js';
import type { AgentCatalog } from './settings/catalog.js';
import type { AgentSpec } from './agents/spec.js';
import { mergeMcpServers, type McpServerSetting } from './settings/mcp.js';

/** A transcript line about one server left out (a `system` event; its id keeps it to one line). */
export type McpNote = Extract<TranscriptEvent, { type: 'system' }> & { id: string };

/** What a session is given, and a note for each server left out. */
export type McpServersChoice = {
  mcpServers: acp.McpServer[];
  /** The servers left out, by name, with why in words. */
  leftOut: { name: string; reason: string }[];
  /** One transcript line per server left out, ready to append. */
  notes: McpNote[];
};

/** The names of the remote transports, as a sentence says them. */
const SPOKEN = { http: 'HTTP', sse: 'SSE' } as const;

/**
 * The remote MCP transports an agent takes, from its raw `agentCapabilities`. Read as sent: an
 * agent's capabilities are not validated, so only a literal `true` counts.
 */
export function mcpTransports(capabilities: unknown): { http: boolean; sse: boolean } {
  const mcp = (capabilities as { mcpCapabilities?: Record<string, unknown> | null } | undefined)
    ?.mcpCapabilities;
  return { http: mcp?.http === true, sse: mcp?.sse === true };
}

/**
 * The MCP servers for a session of agent `spec`: the catalog's global servers merged with the
 * agent's own (its own win by name; see mergeMcpServers), filtered by the agent's advertised
 * `capabilities` (the raw `agentCapabilities` of its `initialize` answer). `spec` is undefined
 * for an agent no longer in the settings: it gets the global servers.
 */
export function mcpServersFor(
  catalog: Pick<AgentCatalog, 'mcpServers'>,
  spec: Pick<AgentSpec, 'name' | 'mcpServers'> | undefined,
  capabilities: acp.AgentCapabilities | undefined,
): McpServersChoice {
  const agentName = spec?.name ?? 'the agent';
  const supports = mcpTransports(capabilities);
  const choice: McpServersChoice = { mcpServers: [], leftOut: [], notes: [] };
  const leaveOut = (server: McpServerSetting, reason: string) => {
    choice.leftOut.push({ name: server.name, reason });
    choice.notes.push({
      type: 'system',
      id: `mcp-left-out-${createHash('sha256').update(server.name).digest('hex').slice(0, 16)}`,
      text: `MCP server “${server.name}” was not given to ${agentName}: ${reason}.`,
    });
  };
  for (const server of mergeMcpServers(catalog.mcpServers ?? [], spec?.mcpServers ?? [])) {
    if (!server.enabled) {
      continue;
    }
    switch (server.transport) {
      case 'stdio':
        choice.mcpServers.push({
          name: server.name,
          command: server.command,
          args: server.args,
          env: Object.entries(server.env).map(([name, value]) => ({ name, value })),
        });
        break;
      case 'http':
      case 'sse':
        if (supports[server.transport]) {
          choice.mcpServers.push({
            type: server.transport,
            name: server.name,
            url: server.url,
            headers: Object.entries(server.headers).map(([name, value]) => ({ name, value })),
          });
        } else {
          leaveOut(
            server,
            `it is reached over ${SPOKEN[server.transport]}, and ${agentName} does not say it ` +
              `can use ${SPOKEN[server.transport]} MCP servers`,
          );
        }
        break;
      case 'extension':
        leaveOut(server, 'it is a Zed extension’s server, which Airlock cannot start');
        break;
    }
  }
  return choice;
}
