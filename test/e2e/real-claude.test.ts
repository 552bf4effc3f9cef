/**
 * The real Claude Agent (`claude-agent-acp`, which runs Claude Code) end to end: through the web
 * host in Chromium, with Claude's model API answered by a local stand-in. No network, no account.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { ensureRealAgent, REAL_AGENTS } from '../helpers/real-agents.js';
import {
  latestPrompt,
  startAnthropicStandIn,
  type AnthropicStandIn,
  type ContentBlock,
  type MessagesBody,
} from '../helpers/stand-ins/anthropic.js';
import { launchChromium, startWebApp, type WebApp, echoPageErrors } from '../helpers/web-app.js';

const installed = await ensureRealAgent(REAL_AGENTS.claude);
if (!installed.ok) {
  console.warn(`Skipping the real Claude Agent suite: ${installed.reason}`);
}

const AGENT = 'Claude Agent';
const API_KEY = 'sk-ant-airlock-stand-in';

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

describe.skipIf(!installed.ok)('the real Claude Agent', () => {
  let home: string;
  let workDir: string;
  let notes: string;
  let standIn: AnthropicStandIn;
  let app: WebApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'airlock-claude-home-'));
    workDir = await mkdtemp(join(tmpdir(), 'airlock-claude-work-'));
    notes = join(workDir, 'notes.txt');
    await writeFile(notes, 'first line\nold line\n');
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
      'one more': [{ text: ['And one more.'] }],
    });
    const bin = installed.ok ? installed.bin : '';
    [app, browser] = await Promise.all([
      startWebApp({
        agent_servers: { [AGENT]: { command: bin, args: [], env: claudeEnv(standIn.url, home) } },
      }),
      launchChromium(),
    ]);
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
    await page.goto(await app.newLink());
    await startSession();
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      const log = await readFile(join(app.configDir, 'logs', `${AGENT}.log`), 'utf8').catch(
        (error: Error) => error.message,
      );
      console.error(
        `page at failure:\n${(await page.locator('body').textContent())?.slice(0, 3000)}\n` +
          `agent log:\n${log.slice(-3000)}`,
      );
    }
    await page.close();
  });

  const status = () => page.getByRole('status', { name: 'Session status' });
  const transcript = () => page.getByRole('log', { name: 'Transcript' });
  /** The latest turn's end, once it has ended with `text`. */
  const turnEnded = (text: string) =>
    transcript()
      .getByRole('status', { name: 'Turn ended' })
      .last()
      .filter({ hasText: text })
      .waitFor();

  /** Starts a Claude Agent session in the working folder, and waits until it is shown, ready. */
  async function startSession(): Promise<void> {
    const form = await appPage(() => page).openNewSession();
    await form.getByRole('radio', { name: AGENT, exact: true }).check();
    await form.getByLabel('Working folder').fill(workDir);
    const before = await page.getByRole('tab').count();
    await form.getByRole('button', { name: 'Start session' }).click();
    await page
      .getByRole('tab', { selected: true })
      .and(page.getByRole('tab').nth(before))
      .waitFor();
    await status().filter({ hasText: 'Ready' }).waitFor();
  }

  async function send(text: string): Promise<void> {
    await page.getByRole('textbox', { name: 'Message' }).fill(text);
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  }

  /** The model requests of the turn that `prompt` started, oldest first. */
  const requestsFor = (prompt: string) =>
    standIn.messageBodies().filter((body) => latestPrompt(body) === prompt);

  it('shows who the agent is, and its modes once: as its Mode option', async () => {
    const session = page.getByRole('main', { name: 'Session with Claude Agent 0.23.1' });
    await expect(session.getByLabel('Agent', { exact: true }).textContent()).resolves.toBe(
      'Claude Agent 0.23.1',
    );
    // Claude sends its modes both as `modes` and as a config option of category `mode`.
    const mode = session.getByRole('combobox', { name: 'Mode', exact: true });
    await expect(mode.count()).resolves.toBe(1);
    await expect(mode.inputValue()).resolves.toBe('default');
    await expect(mode.locator('option').allTextContents()).resolves.toEqual([
      'Default',
      'Accept Edits',
      'Plan Mode',
      "Don't Ask",
      'Bypass Permissions',
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
    await card.getByRole('button', { name: 'Allow', exact: true }).waitFor();
    await expect(card.getByRole('button').allTextContents()).resolves.toEqual([
      'Always Allow',
      'Allow',
      'Reject',
    ]);
    // Nothing is written before the user answers.
    await expect(readFile(notes, 'utf8')).resolves.toBe('first line\nold line\n');
    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    await transcript()
      .getByRole('group', { name: 'Permission asked: Edit notes.txt' })
      .getByText('you chose “Allow”')
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
    const last = requestsFor('fix the notes').at(-1)!;
    const blocks = (role: string) =>
      last.messages
        .filter((message) => message.role === role && typeof message.content !== 'string')
        .flatMap((message) => message.content as ContentBlock[]);
    const edit = blocks('assistant').find((block) => block.name === 'Edit');
    const result = blocks('user').find(
      (block) => block.type === 'tool_result' && block.tool_use_id === edit?.id,
    );
    expect(edit).toBeDefined();
    expect(JSON.stringify(result?.content)).toContain('has been updated successfully');
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

    // The next prompt reaches the model, which is told the last turn was interrupted.
    await send('are you still there');
    await turnEnded('Done');
    await expect.poll(() => requestsFor('are you still there').length).toBe(1);
    expect(JSON.stringify(requestsFor('are you still there')[0]!.messages)).toContain(
      '[Request interrupted by user]',
    );
    // claude-agent-acp 0.23.1 leaves the cancelled turn's `idle` event unread, so it ends the
    // next turn at once and shows each reply one turn late (fixed upstream in
    // agentclientprotocol/claude-agent-acp#480). The reply still arrives, with the next turn.
    await send('one more');
    await transcript().getByText('Still here.').waitFor();
    await status().filter({ hasText: 'Ready' }).waitFor();
  });
});
