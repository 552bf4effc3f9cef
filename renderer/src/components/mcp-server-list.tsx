/**
 * MCP servers from the settings file, listed for reading: each one's name, how it is reached (a
 * command the agent starts, or a URL), and its variables or headers, a secret-looking value
 * only said to be set (the core never sends it). They are changed in the settings file itself;
 * the view says where.
 */
import type { McpServerView } from '../../../preload/shared/contract';

/** How each transport reads in the list. */
const TRANSPORT = {
  stdio: 'Local (stdio)',
  http: 'Remote (HTTP)',
  sse: 'Remote (SSE)',
  extension: 'Zed extension',
} as const;

/** The list, labelled `label`; nothing when `servers` is empty. */
export function McpServerList({ servers, label }: { servers: McpServerView[]; label: string }) {
  if (servers.length === 0) {
    return null;
  }
  return (
    <ul className="mcp-server-list" aria-label={label}>
      {servers.map((server) => (
        <li key={server.name} className="mcp-server">
          <span className="mcp-server-name">{server.name}</span>{' '}
          <span className="agent-tag">{TRANSPORT[server.transport]}</span>
          {server.enabled ? null : <span className="agent-tag">Off</span>}
          <p className="mcp-server-target">
            {server.transport === 'extension' ? (
              'Airlock cannot start a Zed extension’s server; it is not given to agents.'
            ) : (
              <code>{server.url ?? [server.command ?? '', ...(server.args ?? [])].join(' ')}</code>
            )}
          </p>
          {server.values.length > 0 ? (
            <p className="mcp-server-values">
              {server.transport === 'stdio' ? 'Variables: ' : 'Headers: '}
              {server.values
                .map((value) =>
                  value.secret ? `${value.name} (hidden)` : `${value.name}=${value.value}`,
                )
                .join(', ')}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
