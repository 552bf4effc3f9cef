/**
 * The whole app in Chromium against `npm run web`'s build, with the demo agent.
 */
import { describe, expect, it } from 'vitest';
import { replyFor } from '../../main/demo-agent/script.js';
import { appPage } from '../helpers/app-page.js';
import { useWebApp } from '../helpers/e2e.js';

const { page, reopen } = useWebApp({ startSession: true });

const { status, transcript, turnEnded, startSession, send, sendTurn } = appPage(page);

describe('a session in the browser', () => {
  it('shows who the agent is and streams its reply to the end of the turn', async () => {
    await expect(
      page().getByLabel('Agent', { exact: true }).first().textContent(),
    ).resolves.toContain('Airlock Demo Agent 0.1.0');
    await expect(page().getByRole('combobox', { name: 'Reply style' }).inputValue()).resolves.toBe(
      'plain',
    );
    await send('hello airlock');
    await turnEnded('Done');
    await expect(transcript().textContent()).resolves.toContain(
      replyFor('hello airlock').replace('`/help`', '/help'),
    );
    await expect(status().textContent()).resolves.toBe('Ready');
  });

  it('follows long replies to their end, until the user scrolls up', async () => {
    const scroller = transcript().locator('[data-virtuoso-scroller="true"]');
    const fromBottom = () =>
      scroller.evaluate(
        (element) => element.scrollHeight - element.scrollTop - element.clientHeight,
      );
    for (const size of [200, 300]) {
      await sendTurn(`/long ${size}`);
      await turnEnded('Done');
      await expect.poll(fromBottom).toBeLessThan(2);
    }

    // The list moving up by itself (here the view growing, as when the dock empties) is not
    // the user scrolling up: following goes on. (3 MB: long enough to be seen working on a
    // loaded machine, where a shorter reply could end before its status was looked at.)
    await send('/long 3000');
    await status().filter({ hasText: 'Working' }).waitFor();
    await page().setViewportSize({ width: 1200, height: 1300 });
    await status().filter({ hasText: 'Ready' }).waitFor();
    await turnEnded('Done');
    await expect.poll(fromBottom).toBeLessThan(2);
    await page().setViewportSize({ width: 1200, height: 900 });
    await expect.poll(fromBottom).toBeLessThan(2);

    // Part of a reply too long to end while the test runs (100 MB; it is cancelled below) is
    // on screen: the user scrolls up while it is still streaming in, however slow the machine.
    const height = () => scroller.evaluate((element) => element.scrollHeight);
    const before = await height();
    await send('/long 100000');
    await status().filter({ hasText: 'Working' }).waitFor();
    await expect.poll(height).toBeGreaterThan(before + 5_000);
    // Past its first megabyte, a message is held back (text-cap.ts): the note that says how
    // much grows instead of the list.
    const heldBack = () =>
      transcript()
        .locator('.long-text-note')
        .evaluateAll((notes) => notes.map((note) => note.textContent).join());
    // What the page receives, counted where the page cannot leave it out: the held-back note is
    // at the end of the list, which a user reading far above it does not have drawn.
    const cdp = await page().context().newCDPSession(page());
    let received = 0;
    cdp.on('Network.webSocketFrameReceived', ({ response }) => {
      received += response.payloadData.length;
    });
    await cdp.send('Network.enable');
    await transcript().hover();
    // Far enough up that the rows measured anew above the view (which move it by their
    // difference from the estimate) cannot bring it within 500 px of the end.
    await page().mouse.wheel(0, -3000);
    // The reply goes on below while the user reads above it, two megabytes more of it, and
    // the list leaves the user where they read. (Rows not drawn yet count at an estimated
    // height, so the distance is a floor, far above what following leaves: 0.)
    const receivedAtWheel = received;
    await expect
      .poll(
        async () =>
          (await fromBottom()) > 20_000 ||
          (received > receivedAtWheel + 2_000_000 && (await fromBottom()) > 500),
        { timeout: 30_000 },
      )
      .toBe(true);
    await cdp.detach();

    // Back at the bottom by the user's hand, the list follows again, as the reply goes on: it
    // grows, or the note of how much is held back grows.
    await scroller.focus();
    await page().keyboard.press('End');
    await expect.poll(fromBottom).toBeLessThan(2);
    const [grownFrom, heldFrom] = [await height(), await heldBack()];
    await expect
      .poll(async () => (await height()) > grownFrom + 5_000 || (await heldBack()) !== heldFrom)
      .toBe(true);
    await expect.poll(fromBottom).toBeLessThan(2);
    await page().getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');
    await sendTurn('/long 300');
    await turnEnded('Done');
    await expect.poll(fromBottom).toBeLessThan(2);
  });

  it('stops following while the focus is on a row above the end, and follows again on the next message', async () => {
    // Once the reply has begun to reach the page, what the host sends is held until the focus
    // is placed: the rest of the reply then arrives below the focused row, however fast the
    // page, the host and the agent are next to each other.
    let armed = false;
    let release: (() => void) | undefined;
    await reopen({
      startSession: true,
      beforeLoad: (target) =>
        target.routeWebSocket(/\/ws$/, (socket) => {
          const server = socket.connectToServer();
          let held: (string | Buffer)[] | undefined;
          socket.onMessage((message) => server.send(message));
          server.onMessage((message) => {
            if (held) {
              held.push(message);
              return;
            }
            socket.send(message);
            if (armed && !release && /"role":"agent"/.test(String(message))) {
              const waiting: (string | Buffer)[] = [];
              held = waiting;
              release = () => {
                held = undefined;
                waiting.forEach((later) => socket.send(later));
              };
            }
          });
        }),
    });
    const scroller = transcript().locator('[data-virtuoso-scroller="true"]');
    const fromBottom = () =>
      scroller.evaluate(
        (element) => element.scrollHeight - element.scrollTop - element.clientHeight,
      );
    await send('hello focus');
    await turnEnded('Done');
    const lastIndex = await scroller.evaluate((element) =>
      Math.max(
        ...[...element.querySelectorAll<HTMLElement>('[data-index]')].map((row) =>
          Number(row.dataset.index),
        ),
      ),
    );
    armed = true;
    await send('/long 2000');
    // The reply's Copy button gets the focus as soon as it is drawn, as Tab or a click gives it
    // (in the same frame: the list would move it out of reach while the test looked on).
    await page().evaluate(
      (after) =>
        new Promise<void>((resolve) => {
          const tick = () => {
            const button = [
              ...document.querySelectorAll<HTMLElement>('#session-panel .transcript [data-index]'),
            ]
              .filter((row) => Number(row.dataset.index) > after)
              .map((row) => row.querySelector<HTMLElement>('button.message-copy'))
              .find((found) => found !== null);
            if (button) {
              button.focus();
              resolve();
            } else {
              requestAnimationFrame(tick);
            }
          };
          tick();
        }),
      lastIndex,
    );
    release!();
    await status().filter({ hasText: 'Ready' }).waitFor();
    await turnEnded('Done');
    // The reply went on below; the focused button stayed where the user can see it.
    await expect.poll(fromBottom).toBeGreaterThan(20_000);
    const focused = page().locator('button.message-copy:focus');
    await expect(focused.count()).resolves.toBe(1);
    const [box, view] = await Promise.all([focused.boundingBox(), scroller.boundingBox()]);
    expect(box!.y).toBeGreaterThanOrEqual(view!.y);
    expect(box!.y + box!.height).toBeLessThanOrEqual(view!.y + view!.height);

    // Sending the next message shows its reply, to the end.
    await sendTurn('/long 300');
    await turnEnded('Done');
    await expect.poll(fromBottom).toBeLessThan(2);
  });

  it("keeps an option's new value shown while the answer to another option arrives", async () => {
    // The page's call to change "Show thinking" is held on its way to the host, so the answer
    // to "Reply style" arrives first.
    let releaseThinking: (() => void) | undefined;
    let held: () => void;
    const thinkingHeld = new Promise<void>((resolve) => (held = resolve));
    await reopen({
      startSession: true,
      beforeLoad: (target) =>
        target.routeWebSocket(/\/ws$/, (socket) => {
          const server = socket.connectToServer();
          socket.onMessage((message) => {
            const data = JSON.parse(String(message)) as {
              channel?: string;
              payload?: { value?: unknown };
            };
            if (
              data.channel === 'session:setConfigOption' &&
              typeof data.payload?.value === 'boolean'
            ) {
              releaseThinking = () => server.send(message);
              held();
              return;
            }
            server.send(message);
          });
          server.onMessage((message) => socket.send(message));
        }),
    });
    const thinking = page().getByRole('checkbox', { name: 'Show thinking' });
    await page().getByRole('combobox', { name: 'Reply style' }).selectOption({ label: 'Detailed' });
    await thinking.uncheck();
    await thinkingHeld;
    // The answer to "Reply style" (the agent says Detailed, and thinking still on) has come by
    // the time a new turn's reply is drawn.
    await send('hello options');
    await turnEnded('Done');
    await transcript().getByText('In detail: your message was 13 characters long.').waitFor();
    await expect(thinking.isChecked()).resolves.toBe(false);
    releaseThinking!();
    await expect.poll(() => thinking.isChecked()).toBe(false);
    // Thinking was still on for the first reply, and is off for the next.
    await send('hello again');
    await turnEnded('Done');
    await expect(transcript().getByText('Thinking', { exact: true }).count()).resolves.toBe(1);
  });

  it('scrolls the transcript by keyboard, with the focus shown', async () => {
    await sendTurn('/long 100');
    await turnEnded('Done');
    await page().getByRole('button', { name: 'Show agent log' }).focus();
    await page().keyboard.press('Tab');
    const scroller = transcript().locator('[data-virtuoso-scroller="true"]');
    await expect(scroller.evaluate((element) => element === document.activeElement)).resolves.toBe(
      true,
    );
    await expect(
      scroller.evaluate((element) => getComputedStyle(element).outlineStyle),
    ).resolves.toBe('solid');
    await page().keyboard.press('Home');
    await transcript().getByText('/long 100', { exact: true }).waitFor();
    await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(0);
    await page().keyboard.press('End');
    await turnEnded('Done');
  });

  it("changes the agent's options from the session header", async () => {
    await page().getByRole('combobox', { name: 'Reply style' }).selectOption({ label: 'Detailed' });
    await page().getByRole('checkbox', { name: 'Show thinking' }).uncheck();
    // Each control shows what the agent answered.
    await expect
      .poll(() => page().getByRole('checkbox', { name: 'Show thinking' }).isChecked())
      .toBe(false);
    await send('hello options');
    await turnEnded('Done');
    await transcript().getByText('In detail: your message was 13 characters long.').waitFor();
    await expect(transcript().getByText('Thinking', { exact: true }).count()).resolves.toBe(0);
  });

  it('refuses a message that is too long, clearly, and keeps it', async () => {
    const message = page().getByRole('textbox', { name: 'Message' });
    // Typing a million characters takes too long: set the value as a paste would.
    await message.evaluate((element: HTMLTextAreaElement) => {
      const setValue = Object.getOwnPropertyDescriptor(
        HTMLTextAreaElement.prototype,
        'value',
      )!.set!;
      setValue.call(element, 'x'.repeat(1_000_001));
      element.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await message.press('Enter');
    await expect(page().getByRole('alert').textContent()).resolves.toBe(
      'This message is 1,000,001 characters long; a message can have at most 1,000,000. Nothing was sent.',
    );
    await expect(message.inputValue()).resolves.toHaveLength(1_000_001);
    await expect(transcript().getByText('xxxx').count()).resolves.toBe(0);
  });

  it('renders a tool call with its diff', async () => {
    await send('/tool');
    const tool = transcript().getByRole('region', { name: 'Tool call: Edit README.md' });
    await tool.getByText('completed').waitFor();
    await expect(
      tool.getByRole('figure', { name: 'Diff of /demo/README.md' }).textContent(),
    ).resolves.toContain('+ Hello from the Airlock demo agent.');
  });

  it('answers a permission request by keyboard', async () => {
    await send('/permission');
    const card = page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: 'Permission request: Edit README.md' });
    await card.getByRole('button', { name: 'Allow once' }).waitFor();
    // The new card takes focus: Enter answers its first option.
    await page().waitForFunction(() => document.activeElement?.textContent === 'Allow once');
    await page().keyboard.press('Enter');
    await transcript()
      .getByRole('group', { name: 'Permission asked: Edit README.md' })
      .getByText('Allowed once: you chose “Allow once”')
      .waitFor();
    await card.waitFor({ state: 'detached' });
    await transcript().getByText('I edited README.md; the diff is above.').waitFor();
  });

  it('cancels a turn with Esc outside the card, answering its pending permission cancelled', async () => {
    await send('/permission');
    const card = page()
      .getByRole('region', { name: 'Questions from the agent' })
      .getByRole('group', { name: 'Permission request: Edit README.md' });
    await card.getByRole('button', { name: 'Reject' }).waitFor();
    // Esc on the card ends the card only (web-permissions.test.ts); from the message box it
    // cancels the turn.
    await page().getByRole('textbox', { name: 'Message' }).focus();
    await page().keyboard.press('Escape');
    await transcript()
      .getByRole('group', { name: 'Permission asked: Edit README.md' })
      .getByText('Cancelled: the turn was cancelled')
      .waitFor();
    await card.waitFor({ state: 'detached' });
    await turnEnded('Cancelled');
    await status().filter({ hasText: 'Ready' }).waitFor();
  });

  it('cancels a long streaming turn with the Cancel button', async () => {
    await send('/long 50000');
    await page().getByRole('button', { name: 'Cancel' }).click();
    await turnEnded('Cancelled');
    await status().filter({ hasText: 'Ready' }).waitFor();
  });

  it('survives the agent crashing mid-turn: restarts it by itself, in the same session', async () => {
    await send('/crash');
    // What the user types meanwhile stays in the message box through the restart.
    await page().getByRole('textbox', { name: 'Message' }).fill('my unsent words');
    // The exit, its last lines under Details, then the restart that followed by itself.
    const exit = transcript()
      .getByRole('alert')
      .filter({ hasText: 'The agent exited with code 3.' });
    await exit.waitFor();
    const lastLines = exit.getByLabel("The agent's last lines");
    await expect(lastLines.isVisible()).resolves.toBe(false);
    await exit.getByText('Details').click();
    await expect(lastLines.textContent()).resolves.toContain('crashing on request (/crash)');
    await transcript().getByText('Restarted Demo Agent, in the same session.').waitFor();
    await status().filter({ hasText: 'Ready' }).waitFor();
    await expect(page().getByRole('textbox', { name: 'Message' }).inputValue()).resolves.toBe(
      'my unsent words',
    );
    await page().getByRole('button', { name: 'Show agent log' }).click();
    await expect(
      page().getByRole('region', { name: 'Agent log' }).textContent(),
    ).resolves.toContain('crashing on request');
    await page().getByRole('button', { name: 'Hide agent log' }).click();
    await send('after restart');
    await transcript().getByText('You said: "after restart"', { exact: false }).waitFor();
  });

  it('shows agent markup as text: no HTML, no followable links, no fetched images', async () => {
    await send(
      '<img src="/x.png" onerror="window.pwned=1"> [click](javascript:alert(1)) ![pic](https://example.com/p.png) <b>bold</b>',
    );
    await turnEnded('Done');
    expect(await transcript().locator('img, a, b, script, iframe').count()).toBe(0);
    await expect(transcript().textContent()).resolves.toContain('(javascript:alert(1))');
    await expect(
      page().evaluate(() => (window as { pwned?: number }).pwned),
    ).resolves.toBeUndefined();
  });

  it('runs turns in several sessions at once, each transcript only its own', async () => {
    // Tall enough that the list renders every row of every turn.
    await page().setViewportSize({ width: 1200, height: 3000 });
    const tabs = page().getByRole('tab');
    const first = (await tabs.count()) - 1;
    await startSession();
    await startSession();
    const sessions = [first, first + 1, first + 2];
    const rounds = [1, 2];
    const said = (session: number, round: number) => `session ${session + 1}, turn ${round}`;
    const answer = (session: number, round: number) =>
      (session + round) % 2 ? 'Allow once' : 'Reject';
    const show = async (index: number) => {
      await tabs.nth(index).click();
      await page().getByRole('tab', { selected: true }).and(tabs.nth(index)).waitFor();
    };
    const turnsEnded = (count: number) =>
      transcript()
        .getByRole('status', { name: 'Turn ended' })
        .nth(count - 1)
        .waitFor();
    const card = () =>
      page()
        .getByRole('region', { name: 'Questions from the agent' })
        .getByRole('group', { name: 'Permission request: Edit README.md' });

    for (const round of rounds) {
      // A turn in every tab, each waiting on its permission card: all three run at once.
      for (const index of sessions) {
        await show(index);
        await status().filter({ hasText: 'Ready' }).waitFor();
        await send('/permission');
        await card().getByRole('button', { name: 'Reject' }).waitFor();
      }
      // Answered last to first, each tab its own answer, while the others still wait.
      for (const [session, index] of [...sessions.entries()].reverse()) {
        await show(index);
        await card()
          .getByRole('button', { name: answer(session, round) })
          .click();
        await turnsEnded(2 * round - 1);
      }
      // Then a message to each, one after the other.
      for (const [session, index] of sessions.entries()) {
        await show(index);
        await status().filter({ hasText: 'Ready' }).waitFor();
        await send(said(session, round));
        await transcript()
          .getByLabel('Your prompt')
          .filter({ hasText: said(session, round) })
          .waitFor();
      }
    }

    for (const [session, index] of sessions.entries()) {
      await show(index);
      await turnsEnded(2 * rounds.length);
      await status().filter({ hasText: 'Ready' }).waitFor();
      // What each row says, less its Copy button.
      const rowTexts = transcript()
        .locator('.row')
        .evaluateAll((rows) =>
          rows.map((row) => {
            const copy = row.querySelector<HTMLElement>('.message-copy');
            const hidden = copy?.style.display;
            if (copy) {
              copy.style.display = 'none';
            }
            const text = (row as HTMLElement).innerText;
            if (copy) {
              copy.style.display = hidden ?? '';
            }
            return text;
          }),
        );
      await expect(rowTexts).resolves.toEqual(
        rounds.flatMap((round) => {
          const allowed = answer(session, round) === 'Allow once';
          return [
            '/permission',
            expect.stringContaining(
              `Edit README.md\n${allowed ? 'completed\n' : 'rejected · not run'}`,
            ),
            expect.stringMatching(new RegExp(`: you chose “${answer(session, round)}”$`)),
            allowed
              ? 'I edited README.md; the diff is above.'
              : 'Understood: I left README.md alone.',
            'Done',
            said(session, round),
            'Thinking',
            replyFor(said(session, round)).replace('`/help`', '/help'),
            'Done',
          ];
        }),
      );
    }
  });

  it('moves between sessions with the arrow keys, only the shown one in the Tab order', async () => {
    await send('first of two');
    await turnEnded('Done');
    await startSession();
    const tabs = page().getByRole('tab');
    const count = await tabs.count();
    const shown = page().getByRole('tab', { selected: true });
    await shown.focus();
    await expect(shown.getAttribute('tabindex')).resolves.toBe('0');
    await expect(
      tabs.evaluateAll((all) => all.filter((tab) => tab.getAttribute('tabindex') === '0').length),
    ).resolves.toBe(1);

    await page().keyboard.press('ArrowUp');
    await tabs
      .nth(count - 2)
      .and(shown)
      .waitFor();
    await expect(
      tabs.nth(count - 2).evaluate((tab) => tab === document.activeElement),
    ).resolves.toBe(true);
    await transcript().getByText('You said: "first of two"', { exact: false }).waitFor();
    // Down from the last wraps to the first; End goes back to the last.
    await page().keyboard.press('End');
    await tabs
      .nth(count - 1)
      .and(shown)
      .waitFor();
    await page().keyboard.press('ArrowDown');
    await tabs.nth(0).and(shown).waitFor();
  });
});
