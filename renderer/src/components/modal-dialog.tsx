/**
 * A modal dialog: the page behind it is inert, Tab and Shift+Tab stay inside it, Esc closes it,
 * and focus goes back where it was when it opened.
 *
 * Mounted while it is open: the owner unmounts it to close it. It is a native `<dialog>` opened
 * with `showModal()`, so the page behind cannot be clicked or read by assistive technology.
 */
import './modal-dialog.css';
import { useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

type Props = {
  /** The dialog's heading, which names it. */
  title: string;
  /** A sentence that says what the dialog is about; it describes the dialog. */
  description?: string;
  className?: string;
  /** Asked to close: Esc, or the owner's own buttons. */
  onClose(): void;
  /**
   * Asked as the dialog goes whether the focus goes back where it was; when not, nothing keeps
   * it (the owner shows something new that takes it). Back, when not given.
   */
  returnFocus?: () => boolean;
  children: ReactNode;
};

const FOCUSABLE =
  'button:not(:disabled), input:not(:disabled):not([type=hidden]), select:not(:disabled), textarea:not(:disabled), a[href], [tabindex]:not([tabindex="-1"])';

/** The dialog; the element marked `data-autofocus` takes focus first, else the first control. */
export function ModalDialog({
  title,
  description,
  className,
  onClose,
  returnFocus,
  children,
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const latestReturnFocus = useRef(returnFocus);
  latestReturnFocus.current = returnFocus;
  const titleId = useId();
  const descriptionId = useId();

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) {
      return undefined;
    }
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    (
      element.querySelector<HTMLElement>('[data-autofocus]') ??
      element.querySelector<HTMLElement>(FOCUSABLE)
    )?.focus();
    return () => {
      element.close();
      if (latestReturnFocus.current?.() === false) {
        // The browser puts it back on closing a modal dialog: nothing keeps it instead.
        if (document.activeElement instanceof HTMLElement) {
          document.activeElement.blur();
        }
      } else if (opener?.isConnected) {
        // Back where the user was, if that is still there (the owner moves it otherwise).
        opener.focus();
      }
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // Handled here, so nothing behind the dialog (a running turn's Esc) takes it too.
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab') {
      return;
    }
    const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = controls[0];
    const last = controls.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const inside = event.currentTarget.contains(document.activeElement);
    if (event.shiftKey && (document.activeElement === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialog}
      className={`app-dialog${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      aria-describedby={description === undefined ? undefined : descriptionId}
      onKeyDown={onKeyDown}
      // Another way to ask it to close (the browser's own): the owner decides.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {description === undefined ? null : <p id={descriptionId}>{description}</p>}
      {children}
    </dialog>
  );
}
