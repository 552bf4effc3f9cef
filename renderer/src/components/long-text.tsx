/**
 * Text of a message held back from the screen (state/text-cap.ts): how much there is, "Show all"
 * to read it, and Copy for the whole message.
 *
 * Shown, it is plain text (never Markdown, never HTML), added a piece per frame so no frame
 * lays out more than one piece, in a box of its own that scrolls; pieces out of its view are not
 * laid out at all (`content-visibility`, long-text.css).
 */
import { memo, useEffect, useId, useState } from 'react';
import type { Row } from '../state/transcript';
import { MessageCopy } from './message-copy';
import './long-text.css';

/** The characters of each piece "Show all" adds, one piece a frame. */
export const PIECE_CHARS = 64 * 1024;

/** A count of characters as a reader takes it: `812 characters`, `64 KB`, `9.9 MB`. */
export function sizeText(chars: number): string {
  if (chars < 1024) {
    return chars === 1 ? '1 character' : `${chars} characters`;
  }
  if (chars < 1024 * 1024) {
    return `${Math.round(chars / 1024)} KB`;
  }
  const mb = chars / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/**
 * One piece of the text shown. It is given the whole text (the same string each frame, so a
 * frame that adds a piece compares the others by reference, not character by character).
 */
const Piece = memo(function Piece({ text, piece }: { text: string; piece: number }) {
  return (
    <div className="long-text-piece">
      {text.slice(piece * PIECE_CHARS, (piece + 1) * PIECE_CHARS)}
    </div>
  );
});

/** The row for held-back text, after the part of its message that is shown. */
export function LongTextRow({ row }: { row: Extract<Row, { kind: 'overflow' }> }) {
  const [open, setOpen] = useState(false);
  const [pieces, setPieces] = useState(0);
  const total = Math.ceil(row.text.length / PIECE_CHARS);
  const regionId = useId();

  useEffect(() => {
    if (!open || pieces >= total) {
      return undefined;
    }
    // One piece a frame: the page answers the user between pieces.
    const frame = requestAnimationFrame(() => setPieces((shown) => Math.min(shown + 1, total)));
    return () => cancelAnimationFrame(frame);
  }, [open, pieces, total]);

  const what = row.cause === 'line' ? 'line' : 'message';
  const size = sizeText(row.text.length);
  const toggle = () => {
    setOpen(!open);
    setPieces(0);
  };
  return (
    <div className="long-text">
      <div className="long-text-head">
        <p className="long-text-note">
          {`The rest of this ${what} (${size}) is too long to show here.`}
        </p>
        <div className="long-text-actions">
          <button type="button" aria-expanded={open} aria-controls={regionId} onClick={toggle}>
            {open ? 'Show less' : 'Show all'}
          </button>
          <MessageCopy rowId={row.id} />
        </div>
      </div>
      {open ? (
        <div
          id={regionId}
          className="long-text-all"
          role="region"
          aria-label={`The rest of this ${what}`}
          aria-busy={pieces < total}
          tabIndex={0}
        >
          {Array.from({ length: pieces }, (_, piece) => (
            <Piece key={piece} text={row.text} piece={piece} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
