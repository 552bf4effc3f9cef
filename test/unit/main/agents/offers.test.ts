/**
 * What Test says a session will offer, in sentences: each row decided by the facts a session
 * uses (its reading of the agent's capabilities, the elicitation modes it advertises), and the
 * probe, now in the core, advertising what a session advertises.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionOffers, type OffersInput } from '../../../../main/core/agents/capability-rows.js';
import { probeAgent, reportOffers } from '../../../../main/core/agents/probe.js';
import {
  clientCapabilities,
  DEFAULT_TIMEOUTS,
  sessionElicitationModes,
} from '../../../../main/core/agent-connection.js';
import { mcpServersFor } from '../../../../main/core/mcp-servers.js';
import { promptAccepts } from '../../../../main/core/prompt-content.js';
import { lastingFrom } from '../../../../main/core/sessions/history.js';
import { demoAgentSpec, fixtureSpec } from '../../../helpers/agents.js';

const BOTH = { form: true, url: true };

/** The sentences for `capabilities`, with both elicitation modes and no sign-in. */
function offers(capabilities: unknown, more: Partial<OffersInput> = {}): string[] {
  return sessionOffers({ capabilities, elicitation: BOTH, authMethods: [], ...more }).map(
    (row) => row.text,
  );
}

/** The row of `offers` that starts with `start`. */
function row(capabilities: unknown, start: string, more: Partial<OffersInput> = {}) {
  return sessionOffers({ capabilities, elicitation: BOTH, authMethods: [], ...more }).find(
    (offer) => offer.text.startsWith(start),
  );
}

describe('sessionOffers', () => {
  it('says in words what a session of an agent that advertises nothing gets', () => {
    expect(offers({})).toEqual([
      'Cannot reopen past sessions',
      'Keeps no list of past sessions to pick from',
      'Takes no images as attachments',
      'Takes attached files as links only, not their contents',
      'Asks for input with forms and web pages',
      "Reads and writes files in the session's folder",
      "Runs commands in the session's folder",
      'Takes MCP servers on this computer only, none over HTTP',
      'No sign-in to set up',
    ]);
    // Only what a session cannot do is marked no; the rest are facts of what it gets.
    expect(
      sessionOffers({ capabilities: {}, elicitation: BOTH, authMethods: [] }).map(
        (offer) => offer.available,
      ),
    ).toEqual([false, false, false, true, true, true, true, true, true]);
    expect(row({}, 'Cannot reopen')?.available).toBe(false);
    expect(row({}, 'Keeps no list')?.available).toBe(false);
    expect(row({}, 'Takes no images')?.available).toBe(false);
    expect(row({}, 'Runs commands')?.available).toBe(true);
  });

  it('says what an agent that advertises everything gets; no raw key in any sentence', () => {
    const all = {
      loadSession: true,
      sessionCapabilities: { list: {}, resume: {}, close: {} },
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    };
    const said = offers(all, { authMethods: [{ name: 'Log in' }, { name: 'API key' }] });
    expect(said).toEqual([
      'Can load past sessions, with their messages',
      'Lists its past sessions in a folder',
      'Takes images as attachments',
      'Takes attached files with their contents',
      'Asks for input with forms and web pages',
      "Reads and writes files in the session's folder",
      "Runs commands in the session's folder",
      'Takes MCP servers on this computer and over HTTP and SSE',
      'Signs in with: Log in, API key',
    ]);
    expect(said.join('\n')).not.toMatch(/[a-z][A-Z]|\w\.\w|\//);
    expect(
      sessionOffers({ capabilities: all, elicitation: BOTH, authMethods: [] }).every(
        (offer) => offer.available,
      ),
    ).toBe(true);
  });

  it('offers resuming without messages when the agent resumes but does not load', () => {
    expect(row({ sessionCapabilities: { resume: {} } }, 'Can resume')).toEqual({
      text: 'Can resume past sessions, without their earlier messages',
      available: true,
    });
  });

  it('names each remote MCP transport the agent takes', () => {
    expect(row({ mcpCapabilities: { http: true } }, 'Takes MCP')?.text).toBe(
      'Takes MCP servers on this computer and over HTTP',
    );
    expect(row({ mcpCapabilities: { sse: true } }, 'Takes MCP')?.text).toBe(
      'Takes MCP servers on this computer and over SSE',
    );
  });

  it('says which ways of asking a session advertises, as its modes say', () => {
    expect(row({}, 'Asks', { elicitation: { form: true, url: false } })).toEqual({
      text: 'Asks for input with forms; web pages are turned off in the settings',
      available: true,
    });
    expect(row({}, 'Does not ask', { elicitation: { form: false, url: false } })).toEqual({
      text: 'Does not ask for input with forms or web pages',
      available: false,
    });
  });

  // Agents' capabilities are not validated: each row must read them exactly as a session does.
  it.each([
    ['loadSession as a string', { loadSession: 'yes' }],
    [
      'loadSession and session capabilities as true',
      { loadSession: 1, sessionCapabilities: { list: true, resume: true } },
    ],
    [
      'prompt capabilities as strings',
      { promptCapabilities: { image: 'true', embeddedContext: 1 } },
    ],
    ['MCP transports as objects', { mcpCapabilities: { http: {}, sse: 'yes' } }],
    [
      'everything null',
      {
        loadSession: null,
        sessionCapabilities: null,
        promptCapabilities: null,
        mcpCapabilities: null,
      },
    ],
    ['the capabilities themselves null', null],
  ])('agrees with the session on %s', (_name, capabilities) => {
    const lasting = lastingFrom(capabilities);
    const prompt = promptAccepts(capabilities);
    const remote = mcpServersFor(
      {
        mcpServers: [
          {
            name: 'web',
            transport: 'http',
            url: 'https://mcp.example',
            headers: {},
            enabled: true,
          },
        ],
      },
      undefined,
      capabilities as never,
    );
    expect(row(capabilities, 'Can load') !== undefined).toBe(lasting.load);
    expect(row(capabilities, 'Can resume') !== undefined).toBe(!lasting.load && lasting.resume);
    expect(row(capabilities, 'Lists its past')?.available ?? false).toBe(lasting.list);
    expect(row(capabilities, 'Takes images')?.available ?? false).toBe(prompt.image);
    expect(row(capabilities, 'Takes attached files with') !== undefined).toBe(
      prompt.embeddedContext,
    );
    expect(row(capabilities, 'Takes MCP servers on this computer and') !== undefined).toBe(
      remote.mcpServers.length === 1,
    );
  });
});

describe('the probe in the core', () => {
  it('advertises what a session advertises, and says so in words', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-offers-'));
    const options = { logsDir: join(dir, 'logs'), timeouts: DEFAULT_TIMEOUTS, cwd: dir };
    const report = await probeAgent(demoAgentSpec(), options);
    expect(report.offered).toEqual(clientCapabilities(sessionElicitationModes('isolated_window')));
    expect(report.offered?.elicitation).toEqual({ form: {}, url: {} });
    const said = reportOffers(report).map((offer) => offer.text);
    expect(said).toContain('Asks for input with forms and web pages');
    expect(said).toContain('Takes images as attachments');

    // With URL mode off in the settings, neither sessions nor the probe advertise it.
    const off = await probeAgent(demoAgentSpec(), {
      ...options,
      catalog: { urlElicitation: 'off' },
    });
    expect(off.offered?.elicitation).toEqual({ form: {} });
    expect(reportOffers(off).map((offer) => offer.text)).toContain(
      'Asks for input with forms; web pages are turned off in the settings',
    );
  });

  it("keeps the agent's JSON-RPC code apart from the words of a session that does not start", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-offers-'));
    const report = await probeAgent(fixtureSpec('auth-required'), {
      logsDir: join(dir, 'logs'),
      timeouts: DEFAULT_TIMEOUTS,
      cwd: dir,
    });
    expect(report.session).toEqual({
      ok: false,
      authRequired: true,
      error: 'fixture-auth-required: Authentication required',
      code: -32000,
    });
  });

  it('says nothing a session offers when the agent did not start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'airlock-offers-'));
    const report = await probeAgent(
      { name: 'Missing', command: '/nonexistent/agent-binary', args: [], env: {}, builtIn: false },
      { logsDir: join(dir, 'logs'), timeouts: DEFAULT_TIMEOUTS, cwd: dir },
    );
    expect(report.ok).toBe(false);
    expect(reportOffers(report)).toEqual([]);
  });
});

describe('sessionElicitationModes', () => {
  it('offers URL mode unless the settings turn it off', () => {
    expect(sessionElicitationModes()).toEqual({ form: true, url: true });
    expect(sessionElicitationModes('isolated_window')).toEqual({ form: true, url: true });
    expect(sessionElicitationModes('system_browser')).toEqual({ form: true, url: true });
    expect(sessionElicitationModes('off')).toEqual({ form: true, url: false });
  });
});
