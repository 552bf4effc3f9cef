/**
 * The keyboard map: every shortcut the app has, in one place. The app's handlers match keys
 * with {@link matchShortcut}, and the help overlay lists {@link SHORTCUTS}, so the two cannot
 * disagree.
 *
 * The app also runs in a browser tab (the web host), where Ctrl+W, Ctrl+T, Ctrl+N, Ctrl+Tab and
 * Ctrl+PageDown belong to the browser and never reach the page. So the app's own shortcuts are
 * Alt with a key no browser, and no default desktop menu, takes for itself (Chrome and Firefox
 * open menus with Alt+F, E, V, S, B, T, H, Chrome jumps to the address bar with Alt+D and
 * between tabs with Alt+1 to 8, and Alt+Up and Alt+Down open a select), function keys, and `?`
 * outside text fields. Letters are matched by the key's place on the keyboard (`event.code`),
 * since on macOS Option with a letter types a character (Option+J is "∆"). Ctrl and Cmd are never
 * taken, so AltGr (Ctrl+Alt on Windows) still types. The desktop app's menu shows the same chords
 * beside its items without taking the keys (main/electron/app-menu.ts), and sends its items as
 * host commands, which run the same handlers ({@link HOST_COMMAND_SHORTCUTS}).
 *
 * Pure: no DOM, so it is tested in Node.
 */
import type { HostCommand } from '../../preload/shared/contract';

/** A shortcut the app itself handles (the others are listed here, handled where they act). */
export type AppShortcutId =
  | 'newSession'
  | 'closeSession'
  | 'nextSession'
  | 'previousSession'
  | 'focusComposer'
  | 'jumpToWaiting'
  | 'renameSession'
  | 'agentSettings'
  | 'agentLog'
  | 'help';

/** One way to press a shortcut. */
export type Chord = {
  /** `KeyboardEvent.code`, for letters: the key's place, whatever it types. */
  code?: string;
  /** `KeyboardEvent.key`, for named keys (`F1`, `PageDown`) and printed ones (`?`). */
  key?: string;
  alt?: boolean;
  shift?: boolean;
  /** The key types a character: it is a shortcut only outside text fields. */
  notWhileTyping?: boolean;
};

/** Where a shortcut acts; the help overlay groups them so. */
export type ShortcutScope = 'Anywhere' | 'Session list' | 'Message box' | 'Dialogs';

/** An entry of the map. */
export type Shortcut = {
  /** Set for the shortcuts the app's handlers run; unset for those handled where they act. */
  id?: AppShortcutId;
  /** What it does, as the help overlay says it. */
  action: string;
  /** Each way to press it, the first one the one shown first. */
  chords: Chord[];
  scope: ShortcutScope;
};

/** The keyboard map. */
export const SHORTCUTS: readonly Shortcut[] = [
  {
    id: 'newSession',
    action: 'Start a new session: pick its agent and folder',
    chords: [{ alt: true, code: 'KeyN' }],
    scope: 'Anywhere',
  },
  {
    id: 'closeSession',
    action: 'Close the shown session (asks first if it is busy)',
    chords: [{ alt: true, code: 'KeyX' }],
    scope: 'Anywhere',
  },
  {
    id: 'nextSession',
    action: 'Show the next session',
    chords: [{ alt: true, key: 'PageDown' }],
    scope: 'Anywhere',
  },
  {
    id: 'previousSession',
    action: 'Show the previous session',
    chords: [{ alt: true, key: 'PageUp' }],
    scope: 'Anywhere',
  },
  {
    id: 'jumpToWaiting',
    action: 'Go to the next question that waits for you',
    chords: [{ alt: true, code: 'KeyJ' }],
    scope: 'Anywhere',
  },
  {
    id: 'focusComposer',
    action: 'Go to the message box',
    chords: [{ alt: true, code: 'KeyM' }],
    scope: 'Anywhere',
  },
  {
    id: 'renameSession',
    action: 'Rename the shown session',
    chords: [{ key: 'F2' }],
    scope: 'Anywhere',
  },
  {
    id: 'agentSettings',
    action: 'Open the agents’ settings: add, edit and test agents',
    chords: [{ alt: true, code: 'Comma' }],
    scope: 'Anywhere',
  },
  {
    id: 'agentLog',
    action: 'Show the agent log of the shown session',
    // L for log: no browser menu or desktop menu opens with it (Alt+F, E, V, S, B, T, H, W),
    // and no browser takes it (Chrome's Alt+D, Alt+Home, Alt+1 to 8).
    chords: [{ alt: true, code: 'KeyL' }],
    scope: 'Anywhere',
  },
  {
    action: 'Cancel the running turn',
    chords: [{ key: 'Escape' }],
    scope: 'Anywhere',
  },
  {
    id: 'help',
    action: 'Show these shortcuts',
    chords: [{ key: '?', notWhileTyping: true }, { key: 'F1' }],
    scope: 'Anywhere',
  },
  {
    action: 'Previous or next session',
    chords: [{ key: 'ArrowUp' }, { key: 'ArrowDown' }],
    scope: 'Session list',
  },
  {
    action: 'First or last session',
    chords: [{ key: 'Home' }, { key: 'End' }],
    scope: 'Session list',
  },
  {
    action: 'Rename the session (or double-click it)',
    chords: [{ key: 'F2' }],
    scope: 'Session list',
  },
  {
    action: 'Send the message',
    chords: [{ key: 'Enter' }],
    scope: 'Message box',
  },
  {
    action: 'New line',
    chords: [{ shift: true, key: 'Enter' }],
    scope: 'Message box',
  },
  {
    action: 'Confirm (save a new name, close a session)',
    chords: [{ key: 'Enter' }],
    scope: 'Dialogs',
  },
  {
    action: 'Dismiss a question or permission request, cancel a dialog or a new name',
    chords: [{ key: 'Escape' }],
    scope: 'Dialogs',
  },
];

/**
 * The shortcut whose action each host command runs (the desktop app's menu items, a click on a
 * notification): a command does what its keys do. `showWaiting` names the session to show.
 */
export const HOST_COMMAND_SHORTCUTS: Readonly<Record<HostCommand['command'], AppShortcutId>> = {
  newSession: 'newSession',
  closeSession: 'closeSession',
  agentSettings: 'agentSettings',
  agentLog: 'agentLog',
  showWaiting: 'jumpToWaiting',
};

/** The parts of a key event the map looks at. */
export type KeyPress = {
  key: string;
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
};

function matches(chord: Chord, press: KeyPress, typing: boolean): boolean {
  if (press.ctrlKey || press.metaKey || press.altKey !== Boolean(chord.alt)) {
    return false;
  }
  if (chord.notWhileTyping && typing) {
    return false;
  }
  // A printed key (`?`) carries its Shift in the character; a named key does not.
  if (chord.key !== undefined && chord.key.length > 1 && press.shiftKey !== Boolean(chord.shift)) {
    return false;
  }
  if (chord.code !== undefined && press.shiftKey !== Boolean(chord.shift)) {
    return false;
  }
  return chord.code !== undefined ? press.code === chord.code : press.key === chord.key;
}

/**
 * The app shortcut a key press means, if any. `typing` says whether it happened in a text field,
 * where keys that type a character are left alone.
 */
export function matchShortcut(press: KeyPress, typing: boolean): AppShortcutId | undefined {
  return SHORTCUTS.find(
    (shortcut) =>
      shortcut.id !== undefined && shortcut.chords.some((chord) => matches(chord, press, typing)),
  )?.id;
}

const KEY_NAMES: Record<string, string> = {
  ArrowUp: '↑',
  ArrowDown: '↓',
  PageUp: 'Page Up',
  PageDown: 'Page Down',
  Escape: 'Esc',
  Comma: ',',
};

/** A chord's keys as the help overlay shows them, one label per key (`['Alt', 'J']`). */
export function chordKeys(chord: Chord): string[] {
  const main = chord.code?.replace(/^Key|^Digit/, '') ?? chord.key ?? '';
  return [
    ...(chord.alt ? ['Alt'] : []),
    ...(chord.shift ? ['Shift'] : []),
    KEY_NAMES[main] ?? main,
  ];
}

/** A chord in `aria-keyshortcuts` syntax (`Alt+J`, `Alt+PageDown`, `?`). */
export function ariaChord(chord: Chord): string {
  const code = chord.code?.replace(/^Key|^Digit/, '');
  const main = (code === 'Comma' ? ',' : code) ?? chord.key ?? '';
  return [...(chord.alt ? ['Alt'] : []), ...(chord.shift ? ['Shift'] : []), main].join('+');
}

/** The `aria-keyshortcuts` value of an app shortcut: all its chords. */
export function ariaKeyShortcuts(id: AppShortcutId): string {
  const shortcut = SHORTCUTS.find((candidate) => candidate.id === id);
  return shortcut ? shortcut.chords.map(ariaChord).join(' ') : '';
}

/**
 * Whether keys pressed on `target` type into it (a text field, a select's type-ahead, an
 * editable element), so a shortcut that types a character must leave them alone.
 */
export function isTypingTarget(target: unknown): boolean {
  if (target === null || typeof target !== 'object') {
    return false;
  }
  const element = target as { tagName?: unknown; type?: unknown; isContentEditable?: unknown };
  if (element.isContentEditable === true) {
    return true;
  }
  if (element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') {
    return true;
  }
  return element.tagName === 'INPUT' && !NON_TEXT_INPUTS.has(String(element.type));
}

const NON_TEXT_INPUTS = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);
