/**
 * The Copy button of an agent's message: it copies the message's raw text (its Markdown), every
 * segment of it, as it stands at the click.
 *
 * A long reply is cut into several rows (state/transcript.ts); the button sits on the first and
 * asks the session view for the whole message through {@link MessageText}.
 */
import { createContext, useContext } from 'react';
import type { Row } from '../state/transcript';
import { CopyButton } from './copy-button';

/** The raw text of the message a row belongs to, by row id; absent where nothing provides it. */
export const MessageText = createContext<((rowId: number) => string) | undefined>(undefined);

/**
 * The raw text of the message that the text row `rowId` belongs to: its segments from the one
 * that starts it up to the next row that is not one of them. Empty when no such row is found.
 */
export function messageText(rows: readonly Row[], rowId: number): string {
  let start = rows.findIndex((row) => row.id === rowId);
  const at = rows[start];
  if (at?.kind !== 'text') {
    return '';
  }
  while (start > 0 && !(rows[start] as Extract<Row, { kind: 'text' }>).first) {
    const before = rows[start - 1];
    if (before?.kind !== 'text' || before.role !== at.role) {
      break;
    }
    start -= 1;
  }
  const parts: string[] = [];
  for (let index = start; index < rows.length; index++) {
    const row = rows[index]!;
    if (row.kind !== 'text' || row.role !== at.role || (index > start && row.first)) {
      break;
    }
    parts.push(row.text);
  }
  return parts.join('');
}

/** The button, for the first row of an agent's message. */
export function MessageCopy({ rowId }: { rowId: number }) {
  const text = useContext(MessageText);
  if (!text) {
    return null;
  }
  return <CopyButton text={() => text(rowId)} what="message" className="message-copy" />;
}
