/**
 * `airlock probe`'s printing: the report the core's probe makes (main/core/agents/probe.ts), as
 * a person reads it in a terminal.
 */
import { agentCapabilityRows, clientCapabilityRows } from '../core/agents/capability-rows.js';
import { reportOffers, type ProbeAuthMethod, type ProbeReport } from '../core/agents/probe.js';

/** The report as a person reads it. */
export function formatReport(report: ProbeReport): string {
  const lines: string[] = [];
  const row = (label: string, value: string) => lines.push(`${label.padEnd(14)}${value}`);
  row('Agent', report.agent);
  row('Command', report.command);
  if (!report.ok) {
    row('Handshake', `FAILED: ${report.error ?? 'unknown error'}`);
    row('Log', report.log);
    return `${lines.join('\n')}\n`;
  }
  row('Name', report.name ?? '(not given)');
  row('Title', report.title ?? '(not given)');
  row('Version', report.version ?? '(not given)');
  row('Protocol', `ACP version ${report.protocolVersion}`);
  row('Handshake', 'ok');
  lines.push('In a session');
  for (const offer of reportOffers(report)) {
    lines.push(`  ${offer.available ? '+' : '-'} ${offer.text}`);
  }
  lines.push('Capabilities');
  for (const [path, value] of agentCapabilityRows(report.capabilities ?? {})) {
    lines.push(`  ${path}: ${value}`);
  }
  if (report.offered) {
    lines.push('Airlock offers');
    for (const [path, value] of clientCapabilityRows(report.offered)) {
      lines.push(`  ${path}: ${value}`);
    }
  }
  const methods = report.authMethods ?? [];
  lines.push('Sign-in' + (methods.length ? '' : '       none needed'));
  for (const method of methods) {
    lines.push(
      `  ${method.id}: ${method.name}${method.description ? ` (${method.description})` : ''}`,
    );
    lines.push(`    ${describeMethod(method)}`);
  }
  const servers = report.mcpServers ?? [];
  lines.push('MCP servers' + (servers.length ? '' : '   none in the settings'));
  for (const server of servers) {
    lines.push(`  ${server.name}: ${server.passed ? 'given' : 'left out'}, ${server.detail}`);
  }
  const session = report.session;
  if (session?.signedInWith) {
    row('Signed in', `with ${session.signedInWith}, from the agent's environment`);
  }
  if (session?.ok) {
    row('New session', `ok (${session.sessionId})`);
    if (session.modes.length) {
      row('  Modes', session.modes.join(', '));
    }
    if (session.configOptions.length) {
      row('  Options', session.configOptions.join(', '));
    }
  } else if (session) {
    row(
      'New session',
      `FAILED: ${session.error}${session.code === undefined ? '' : ` (${session.code})`}`,
    );
    if (session.authRequired) {
      lines.push(
        `${''.padEnd(14)}The agent needs you to sign in first; see the sign-in methods above.`,
      );
    }
  }
  row('Log', report.log);
  return `${lines.join('\n')}\n`;
}

function describeMethod(method: ProbeAuthMethod): string {
  switch (method.kind) {
    case 'env_var':
      return method.vars?.length
        ? `set ${method.vars.map((v) => `${v.name} (${v.set ? 'set now' : 'not set'})`).join(', ')} in the agent's environment`
        : 'set an environment variable the agent did not name';
    case 'terminal':
      return `run in a terminal: ${method.terminalCommand ?? '(no command given)'}`;
    case 'agent':
      return 'the agent signs you in itself (Airlock runs authenticate)';
  }
}
