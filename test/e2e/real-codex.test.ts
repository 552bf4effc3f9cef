/**
 * The real Codex (`@agentclientprotocol/codex-acp`, over the Codex app server) end to end: the
 * web host in Chromium runs it as a configured agent, with OpenAI's Responses API played by a
 * local stand-in. No network, no account: Codex gets a made-up API key, a base URL on 127.0.0.1
 * in its own config file, and the stand-in as its proxy for anything else.
 *
 * Screens of the `request_user_input` card are saved to /tmp/shots/codex/, light and dark.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  answerOffsite,
  ELICIT_SERVER,
  fillProfile,
  openAgentTab,
  openSignIn,
  shown,
  startAppAndBrowser,
} from '../helpers/real-agent-page.js';
import { appPage } from '../helpers/app-page.js';
import { ensureRealAgent, REAL_AGENTS } from '../helpers/real-agents.js';
import {
  latestPrompt,
  startOpenAiStandIn,
  updateFilePatch,
  type OpenAiScript,
  type OpenAiStandIn,
  type Reply,
} from '../helpers/stand-ins/openai.js';
import { type WebApp, echoPageErrors } from '../helpers/web-app.js';

const installed = await ensureRealAgent(REAL_AGENTS.codex);
if (!installed.ok) {
  console.warn(`Skipping the real Codex suite: ${installed.reason}`);
}

const AGENT = 'Codex';
const ASKER = `${AGENT} ${REAL_AGENTS.codex.version}`;
const API_KEY = 'sk-airlock-stand-in-0123456789';
const SHOTS = '/tmp/shots/codex';

/*
 * Where the tests find the parts of the cards. Airlock's presentation of questions is changing
 * (a select may become radio rows, a note may be named after its question): each locator lives
 * here, by role and accessible name, so it is adapted in one place.
 */

/** The region where the agent's questions wait for the user. */
const questions = (page: Page) => page.getByRole('region', { name: 'Questions from the agent' });

/** The form card of the question now waiting. */
const questionCard = (page: Page) =>
  questions(page).getByRole('group', { name: `Question from ${ASKER}` });

/** Chooses `option` of the single-choice question titled `question`: a radio row or a select. */
async function choose(card: Locator, question: string, option: string): Promise<void> {
  const radio = card.getByRole('radio', { name: option, exact: true });
  const select = card.getByRole('combobox', { name: question });
  await ((await radio.count()) > 0 ? radio.check() : select.selectOption(option));
}

/**
 * The free-text note Codex adds to a question (`role: "user_note"`): named by its own title
 * today ("Additional answer or note"), or after its question ("Other answer to: …").
 */
const noteField = (card: Locator) =>
  card.getByRole('textbox', { name: /^(Additional answer or note|Other answer to)/ });

const cardButton = (card: Locator, name: 'Accept' | 'Decline' | 'Cancel') =>
  card.getByRole('button', { name, exact: true });

/** A card asking for the user's permission to run the tool titled `title`. */
const permissionCard = (page: Page, title: string) =>
  questions(page).getByRole('group', { name: `Permission request: ${title}` });

/** The model calls the function tool `name` with `args`, then ends the turn with a line. */
const callThenSay = (name: string, args: Record<string, unknown>): Reply[] => [
  { toolCall: { type: 'function', name, arguments: args } },
  { text: ['Thanks, noted.'] },
];

/**
 * The model runs `code` in Codex's `exec` tool, then ends the turn with a line. Codex 0.166
 * gives the model an MCP server's tools only inside `exec`, as `tools.mcp__<server>__<tool>`.
 */
const execThenSay = (code: string): Reply[] => [
  { toolCall: { type: 'custom', name: 'exec', input: code } },
  { text: ['Thanks, noted.'] },
];

/** `request_user_input`'s one question, as the model writes it (Codex adds "None of the above"). */
const DATABASE_QUESTION = {
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database should the app use?',
      options: [
        ['PostgreSQL (Recommended)', 'A relational server'],
        ['SQLite', 'A single file, embedded'],
      ].map(([label, description]) => ({ label, description })),
    },
  ],
};

const SCRIPT: OpenAiScript = {
  'say hello': [{ text: ['Hello', ' from the', ' stand-in.'] }],
  'change notes.txt': [
    {
      text: ['I will update notes.txt.'],
      toolCall: {
        type: 'custom',
        name: 'apply_patch',
        input: updateFilePatch('notes.txt', 'old line', 'new line'),
      },
    },
    { text: ['notes.txt now says "new line".'] },
  ],
  wait: [{ hold: ['Thinking it over'] }],
  'pick a database': callThenSay('request_user_input', DATABASE_QUESTION),
  'pick a database, or not': callThenSay('request_user_input', DATABASE_QUESTION),
  'pick a database, or decline': callThenSay('request_user_input', DATABASE_QUESTION),
  'fill in my profile': execThenSay('text(await tools.mcp__elicit__ask_profile({}));\n'),
  'fill in my profile, or not': execThenSay('text(await tools.mcp__elicit__ask_profile({}));\n'),
  'sign me in': execThenSay('text(await tools.mcp__elicit__ask_signin({}));\n'),
};

/**
 * How Codex runs here, offline, against the stand-in, with nothing of the user's. codex-acp 2.x
 * reads no `-c key=value` arguments: its settings come from `$CODEX_HOME/config.toml`.
 *
 * - `openai_base_url` (config file): where the built-in OpenAI provider sends requests.
 * - `check_for_update_on_startup = false` and `[features] plugins = false` (config file): else
 *   Codex fetches its latest version and its plugin marketplace from github.com and chatgpt.com
 *   (the proxy check below caught both).
 * - `INITIAL_AGENT_MODE=read-only`: the session's first mode. Codex's default, "Auto review",
 *   makes a model call of its own to judge each tool call (a reviewer the stand-in has no script
 *   for); "Read-only" makes none and asks the user before each edit and each MCP tool call, so
 *   the permission cards show. An edit the user allows runs outside the sandbox, so Codex's
 *   read-only sandbox (bubblewrap, absent here) is never needed. The mode, not the config
 *   file's `approval_policy` or `sandbox_mode`, decides each turn's policy.
 * - `CODEX_HOME` and `HOME` in a temp folder: signing in writes the key to `auth.json` there,
 *   and Codex keeps its sessions and databases there; the user's `~/.codex` is never read.
 * - The stand-in as `HTTPS_PROXY`/`HTTP_PROXY`, `NO_PROXY=127.0.0.1`: whatever Codex would
 *   fetch beyond 127.0.0.1 lands on the stand-in, which refuses it and lists it in `refused`.
 */
function codexConfig(baseUrl: string): string {
  return [
    `openai_base_url = "${baseUrl}"`,
    // Codex looks for a newer version of itself on GitHub at start.
    'check_for_update_on_startup = false',
    '[features]',
    // Plugins: Codex syncs its plugin marketplace from github.com and chatgpt.com.
    'plugins = false',
    '',
  ].join('\n');
}

/** The agent's entry in Airlock's settings: the `codex-acp` script with the env above. */
function codexAgent(bin: string, standIn: OpenAiStandIn, home: string) {
  const proxy = new URL(standIn.url).origin;
  return {
    command: bin,
    args: [],
    env: {
      OPENAI_API_KEY: API_KEY,
      CODEX_HOME: home,
      HOME: home,
      INITIAL_AGENT_MODE: 'read-only',
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      NO_PROXY: '127.0.0.1',
    },
  };
}

describe.skipIf(!installed.ok)('the real Codex in the browser', () => {
  let standIn: OpenAiStandIn;
  let codexHome: string;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let workDir: string;
  /** The pages the test's browser asked for beyond 127.0.0.1, each answered locally instead. */
  let offsite: string[];

  beforeAll(async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    codexHome = await mkdtemp(join(tmpdir(), 'airlock-codex-home-'));
    await writeFile(join(codexHome, 'config.toml'), codexConfig(standIn.url));
    await mkdir(SHOTS, { recursive: true });
    // The package's `codex-acp` script, as users launch it: it runs the Codex app server as its
    // child, so stopping Codex relies on Airlock stopping the agent's whole process group.
    const bin = installed.ok ? installed.bin : '';
    [app, browser] = await startAppAndBrowser({
      agent_servers: { [AGENT]: codexAgent(bin, standIn, codexHome) },
      // The test MCP server, which Airlock gives Codex in each `session/new`.
      context_servers: ELICIT_SERVER,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await standIn?.close();
    // Codex may still be writing its databases as it exits.
    await rm(codexHome, { recursive: true, force: true, maxRetries: 10 });
  });
  beforeEach(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'airlock-codex-work-'));
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    echoPageErrors(page);
    offsite = await answerOffsite(page);
    await page.goto(await app.newLink());
  });
  afterEach(async ({ task }) => {
    // Nothing Codex or its MCP server asked for went beyond 127.0.0.1.
    expect(standIn.refused).toEqual([]);
    if (task.result?.state === 'fail') {
      const body = await page.locator('body').textContent();
      const log = await readFile(join(app.configDir, 'logs', `${AGENT}.log`), 'utf8').catch(
        (error: Error) => error.message,
      );
      console.error(`page at failure:\n${body?.slice(0, 3000)}\n\nagent log:\n${log.slice(-3000)}`);
    }
    await page.close();
    await rm(workDir, { recursive: true, force: true });
  });

  const { status, transcript, turnEnded, send } = appPage(() => page);

  /**
   * What the tab says once Airlock signed in by itself: codex-acp 2.6 asks to sign in even with
   * `OPENAI_API_KEY` set, and its `api-key` method names the key's provider in
   * `_meta["api-key"].provider` (not `type: "env_var"`), which Airlock signs in with once per
   * connection when the key is in the agent's environment.
   */
  const signedIn = () =>
    transcript().getByText(
      `Signed in with “API Key”, from OPENAI_API_KEY in ${AGENT}’s environment.`,
      { exact: true },
    );

  /** Starts a Codex session in `workDir` and waits until it is shown and ready. */
  async function startSession(): Promise<void> {
    await openAgentTab(page, AGENT, workDir);
    // Fail fast, saying why, when the session settles anywhere but Ready.
    await status()
      .filter({ hasText: /^(Ready|Sign-in required|Failed|Agent exited)$/ })
      .waitFor();
    await expect(status().textContent()).resolves.toBe('Ready');
  }

  /** The Responses API requests whose latest prompt is `prompt`, oldest first. */
  const bodiesFor = (prompt: string) =>
    standIn.responseBodies().filter((body) => latestPrompt(body)?.prompt === prompt);

  /**
   * The `output` of the first tool result of `type` (`function_call_output`, or
   * `custom_tool_call_output` for a freeform tool such as `exec`) that the model received in the
   * turn `prompt` started, once it has.
   */
  async function outputReceived(prompt: string, type: string): Promise<unknown> {
    const found = () =>
      bodiesFor(prompt)
        .flatMap((body) => body.input)
        .find((item) => item.type === type);
    await expect.poll(found).toBeDefined();
    return found()!.output;
  }

  it('signs in by itself with the OPENAI_API_KEY it was started with, and says so', async () => {
    await startSession();
    await signedIn().waitFor();
    await expect(
      page.getByRole('region', { name: 'Authentication required' }).count(),
    ).resolves.toBe(0);
    await expect(page.getByLabel('Agent', { exact: true }).last().textContent()).resolves.toBe(
      ASKER,
    );
    // Signing in stored the key in the isolated home, and only there.
    expect(existsSync(join(codexHome, 'auth.json'))).toBe(true);
    // Codex opens its connection to the model as soon as the session exists.
    await expect.poll(() => standIn.requests.length).toBeGreaterThan(0);
    for (const request of standIn.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    }
  });

  it('streams a reply into the transcript and ends the turn', async () => {
    await startSession();
    await send('say hello');
    await turnEnded('Done');
    await expect(transcript().textContent()).resolves.toContain('Hello from the stand-in.');
    await expect(status().textContent()).resolves.toBe('Ready');

    const [body, ...more] = bodiesFor('say hello');
    expect(more).toEqual([]);
    expect(body?.stream).toBe(true);
    const request = standIn.requests.find((recorded) => recorded.body === body);
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('asks before editing a file, then edits it once allowed', async () => {
    const notes = join(workDir, 'notes.txt');
    await writeFile(notes, 'old line\n');
    await startSession();
    await send('change notes.txt');

    // Codex's request names no file in its title, only in its locations.
    const card = permissionCard(page, 'Edit files');
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain(notes);
    // Nothing is written before the user answers.
    await expect(readFile(notes, 'utf8')).resolves.toBe('old line\n');
    await card.getByRole('button', { name: 'Yes, proceed', exact: true }).click();
    await transcript()
      .getByRole('group', { name: /^Permission asked: / })
      .getByText('you chose “Yes, proceed”')
      .waitFor();
    await turnEnded('Done');
    await transcript().getByText('notes.txt now says "new line".').waitFor();
    await expect(readFile(notes, 'utf8')).resolves.toBe('new line\n');

    // The model got the tool's result in its next request.
    await expect(outputReceived('change notes.txt', 'custom_tool_call_output')).resolves.toMatch(
      /^Exit code: 0\nWall time: [\d.]+ seconds\nOutput:\nSuccess\. Updated the following files:\nM notes\.txt\n$/,
    );
  });

  it('cancels a turn that is waiting on the model, and the session goes on', async () => {
    await startSession();
    await send('wait');
    await transcript().getByText('Thinking it over').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');
    await status().filter({ hasText: 'Ready' }).waitFor();

    await send('say hello');
    await turnEnded('Done');
    await expect(transcript().textContent()).resolves.toContain('Hello from the stand-in.');
    // Codex itself ended the turn: it tells the model the previous one was interrupted.
    const after = bodiesFor('say hello').at(-1);
    expect(JSON.stringify(after?.input)).toContain('<turn_aborted>');
  });

  describe('request_user_input in Plan mode', () => {
    const QUESTION = 'Which database should the app use?';

    /** Starts a session in Plan mode (its "Collaboration mode" option), where Codex may ask. */
    async function startPlanning(): Promise<void> {
      await startSession();
      await page
        .getByRole('combobox', { name: 'Collaboration mode', exact: true })
        .selectOption({ label: 'Plan' });
    }

    /** Starts planning, sends `prompt` (whose reply asks the question) and finds its card. */
    async function askedBy(prompt: string): Promise<Locator> {
      await startPlanning();
      await send(prompt);
      return shown(questionCard(page));
    }

    /** Presses `button` on the card; once the turn is over, what the model received for it. */
    async function answer(card: Locator, button: 'Accept' | 'Decline', prompt: string) {
      await cardButton(card, button).click();
      await turnEnded('Done');
      return outputReceived(prompt, 'function_call_output');
    }

    /** Saves the card at 1280 and 420 px wide, light and dark. */
    async function shoot(card: Locator, name: string): Promise<void> {
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
          await card.screenshot({ path: `${SHOTS}/${name}-${width}-${colorScheme}.png` });
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1200, height: 900 });
    }

    it('shows the question with its choices, and the chosen one reaches the model', async () => {
      const card = await askedBy('pick a database');
      await expect(card.textContent()).resolves.toContain(QUESTION);
      // Codex names a tool call it never announced: the card says nothing of it, no raw id.
      await expect(card.textContent()).resolves.not.toContain('call_stand_in');
      await shoot(card, 'request-user-input');
      await choose(card, QUESTION, 'SQLite');
      await expect(answer(card, 'Accept', 'pick a database')).resolves.toBe(
        '{"answers":{"database":{"answers":["SQLite"]}}}',
      );
    });

    it('sends "None of the above" with the note the user typed', async () => {
      const card = await askedBy('pick a database, or not');
      await choose(card, QUESTION, 'None of the above');
      await noteField(card).fill('MariaDB, please');
      await expect(answer(card, 'Accept', 'pick a database, or not')).resolves.toBe(
        '{"answers":{"database":{"answers":["None of the above","user_note: MariaDB, please"]}}}',
      );
    });

    it('sends no answer when the user declines', async () => {
      const card = await askedBy('pick a database, or decline');
      await expect(answer(card, 'Decline', 'pick a database, or decline')).resolves.toBe(
        '{"answers":{}}',
      );
    });
  });

  describe("an MCP server's elicitations, forwarded", () => {
    /**
     * Starts a session once its MCP server is up. Codex fixes a turn's tools when the turn
     * starts, and starts MCP servers in the background: `/mcp` (answered by Codex, no model
     * call) waits for them and lists their tools.
     */
    async function startWithServer(): Promise<void> {
      await startSession();
      await send('/mcp');
      await transcript()
        .getByText(/elicit.*: 2 tools/)
        .waitFor();
      await turnEnded('Done');
    }

    /**
     * Sends `prompt`, whose reply runs the MCP server's `tool` in `exec`, and answers the
     * permission card Codex shows first (it asks in Read-only mode) with `choice`, once the card
     * offers Codex's four choices for an MCP tool.
     */
    async function runTool(prompt: string, tool: string, choice: 'Allow' | 'Cancel') {
      await startWithServer();
      await send(prompt);
      const card = permissionCard(page, `mcp.elicit.${tool}`);
      await card.waitFor();
      await expect(
        card.getByRole('group', { name: 'Answer' }).getByRole('button').allTextContents(),
      ).resolves.toEqual(['Allow', 'Allow for this session', 'Always allow', 'Cancel']);
      await card.getByRole('button', { name: choice, exact: true }).click();
    }

    /**
     * `exec`'s output to the model when the MCP tool returned `text`: the script's status line,
     * then what it wrote (the tool's result as JSON).
     */
    const execOutput = (text: string, isError?: true) => [
      {
        type: 'input_text',
        text: expect.stringMatching(/^Script completed\nWall time [\d.]+ seconds\nOutput:\n$/),
      },
      {
        type: 'input_text',
        text: JSON.stringify({ content: [{ type: 'text', text }], ...(isError && { isError }) }),
      },
    ];

    it('shows the form after the tool is allowed, and the answer reaches the model', async () => {
      await runTool('fill in my profile', 'ask_profile', 'Allow');
      await fillProfile(questionCard(page));
      await turnEnded('Done');

      await expect(
        outputReceived('fill in my profile', 'custom_tool_call_output'),
      ).resolves.toEqual(
        execOutput(
          'ELICIT-RESULT {"action":"accept","content":' +
            '{"dryRun":true,"name":"Ada Lovelace","region":"us-east","replicas":3}}',
        ),
      );
    });

    it('shows the URL, opens it on consent, and the MCP tool hears of it', async () => {
      await runTool('sign me in', 'ask_signin', 'Allow');
      // Codex passes on the MCP server's `elicitation/complete` as soon as the page is open.
      await openSignIn(page, ASKER, offsite);
      await turnEnded('Done');

      await expect(outputReceived('sign me in', 'custom_tool_call_output')).resolves.toEqual(
        execOutput('ELICIT-RESULT {"action":"accept","content":{}}'),
      );
    });

    it('runs nothing when the user cancels the MCP tool, and the model hears so', async () => {
      await runTool('fill in my profile, or not', 'ask_profile', 'Cancel');
      await turnEnded('Done');
      await expect(questionCard(page).count()).resolves.toBe(0);

      await expect(
        outputReceived('fill in my profile, or not', 'custom_tool_call_output'),
      ).resolves.toEqual(execOutput('user cancelled MCP tool call', true));
    });
  });
});
