/**
 * Runs the app's shortcuts (the keyboard map is keyboard.ts) from anywhere in the window.
 *
 * A key a control already handled (its event's default prevented) is left alone, and so is
 * every key while a modal dialog is open: the dialog has the keyboard.
 */
import { useEffect, useRef } from 'react';
import { isTypingTarget, matchShortcut, type AppShortcutId } from './keyboard';

/** What each shortcut does; a shortcut without a handler here is not taken from the page. */
export type ShortcutHandlers = Partial<Record<AppShortcutId, () => void>>;

/** Listens for the shortcuts while the component is mounted. */
export function useShortcuts(handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.repeat) {
        return;
      }
      if (document.querySelector('dialog:modal')) {
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
}
