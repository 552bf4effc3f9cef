/**
 * An agent's JSON-RPC error in Chromium through the web host: the sentence a person reads
 * names the agent and what went wrong, with no code; the code, the request it answered and the
 * agent's raw data wait under a closed "Details", for a session that cannot start and for a
 * turn that fails.
 */
import { describe, expect, it } from 'vitest';
import { fixtureSpec } from '../helpers/agents.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const noStart = fixtureSpec('new-fails-quietly', 'Failing Start');
const badTurn = fixtureSpec('prompt-fails', 'Failing Turn');
const settings = {
  agent_servers: Object.fromEntries(
    [noStart, badTurn].map((agent) => [agent.name, { command: agent.command, args: agent.args }]),
  ),
};

const { page } = useWebApp({ settings, viewport: { width: 1280, height: 800 } });
const { openNewSession, startSession, send, transcript } = appPage(page);

/** Any JSON-RPC code in a text: `-32603`, `(-32000)`. */
const CODE = /-32\d{3}/;

describe('a JSON-RPC error from the agent', () => {
  it('reads as a sentence when a session cannot start; the code is under Details', async () => {
    const dialog = await openNewSession();
    await dialog.getByRole('radio', { name: noStart.name, exact: true }).check();
    await dialog.getByRole('button', { name: 'Start session' }).click();
    const panel = page().getByRole('region', { name: 'Agent stopped' });
    const sentence = panel.getByRole('alert').filter({ hasText: 'Internal error' });
    await sentence.waitFor();
    const said = (await sentence.textContent()) ?? '';
    expect(said).toMatch(/^Failing Start: Internal error: Query closed before response received/);
    expect(said).not.toMatch(CODE);

    const details = panel.locator('details').filter({ hasText: 'Details' });
    await expect(details.evaluate((element) => (element as HTMLDetailsElement).open)).resolves.toBe(
      false,
    );
    const detail = details.locator('.error-detail-text');
    await expect(detail.isVisible()).resolves.toBe(false);
    await details.getByText('Details', { exact: true }).click();
    await detail.waitFor();
    await expect(detail.textContent()).resolves.toBe(
      'JSON-RPC error -32603 answering session/new; data: {"details":"Query closed before response received"}',
    );
  });

  it('reads as a sentence when a turn fails; the code is under Details', async () => {
    await startSession(badTurn.name);
    await send('hello');
    const row = transcript().locator('.turn-error');
    const sentence = row.getByRole('alert');
    await sentence.waitFor();
    const said = (await sentence.textContent()) ?? '';
    expect(said).toMatch(/^Failing Turn: Internal error: The model is overloaded/);
    expect(said).not.toMatch(CODE);

    const detail = row.locator('.error-detail-text');
    await expect(detail.isVisible()).resolves.toBe(false);
    await row.getByText('Details', { exact: true }).click();
    await detail.waitFor();
    await expect(detail.textContent()).resolves.toBe(
      'JSON-RPC error -32603 answering session/prompt; data: {"details":"The model is overloaded"}',
    );
  });
});
