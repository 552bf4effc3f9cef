/**
 * The settings view's calls: list, reveal, save, duplicate, remove and test an agent.
 *
 * Every change is an edit of the settings file (see file.ts and text.ts); the catalog is loaded
 * again right after, so the answer to a call already reflects it. The built-in agent is not in
 * the file and cannot be changed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  AgentTestReport,
  CallRequest,
  CallResponse,
} from '../../../preload/shared/contract.js';
import { agentCapabilityRows, clientCapabilityRows } from '../agents/capability-rows.js';
import { probeAgent, reportOffers, type ProbeReport } from '../agents/probe.js';
import { agentLogPath, type ConnectionTimeouts } from '../agent-connection.js';
import { UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import { DEMO_STATE_VAR } from '../sessions/service.js';
import { DEMO_AGENT_NAME, type AgentCatalog } from './catalog.js';
import { commandLine, type AgentSpec, type PrepareAgent } from '../agents/spec.js';
import { editSettingsFile } from './file.js';
import {
  agentView,
  copyName,
  fieldsToWrite,
  formProblems,
  mcpServerView,
  refuseBuiltIn,
} from './form.js';
import {
  copyAgentServer,
  removeAgentServer,
  serverOf,
  setAgentServer,
  setAskBeforeWrites,
} from './text.js';

/** How long "Test" may take before it reports that the agent did not finish, by default. */
export const TEST_DEADLINE_MS = 60_000;

/** What the settings calls need from the core. */
export type AgentSettingsOptions = {
  path: string;
  /** The agents as last loaded. */
  catalog: () => AgentCatalog;
  /** Loads the settings file again (and tells the UI when the agents changed). */
  reload: () => Promise<void>;
  logsDir: string;
  /** The folder a tested agent's `session/new` is asked to work in. */
  cwd: string;
  timeouts: ConnectionTimeouts;
  testDeadlineMs?: number;
  /** Settles once agents may start (see the core's option of that name). */
  agentsReady?: Promise<unknown>;
  /**
   * The values the user saved for an agent in the app, which a session's environment gets too:
   * Test runs the agent as a session would.
   */
  savedEnv?: (agentName: string) => Promise<Record<string, string>>;
  /** Works out how to run an agent from the ACP registry, as the pool does (see pool.ts). */
  prepare?: PrepareAgent;
  /** What the list shows of an agent beside its name: its registry name (see the contract). */
  shown?: (spec: AgentSpec) => { label?: string; notInRegistry?: true };
  /** Removes the installed files of an agent from the ACP registry, once its entry is removed. */
  removeInstalled?: (id: string) => Promise<void>;
};

/** The longest text the contract takes in a test report's fields. */
const MAX_TEXT = 10_000;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** The settings view's side of the core. */
export class AgentSettings {
  private readonly tests = new Set<AbortController>();

  constructor(private readonly options: AgentSettingsOptions) {}

  /** The settings view's calls (`settings:*`). */
  readonly handlers: Handlers<
    | 'settings:getAgents'
    | 'settings:revealEnv'
    | 'settings:saveAgent'
    | 'settings:duplicateAgent'
    | 'settings:removeAgent'
    | 'settings:testAgent'
    | 'settings:setAskBeforeWrites'
  > = {
    'settings:getAgents': async () => this.list(),
    'settings:revealEnv': async (request) => this.reveal(request),
    'settings:saveAgent': (request) => this.save(request),
    'settings:duplicateAgent': (request) => this.duplicate(request),
    'settings:removeAgent': async (request) => {
      await this.remove(request);
      return {};
    },
    'settings:testAgent': (request) => this.test(request),
    'settings:setAskBeforeWrites': async (request) => {
      await this.setAskBeforeWrites(request);
      return {};
    },
  };

  list(): CallResponse<'settings:getAgents'> {
    const catalog = this.options.catalog();
    return {
      path: this.options.path,
      ...(catalog.error === undefined ? {} : { error: catalog.error }),
      editable: !catalog.unreadable,
      agents: catalog.agents.map((spec) => ({ ...agentView(spec), ...this.options.shown?.(spec) })),
      ...(catalog.unusable ? { unusable: catalog.unusable } : {}),
      ...(catalog.mcpServers?.length ? { mcpServers: catalog.mcpServers.map(mcpServerView) } : {}),
      askBeforeWrites: catalog.askBeforeWrites === true,
    };
  }

  /** Sets `ask_before_writes` in the settings file, keeping the rest of it as it is. */
  async setAskBeforeWrites({ value }: CallRequest<'settings:setAskBeforeWrites'>): Promise<void> {
    await editSettingsFile(this.options.path, (text) => setAskBeforeWrites(text, value));
    await this.options.reload();
  }

  reveal({ agentName, envName }: CallRequest<'settings:revealEnv'>): { value: string } {
    const spec = this.agent(agentName);
    if (!Object.hasOwn(spec.env, envName)) {
      throw new UserFacingError(
        `${agentName} has no variable named ${envName} any more. Reload the settings.`,
      );
    }
    return { value: spec.env[envName]! };
  }

  async save({
    originalName,
    agent,
  }: CallRequest<'settings:saveAgent'>): Promise<CallResponse<'settings:saveAgent'>> {
    if (originalName !== undefined) {
      refuseBuiltIn(originalName, 'changed');
    }
    const problems = formProblems(
      agent,
      (name) =>
        name !== originalName && this.options.catalog().agents.some((known) => known.name === name),
    );
    if (problems.length > 0) {
      return { ok: false, problems };
    }
    await editSettingsFile(this.options.path, (text) => {
      const from = originalName ?? agent.name;
      const stored = serverOf(text, from);
      if (originalName === undefined && stored) {
        throw new UserFacingError(
          `There is already an agent named "${agent.name}". Choose another name.`,
        );
      }
      if (originalName !== undefined && !stored) {
        throw new UserFacingError(
          `There is no agent named "${originalName}" in the settings file any more. Reload the settings.`,
        );
      }
      return setAgentServer(text, agent.name, fieldsToWrite(agent, stored), from);
    });
    await this.options.reload();
    return { ok: true, name: agent.name };
  }

  async duplicate({
    agentName,
  }: CallRequest<'settings:duplicateAgent'>): Promise<{ name: string }> {
    refuseBuiltIn(agentName, 'copied');
    let name = '';
    await editSettingsFile(this.options.path, (text) => {
      name = copyName(
        agentName,
        (candidate) => candidate === DEMO_AGENT_NAME || serverOf(text, candidate) !== undefined,
      );
      return copyAgentServer(text, agentName, name);
    });
    await this.options.reload();
    return { name };
  }

  async remove({ agentName }: CallRequest<'settings:removeAgent'>): Promise<void> {
    refuseBuiltIn(agentName, 'removed');
    const registry = this.options
      .catalog()
      .agents.find((agent) => agent.name === agentName)?.registry;
    await editSettingsFile(this.options.path, (text) => removeAgentServer(text, agentName));
    // An agent from the registry goes with its installed files, as the catalogue's Remove does.
    if (registry) {
      await this.options.removeInstalled?.(registry.id);
    }
    await this.options.reload();
  }

  /**
   * Runs the agent on its own, as `airlock probe` does: who it is, what it can do, how to sign
   * in, whether a session starts. Answers by the deadline even when the agent hangs.
   */
  async test({ agentName }: CallRequest<'settings:testAgent'>): Promise<AgentTestReport> {
    const listed = this.agent(agentName);
    let spec: AgentSpec;
    try {
      spec = await this.prepared(listed);
    } catch (error) {
      return testReport(listed, {
        ok: false,
        agent: listed.name,
        command: commandLine(listed),
        log: agentLogPath(this.options.logsDir, listed.name),
        error: (error as Error).message,
      });
    }
    const deadlineMs = this.options.testDeadlineMs ?? TEST_DEADLINE_MS;
    const abort = new AbortController();
    this.tests.add(abort);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ProbeReport>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve({
          ok: false,
          agent: spec.name,
          command: commandLine(spec),
          log: agentLogPath(this.options.logsDir, spec.name),
          error:
            `${spec.name} did not finish the check within ${deadlineMs / 1000} s. ` +
            'It may be waiting for input or downloading; look at its log, then test again.',
        });
      }, deadlineMs);
    });
    // The built-in agent keeps a history only when given a folder, as sessions give it; Test
    // gives it a scratch one, so it offers what a session offers and adds nothing to the history.
    const scratch = spec.builtIn
      ? await mkdtemp(join(tmpdir(), 'airlock-test-')).catch(() => undefined)
      : undefined;
    try {
      const saved = await (this.options.savedEnv?.(spec.name) ?? Promise.resolve({})).catch(
        () => ({}),
      );
      const env = { ...spec.env, ...saved, ...(scratch ? { [DEMO_STATE_VAR]: scratch } : {}) };
      const report = await Promise.race([
        Promise.resolve(this.options.agentsReady)
          .catch(() => undefined)
          .then(() =>
            probeAgent(
              { ...spec, env },
              {
                catalog: this.options.catalog(),
                logsDir: this.options.logsDir,
                timeouts: this.options.timeouts,
                cwd: this.options.cwd,
                signal: abort.signal,
              },
            ),
          ),
        late,
      ]);
      return testReport(spec, report);
    } finally {
      clearTimeout(timer);
      this.tests.delete(abort);
      if (scratch) {
        void rm(scratch, { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }

  /** Stops every agent still starting for a test. */
  dispose(): void {
    for (const abort of this.tests) {
      abort.abort();
    }
  }

  /**
   * The agent as Test runs it: an agent from the ACP registry with its command worked out (the
   * registry's environment, then the settings file's on top), others as they are.
   */
  private async prepared(spec: AgentSpec): Promise<AgentSpec> {
    if (!spec.registry) {
      return spec;
    }
    const couldNot = (why: string) =>
      new UserFacingError(`Airlock could not start ${spec.name}: ${why}`);
    if (!this.options.prepare) {
      throw couldNot('this copy of Airlock cannot run agents from the ACP registry.');
    }
    let launched: AgentSpec;
    try {
      launched = await this.options.prepare(spec, () => undefined);
    } catch (error) {
      throw couldNot((error as Error).message.replace(/\.?$/, '.'));
    }
    if (launched.command === '') {
      throw couldNot('no command to run it was found.');
    }
    return { ...launched, env: { ...launched.env, ...spec.env } };
  }

  private agent(name: string): AgentSpec {
    const spec = this.options.catalog().agents.find((agent) => agent.name === name);
    if (!spec) {
      throw new UserFacingError(`No agent named "${name}". Reload the settings.`);
    }
    return spec;
  }
}

/** A probe's report as the contract carries it: agent-supplied text clipped, lists bounded. */
function testReport(spec: AgentSpec, report: ProbeReport): AgentTestReport {
  const session = report.session;
  return {
    agentName: spec.name,
    commandLine: clip(report.command),
    ok: report.ok,
    ...(report.error === undefined ? {} : { error: clip(report.error) }),
    ...(report.name === undefined ? {} : { name: clip(report.name) }),
    ...(report.title === undefined ? {} : { title: clip(report.title) }),
    ...(report.version === undefined ? {} : { version: clip(report.version) }),
    ...(report.protocolVersion === undefined ? {} : { protocolVersion: report.protocolVersion }),
    // What a session will offer, in words; the raw rows below are what `airlock probe` prints.
    offers: reportOffers(report)
      .slice(0, 50)
      .map((offer) => ({ ...offer, text: clip(offer.text) })),
    capabilities: agentCapabilityRows(report.capabilities ?? {})
      .slice(0, 200)
      .map(([name, value]) => ({ name: clip(name), value: clip(value) })),
    ...(report.offered === undefined
      ? {}
      : {
          offered: clientCapabilityRows(report.offered)
            .slice(0, 200)
            .map(([name, value]) => ({ name: clip(name), value: clip(value) })),
        }),
    ...(report.mcpServers === undefined
      ? {}
      : {
          mcpServers: report.mcpServers
            .slice(0, 200)
            .map((server) => ({ ...server, name: clip(server.name), detail: clip(server.detail) })),
        }),
    authMethods: (report.authMethods ?? []).slice(0, 100),
    ...(session === undefined
      ? {}
      : {
          session: session.ok
            ? {
                ok: true as const,
                // A person reads the names; the ids are for Details.
                modes: session.modeNames.slice(0, 100).map(clip),
                configOptions: session.configOptionNames.slice(0, 100).map(clip),
                modeIds: session.modes.slice(0, 100).map(clip),
                configOptionIds: session.configOptions.slice(0, 100).map(clip),
                ...(session.signedInWith ? { signedInWith: clip(session.signedInWith) } : {}),
              }
            : {
                ok: false as const,
                authRequired: session.authRequired,
                error: clip(session.error),
                ...(session.code === undefined
                  ? {}
                  : { detail: `JSON-RPC error ${session.code}, answering session/new` }),
                ...(session.signedInWith ? { signedInWith: clip(session.signedInWith) } : {}),
              },
        }),
    log: clip(report.log),
  };
}
