/**
 * Notifications and the badge on the Electron host: a real core and real scripted agents, with
 * `electron` faked. The notification's click goes back through the core as `showWaiting`.
 */
import './use-fake-electron.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { app, BrowserWindow, Notification, resetFakeElectron } from './fake-electron.js';
import type { AirlockCore } from '../../../../main/core/core.js';
import { setupAttention } from '../../../../main/electron/app-attention.js';
import type { EventPayload } from '../../../../preload/shared/contract.js';
import { fixtureSpec } from '../../../helpers/agents.js';
import { ask, form, type Card } from '../../../helpers/elicitation-requests.js';
import { readySession, startCore } from '../../../helpers/core-harness.js';

let core: AirlockCore | undefined;
beforeEach(() => resetFakeElectron());
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

/**
 * A core with the scripted agent of `scenario`, one ready session on it, an app window (not
 * focused) and the host's attention set up for `platform`; the host commands the core emits
 * are recorded.
 */
async function withApp(scenario: string, platform: NodeJS.Platform = 'linux') {
  const agent = fixtureSpec(scenario);
  const started = await startCore([agent], { requestMs: 10_000, cancelGraceMs: 500 });
  core = started.core;
  const commands: EventPayload<'app:onCommand'>[] = [];
  started.core.onEvent((channel, payload) => {
    if (channel === 'app:onCommand') {
      commands.push(payload as EventPayload<'app:onCommand'>);
    }
  });
  const window = new BrowserWindow();
  // The app's windows as the host lists them; a test may close them all.
  const windows = [window];
  // The sessions whose card a window was opened to show.
  const opened: string[] = [];
  setupAttention(
    started.core,
    { open: () => windows, create: (key) => opened.push(key) },
    platform,
  );
  const key = await readySession(started.core, started.recorder, agent.name, started.dir);
  const open = () => readySession(started.core, started.recorder, agent.name, started.dir);
  return { ...started, core: started.core, key, window, windows, opened, commands, open };
}

/** What a notification shows: its title and body. */
const shown = (notification: Notification | undefined) =>
  `${notification?.title ?? ''}\n${notification?.body ?? ''}`;

describe('a card that opens while the app is in the background', () => {
  it('shows one notification naming the agent and the tool call it asks about', async () => {
    const { core, recorder, key } = await withApp('permission');
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'permission');
    expect(Notification.created).toHaveLength(1);
    const [notification] = Notification.created;
    expect(notification?.options).toEqual({
      title: 'fixture-permission asks for permission',
      body: 'Delete build/',
    });
    expect(notification?.show).toHaveBeenCalledTimes(1);
  });

  it('shows none while an app window has the focus', async () => {
    const { core, recorder, key, window } = await withApp('permission');
    window.focus();
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'permission');
    expect(Notification.created).toEqual([]);
    // The badge counts the card all the same.
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(1);
  });

  it('on a click, brings the window back from minimized, focuses it and shows the card', async () => {
    const { core, recorder, key, window, opened, commands } = await withApp('permission');
    window.minimize();
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'permission');
    expect(commands).toEqual([]);
    Notification.created[0]?.click();
    expect(window.restore).toHaveBeenCalledTimes(1);
    expect(window.minimized).toBe(false);
    expect(window.show).toHaveBeenCalled();
    expect(BrowserWindow.focused).toBe(window);
    expect(commands).toEqual([{ command: 'showWaiting', key }]);
    expect(opened).toEqual([]);
  });

  it('on a click once the window is closed, opens a window that shows the card', async () => {
    const { core, recorder, key, window, windows, opened, commands } = await withApp('permission');
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'permission');
    window.minimize();
    window.userCloses();
    Notification.created[0]?.click();
    expect(window.restore).not.toHaveBeenCalled();
    expect(window.show).not.toHaveBeenCalled();
    expect(window.focus).not.toHaveBeenCalled();
    // No page to send a command to: the new window's page shows the card once it has loaded.
    expect(opened).toEqual([key]);
    expect(commands).toEqual([]);
    // macOS: the app runs on with no window at all.
    windows.length = 0;
    Notification.created[0]?.click();
    expect(opened).toEqual([key, key]);
    expect(commands).toEqual([]);
  });

  it('on a click, leaves a window that is not minimized as it is', async () => {
    const { core, recorder, key, window } = await withApp('permission');
    window.maximize();
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'permission');
    Notification.created[0]?.click();
    expect(window.restore).not.toHaveBeenCalled();
    expect(window.maximized).toBe(true);
    expect(BrowserWindow.focused).toBe(window);
  });

  it('shows the agent’s markup as text, escaped for Linux notification servers', async () => {
    const { core, recorder, key } = await withApp('elicit');
    await ask(core, key, form('Is <b>this</b> & <a href="https://evil.example/">that</a> ok?'));
    await recorder.event(key, 'elicitation');
    expect(Notification.created[0]?.body).toBe(
      'Is &lt;b&gt;this&lt;/b&gt; &amp; &lt;a href="https://evil.example/"&gt;that&lt;/a&gt; ok?',
    );
  });

  it('shows it as it is where the body is plain text (macOS)', async () => {
    const { core, recorder, key } = await withApp('elicit', 'darwin');
    await ask(core, key, form('Is <b>this</b> & that ok?'));
    await recorder.event(key, 'elicitation');
    expect(Notification.created[0]?.body).toBe('Is <b>this</b> & that ok?');
  });

  it('never shows a URL request’s address, nor a form’s defaults', async () => {
    const { core, recorder, key } = await withApp('elicit');
    const url = 'https://auth.idp-sample.net/authorize?client_id=cid-Wren-5';
    await ask(
      core,
      key,
      { sessionId: '$SESSION', mode: 'url', elicitationId: 'in-1', url, message: `Go to ${url}` },
      form('Your name?', { name: { type: 'string', default: 'default-Kestrel-41' } }),
    );
    await recorder.until(() => Notification.created.length === 2, 'two notifications');
    const said = Notification.created.map(shown).join('\n');
    expect(said).toContain('fixture-elicit asks to open a web page');
    expect(said).toContain('Your name?');
    for (const part of ['https', 'auth.', 'idp-sample', 'authorize', 'Wren', 'Kestrel']) {
      expect(said).not.toContain(part);
    }
  });

  it('shows none, and fails nothing, where the system has no notifications', async () => {
    Notification.isSupported.mockReturnValue(false);
    const { core, recorder, key } = await withApp('permission');
    await core.invoke('session:prompt', { key, text: 'go' });
    await recorder.event(key, 'permission');
    expect(Notification.created).toEqual([]);
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(1);
  });
});

describe('the badge and the end of a card', () => {
  it('follows the count of waiting cards up and down to 0, closing each card’s notification as it ends', async () => {
    const { core, recorder, key, open } = await withApp('elicit');
    const other = await open();
    await ask(core, key, form('One?'), form('Two?'));
    await ask(core, other, form('Three?'));
    await recorder.until(() => Notification.created.length === 3, 'three notifications');
    const cards = (session: string) =>
      recorder.transcript(session).filter((event): event is Card => event.type === 'elicitation');
    const waiting = [
      ...cards(key).map((card) => ({ key, card })),
      { key: other, card: cards(other)[0]! },
    ];
    for (const [index, { key: session, card }] of waiting.entries()) {
      await core.invoke('elicitation:respond', {
        key: session,
        cardKey: card.cardKey,
        action: 'decline',
      });
      await recorder.until(
        () => Notification.created[index]?.closed === true,
        `notification ${index} to close`,
      );
    }
    expect(app.setBadgeCount.mock.calls.map(([count]) => count)).toEqual([1, 2, 3, 2, 1, 0]);
    expect(Notification.created.map((notification) => notification.closed)).toEqual([
      true,
      true,
      true,
    ]);
    expect(Notification.created.map((notification) => notification.body)).toEqual([
      'One?',
      'Two?',
      'Three?',
    ]);
  });
});
