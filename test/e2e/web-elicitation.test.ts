/**
 * Form elicitation end to end: the demo agent asks, the card in Chromium (through the web host)
 * collects the answer, and the agent prints what reached it.
 */
import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const { page, reopen } = useWebApp({
  viewport: { width: 1200, height: 1000 },
  // A zone with a summer offset, so a date-time answer shows its offset is the local one.
  context: { timezoneId: 'Europe/Berlin' },
  startSession: true,
});

const { status, transcript, composer, turnEnded, startSession, openNewSession, send } =
  appPage(page);
const dock = () => page().getByRole('region', { name: 'Questions from the agent' });
const card = () => dock().getByRole('group', { name: 'Question from Airlock Demo Agent 0.1.0' });
/** The transcript record of the latest question. */
const record = () =>
  transcript().getByRole('group', { name: 'Question from Airlock Demo Agent 0.1.0' }).last();
const field = (name: string) => card().getByLabel(name, { exact: true });
const button = (name: 'Accept' | 'Decline' | 'Cancel') => card().getByRole('button', { name });

/** Sends a command and waits for its card. */
async function ask(command: string): Promise<void> {
  await send(command);
  await card().waitFor();
}

/** What the agent printed it received, once the turn is over: the content of an accept. */
async function received(): Promise<unknown> {
  await turnEnded('Done');
  const line = await transcript()
    .getByText(/^You answered: accept, with /)
    .last()
    .textContent();
  return JSON.parse(line!.replace(/^You answered: accept, with /, ''));
}

/** The id of the focused element, or its text for a button. */
const focused = () =>
  page().evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return active?.tagName === 'BUTTON' ? active.textContent : (active?.id ?? null);
  });

describe('the form card', () => {
  it('renders every field type by its title and sends typed values', async () => {
    await ask('/form');
    // Who asks, and for which tab: named as the tab list names it (by its first prompt here).
    await expect(card().textContent()).resolves.toContain(
      'For the tab “Ask with a form of every field type”',
    );
    await expect(card().textContent()).resolves.toContain('Tell me a little about yourself');
    // The form's title is the agent's words, quoted under who asks: not a heading.
    await expect(
      card()
        .getByRole('figure', { name: 'Airlock Demo Agent 0.1.0 asks:' })
        .getByText('Tell the demo agent about yourself', { exact: true })
        .count(),
    ).resolves.toBe(1);
    await field('Name').fill('Ada Lovelace');
    await field('Email').fill('ada@example.com');
    await field('Homepage').fill('https://example.com/ada');
    await field('Birthday').fill('1815-12-10');
    await field('Next meeting').fill('2026-07-28T09:30');
    await field('Project code').fill('ABC-123');
    await field('Age').fill('36');
    await field('Budget (EUR)').fill('1234.5');
    await card().getByRole('checkbox', { name: 'Subscribe to updates' }).check();
    const language = card().getByRole('combobox', { name: 'Language' });
    await expect(language.inputValue()).resolves.toBe('');
    await expect(language.locator('option').allTextContents()).resolves.toEqual([
      'Choose…',
      'TypeScript',
      'Rust',
      'Go',
    ]);
    await language.selectOption('Rust');
    await button('Accept').click();

    await expect(received()).resolves.toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      homepage: 'https://example.com/ada',
      birthday: '1815-12-10',
      meeting: '2026-07-28T09:30:00+02:00',
      code: 'ABC-123',
      age: 36,
      budget: 1234.5,
      subscribe: true,
      language: 'Rust',
    });
    // The card is gone from the dock; its record says what was sent.
    await expect(dock().count()).resolves.toBe(0);
    const sent = await record().textContent();
    expect(sent).toContain('Accepted. Sent:');
    expect(sent).toContain('Age36');
    expect(sent).toContain('Subscribe to updatesYes');
  });

  it('sends only what was answered: no phantom 0, no chosen option, no false', async () => {
    await ask('/form');
    await expect(field('Age').inputValue()).resolves.toBe('');
    const subscribe = card().getByRole('checkbox', { name: 'Subscribe to updates' });
    await expect(subscribe.evaluate((box: HTMLInputElement) => box.indeterminate)).resolves.toBe(
      true,
    );
    await field('Name').fill('Ada');
    await field('Email').fill('ada@example.com');
    await button('Accept').click();
    await expect(received()).resolves.toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  it('shows errors as the user types, linked to the field, and sends nothing while wrong', async () => {
    await ask('/form');
    const name = field('Name');
    await name.pressSequentially('A');
    const errors = card().locator(`#${await name.getAttribute('id')}-errors`);
    await expect(errors.textContent()).resolves.toBe('Enter at least 2 characters');
    await expect(errors.getAttribute('aria-live')).resolves.toBe('polite');
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(name.getAttribute('aria-describedby')).resolves.toContain(
      await errors.getAttribute('id'),
    );
    // An untouched field shows nothing yet.
    await expect(field('Email').getAttribute('aria-invalid')).resolves.toBeNull();

    await button('Accept').click();
    await expect(card().getByRole('alert').textContent()).resolves.toBe(
      'Nothing was sent: 2 answers need attention.',
    );
    await expect(field('Email').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(focused()).resolves.toBe(await name.getAttribute('id'));
    // The agent is still waiting: nothing reached it.
    await expect(status().textContent()).resolves.toBe('Working…');
    await expect(record().textContent()).resolves.toContain('Waiting for your answer');

    await name.pressSequentially('da');
    await expect(name.getAttribute('aria-invalid')).resolves.toBeNull();
    await expect(errors.textContent()).resolves.toBe('');
    await button('Decline').click();
    await transcript().getByText('You answered: decline.').waitFor();
  });

  it("shows main's refusal on the card and keeps it open", async () => {
    // The answer is changed on its way, as a renderer that disagreed with main would send it.
    await reopen({
      beforeLoad: (target) =>
        target.routeWebSocket(/./, (socket) => {
          const server = socket.connectToServer();
          socket.onMessage((message) => {
            const data = JSON.parse(String(message)) as {
              channel?: string;
              payload?: { action?: string; content?: unknown };
            };
            if (data.channel === 'elicitation:respond' && data.payload?.action === 'accept') {
              data.payload.content = { branch: '' };
            }
            server.send(JSON.stringify(data));
          });
          server.onMessage((message) => socket.send(message));
        }),
    });
    await ask('/form-tool');
    await button('Accept').click();
    const refusal = card().getByRole('alert');
    await expect(refusal.textContent()).resolves.toMatch(/^Nothing was sent\. Branch name: /);
    await expect(record().textContent()).resolves.toContain('Waiting for your answer');
    await button('Cancel').click();
    await transcript().getByText('You answered: cancel.').waitFor();
  });

  it('declines with Decline', async () => {
    await ask('/form-titled');
    await button('Decline').click();
    await transcript().getByText('You answered: decline.').waitFor();
    await expect(record().textContent()).resolves.toContain('Declined');
  });

  it('cancels with Cancel', async () => {
    await ask('/form-titled');
    await button('Cancel').click();
    await transcript().getByText('You answered: cancel.').waitFor();
    await expect(record().textContent()).resolves.toContain('Cancelled');
  });

  it('cancels the card with Esc, and only the card: the turn goes on', async () => {
    await ask('/form-titled');
    await expect(focused()).resolves.toBe(
      await card()
        .getByRole('radiogroup', { name: 'How should I approach the refactoring?' })
        .getByRole('radio', { name: 'Conservative' })
        .getAttribute('id'),
    );
    await page().keyboard.press('Escape');
    await transcript().getByText('You answered: cancel.').waitFor();
    await turnEnded('Done');
    await expect(record().textContent()).resolves.toContain('Cancelled');
  });

  it('shows a titled select with described options as rows of radio buttons, each described', async () => {
    await ask('/form-titled');
    const choice = card().getByRole('radiogroup', {
      name: 'How should I approach the refactoring?',
    });
    await expect(
      choice
        .getByRole('radio')
        .evaluateAll((radios) =>
          radios.map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent),
        ),
    ).resolves.toEqual(['Conservative', 'Balanced', 'Aggressive']);
    const balanced = choice.getByRole('radio', { name: 'Balanced' });
    await expect(
      balanced.evaluate(
        (radio) =>
          document.getElementById(radio.getAttribute('aria-describedby')!.split(' ')[0]!)
            ?.textContent,
      ),
    ).resolves.toBe('Some restructuring');
    await expect(card().getByRole('combobox').count()).resolves.toBe(0);
    await balanced.check();
    await page().keyboard.press('Enter');
    await expect(received()).resolves.toEqual({ strategy: 'balanced' });
    await expect(record().textContent()).resolves.toContain(
      'How should I approach the refactoring?Balanced',
    );
  });

  it('answers multi selects with checkboxes, within their bounds', async () => {
    await ask('/form-multi');
    const platforms = card().getByRole('group', { name: 'Platforms to build for required' });
    await expect(platforms.getByRole('checkbox').count()).resolves.toBe(3);
    for (const name of ['linux', 'macos', 'windows']) {
      await platforms.getByRole('checkbox', { name }).check();
    }
    await expect(platforms.textContent()).resolves.toContain('Choose at most 2');
    await platforms.getByRole('checkbox', { name: 'macos' }).uncheck();
    await card().getByRole('checkbox', { name: 'Type check' }).check();
    await button('Accept').click();
    await expect(received()).resolves.toEqual({
      targets: ['linux', 'windows'],
      checks: ['types'],
    });
  });

  it('sends untouched defaults, falsy ones included', async () => {
    await ask('/form-defaults');
    await expect(field('Retries').inputValue()).resolves.toBe('0');
    await expect(
      card().getByRole('checkbox', { name: 'Verbose output' }).isChecked(),
    ).resolves.toBe(false);
    await expect(card().getByRole('combobox', { name: 'Log level' }).inputValue()).resolves.toBe(
      'info',
    );
    await button('Accept').click();
    await expect(received()).resolves.toEqual({
      retries: 0,
      verbose: false,
      prefix: '',
      level: 'info',
      ratio: 0.5,
    });
  });

  it('says which tool call a card is about, and the tool call says it waits', async () => {
    await ask('/form-tool');
    await expect(card().textContent()).resolves.toContain('about the tool call Create a branch');
    const tool = transcript().getByRole('region', { name: 'Tool call: Create a branch' });
    await tool.getByText('Waiting for your answer').waitFor();
    await expect(field('Branch name').inputValue()).resolves.toBe('demo/feature');
    await field('Branch name').press('Enter');
    await expect(received()).resolves.toEqual({ branch: 'demo/feature' });
    await tool.getByText('completed').waitFor();
    await expect(tool.getByText('Waiting for your answer').count()).resolves.toBe(0);
  });

  it('queues several cards, shows the count, and answers them in order', async () => {
    await send('/form-burst 3');
    await dock().getByText('1 of 3 waiting').waitFor();
    await page().getByRole('tab', { selected: true }).getByText('3 waiting').waitFor();
    for (const [index, left] of [
      [1, '1 of 3 waiting'],
      [2, '1 of 2 waiting'],
      [3, '1 question waiting'],
    ] as const) {
      await dock().getByText(left).waitFor();
      const note = card().getByLabel(`Note ${index}`, { exact: true });
      await note.waitFor();
      // Each new card takes focus: typing goes straight into it.
      await expect(focused()).resolves.toBe(await note.getAttribute('id'));
      await page().keyboard.type(`answer ${index}`);
      await page().keyboard.press('Enter');
    }
    await turnEnded('Done');
    // The agent prints a numbered list, one line per question, in the order it asked them.
    await expect(transcript().getByRole('listitem').allTextContents()).resolves.toEqual(
      [1, 2, 3].map((index) => `You answered: accept, with {"note":"answer ${index}"}`),
    );
  });

  it('closes a card the agent withdraws, and says so', async () => {
    await ask('/form-withdraw 1');
    await record().getByText('Withdrawn by the agent').waitFor();
    await expect(card().count()).resolves.toBe(0);
    await expect(dock().getByRole('status').textContent()).resolves.toContain(
      'withdrawn by the agent',
    );
    await transcript()
      .getByText(/^I withdrew the question\./)
      .waitFor();
  });

  it('closes the open card when the turn is cancelled', async () => {
    await ask('/form');
    await page()
      .locator('#session-panel .composer')
      .getByRole('button', { name: 'Cancel' })
      .click();
    await record().getByText('Closed: the turn was cancelled').waitFor();
    await turnEnded('Cancelled');
    await expect(card().count()).resolves.toBe(0);
  });

  it('asks while a new tab starts, on that tab', async () => {
    await send('/form-setup');
    await turnEnded('Done');
    const before = await page().getByRole('tab').count();
    const dialog = await openNewSession();
    await dialog.getByRole('button', { name: 'Start session' }).click();
    await page()
      .getByRole('tab', { selected: true })
      .and(page().getByRole('tab').nth(before))
      .waitFor();
    await card().waitFor();
    await expect(status().textContent()).resolves.toBe('Starting…');
    await expect(card().textContent()).resolves.toContain('asked while this tab starts');
    await expect(focused()).resolves.toBe(await field('Project name').getAttribute('id'));
    await page().keyboard.type('Airlock');
    await page().keyboard.press('Enter');
    await status().filter({ hasText: 'Ready' }).waitFor();
    await transcript()
      .getByText('Set up at start. You answered: accept, with {"project":"Airlock","careful":true}')
      .waitFor();
    // "Ask at start" stays on in the agent until turned off; later tabs start plainly.
    await page().getByRole('checkbox', { name: 'Ask at start' }).uncheck();
    await expect
      .poll(() => page().getByRole('checkbox', { name: 'Ask at start' }).isChecked())
      .toBe(false);
  });

  it('prints the refusals of forms outside the flat subset, without their codes', async () => {
    await send('/form-invalid');
    await turnEnded('Done');
    const lines = await transcript().getByRole('listitem').allTextContents();
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'a nested object',
      'a $ref',
      'an array of numbers',
      'a top-level allOf',
      'a schema that is not an object',
      'a required field that does not exist',
      'no mode',
      'another session id',
    ]);
    for (const line of lines) {
      expect(line).toContain('Airlock refused it: ');
      expect(line).not.toMatch(/-32\d{3}/);
    }
    await expect(dock().count()).resolves.toBe(0);
  });
});

describe('an open card', () => {
  it('keeps what was typed while the user looks at another tab', async () => {
    await ask('/form');
    await field('Name').fill('Ada');
    await field('Age').fill('3');
    const asking = (await page().getByRole('tab').count()) - 1;
    await startSession();
    await expect(card().count()).resolves.toBe(0);
    await page().getByRole('tab').nth(asking).click();
    await expect(field('Name').inputValue()).resolves.toBe('Ada');
    await expect(field('Age').inputValue()).resolves.toBe('3');
    // Coming back to a card seen before leaves focus where the user put it: on the tab.
    await expect(
      page()
        .getByRole('tab')
        .nth(asking)
        .evaluate((tab) => tab === document.activeElement),
    ).resolves.toBe(true);
    await field('Email').fill('ada@example.com');
    await button('Accept').click();
    await expect(received()).resolves.toEqual({ name: 'Ada', email: 'ada@example.com', age: 3 });
  });
});

describe('focus', () => {
  it('lands in the first field when a card appears', async () => {
    await ask('/form');
    await expect(focused()).resolves.toBe(await field('Name').getAttribute('id'));
  });

  it('stays in the composer while the user types a message there', async () => {
    await send('/form-later 2');
    await composer().pressSequentially('a draft');
    await card().waitFor();
    await expect(composer().evaluate((box) => box === document.activeElement)).resolves.toBe(true);
    await page().keyboard.type(' goes on');
    await expect(composer().inputValue()).resolves.toBe('a draft goes on');
    await expect(field('Branch name').inputValue()).resolves.toBe('demo/feature');
    await button('Cancel').click();
    await transcript().getByText('You answered: cancel.').waitFor();
  });

  it('reaches every field and button with Tab, in order', async () => {
    await ask('/form-defaults');
    const order: (string | null)[] = [await focused()];
    for (let i = 0; i < 7; i++) {
      await page().keyboard.press('Tab');
      order.push(await focused());
    }
    const ids = await card()
      .locator('.field-input, input[type=checkbox]')
      .evaluateAll((all) => all.map((element) => element.id));
    expect(order).toEqual([...ids, 'Accept', 'Decline', 'Cancel']);
  });
});

describe('accessibility', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violations with a card open (${colorScheme})`, async () => {
      // axe is injected as a script, which the app's CSP refuses.
      await reopen({ context: { bypassCSP: true, colorScheme } });
      await ask('/form');
      await field('Name').pressSequentially('A');
      await card().getByText('Enter at least 2 characters').waitFor();
      const results = await new AxeBuilder({ page: page() }).analyze();
      const serious = results.violations.filter(
        (violation) => violation.impact === 'serious' || violation.impact === 'critical',
      );
      expect(
        serious.map(
          (violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(' ')}`,
        ),
      ).toEqual([]);
      await button('Cancel').click();
      await transcript().getByText('You answered: cancel.').waitFor();
    });
  }
});

describe('the agent crashing', () => {
  // Last: the agent process is gone afterwards (a later session would start a new one).
  it('closes the open card, saying the agent exited', async () => {
    await ask('/form');
    const asking = (await page().getByRole('tab').count()) - 1;
    // The same agent process serves another tab; crash it from there.
    await startSession();
    await send('/crash');
    await transcript().getByText('The agent exited with code 3.').waitFor();
    await page().getByRole('tab').nth(asking).click();
    await record().getByText('Closed: the agent exited').waitFor();
    await expect(card().count()).resolves.toBe(0);
  });
});
