/**
 * A Copy button: puts a text on the clipboard, then says "Copied" for a moment (on the button,
 * and to screen readers through a status message).
 */
import './copy-button.css';
import { useEffect, useState } from 'react';

type Props = {
  /** The text to copy, read at the click (a message may have grown since it was drawn). */
  text: () => string;
  /** What is copied, completing the button's name: "Copy" + " code". */
  what: string;
  className?: string;
};

/** How long the button says "Copied", in milliseconds. */
const COPIED_MS = 2_000;

/** The button, and its status message. */
export function CopyButton({ text, what, className }: Props) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') {
      return undefined;
    }
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = () => {
    navigator.clipboard.writeText(text()).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };

  return (
    <>
      <button
        type="button"
        className={`copy-button${className ? ` ${className}` : ''}`}
        data-state={state}
        onClick={copy}
      >
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Not copied' : 'Copy'}
        <span className="visually-hidden"> {what}</span>
      </button>
      <span className="visually-hidden" role="status">
        {state === 'copied'
          ? `Copied the ${what} to the clipboard`
          : state === 'failed'
            ? 'The browser refused the clipboard: nothing was copied'
            : ''}
      </span>
    </>
  );
}
