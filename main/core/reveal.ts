/**
 * Shows the characters an agent could hide behind: every invisible or reordering character of
 * a string written as its code point (`⟨U+202E⟩`).
 *
 * The mapping from ACP to the contract's view types (updates.ts, tool-calls.ts) runs it on each
 * agent string that names something the user acts on or decides by: a file, a command, an
 * option, a URL, and a tool call's title, raw input and diffs. Prose (messages, thoughts, plan
 * steps, notices, descriptions, a tool's text output) is shown as the agent wrote it: it is read,
 * not acted on, and its emoji may hold zero-width joiners. An elicitation's URL is refused when it
 * holds such a character (elicitation/url-analysis.ts).
 */

// Characters that draw nothing or reorder what follows them: C0 and C1 controls (but tab, line
// feed and carriage return), bidirectional controls and zero-width characters. Text a user
// approves could hide what it does behind them ("Trojan Source", CVE-2021-42574).
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

/** Writes each invisible or reordering character of `value` as its code point: `⟨U+202E⟩`. */
export function revealInvisible(value: string): string {
  return value.replace(
    INVISIBLE,
    (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}
