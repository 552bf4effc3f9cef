/**
 * The contract over Electron IPC, main side.
 *
 * The only module that touches `ipcMain` and `webContents.send`. It answers a call only when
 * it comes from the main frame of an app window showing a page on the app scheme; the core
 * validates the payload itself (see {@link AirlockCore.invoke}), and only user-facing
 * messages go back. Every core event goes to the app windows.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { calls, type CallChannel } from '../../preload/contract.js';
import type { IpcReply } from '../../preload/ipc-reply.js';
import type { AirlockCore } from '../core/core.js';
import { UserFacingError } from '../core/errors.js';
import { isAppUrl } from './app-protocol.js';

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
  const main = contents.mainFrame;
  // Compared by ids: two WebFrameMain objects can stand for the same frame.
  const isMainFrame = frame.processId === main.processId && frame.routingId === main.routingId;
  return isMainFrame && isAppUrl(frame.url);
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
