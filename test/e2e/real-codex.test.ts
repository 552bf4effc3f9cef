/**
 * The real Codex (`@zed-industries/codex-acp`) end to end: the web host in Chromium runs it as a
 * configured agent, with OpenAI's Responses API played by a local stand-in. No network, no
 * account: Codex gets a made-up API key and a base URL on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { ensureRealAgent, REAL_AGENTS } from '../helpers/real-agents.js';
import {
  latestPrompt,
  startOpenAiStandIn,
  updateFilePatch,
  type OpenAiScript,
  type OpenAiStandIn,
} from '../helpers/stand-ins/openai.js';
import { launchChromium, startWebApp, type WebApp, echoPageErrors } from '../helpers/web-app.js';

const installed = await ensureRealAgent(REAL_AGENTS.codex);
if (!installed.ok) {
  console.warn(`Skipping the real Codex suite: ${installed.reason}`);
}

const API_KEY = 'sk-airlock-stand-in-0123456789';

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
};

/**
 * How Codex is configured to run offline against the stand-in, with nothing of the user's.
 *
 * - `openai_base_url`: where the built-in OpenAI provider sends requests. This build ignores the
 *   `OPENAI_BASE_URL` variable and would call api.openai.com.
 * - `sandbox_mode="danger-full-access"`: Codex's read-only and workspace-write sandboxes need
 *   bubblewrap, even to read the file `apply_patch` checks; without it the edit fails.
 * - `approval_policy="untrusted"`: asks before every edit, so the permission card shows.
 * - `CODEX_HOME` and `HOME` in a temp folder: `authenticate` writes the key to `auth.json` there,
 *   and Codex keeps its sessions and databases there; the user's `~/.codex` is never read.
 * - `NO_PROXY`: a proxy set for the machine must not take the requests to 127.0.0.1.
 */
function codexAgent(bin: string, baseUrl: string, home: string) {
  return {
    command: bin,
    args: [
      '-c',
      `openai_base_url="${baseUrl}"`,
      '-c',
      'sandbox_mode="danger-full-access"',
      '-c',
      'approval_policy="untrusted"',
    ],
    env: { OPENAI_API_KEY: API_KEY, CODEX_HOME: home, HOME: home, NO_PROXY: '127.0.0.1' },
  };
}

describe.skipIf(!installed.ok)('the real Codex in the browser', () => {
  let standIn: OpenAiStandIn;
  let codexHome: string;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    codexHome = await mkdtemp(join(tmpdir(), 'airlock-codex-home-'));
    // The package's `codex-acp` script, as users launch it: it runs the platform binary as its
    // child, so stopping Codex relies on Airlock stopping the agent's whole process group.
    const bin = installed.ok ? installed.bin : '';
    [app, browser] = await Promise.all([
      startWebApp({ agent_servers: { Codex: codexAgent(bin, standIn.url, codexHome) } }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await standIn?.close();
    await rm(codexHome, { recursive: true, force: true });
  });
  beforeEach(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'airlock-codex-work-'));
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    echoPageErrors(page);
    await page.goto(await app.newLink());
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      const body = await page.locator('body').textContent();
      const log = await readFile(join(app.configDir, 'logs', 'Codex.log'), 'utf8').catch(
        (error: Error) => error.message,
      );
      console.error(`page at failure:\n${body?.slice(0, 3000)}\n\nagent log:\n${log.slice(-3000)}`);
    }
    await page.close();
    await rm(workDir, { recursive: true, force: true });
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

  /** Starts a Codex session in `workDir` and waits until it is shown and ready. */
  async function startSession(): Promise<void> {
    const form = await appPage(() => page).openNewSession();
    await form.getByRole('radio', { name: 'Codex', exact: true }).check();
    await form.getByLabel('Working folder').fill(workDir);
    const before = await page.getByRole('tab').count();
    await form.getByRole('button', { name: 'Start session' }).click();
    await page
      .getByRole('tab', { selected: true })
      .and(page.getByRole('tab').nth(before))
      .waitFor();
    // Fail fast, saying why, when the session settles anywhere but Ready.
    await status()
      .filter({ hasText: /^(Ready|Sign-in required|Failed|Agent exited)$/ })
      .waitFor();
    await expect(status().textContent()).resolves.toBe('Ready');
  }

  async function send(text: string): Promise<void> {
    await page.getByRole('textbox', { name: 'Message' }).fill(text);
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  }

  /** The Responses API requests whose latest prompt is `prompt`, oldest first. */
  const bodiesFor = (prompt: string) =>
    standIn.responseBodies().filter((body) => latestPrompt(body)?.prompt === prompt);

  it('signs in with OPENAI_API_KEY from its env and goes straight to Ready', async () => {
    await startSession();
    await expect(
      page.getByRole('region', { name: 'Authentication required' }).count(),
    ).resolves.toBe(0);
    await expect(page.getByLabel('Agent', { exact: true }).last().textContent()).resolves.toContain(
      'Codex 0.16.0',
    );
    // `authenticate` stored the key in the isolated home, and only there.
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

    const card = page
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: `Permission request: Edit ${notes}` });
    await card.getByRole('button', { name: 'Yes' }).waitFor();
    // Nothing is written before the user answers.
    await expect(readFile(notes, 'utf8')).resolves.toBe('old line\n');
    await card.getByRole('button', { name: 'Yes' }).click();
    await transcript()
      .getByRole('group', { name: `Permission asked: Edit ${notes}` })
      .getByText('you chose “Yes”')
      .waitFor();

    const tool = transcript().getByRole('region', { name: `Tool call: Edit ${notes}` });
    await tool.getByText('completed').waitFor();
    const diff = await tool.getByRole('figure', { name: `Diff of ${notes}` }).textContent();
    expect(diff).toContain('- old line');
    expect(diff).toContain('+ new line');
    await turnEnded('Done');
    await transcript().getByText('notes.txt now says "new line".').waitFor();
    await expect(readFile(notes, 'utf8')).resolves.toBe('new line\n');

    // The model got the tool's result in its next request.
    const output = bodiesFor('change notes.txt')
      .at(-1)
      ?.input.find((item) => item.type === 'custom_tool_call_output');
    expect(String(output?.output)).toContain('Success. Updated the following files');
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
});
