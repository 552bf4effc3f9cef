/**
 * The agents' settings view, through the web host in Chromium: add, edit and rename, a field the
 * core refuses, duplicate, remove after a confirmation, a secret masked then revealed, Test on
 * the demo agent and on a command that cannot start, a settings file that cannot be parsed, a
 * hand edit showing up without a reload, the whole of adding by keyboard, and axe.
 *
 * Screens are saved to /tmp/airlock-shots/settings/, light and dark, to be looked at.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/agents.js';
import { offeredAgents } from '../helpers/app-page.js';
import { useSettingsView } from '../helpers/settings-view.js';

const SHOTS = '/tmp/airlock-shots/settings';
const FILE = `// Agents, by hand.
{
  "agent_servers": {
    // The one I use most.
    "Helper": {
      "command": "helper-agent",
      "args": ["--acp"],
      "env": { "HELPER_API_KEY": "sk-very-secret-value-1234", "LOG_LEVEL": "debug" },
    },
  },
}
`;

const { app, page, open, view, agentList, openSettings, shoot, seriousInView } = useSettingsView(
  FILE,
  SHOTS,
);

const settingsFile = () => join(app().configDir, 'settings.json');

const agentNames = () => agentList().getByRole('heading', { level: 3 }).allTextContents();
const form = () => page().locator('form.agent-form');

/** What has the focus: its accessible label, or its text. */
const focused = () =>
  page().evaluate(
    () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
  );

/** Presses Tab (or Shift+Tab) until the control named `name` has the focus. */
async function tabTo(name: string, back = false): Promise<void> {
  for (let step = 0; step < 20 && (await focused()) !== name; step++) {
    await page().keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  expect(await focused()).toBe(name);
}

describe('the agents settings view', () => {
  it('lists the agents with the file, and adds one that new sessions can use', async () => {
    await openSettings();
    await view().getByText(settingsFile()).waitFor();
    await expect(view().getByText(settingsFile()).count()).resolves.toBe(1);
    await expect(agentNames()).resolves.toEqual(['Demo Agent', 'Helper']);
    // The built-in agent can be tested, not changed.
    const demo = agentList().getByRole('listitem').filter({ hasText: 'Demo Agent' }).first();
    await expect(demo.getByRole('button').allTextContents()).resolves.toEqual(['Test']);
    // Said in words: how Airlock runs its own agent is not shown.
    await demo.getByText('Comes with Airlock').waitFor();
    await expect(demo.textContent()).resolves.not.toMatch(/demo-agent|node/);
    await shoot('list');

    await view().getByRole('button', { name: 'Add agent' }).click();
    await page().getByRole('button', { name: 'Custom agent…' }).click();
    await form().getByLabel('Name').fill('Fresh');
    await form().getByLabel('Command').fill('fresh-agent');
    await form().getByLabel('Arguments').fill('--acp\n--verbose');
    await form().getByRole('button', { name: 'Save' }).click();
    await agentList().getByRole('heading', { name: 'Fresh' }).waitFor();
    await expect(readFile(settingsFile(), 'utf8')).resolves.toContain('// The one I use most.');

    await page().getByRole('button', { name: 'Back to sessions' }).click();
    await expect(offeredAgents(page())).resolves.toEqual(['Demo Agent', 'Helper', 'Fresh']);
  });

  it('edits and renames an agent, keeping its secret', async () => {
    await openSettings();
    await view().getByRole('button', { name: 'Edit Helper' }).click();
    await form().getByLabel('Name', { exact: true }).first().fill('Helper Two');
    await form().getByLabel('Arguments').fill('--acp\n--fast');
    await form().getByRole('button', { name: 'Save' }).click();
    await agentList().getByRole('heading', { name: 'Helper Two' }).waitFor();
    await expect(agentNames()).resolves.toEqual(['Demo Agent', 'Helper Two']);
    const text = await readFile(settingsFile(), 'utf8');
    expect(text).toContain('"Helper Two"');
    expect(text).toContain('--fast');
    // The masked value was sent as "keep": the file still holds it.
    expect(text).toContain('sk-very-secret-value-1234');
    // The focus is back on the edited agent.
    await expect.poll(focused).toBe('Edit Helper Two');
  });

  it('shows what the core refuses beside its field, and focuses it', async () => {
    await openSettings();
    await view().getByRole('button', { name: 'Add agent' }).click();
    await page().getByRole('button', { name: 'Custom agent…' }).click();
    await form().getByLabel('Name').fill('Helper');
    await form().getByLabel('Command').fill('x');
    await form().getByRole('button', { name: 'Save' }).click();
    const name = form().getByLabel('Name');
    await form().locator('[aria-invalid="true"]').first().waitFor();
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(name.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    const describedBy = (await name.getAttribute('aria-describedby'))!.split(' ');
    const said = await Promise.all(
      describedBy.map((id) => page().locator(`[id="${id}"]`).textContent()),
    );
    expect(said).toContain('There is already an agent named "Helper". Choose another name.');
    await expect(form().getByLabel('Command').getAttribute('aria-invalid')).resolves.toBe('false');
    await shoot('form-problem');
    // Esc cancels: back to the list, nothing added.
    await name.press('Escape');
    await expect(agentNames()).resolves.toEqual(['Demo Agent', 'Helper']);
  });

  it('duplicates an agent and removes one after naming it in a confirmation', async () => {
    await openSettings();
    await view().getByRole('button', { name: 'Duplicate Helper' }).click();
    await agentList().getByRole('heading', { name: 'Helper copy' }).waitFor();
    await expect(agentNames()).resolves.toEqual(['Demo Agent', 'Helper', 'Helper copy']);

    await view().getByRole('button', { name: 'Remove Helper copy' }).click();
    const dialog = page().getByRole('dialog', { name: 'Remove “Helper copy”?' });
    await dialog.waitFor();
    // Keeping it changes nothing.
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect(dialog.count()).resolves.toBe(0);
    await expect(agentNames()).resolves.toEqual(['Demo Agent', 'Helper', 'Helper copy']);

    await view().getByRole('button', { name: 'Remove Helper copy' }).click();
    await dialog.getByRole('button', { name: 'Remove agent' }).click();
    await agentList().getByRole('heading', { name: 'Helper copy' }).waitFor({ state: 'detached' });
    await expect(agentNames()).resolves.toEqual(['Demo Agent', 'Helper']);
    await expect(readFile(settingsFile(), 'utf8')).resolves.not.toContain('Helper copy');
  });

  it('masks a secret value until it is revealed', async () => {
    await openSettings();
    await expect(page().content()).resolves.not.toContain('sk-very-secret');
    await view().getByRole('button', { name: 'Edit Helper' }).click();
    const secret = form()
      .locator('.agent-env-row')
      .filter({ has: page().locator('input[value="HELPER_API_KEY"]') });
    const value = secret.getByLabel('Value', { exact: true });
    await expect(value.getAttribute('type')).resolves.toBe('password');
    await expect(value.inputValue()).resolves.toBe('');
    // A plain value shows as it is.
    const plain = form()
      .locator('.agent-env-row')
      .filter({ has: page().locator('input[value="LOG_LEVEL"]') });
    await expect(plain.getByLabel('Value', { exact: true }).inputValue()).resolves.toBe('debug');
    await expect(plain.getByRole('button', { name: /Reveal/ }).count()).resolves.toBe(0);
    await shoot('form-secret');
    await page().setViewportSize({ width: 480, height: 900 });
    await page().getByRole('button', { name: 'Sessions sidebar' }).click();
    await shoot('form-narrow');
    await page().setViewportSize({ width: 1200, height: 900 });

    await secret.getByRole('button', { name: 'Reveal the value of HELPER_API_KEY' }).click();
    await secret.getByRole('button', { name: 'Hide the value of HELPER_API_KEY' }).waitFor();
    await expect(value.inputValue()).resolves.toBe('sk-very-secret-value-1234');
    await expect(value.getAttribute('type')).resolves.toBe('text');
    await shoot('form-revealed');
  });

  it('tests the demo agent: who it is, and that a session starts', async () => {
    await openSettings();
    await view().getByRole('button', { name: 'Test Demo Agent' }).click();
    const result = view().getByRole('region', { name: 'Test of Demo Agent' });
    await result.getByText('started and answered').waitFor({ timeout: 60_000 });
    // The facts in view and those under Details (the protocol, the log).
    const facts = await result.textContent();
    expect(facts).toMatch(/AgentDemo Agent|Agent.*demo/i);
    expect(facts).toContain('A session starts');
    expect(facts).toMatch(/ProtocolACP version \d+/);
    expect(facts).toContain('Log');
    await shoot('test-result');
  });

  it("keeps a test's result when the view is left and opened again, until the agent changes", async () => {
    await writeFile(
      settingsFile(),
      JSON.stringify({ agent_servers: { Missing: { command: '/nonexistent/agent-binary' } } }),
    );
    await openSettings();
    await view().getByRole('button', { name: 'Test Missing' }).click();
    const result = view().getByRole('region', { name: 'Test of Missing' });
    await result.getByText('Missing did not start.').waitFor({ timeout: 60_000 });

    await page().getByRole('button', { name: 'Back to sessions' }).click();
    await page()
      .getByRole('button', { name: /Agent settings/ })
      .click();
    await result.getByText('Missing did not start.').waitFor();

    // Changed by hand: the result was for the old command.
    await writeFile(
      settingsFile(),
      JSON.stringify({ agent_servers: { Missing: { command: '/nonexistent/other-binary' } } }),
    );
    await agentList().getByText('/nonexistent/other-binary').waitFor();
    await expect(result.count()).resolves.toBe(0);
  });

  it('tests an agent that needs signing in: its methods, and why no session starts', async () => {
    const agent = fixtureSpec('auth-required', 'Needs Login');
    await writeFile(
      settingsFile(),
      JSON.stringify({
        agent_servers: { [agent.name]: { command: agent.command, args: agent.args } },
      }),
    );
    await openSettings();
    await view().getByRole('button', { name: 'Test Needs Login' }).click();
    const result = view().getByRole('region', { name: 'Test of Needs Login' });
    await result.getByText('started and answered').waitFor({ timeout: 60_000 });
    const facts = await result.textContent();
    expect(facts).toContain('FOO API key');
    expect(facts).toContain('FOO_KEY not set');
    expect(facts).toContain('A session does not start');
    expect(facts).toContain('It needs signing in');
    await shoot('test-sign-in');
  });

  it('tests a command that cannot start, and says why', async () => {
    await writeFile(
      settingsFile(),
      JSON.stringify({ agent_servers: { Missing: { command: '/nonexistent/agent-binary' } } }),
    );
    await openSettings();
    await agentList().getByRole('heading', { name: 'Missing' }).waitFor();
    await view().getByRole('button', { name: 'Test Missing' }).click();
    const result = view().getByRole('region', { name: 'Test of Missing' });
    const failed = result.getByText('Missing did not start.');
    await failed.waitFor({ timeout: 60_000 });
    const said = await result.textContent();
    expect(said).toContain('/nonexistent/agent-binary');
    expect(said).toContain('Check its command and arguments');
    await shoot('test-failed');
  });

  it('shows that a test is running while the agent has not answered', async () => {
    await writeFile(
      settingsFile(),
      JSON.stringify({ agent_servers: { Sleepy: { command: 'sleep', args: ['600'] } } }),
    );
    await openSettings();
    await view().getByRole('button', { name: 'Test Sleepy' }).click();
    const result = view().getByRole('region', { name: 'Test of Sleepy' });
    await expect(result.getAttribute('aria-busy')).resolves.toBe('true');
    await expect(result.textContent()).resolves.toContain('This can take up to a minute.');
    const button = view().getByRole('button', { name: 'Test Sleepy' });
    await expect(button.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(button.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    await expect(button.textContent()).resolves.toBe('Testing…');
    await shoot('test-busy');
  });

  it('shows a file that cannot be parsed, with its line, and disables every edit', async () => {
    await writeFile(settingsFile(), '{\n  "agent_servers": {\n    "Helper": { "command": \n}\n');
    await openSettings();
    const alert = view().getByRole('alert').filter({ hasText: 'cannot be read' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/settings\.json.*line \d+/);
    const add = view().getByRole('button', { name: 'Add agent' });
    await expect(add.isDisabled()).resolves.toBe(true);
    const why = await add.getAttribute('aria-describedby');
    await expect(page().locator(`[id="${why}"]`).textContent()).resolves.toContain(
      'cannot be changed here',
    );
    for (const button of await view()
      .getByRole('button', { name: /^(Edit|Duplicate|Remove) / })
      .all()) {
      await expect(button.isDisabled()).resolves.toBe(true);
    }
    await shoot('broken-file');
  });

  it('shows a hand edit of the file without a reload', async () => {
    await openSettings();
    await expect(agentNames()).resolves.toEqual(['Demo Agent', 'Helper']);
    const text = await readFile(settingsFile(), 'utf8');
    await writeFile(
      settingsFile(),
      text.replace(
        '// The one I use most.',
        '"By Hand": { "command": "by-hand" },\n    // The one I use most.',
      ),
    );
    await agentList().getByRole('heading', { name: 'By Hand' }).waitFor();
    // Broken by hand, the view says so; fixed, it is editable again.
    await writeFile(settingsFile(), '{ "agent_servers": {');
    await view().getByRole('alert').filter({ hasText: 'cannot be read' }).waitFor();
    await writeFile(settingsFile(), text);
    await view()
      .getByRole('alert')
      .filter({ hasText: 'cannot be read' })
      .waitFor({ state: 'detached' });
    await expect(view().getByRole('button', { name: 'Add agent' }).isEnabled()).resolves.toBe(true);
  });

  it('is reached and used by keyboard alone: add, fill in, save', async () => {
    const shown = await open();
    await shown.getByRole('button', { name: 'New session' }).first().waitFor();
    await shown.keyboard.press('Alt+Comma');
    await expect.poll(focused).toBe('Agents');
    await tabTo('Add agent');
    await shown.keyboard.press('Enter');
    // The registry's catalogue first, its search focused; a custom agent is a step back.
    await tabTo('Custom agent…', true);
    await shown.keyboard.press('Enter');
    // The name field has the focus.
    await expect
      .poll(() => shown.evaluate(() => document.activeElement?.id))
      .toBe(await form().getByLabel('Name').getAttribute('id'));
    await shown.keyboard.type('Typed');
    await shown.keyboard.press('Tab');
    await shown.keyboard.type('typed-agent');
    await shown.keyboard.press('Enter');
    await agentList().getByRole('heading', { name: 'Typed' }).waitFor();
    await expect.poll(focused).toBe('Edit Typed');
    // Back to the sessions, and the focus on the button that opened the view.
    await tabTo('Back to sessions', true);
    await shown.keyboard.press('Enter');
    await view().waitFor({ state: 'detached' });
    await expect.poll(focused).toContain('Agent settings');
  });

  it('has no serious accessibility violation: list, form with a problem, broken file', async () => {
    const check = async () => expect(await seriousInView()).toEqual([]);
    await openSettings();
    await check();
    await view().getByRole('button', { name: 'Edit Helper' }).click();
    await form().getByLabel('Command').fill('');
    await form().getByRole('button', { name: 'Save' }).click();
    await form().locator('[aria-invalid="true"]').first().waitFor();
    await check();
    await form().getByRole('button', { name: 'Cancel' }).click();
    await writeFile(settingsFile(), '{ "agent_servers": {');
    await view().getByRole('alert').filter({ hasText: 'cannot be read' }).waitFor();
    await check();
  });
});
