/**
 * Today's agents' questions, replayed as they were recorded (test/fixtures/real-elicitations/)
 * through the web host in Chromium, shown as the agents mean them: several questions numbered,
 * each with its own "Other" named after it, choices with their words as rows, a secret answer
 * masked, Codex's wait before it answers itself counted down, an option's preview as plain text,
 * and no word of a tool call the transcript does not know. What the agent receives is checked.
 */
import { fileURLToPath } from 'node:url';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from '../helpers/agents.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';
import { REAL_ELICITATIONS_DIR, realElicitations } from '../fixtures/real-elicitations.js';

const replayAgent = fileURLToPath(new URL('../fixtures/agents/replay-agent.ts', import.meta.url));
// Codex never announces the tool call its questions name; Claude does.
const replay = (file: string, ...args: string[]) => ({
  command: process.execPath,
  args: [
    '--import',
    TSX_LOADER,
    replayAgent,
    `${REAL_ELICITATIONS_DIR}${file}`,
    ...(file.startsWith('codex') ? ['--no-tool-call'] : []),
    ...args,
  ],
});
/** Codex's question as it sends it when the answer is secret and it will not wait forever. */
const SECRET_AND_TIMED = JSON.stringify({
  _meta: { codex: { autoResolutionMs: 3_000 } },
  requestedSchema: {
    properties: {
      database: { _meta: { codex: { isSecret: true } } },
      database_note: { _meta: { codex: { isSecret: true } } },
    },
  },
});
/** Claude's one question, its first option with a preview that looks like HTML. */
const WITH_PREVIEW = JSON.stringify({
  requestedSchema: {
    properties: {
      question_0: {
        oneOf: [
          {
            const: 'PostgreSQL',
            title: 'PostgreSQL',
            _meta: { '_claude/askUserQuestionOption': { preview: '<b>psql</b>\n  -- a server' } },
          },
          { const: 'SQLite', title: 'SQLite' },
        ],
      },
    },
  },
});
const files = [...new Set(realElicitations().map((recorded) => recorded.file))];

const { page, open } = useWebApp({
  openEachTest: false,
  settings: {
    agent_servers: {
      ...Object.fromEntries(files.map((file) => [file, replay(file)])),
      'Codex Secret': replay(
        'codex-rui-plan.json',
        '--no-tool-call',
        `--patch=${SECRET_AND_TIMED}`,
      ),
      'Claude Preview': replay('claude-ask.json', `--patch=${WITH_PREVIEW}`),
    },
  },
});
const { transcript, startSession, send } = appPage(page);
const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
const CLAUDE = 'Claude Agent 0.101.0';
const CODEX = 'Codex 2.6.0';

/** Opens a session with `agent`, sends a prompt, and returns the card it asks with. */
async function asked(agent: string, asker: string, size = { width: 1280, height: 800 }) {
  await open({ viewport: size });
  await startSession(agent);
  await send('Set up the project');
  const card = dock().getByRole('group', { name: `Question from ${asker}` });
  await card.waitFor();
  return card;
}

/** What the replay agent says it received, once it has. */
async function received(): Promise<unknown> {
  const line = transcript().getByText(/^You answered: /);
  await line.waitFor();
  return JSON.parse((await line.textContent())!.replace(/^You answered: /, ''));
}

/** The text of the elements `control`'s aria-describedby names. */
function description(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

describe("Claude Agent's two questions", () => {
  it('read as numbered questions, each with its choices as rows and its own "Other" named after it; the agent gets what was chosen', async () => {
    const card = await asked('claude-ask-multi.json', CLAUDE);
    const first = card.getByRole('group', { name: 'Question 1 of 2' });
    const second = card.getByRole('group', { name: 'Question 2 of 2' });
    const sqlite = first.getByRole('radiogroup', { name: 'Database' }).getByRole('radio', {
      name: 'SQLite',
    });
    await expect(description(sqlite)).resolves.toContain('A single file, embedded');
    await expect(card.getByRole('combobox').count()).resolves.toBe(0);
    await expect(card.getByRole('textbox', { name: 'Other', exact: true }).count()).resolves.toBe(
      0,
    );
    const otherChecks = second.getByRole('textbox', {
      name: 'Other answer to: Which checks should run before a commit?',
    });
    await expect(
      first
        .getByRole('textbox', { name: 'Other answer to: Which database should the app use?' })
        .count(),
    ).resolves.toBe(1);
    await sqlite.check();
    await second.getByRole('checkbox', { name: 'Lint' }).check();
    await second.getByRole('checkbox', { name: 'Tests' }).check();
    await otherChecks.fill('Prettier, with --check');
    await card.getByRole('button', { name: 'Accept' }).click();
    await expect(received()).resolves.toEqual({
      action: 'accept',
      content: {
        question_0: 'SQLite',
        question_1: ['Lint', 'Tests'],
        question_1_custom: 'Prettier, with --check',
      },
    });
  });

  it('do not let Enter accept while the second is out of view: Enter shows it', async () => {
    const card = await asked('claude-ask-multi.json', CLAUDE, { width: 1366, height: 600 });
    await expect(card.locator('.card-keys').textContent()).resolves.toContain(
      'Enter shows the next question',
    );
    const sqlite = card.getByRole('radio', { name: 'SQLite' });
    await sqlite.check();
    await sqlite.press('Enter');
    const second = card.getByRole('group', { name: 'Question 2 of 2' });
    await page().waitForFunction(
      (group) => group?.contains(document.activeElement) === true,
      await second.elementHandle(),
    );
    // Still open: nothing was sent.
    await expect(card.isVisible()).resolves.toBe(true);
    await expect(
      transcript()
        .getByText(/^You answered: /)
        .count(),
    ).resolves.toBe(0);
  });
});

describe("Claude Agent's one question", () => {
  it('names its "Other" after the question the message asks, and numbers nothing', async () => {
    const card = await asked('claude-ask.json', CLAUDE);
    await expect(card.getByText(/Question \d of \d/).count()).resolves.toBe(0);
    await card
      .getByRole('textbox', { name: 'Other answer to: Which database should the app use?' })
      .fill('MariaDB');
    await card.getByRole('button', { name: 'Accept' }).click();
    await expect(received()).resolves.toEqual({
      action: 'accept',
      content: { question_0_custom: 'MariaDB' },
    });
  });

  it("shows an option's preview as plain text, never as HTML", async () => {
    const card = await asked('Claude Preview', CLAUDE);
    const postgres = card.getByRole('radio', { name: 'PostgreSQL' });
    await expect(description(postgres)).resolves.toContain('<b>psql</b>');
    await expect(card.locator('.choice-list b').count()).resolves.toBe(0);
    await expect(card.locator('pre').textContent()).resolves.toBe('<b>psql</b>\n  -- a server');
  });
});

describe("Codex's request_user_input", () => {
  it('binds the note to its question, says nothing of the tool call it never announced, and sends the note', async () => {
    const card = await asked('codex-rui-plan-other.json', CODEX);
    const head = (await card.locator('.card-head').textContent()) ?? '';
    expect(head).not.toContain('call_stand_in_3');
    expect(head).not.toContain('tool call');
    await card.getByRole('radio', { name: 'None of the above' }).check();
    await card
      .getByRole('textbox', {
        name: 'Additional answer or note, for: Which database should the app use?',
      })
      .fill('MariaDB, please');
    await card.getByRole('button', { name: 'Accept' }).click();
    await expect(received()).resolves.toEqual({
      action: 'accept',
      content: { database: 'None of the above', database_note: 'MariaDB, please' },
    });
  });

  it('masks a secret answer with the warning, counts down, and says what happens at zero', async () => {
    const card = await asked('Codex Secret', CODEX);
    const note = card.getByLabel(
      'Additional answer or note, for: Which database should the app use?',
    );
    await expect(note.getAttribute('type')).resolves.toBe('password');
    await expect(description(note)).resolves.toContain('the agent marks this answer as secret');
    await expect(card.getByRole('note').textContent()).resolves.toContain(
      'Form mode must not be used for secrets',
    );
    const countdown = card.locator('.card-countdown');
    await expect(countdown.textContent()).resolves.toMatch(
      /^Codex goes on without your answer in 0:0[1-3]\./,
    );
    // The clock is a timer, which screen readers do not read out at every tick.
    await expect(countdown.getByRole('timer').getAttribute('aria-live')).resolves.toBeNull();
    // At zero Codex withdraws the question and goes on.
    await card.waitFor({ state: 'detached' });
    await expect(received()).resolves.toMatchObject({ code: -32800 });
    // Its record in the transcript says nothing of the tool call Codex never announced either.
    const record = transcript().getByRole('group', { name: `Question from ${CODEX}` });
    await expect(record.textContent()).resolves.toContain('Withdrawn by the agent');
    await expect(record.textContent()).resolves.not.toContain('tool call');
  });
});

describe("every question today's agents sent", () => {
  it.each(files)('%s shows as a card with each of its fields', async (file) => {
    const recorded = realElicitations().find((each) => each.file === file)!;
    const asker = `${recorded.agent.title} ${recorded.agent.version}`;
    if (recorded.params.mode === 'url') {
      await open({ viewport: { width: 1280, height: 800 } });
      await startSession(file);
      await send('Sign in');
      const card = dock().getByRole('group', { name: new RegExp(asker) });
      await expect(card.textContent()).resolves.toContain(String(recorded.params.url));
      await card.getByRole('button', { name: 'Cancel' }).first().click();
    } else {
      const card = await asked(file, asker);
      const properties = Object.keys(
        (recorded.params.requestedSchema as { properties: object }).properties,
      );
      await expect(card.locator('.card-fields .field').count()).resolves.toBe(properties.length);
      await card.getByRole('button', { name: 'Decline' }).click();
    }
    await expect(received()).resolves.toEqual({
      action: recorded.params.mode === 'url' ? 'cancel' : 'decline',
    });
  });
});
