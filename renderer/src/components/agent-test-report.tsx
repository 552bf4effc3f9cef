/**
 * What Test found about an agent, in place under it in the settings view: the same check as
 * `airlock probe`. It leads with what a session of the agent will offer, in sentences, then who
 * it is, whether a session starts (its modes and options by name), sign-in and the MCP servers a
 * session is given; the raw capability rows, the modes' and options' ids, the command, the
 * protocol version and the log sit under "Details". All
 * agent-supplied text is shown as text.
 */
import { Check, Minus } from 'lucide-react';
import type { AgentTestReport } from '../../../preload/shared/contract';
import type { AgentTest } from '../state/agent-tests';
import './agent-test-report.css';

/** What a test found, in place under its agent. */
export function TestResult({ name, test }: { name: string; test: AgentTest }) {
  return (
    <section className="agent-test" aria-label={`Test of ${name}`} aria-busy={test.busy}>
      <div role="status">
        {test.busy ? (
          <p className="agent-test-busy">
            Testing {name}: starting it and asking who it is. This can take up to a minute.
          </p>
        ) : 'error' in test ? (
          <p className="agent-test-bad">
            The test could not run: {test.error} Try again; if it goes on failing, reload the page.
          </p>
        ) : (
          <Report report={test.report} />
        )}
      </div>
    </section>
  );
}

function Report({ report }: { report: AgentTestReport }) {
  const session = report.session;
  return (
    <>
      {report.ok ? (
        <p className="agent-test-good">
          <strong>{report.agentName} started and answered.</strong>
        </p>
      ) : (
        <div className="agent-test-bad">
          <p>
            <strong>{report.agentName} did not start.</strong>
          </p>
          {report.error ? <p>{report.error}</p> : null}
          <p>Check its command and arguments (Edit), then test again; its log may say more.</p>
        </div>
      )}
      <Offers offers={report.offers ?? []} />
      <dl className="agent-test-facts">
        {!report.ok ? (
          <>
            <dt>Command</dt>
            <dd>
              <code>{report.commandLine}</code>
            </dd>
          </>
        ) : null}
        {report.name !== undefined ? (
          <>
            <dt>Agent</dt>
            <dd>
              {report.title ?? report.name}
              {report.title !== undefined && report.title !== report.name
                ? ` (${report.name})`
                : ''}
              {report.version !== undefined ? `, version ${report.version}` : ''}
            </dd>
          </>
        ) : null}
        {session ? (
          <>
            <dt>Session</dt>
            <dd className={session.ok ? 'agent-test-good' : 'agent-test-bad'}>
              <p>
                {session.ok
                  ? `A session starts${session.signedInWith ? ` (signed in with ${session.signedInWith})` : ''}.`
                  : `A session does not start: ${session.error}`}
              </p>
              {!session.ok && session.authRequired ? (
                <p>
                  It needs signing in: start a session with it and pick a sign-in method, or set the
                  variables its method names in its environment (Edit).
                </p>
              ) : null}
            </dd>
            {session.ok && session.modes.length > 0 ? (
              <>
                <dt>Modes</dt>
                <dd>{session.modes.join(', ')}</dd>
              </>
            ) : null}
            {session.ok && session.configOptions.length > 0 ? (
              <>
                <dt>Options</dt>
                <dd>{session.configOptions.join(', ')}</dd>
              </>
            ) : null}
          </>
        ) : null}
        {report.authMethods.length > 0 ? (
          <>
            <dt>Sign-in</dt>
            <dd>
              <ul className="agent-test-list">
                {report.authMethods.map((method) => (
                  <li key={method.id}>
                    {method.name}
                    {method.description ? `: ${method.description}` : ''}
                    {method.vars && method.vars.length > 0
                      ? ` (${method.vars.map((variable) => `${variable.name} ${variable.set ? 'set' : 'not set'}`).join(', ')})`
                      : ''}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        {report.mcpServers?.length ? (
          <>
            <dt>MCP servers</dt>
            <dd>
              <ul className="agent-test-list">
                {report.mcpServers.map((server) => (
                  <li key={server.name}>
                    {server.name}: {server.passed ? 'given' : 'left out'}, {server.detail}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      <details className="agent-test-details">
        <summary>Details</summary>
        <dl className="agent-test-facts">
          {report.ok ? (
            <>
              <dt>Command</dt>
              <dd>
                <code>{report.commandLine}</code>
              </dd>
            </>
          ) : null}
          {report.protocolVersion !== undefined ? (
            <>
              <dt>Protocol</dt>
              <dd>ACP version {report.protocolVersion}</dd>
            </>
          ) : null}
          {session && !session.ok && session.detail ? (
            <>
              <dt>Error</dt>
              <dd>{session.detail}</dd>
            </>
          ) : null}
          {session?.ok && session.modeIds?.length ? (
            <>
              <dt>Mode ids</dt>
              <dd>{session.modeIds.join(', ')}</dd>
            </>
          ) : null}
          {session?.ok && session.configOptionIds?.length ? (
            <>
              <dt>Option ids</dt>
              <dd>{session.configOptionIds.join(', ')}</dd>
            </>
          ) : null}
          <CapabilityRows title="Capabilities" rows={report.capabilities} />
          <CapabilityRows title="Airlock offers" rows={report.offered ?? []} />
          <dt>Log</dt>
          <dd>
            <code>{report.log}</code>
          </dd>
        </dl>
      </details>
    </>
  );
}

/** What a session of the agent will offer, one sentence a row, marked yes or no. */
function Offers({ offers }: { offers: NonNullable<AgentTestReport['offers']> }) {
  if (offers.length === 0) {
    return null;
  }
  return (
    <section className="agent-test-offers" aria-label="In a session">
      <h4>In a session</h4>
      <ul>
        {offers.map((offer) => (
          <li key={offer.text} className={offer.available ? undefined : 'agent-test-offer-no'}>
            {offer.available ? (
              <Check aria-hidden="true" size={16} strokeWidth={2.25} />
            ) : (
              <Minus aria-hidden="true" size={16} strokeWidth={2.25} />
            )}
            <span>{offer.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A titled list of `name: value` rows of a report; nothing when there are none. */
function CapabilityRows({
  title,
  rows,
}: {
  title: string;
  rows: { name: string; value: string }[];
}) {
  if (rows.length === 0) {
    return null;
  }
  return (
    <>
      <dt>{title}</dt>
      <dd>
        <ul className="agent-test-list">
          {rows.map((row) => (
            <li key={row.name}>
              {row.name}: {row.value}
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}
