/** The demo agent's words: help, replies and long text. */

/** What `/help` streams. */
export const HELP_TEXT = [
  '## Airlock demo agent',
  '',
  'I am model-free: I show what Airlock can display. Try:',
  '',
  '- `/tool`: a tool call that edits a file, with a diff',
  '- `/permission`: the same, after asking your permission (“Always allow” holds for this session)',
  '- `/permission-run`: a command I run after asking your permission',
  '- `/plan`: a plan worked through step by step',
  '- `/long N`: N kilobytes of streamed text',
  '- `/long-line MB [LINES]`: MB megabytes of text on one line (or on LINES long lines) at once',
  '- `/title TEXT`: I name this session TEXT (its tab shows it)',
  '- `/crash`: I exit in the middle of a turn',
  '- `/links`: links (each asks before it opens) and a code block to copy',
  '',
  "Files, through Airlock (only inside this session's folder):",
  '',
  '- `/read PATH`: I read a file and show it',
  '- `/write PATH`: I write a small known text to a file (you see the diff)',
  '- `/outside`: I try to read and write outside the folder, and show what Airlock said',
  '- `/run CMD`: I run CMD in a terminal in this folder (no shell), showing its output as it comes',
  '',
  'Forms (elicitation), each printing what came back:',
  '',
  '- `/form`: every field type; `/form-titled`, `/form-multi`, `/form-defaults`',
  '- `/form-lookalike`: a form whose title reads as if Airlock asked',
  '- `/form-tool`: a question on a tool call',
  '- `/form-setup`: a question while the next tab starts ("Ask at start")',
  '- `/form-burst N`: N questions at once',
  '- `/form-withdraw S`: a question I withdraw after S seconds',
  '- `/form-invalid`: forms Airlock must refuse, and its answers',
  '',
  'Pages to visit (URL mode):',
  '',
  '- `/url`: connect the Demo Service through its consent page (Authorize or Deny there)',
  '- `/url-setup`: the same while the next tab starts',
  '- `/url-lookalike`, `/url-bad-scheme`, `/url-never-completes`, `/url-duplicate-id`',
  '',
  'Anything else, I repeat back to you.',
].join('\n');

/** How the demo agent replies: its "Reply style" option. */
export type ReplyStyle = 'plain' | 'detailed';

/** The reply to ordinary text. */
export function replyFor(text: string, style: ReplyStyle = 'plain'): string {
  const reply = `You said: "${text}". I am the demo agent, so that is all I can do with it. Type \`/help\` to see what I can show you.`;
  return style === 'detailed'
    ? `${reply}\n\nIn detail: your message was ${text.length} characters long.`
    : reply;
}

const SENTENCE = 'Airlock streams this text from the demo agent to show long replies. ';

/** About `bytes` characters of markdown in paragraphs, for `/long`. */
export function longText(bytes: number): string {
  const paragraph = SENTENCE.repeat(8).trim();
  const parts: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const piece = `${n}. ${paragraph}\n\n`;
    parts.push(piece);
    size += piece.length;
  }
  return parts.join('').slice(0, bytes);
}

/** The end of each line `/long-line` sends, so the end of a line can be told from its start. */
export const LONG_LINE_END = '(end of line';

/** What a long line is made of: no space to wrap at, as in base64 or minified code. */
const BLOB = 'QWlybG9jayBzdHJlYW1zIHRoaXMgbGluZQ+/0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * About `bytes` characters of text in `lines` lines of one size and no paragraph break, for
 * `/long-line`: each line starts `Line N:`, then a run with no space in it (as base64 or
 * minified code are), and ends `(end of line N)`.
 */
export function longLines(bytes: number, lines = 1): string {
  const size = Math.max(1, Math.floor(bytes / lines));
  const parts: string[] = [];
  for (let n = 1; n <= lines; n++) {
    const head = `Line ${n}: `;
    const tail = ` ${LONG_LINE_END} ${n})`;
    const room = Math.max(0, size - head.length - tail.length);
    const body = BLOB.repeat(Math.ceil(room / BLOB.length)).slice(0, room);
    parts.push(`${head}${body}${tail}`);
  }
  return parts.join('\n');
}

/**
 * What `/links` streams: links of every kind Airlock must handle (one that opens, a look-alike,
 * a borrowed name, schemes it refuses) and a code block.
 */
export const LINKS_TEXT = [
  'Links stay text until you click them; Airlock then shows where each one leads and asks first:',
  '',
  '- [The ACP specification](https://agentclientprotocol.com/protocol/overview)',
  '- [PayPal](https://paypal.com.account-check.example/signin), a borrowed name',
  '- [Apple sign-in](https://\u0430\u0440\u0440\u04cf\u0435.com/signin), a look-alike',
  '- [A script](javascript:alert(1)) and [a local file](file:///etc/passwd), both refused',
  '',
  'A code block, with its own Copy button:',
  '',
  '```ts',
  "const greeting = 'Hello from the demo agent';",
  'console.log(greeting);',
  '```',
].join('\n');
