/**
 * The contract over Electron IPC, main side.
 *
 * The only module that touches `ipcMain` and `webContents.send`. It answers a call only when
 * it comes from the main frame of an app window showing a page on the app scheme; the core
 * validates the payload itself (see {@link AirlockCore.invoke}), and only user-facing
 * messages go back. Every core event goes to the app windows.
 *
 * The isolated URL windows' address strips have a contract of their own
 * (preload/shared/strip-contract.ts), served by {@link setupStripIpc} to those strips only.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { calls, type CallChannel } from '../../preload/shared/contract.js';
import type { IpcReply } from '../../preload/shared/ipc-reply.js';
import { STRIP_CHANNELS, type StripState } from '../../preload/shared/strip-contract.js';
import type { AirlockCore } from '../core/core.js';
import { UserFacingError } from '../core/errors.js';
import { isAppUrl, STRIP_URL } from './app-protocol.js';

/** What the IPC layer needs from the core. */
export type ContractCore = Pick<AirlockCore, 'invoke' | 'onEvent'>;

/** The web contents of the open app windows: the only senders the core answers. */
export type AppContents = () => readonly WebContents[];

/** The answer to a call from anywhere else. */
export const FORBIDDEN = 'Forbidden';

/**
 * Whether a call comes from the main frame of an app window whose page is on the app scheme.
 *
 * Subframes, other windows and contents, and an app window that somehow left the app scheme
 * are all refused.
 */
export function isTrustedSender(event: IpcMainInvokeEvent, appContents: AppContents): boolean {
  const frame = event.senderFrame;
  if (!frame) {
    return false;
  }
  const contents = appContents().find(
    (candidate) => !candidate.isDestroyed() && candidate.id === event.sender.id,
  );
  if (!contents) {
    return false;
  }
  return isMainFrameOf(frame, contents) && isAppUrl(frame.url);
}

type Frame = NonNullable<IpcMainInvokeEvent['senderFrame']>;

function isMainFrameOf(frame: Frame, contents: WebContents): boolean {
  const main = contents.mainFrame;
  // Compared by ids: two WebFrameMain objects can stand for the same frame.
  return frame.processId === main.processId && frame.routingId === main.routingId;
}

/**
 * Serves every contract call over IPC and forwards every core event to the app windows.
 *
 * Returns a function that removes the handlers and the subscription.
 */
export function setupIpc(core: ContractCore, appContents: AppContents): () => void {
  const channels = Object.keys(calls) as CallChannel[];
  for (const channel of channels) {
    ipcMain.handle(channel, (event, payload: unknown) =>
      answer(core, channel, event, payload, appContents),
    );
  }
  const unsubscribe = core.onEvent((channel, payload) => {
    for (const contents of appContents()) {
      if (!contents.isDestroyed() && isAppUrl(contents.getURL())) {
        contents.send(channel, payload);
      }
    }
  });
  return () => {
    for (const channel of channels) {
      ipcMain.removeHandler(channel);
    }
    unsubscribe();
  };
}

async function answer(
  core: ContractCore,
  channel: CallChannel,
  event: IpcMainInvokeEvent,
  payload: unknown,
  appContents: AppContents,
): Promise<IpcReply> {
  if (!isTrustedSender(event, appContents)) {
    console.warn(`airlock: refused ${channel} from a sender that is not an app window`);
    return { ok: false, error: FORBIDDEN };
  }
  try {
    return { ok: true, value: await core.invoke(channel, payload) };
  } catch (error) {
    if (error instanceof UserFacingError) {
      return { ok: false, error: error.message };
    }
    // Anything else may hold paths or internals: log it here, show the user a generic message.
    console.error(`airlock: ${channel} failed:`, error);
    return { ok: false, error: 'Internal error' };
  }
}

/** The address strip of one open URL window, as the strip's IPC sees it. */
export type StripHost = {
  /** The strip's contents: the only sender whose calls act on this window. */
  readonly contents: WebContents;
  /** Closes the URL window. */
  close(): void;
  /** Opens the URL the user consented to in the system browser. */
  openInBrowser(): Promise<void>;
};

/** The strips of the open URL windows. */
export type StripHosts = () => readonly StripHost[];

/**
 * The strip a call comes from, or `undefined` when it does not come from the main frame of
 * the strip of an open URL window, showing the strip page.
 *
 * The isolated page itself has no preload, so it cannot send anything; this refuses it all
 * the same, and the app window too.
 */
export function stripOfSender(
  event: IpcMainInvokeEvent,
  strips: StripHosts,
): StripHost | undefined {
  const frame = event.senderFrame;
  if (!frame) {
    return undefined;
  }
  const strip = strips().find(
    (candidate) => !candidate.contents.isDestroyed() && candidate.contents.id === event.sender.id,
  );
  if (!strip || !isMainFrameOf(frame, strip.contents) || frame.url !== STRIP_URL) {
    return undefined;
  }
  return strip;
}

/**
 * Serves the strip's two calls (close, open in the system browser) to the URL windows'
 * strips, and to nothing else.
 *
 * Returns a function that removes the handlers.
 */
export function setupStripIpc(strips: StripHosts): () => void {
  ipcMain.handle(STRIP_CHANNELS.close, (event) =>
    answerStrip(STRIP_CHANNELS.close, event, strips, async (strip) => strip.close()),
  );
  ipcMain.handle(STRIP_CHANNELS.openInBrowser, (event) =>
    answerStrip(STRIP_CHANNELS.openInBrowser, event, strips, (strip) => strip.openInBrowser()),
  );
  return () => {
    ipcMain.removeHandler(STRIP_CHANNELS.close);
    ipcMain.removeHandler(STRIP_CHANNELS.openInBrowser);
  };
}

/** Sends a strip its new state, if it still shows the strip page. */
export function sendStripState(contents: WebContents, state: StripState): void {
  if (!contents.isDestroyed() && contents.getURL() === STRIP_URL) {
    contents.send(STRIP_CHANNELS.onDidChangeState, state);
  }
}

/** What the strip shows when a call fails; the details stay out of it and out of the log. */
export const STRIP_FAILURE = 'That did not work. Copy the address and open it in your browser.';

async function answerStrip(
  channel: string,
  event: IpcMainInvokeEvent,
  strips: StripHosts,
  act: (strip: StripHost) => Promise<void>,
): Promise<IpcReply> {
  const strip = stripOfSender(event, strips);
  if (!strip) {
    console.warn(`airlock: refused ${channel} from a sender that is not a URL window's strip`);
    return { ok: false, error: FORBIDDEN };
  }
  try {
    await act(strip);
    return { ok: true, value: null };
  } catch (error) {
    // Only the error's kind: its message could hold the URL, which never goes to a log.
    console.error(`airlock: ${channel} failed (${error instanceof Error ? error.name : 'error'})`);
    return { ok: false, error: STRIP_FAILURE };
  }
}
