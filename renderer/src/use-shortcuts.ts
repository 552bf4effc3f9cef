/**
 * Runs the app's shortcuts (the keyboard map is keyboard.ts) from anywhere in the window, and
 * the host's commands (the desktop app's menu, a notification's click) with the same handlers.
 *
 * A key a control already handled (its event's default prevented) is left alone, and so is
 * every key while a modal dialog is open: the dialog has the keyboard. A host command waits on
 * the same dialog: while one is open it is dropped, as its keys would be, so nothing starts
 * behind the question the user is answering.
 */
import { useEffect, useRef } from 'react';
import type { AirlockApi } from '../../preload/shared/contract';
import {
  HOST_COMMAND_SHORTCUTS,
  isTypingTarget,
  matchShortcut,
  type AppShortcutId,
} from './keyboard';

/**
 * What each shortcut does; a shortcut without a handler here is not taken from the page. A host
 * command that names a session (`showWaiting`) passes its key; a key press never does.
 */
export type ShortcutHandlers = Partial<Record<AppShortcutId, (sessionKey?: string) => void>>;

function dialogOpen(): boolean {
  return document.querySelector('dialog:modal') !== null;
}

/** Listens for the shortcuts and the host's commands while the component is mounted. */
export function useShortcuts(api: AirlockApi, handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.repeat) {
        return;
      }
      if (dialogOpen()) {
        return;
      }
      const id = matchShortcut(event, isTypingTarget(event.target));
      const run = id === undefined ? undefined : latest.current[id];
      if (!run) {
        return;
      }
      event.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(
    () =>
      api.on('app:onCommand', (command) => {
        if (dialogOpen()) {
          return;
        }
        latest.current[HOST_COMMAND_SHORTCUTS[command.command]]?.(
          command.command === 'showWaiting' ? command.key : undefined,
        );
      }),
    [api],
  );
}
