/**
 * What a key typed in the sign-in terminal sends to its command, as a terminal sends it: printable
 * characters as they are, Enter as a carriage return, Backspace as DEL, the arrows and the editing
 * keys as their escape sequences, Ctrl with a letter as its control code, Alt as an ESC prefix.
 *
 * Tab and Shift+Tab are left to the page, so the focus can always leave the terminal (WCAG 2.1.2,
 * no keyboard trap); Ctrl+I types a Tab, as it does in any terminal. Keys with Cmd (macOS) and the
 * clipboard's Ctrl+Shift+C / Ctrl+Shift+V and Ctrl+V are left to the page too; a paste arrives as
 * a paste event ({@link pastedData}).
 */

/** The parts of a keyboard event the mapping reads. */
export type TerminalKey = {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
};

const CSI = '\x1b[';

/** The cursor keys' final letters (`ESC [ A`, or `ESC O A` in application cursor mode). */
const ARROWS: Record<string, string> = {
  ArrowUp: 'A',
  ArrowDown: 'B',
  ArrowRight: 'C',
  ArrowLeft: 'D',
};

/** Keys that send one sequence whatever the mode. */
const SPECIAL: Record<string, string> = {
  Enter: '\r',
  Backspace: '\x7f',
  Escape: '\x1b',
  Home: `${CSI}H`,
  End: `${CSI}F`,
  Insert: `${CSI}2~`,
  Delete: `${CSI}3~`,
  PageUp: `${CSI}5~`,
  PageDown: `${CSI}6~`,
};

/** Ctrl with these sends the code a terminal gives it. */
const CONTROL_PUNCTUATION: Record<string, string> = {
  ' ': '\x00',
  '@': '\x00',
  '[': '\x1b',
  '\\': '\x1c',
  ']': '\x1d',
  '^': '\x1e',
  _: '\x1f',
};

/** The data a key sends to the command, or undefined to leave the key to the page. */
export function terminalKeyData(event: TerminalKey, appCursorKeys = false): string | undefined {
  const { key, ctrlKey, altKey, metaKey, shiftKey } = event;
  if (metaKey || key === 'Tab') {
    return undefined;
  }
  const arrow = ARROWS[key];
  if (arrow !== undefined) {
    return (appCursorKeys && !ctrlKey && !altKey ? '\x1bO' : CSI) + arrow;
  }
  const special = SPECIAL[key];
  if (special !== undefined) {
    return altKey ? `\x1b${special}` : special;
  }
  if ([...key].length !== 1) {
    // Shift, F-keys, dead keys and the rest: nothing to type.
    return undefined;
  }
  if (ctrlKey && !altKey) {
    const letter = key.toLowerCase();
    // The clipboard's own chords stay the page's.
    if ((shiftKey && (letter === 'c' || letter === 'v')) || (!shiftKey && letter === 'v')) {
      return undefined;
    }
    if (letter >= 'a' && letter <= 'z') {
      return String.fromCharCode(letter.charCodeAt(0) - 96);
    }
    return CONTROL_PUNCTUATION[key];
  }
  return altKey && !ctrlKey ? `\x1b${key}` : key;
}

/**
 * A paste as the command receives it, in parts of at most `maxChars` (the contract's bound on one
 * input): line breaks as carriage returns, as a terminal sends Enter.
 */
export function pastedData(text: string, maxChars: number): string[] {
  const data = text.replace(/\r?\n/g, '\r');
  const parts: string[] = [];
  let part = '';
  for (const char of data) {
    if (part.length + char.length > maxChars) {
      parts.push(part);
      part = '';
    }
    part += char;
  }
  if (part) {
    parts.push(part);
  }
  return parts;
}
