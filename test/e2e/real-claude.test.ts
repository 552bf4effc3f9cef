/**
 * The real Claude Agent (`claude-agent-acp`, which runs Claude Code) end to end: through the web
 * host in Chromium, with Claude's model API answered by a local stand-in. No network, no account.
 *
 * Besides whole turns (text, an edit through a permission card, cancel), the stand-in calls the
 * tools that make Claude ask the user: its own `AskUserQuestion`, and the tools of a test MCP
 * server (test/fixtures/mcp-elicit-server.ts) whose form and URL elicitations Claude forwards.
 * Each case asserts on the exact tool result the model received in its next request.
 */
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  answerOffsite,
  ELICIT_SERVER,
  fillProfile,
  openAgentTab,
  openSignIn,
  shown,
  startAppAndBrowser,
  SIGNIN_URL,
} from '../helpers/real-agent-page.js';
import { appPage } from '../helpers/app-page.js';
import { ensureRealAgent, REAL_AGENTS } from '../helpers/real-agents.js';
import {
  latestPrompt,
  startAnthropicStandIn,
  type AnthropicStandIn,
  type ContentBlock,
  type MessagesBody,
  type Reply,
} from '../helpers/stand-ins/anthropic.js';
import { type WebApp, dumpFailure, echoPageErrors } from '../helpers/web-app.js';

const installed = await ensureRealAgent(REAL_AGENTS.claude);
if (!installed.ok) {
  console.warn(`Skipping the real Claude Agent suite: ${installed.reason}`);
}

const AGENT = 'Claude Agent';
const ASKER = `${AGENT} ${REAL_AGENTS.claude.version}`;
const API_KEY = 'sk-ant-airlock-stand-in';
const SHOTS = '/tmp/shots/claude';

/*
 * Where the tests find the parts of a question card. Airlock's presentation of questions is
 * changing (a select may become radio rows, "Other" may be named after its question): each
 * locator lives here, by role and accessible name, so it is adapted in one place.
 */

/** The form card of the question now waiting. */
const questionCard = (page: Page) =>
  page
    .getByRole('region', { name: 'Questions from the agent' })
    .getByRole('group', { name: `Question from ${ASKER}` });

/** Chooses `option` of the single-choice question titled `question`: a radio row or a select. */
async function choose(card: Locator, question: string, option: string): Promise<void> {
  const radio = card.getByRole('radio', { name: option });
  if ((await radio.count()) > 0) {
    await radio.check();
  } else {
    await card.getByRole('combobox', { name: question }).selectOption(option);
  }
}

/** Ticks `option` of a multi-choice question (each option is a checkbox named by its title). */
const tick = (card: Locator, option: string) =>
  card.getByRole('checkbox', { name: option }).check();

/**
 * The free-text "Other" answer of the `index`-th question (from 0): the text fields whose name
 * starts with "Other" ("Other", or "Other answer to: …"), in the card's order.
 */
const otherAnswer = (card: Locator, index: number) =>
  card.getByRole('textbox', { name: /^Other/ }).nth(index);

const cardButton = (card: Locator, name: 'Accept' | 'Decline' | 'Cancel') =>
  card.getByRole('button', { name, exact: true });

/** A card asking for the user's permission, whatever the tool it names. */
const permissionCard = (page: Page) =>
  page
    .getByRole('region', { name: 'Questions from the agent' })
    .getByRole('group', { name: /^Permission request: / });

/** The card asking the user to open a web page. */
const urlCard = (page: Page) =>
  page
    .getByRole('region', { name: 'Questions from the agent' })
    .getByRole('group', { name: `${ASKER} asks you to open a web page` });

/** A question of AskUserQuestion's input as Claude's model writes it: options as label, description. */
const question = (header: string, text: string, multiSelect: boolean, options: string[][]) => ({
  question: text,
  header,
  multiSelect,
  options: options.map(([label, description]) => ({ label, description })),
});
const DATABASE = question('Database', 'Which database should the app use?', false, [
  ['PostgreSQL', 'A relational server'],
  ['SQLite', 'A single file, embedded'],
]);
const CHECKS = question('Checks', 'Which checks should run before a commit?', true, [
  ['Lint', 'ESLint'],
  ['Tests', 'Unit tests'],
  ['Types', 'tsc'],
]);

/** The model calls `tool` with `input`, then ends the turn with a line of text. */
const callThenSay = (name: string, input: Record<string, unknown>): Reply[] => [
  { toolUse: { name, input } },
  { text: ['Thanks, noted.'] },
];

/**
 * What Claude Code needs to run here, offline, against the stand-in, and nothing of the user's.
 */
function claudeEnv(standInUrl: string, home: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: standInUrl,
    ANTHROPIC_API_KEY: API_KEY,
    // Claude Code still fetches a plugin blocklist from GitHub: any call that is not to the
    // model API goes to the stand-in as a proxy, which refuses it, so nothing leaves the host.
    HTTPS_PROXY: standInUrl,
    HTTP_PROXY: standInUrl,
    NO_PROXY: '127.0.0.1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // We run as root: without this Claude Code refuses its bypass-permissions mode.
    IS_SANDBOX: '1',
    // Its own home and config, so the user's real ones are never read or written.
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
}

/**
 * Claude's settings in its own config folder. Its default mode, "Auto", makes a model call of its
 * own to judge each tool call (a classifier the stand-in has no script for), and runs the edit
 * without asking: the sessions start in Manual ("default"), which asks before an edit and makes
 * no model call but the turn's own.
 */
const CLAUDE_SETTINGS = { permissions: { defaultMode: 'default' } };

/** A process's state letter and parent, from /proc; `undefined` once it is gone. */
async function procStat(pid: number): Promise<{ state: string; parent: number } | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // `pid (name) state parent ...`, where the name may hold spaces and parentheses.
  const [state, parent] = stat?.slice(stat.lastIndexOf(')') + 2).split(' ') ?? [];
  return state && parent ? { state, parent: Number(parent) } : undefined;
}

/** Every process below `root`, children first; none where there is no /proc. */
async function descendants(root: number): Promise<number[]> {
  const pids = (await readdir('/proc').catch(() => []))
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const parents = new Map<number, number>();
  for (const pid of pids) {
    const stat = await procStat(pid);
    if (stat) {
      parents.set(pid, stat.parent);
    }
  }
  const below = (pid: number): number[] =>
    [...parents]
      .filter(([, parent]) => parent === pid)
      .flatMap(([child]) => [child, ...below(child)]);
  return below(root);
}

/** Those of `pids` still running: neither gone nor exited and waiting to be reaped. */
async function running(pids: number[]): Promise<number[]> {
  const states = await Promise.all(pids.map(procStat));
  return pids.filter((_pid, i) => states[i] && states[i].state !== 'Z');
}

/** An address of /proc/net/tcp or tcp6 (little-endian hex words) as text: `127.0.0.1`, `::1`. */
function procAddress(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((word) => word.match(/../g)!.reverse().join(''));
  if (words.length === 1) {
    return words[0]!
      .match(/../g)!
      .map((byte) => parseInt(byte, 16))
      .join('.');
  }
  if (words.slice(0, 2).every((word) => word === '00000000') && words[2] === '0000FFFF') {
    return `::ffff:${procAddress(hex.slice(24))}`;
  }
  return words.join(':').toLowerCase();
}

/**
 * The peers (`address:port`) of the connected TCP sockets that processes `pids` hold open. Not
 * every connection is caught, only those open now: the proxy stand-in covers the rest.
 */
async function tcpPeers(pids: number[]): Promise<string[]> {
  const peers: string[] = [];
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    const inodes = new Set<string>();
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      inodes.add(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
    }
    for (const table of ['tcp', 'tcp6']) {
      const lines = (await readFile(`/proc/${pid}/net/${table}`, 'utf8').catch(() => ''))
        .trim()
        .split('\n')
        .slice(1);
      for (const line of lines) {
        const [, , remote, state, , , , , , inode] = line.trim().split(/\s+/);
        // `0A` is a listening socket: it has no peer.
        if (remote && inode && state !== '0A' && inodes.has(inode)) {
          const [address, port] = remote.split(':');
          peers.push(`${procAddress(address!)}:${parseInt(port!, 16)}`);
        }
      }
    }
  }
  return peers;
}

const LOOPBACK = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1):\d+$/;

describe.skipIf(!installed.ok)('the real Claude Agent', () => {
  let home: string;
  let workDir: string;
  let notes: string;
  let standIn: AnthropicStandIn;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  /** The pages the test's browser asked for beyond 127.0.0.1, each answered locally instead. */
  let offsite: string[];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'airlock-claude-home-'));
    workDir = await mkdtemp(join(tmpdir(), 'airlock-claude-work-'));
    notes = join(workDir, 'notes.txt');
    await writeFile(notes, 'first line\nold line\n');
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify(CLAUDE_SETTINGS));
    await mkdir(SHOTS, { recursive: true });
    standIn = await startAnthropicStandIn({
      'say hello': [{ text: ['Hello ', 'from the ', 'stand-in, ', 'in pieces.'] }],
      // Claude Code edits only files it has read: Read (allowed without asking), then Edit.
      'fix the notes': [
        { text: ['Let me look first.'], toolUse: { name: 'Read', input: { file_path: notes } } },
        {
          toolUse: {
            name: 'Edit',
            input: { file_path: notes, old_string: 'old line', new_string: 'new line' },
          },
        },
        { text: ['I replaced the old line.'] },
      ],
      wait: [{ hold: ['Let me think', ' about that'] }],
      'are you still there': [{ text: ['Still here.'] }],
      'ask me one question': callThenSay('AskUserQuestion', { questions: [DATABASE] }),
      'ask me two questions': callThenSay('AskUserQuestion', { questions: [DATABASE, CHECKS] }),
      'ask me and I type my own': callThenSay('AskUserQuestion', { questions: [DATABASE] }),
      'ask me and I decline': callThenSay('AskUserQuestion', { questions: [DATABASE] }),
      'ask me and I cancel': callThenSay('AskUserQuestion', { questions: [DATABASE] }),
      'fill in my profile': callThenSay('mcp__elicit__ask_profile', {}),
      'sign me in': callThenSay('mcp__elicit__ask_signin', {}),
    });
    const bin = installed.ok ? installed.bin : '';
    [app, browser] = await startAppAndBrowser({
      agent_servers: { [AGENT]: { command: bin, args: [], env: claudeEnv(standIn.url, home) } },
      // The test MCP server, started by Claude Code for each session.
      context_servers: ELICIT_SERVER,
    });
  });
  afterAll(async () => {
    await browser?.close();
    if (app) {
      // The web host does not wait for its agents, and Claude Code writes its config as it
      // exits: wait for them, or they would write into the folders removed below.
      const agents = await descendants(app.process.pid!);
      await app.stop();
      await vi.waitFor(async () => expect(await running(agents)).toEqual([]), {
        timeout: 10_000,
        interval: 50,
      });
    }
    await standIn?.close();
    await Promise.all([home, workDir].map((dir) => dir && rm(dir, { recursive: true })));
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    echoPageErrors(page);
    // Nothing the page opens reaches beyond 127.0.0.1: a page elsewhere (the sign-in page a URL
    // card opens) is answered here, and listed.
    offsite = await answerOffsite(page);
    await page.goto(await app.newLink());
    await startSession();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      const log = await readFile(
        join(app.configDir, 'logs', `${AGENT.replace(/\W+/g, '_')}.log`),
        'utf8',
      ).catch((error: Error) => error.message);
      await dumpFailure(page, task, `agent log:\n${log.slice(-3000)}`);
    }
    // What the agent and its MCP server hold open now goes to 127.0.0.1 only.
    const peers = await tcpPeers(await descendants(app.process.pid!));
    expect(peers.filter((peer) => !LOOPBACK.test(peer))).toEqual([]);
    await page.close();
  });

  const { status, transcript, turnEnded, send } = appPage(() => page);

  /** Starts a Claude Agent session in the working folder, and waits until it is shown, ready. */
  async function startSession(): Promise<void> {
    await openAgentTab(page, AGENT, workDir);
    await status().filter({ hasText: 'Ready' }).waitFor();
  }

  /** The model requests of the turn that `prompt` started, oldest first. */
  const requestsFor = (prompt: string) =>
    standIn.messageBodies().filter((body) => latestPrompt(body) === prompt);

  const blocksOf = (content: string | ContentBlock[]): ContentBlock[] =>
    typeof content === 'string' ? [{ type: 'text', text: content }] : content;

  /**
   * The `tool_result` the model received, in any request so far, for its call of `tool` in the
   * turn that `prompt` started (with the `tool_use` it answers).
   */
  function toolResult(
    prompt: string,
    tool: string,
  ): { use: ContentBlock; result: ContentBlock } | undefined {
    for (const body of standIn.messageBodies().reverse()) {
      const start = body.messages.findIndex(
        (message) =>
          message.role === 'user' &&
          blocksOf(message.content).some((block) => block.text?.trim() === prompt),
      );
      const later = start < 0 ? [] : body.messages.slice(start + 1);
      const blocks = later.flatMap((message) => blocksOf(message.content));
      const use = blocks.find((block) => block.type === 'tool_use' && block.name === tool);
      const result = blocks.find(
        (block) => block.type === 'tool_result' && block.tool_use_id === use?.id,
      );
      if (use && result) {
        return { use, result };
      }
    }
    return undefined;
  }

  /**
   * Waits until the model has received the result of its call of `tool`, and returns it less
   * its `tool_use_id`, once that is checked to be the call's, and less the `cache_control` mark
   * Claude Code puts on whichever block is last in a request.
   */
  async function resultReceived(prompt: string, tool: string): Promise<ContentBlock> {
    await expect.poll(() => toolResult(prompt, tool)).toBeDefined();
    const { use, result } = toolResult(prompt, tool)!;
    const { tool_use_id: id, cache_control: _mark, ...rest } = result;
    expect(id).toBe(use.id);
    return rest as ContentBlock;
  }

  /** Sends `prompt`, whose reply calls AskUserQuestion, and waits for the question card. */
  async function askedBy(prompt: string): Promise<Locator> {
    await send(prompt);
    return shown(questionCard(page));
  }

  /** The AskUserQuestion tool result for options chosen (`"question"="answer"` pairs). */
  const chosen = (answers: string) => ({
    type: 'tool_result',
    content: `Your questions have been answered: ${answers}. You can now continue with these answers in mind.`,
  });
  /** The AskUserQuestion tool result when an answer was typed: the model is told to read it. */
  const typed = (answers: string) => ({
    type: 'tool_result',
    content:
      `The user answered: ${answers}. Read the answers carefully — they may request ` +
      'clarification, changes, or that you not proceed — and follow what they actually say.',
  });

  it('shows who the agent is, and its modes once: as its Mode option', async () => {
    const session = page.getByRole('main', { name: `Session with ${ASKER}` });
    await expect(session.getByLabel('Agent', { exact: true }).textContent()).resolves.toBe(ASKER);
    // Claude sends its modes both as `modes` and as a config option of category `mode`.
    const mode = session.getByRole('combobox', { name: 'Mode', exact: true });
    await expect(mode.count()).resolves.toBe(1);
    // Manual, as its settings say (see CLAUDE_SETTINGS).
    await expect(mode.inputValue()).resolves.toBe('default');
    await expect(mode.locator('option').allTextContents()).resolves.toEqual([
      'Manual',
      'Accept edits',
      'Plan',
      'Auto',
      'Bypass permissions',
    ]);
    await expect(
      session.getByRole('combobox', { name: 'Model', exact: true }).inputValue(),
    ).resolves.toBe('default');
  });

  it('streams a reply into the transcript and ends the turn', async () => {
    await send('say hello');
    await turnEnded('Done');
    await transcript().getByText('Hello from the stand-in, in pieces.').waitFor();
    await expect(status().textContent()).resolves.toBe('Ready');

    const [request, ...more] = standIn.requests.filter(
      (recorded) => latestPrompt(recorded.body) === 'say hello',
    );
    expect(more).toHaveLength(0);
    expect(request?.path).toBe('/v1/messages?beta=true');
    expect(request?.headers['x-api-key']).toBe(API_KEY);
    expect((request?.body as MessagesBody).stream).toBe(true);
  });

  it('edits a file in the working folder once the user allows it', async () => {
    await send('fix the notes');
    await transcript()
      .getByRole('region', { name: 'Tool call: Read notes.txt' })
      .getByRole('status')
      .filter({ hasText: 'completed' })
      .waitFor();

    const card = page
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: 'Permission request: Edit notes.txt' });
    await card.getByRole('button', { name: 'Yes', exact: true }).waitFor();
    await expect(card.getByRole('button').allTextContents()).resolves.toEqual([
      'Yes',
      'Yes, allow all edits during this session',
      'No',
    ]);
    // Nothing is written before the user answers.
    await expect(readFile(notes, 'utf8')).resolves.toBe('first line\nold line\n');
    await card.getByRole('button', { name: 'Yes', exact: true }).click();
    await transcript()
      .getByRole('group', { name: 'Permission asked: Edit notes.txt' })
      .getByText('you chose “Yes”')
      .waitFor();

    const tool = transcript().getByRole('region', { name: 'Tool call: Edit notes.txt' });
    await tool.getByRole('status').filter({ hasText: 'completed' }).waitFor();
    await expect(
      tool.getByRole('figure', { name: `Diff of ${notes}` }).textContent(),
    ).resolves.toContain('+ new line');
    await transcript().getByText('I replaced the old line.').waitFor();
    await turnEnded('Done');
    await expect(readFile(notes, 'utf8')).resolves.toBe('first line\nnew line\n');

    // The model was told the edit worked, in the tool_result for its own tool_use.
    const result = await resultReceived('fix the notes', 'Edit');
    expect(JSON.stringify(result.content)).toContain('has been updated successfully');
  });

  it('cancels a turn while the model is answering, and goes on afterwards', async () => {
    await send('wait');
    await transcript().getByText('Let me think about that').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');
    await status().filter({ hasText: 'Ready' }).waitFor();
    // Claude Code hung up on the model's stream.
    await expect
      .poll(() => standIn.requests.some((r) => r.disconnected && latestPrompt(r.body) === 'wait'))
      .toBe(true);

    // The next prompt reaches the model, which is told the last turn was interrupted, and its
    // reply ends that turn.
    await send('are you still there');
    await turnEnded('Done');
    await transcript().getByText('Still here.').waitFor();
    await expect.poll(() => requestsFor('are you still there').length).toBe(1);
    expect(JSON.stringify(requestsFor('are you still there')[0]!.messages)).toContain(
      '[Request interrupted by user]',
    );
  });

  describe('AskUserQuestion', () => {
    it('sends the choice of one question to the model', async () => {
      const card = await askedBy('ask me one question');
      await expect(card.textContent()).resolves.toContain(DATABASE.question);
      await choose(card, 'Database', 'SQLite');
      await cardButton(card, 'Accept').click();
      await turnEnded('Done');
      await transcript().getByText('Thanks, noted.').waitFor();

      await expect(resultReceived('ask me one question', 'AskUserQuestion')).resolves.toEqual(
        chosen(`"${DATABASE.question}"="SQLite"`),
      );
    });

    it('sends two answers, the second chosen from several, with an "Other" of its own', async () => {
      const card = await askedBy('ask me two questions');
      for (const question of [DATABASE, CHECKS]) {
        await expect(card.textContent()).resolves.toContain(question.question);
      }
      await choose(card, 'Database', 'SQLite');
      await tick(card, 'Lint');
      await tick(card, 'Tests');
      await otherAnswer(card, 1).fill('Prettier, with --check');
      for (const [width, height] of [
        [1280, 900],
        [420, 900],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          // Colours change through CSS transitions: shoot once they have ended (or were
          // replaced by another, whose `finished` then rejects).
          await page.evaluate(() =>
            Promise.allSettled(document.getAnimations().map((animation) => animation.finished)),
          );
          await page.screenshot({ path: `${SHOTS}/ask-two-${colorScheme}-${width}.png` });
        }
      }
      await cardButton(card, 'Accept').click();
      await turnEnded('Done');

      // A typed answer holding ", " is quoted, so it stays one answer beside the ticked ones.
      await expect(resultReceived('ask me two questions', 'AskUserQuestion')).resolves.toEqual(
        typed(
          `"${DATABASE.question}"="SQLite", ` +
            `"${CHECKS.question}"="Lint, Tests, "Prettier, with --check""`,
        ),
      );
    });

    it('sends an answer typed under "Other" when no option is chosen', async () => {
      const card = await askedBy('ask me and I type my own');
      await otherAnswer(card, 0).fill('MySQL, in Docker');
      await cardButton(card, 'Accept').click();
      await turnEnded('Done');

      await expect(resultReceived('ask me and I type my own', 'AskUserQuestion')).resolves.toEqual(
        typed(`"${DATABASE.question}"="MySQL, in Docker"`),
      );
    });

    it('tells the model the user answered nothing on Decline', async () => {
      const card = await askedBy('ask me and I decline');
      await choose(card, 'Database', 'PostgreSQL');
      await cardButton(card, 'Decline').click();
      await turnEnded('Done');

      // What was chosen before Decline is not sent.
      await expect(resultReceived('ask me and I decline', 'AskUserQuestion')).resolves.toEqual({
        type: 'tool_result',
        content: 'The user did not answer the questions.',
      });
    });

    it('stops the tool call on Cancel', async () => {
      const card = await askedBy('ask me and I cancel');
      await choose(card, 'Database', 'PostgreSQL');
      await cardButton(card, 'Cancel').click();
      // The tool call fails; the turn goes on, and the model answers its failure.
      await transcript().getByText('Thanks, noted.').waitFor();
      await turnEnded('Done');

      await expect(resultReceived('ask me and I cancel', 'AskUserQuestion')).resolves.toEqual({
        type: 'tool_result',
        content: 'Tool permission request failed: Error: Tool use aborted',
        is_error: true,
      });
    });
  });

  describe("an MCP server's elicitations, forwarded", () => {
    /** Allows the MCP tool the model calls, on its permission card (Manual mode asks). */
    async function allowTool(): Promise<void> {
      await permissionCard(page).getByRole('button', { name: 'Yes', exact: true }).click();
    }

    it('shows the form and sends the answer back to the MCP tool', async () => {
      await send('fill in my profile');
      await allowTool();
      await fillProfile(questionCard(page));
      await turnEnded('Done');

      await expect(
        resultReceived('fill in my profile', 'mcp__elicit__ask_profile'),
      ).resolves.toEqual({
        type: 'tool_result',
        content: [
          {
            type: 'text',
            text:
              'ELICIT-RESULT {"action":"accept","content":' +
              '{"name":"Ada Lovelace","region":"us-east","dryRun":true,"replicas":3}}',
          },
        ],
      });
    });

    it('shows the URL, opens it on consent, and tells the MCP tool', async () => {
      await send('sign me in');
      await allowTool();
      const card = urlCard(page);
      await card.waitFor();
      await expect(card.locator('code.url-full').textContent()).resolves.toBe(SIGNIN_URL);
      // The MCP server said the sign-in is over, and Claude passed it on: the card is gone.
      await openSignIn(page, ASKER, offsite);
      await turnEnded('Done');

      await expect(resultReceived('sign me in', 'mcp__elicit__ask_signin')).resolves.toEqual({
        type: 'tool_result',
        content: [{ type: 'text', text: 'ELICIT-RESULT {"action":"accept","content":{}}' }],
      });
    });
  });
});
