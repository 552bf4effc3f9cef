/** The demo agent's words: help, replies and long text. */

/** What `/help` streams. */
export const HELP_TEXT = [
  '## Airlock demo agent',
  '',
  'I am model-free: I show what Airlock can display. Try:',
  '',
  '- `/tool`: a tool call that edits a file, with a diff',
  '- `/permission`: the same, after asking your permission',
  '- `/plan`: a plan worked through step by step',
  '- `/long N`: N kilobytes of streamed text',
  '- `/crash`: I exit in the middle of a turn',
  '',
  'Forms (elicitation), each printing what came back:',
  '',
  '- `/form`: every field type; `/form-titled`, `/form-multi`, `/form-defaults`',
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
