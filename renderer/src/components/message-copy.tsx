/**
 * The Copy button of an agent's message: it copies the message's raw text (its Markdown), every
 * segment of it, as it stands at the click.
 *
 * A long reply is cut into several rows (state/transcript.ts), some of them text held back from
 * the screen (state/text-cap.ts); the button sits on the first and asks the session view for the
 * whole message through {@link MessageText}.
 */
import './message-copy.css';
import { createContext, useContext } from 'react';
import type { Row } from '../state/transcript';
import { CopyButton } from './copy-button';

/** The raw text of the message a row belongs to, by row id; absent where nothing provides it. */
export const MessageText = createContext<((rowId: number) => string) | undefined>(undefined);

/**
 * The raw text of the message that the text row `rowId` belongs to: its segments, and the text
 * held back between them (overflow rows), from the one that starts it up to the next row that
 * is not one of them. Empty when no such row is found.
 */
export function messageText(rows: readonly Row[], rowId: number): string {
  let start = rows.findIndex((row) => row.id === rowId);
  const at = rows[start];
  if (at?.kind !== 'text' && at?.kind !== 'overflow') {
    return '';
  }
  const inMessage = (row: Row | undefined): row is Extract<Row, { kind: 'text' | 'overflow' }> =>
    (row?.kind === 'text' || row?.kind === 'overflow') && row.role === at.role;
  while (
    start > 0 &&
    !(rows[start]?.kind === 'text' && (rows[start] as { first: boolean }).first)
  ) {
    if (!inMessage(rows[start - 1])) {
      break;
    }
    start -= 1;
  }
  const parts: string[] = [];
  for (let index = start; index < rows.length; index++) {
    const row = rows[index];
    if (!inMessage(row) || (index > start && row.kind === 'text' && row.first)) {
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
