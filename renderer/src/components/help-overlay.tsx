/**
 * The keyboard shortcuts, listed from the keyboard map (keyboard.ts) in a modal dialog.
 */
import './help-overlay.css';
import { Fragment } from 'react';
import { chordKeys, SHORTCUTS, type Shortcut, type ShortcutScope } from '../keyboard';
import { ModalDialog } from './modal-dialog';

const SCOPES: ShortcutScope[] = ['Anywhere', 'Session list', 'Message box', 'Dialogs'];

function Keys({ shortcut }: { shortcut: Shortcut }) {
  return (
    <>
      {shortcut.chords.map((chord, index) => (
        <Fragment key={index}>
          {index > 0 ? <span className="keys-or"> or </span> : null}
          <span className="keys">
            {chordKeys(chord).map((key, keyIndex) => (
              <Fragment key={keyIndex}>
                {keyIndex > 0 ? '+' : null}
                <kbd>{key}</kbd>
              </Fragment>
            ))}
          </span>
        </Fragment>
      ))}
    </>
  );
}

/** The help overlay. */
export function HelpOverlay({ onClose }: { onClose(): void }) {
  return (
    <ModalDialog title="Keyboard shortcuts" className="help-overlay" onClose={onClose}>
      {/* Beside the heading: the focus starts on it without scrolling the list away. */}
      <div className="dialog-actions">
        <button type="button" data-autofocus onClick={onClose}>
          Close
        </button>
      </div>
      <div className="help-tables">
        {SCOPES.map((scope) => (
          <table key={scope}>
            <caption>{scope}</caption>
            <thead className="visually-hidden">
              <tr>
                <th scope="col">Keys</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {SHORTCUTS.filter((shortcut) => shortcut.scope === scope).map((shortcut) => (
                <tr key={shortcut.action}>
                  <td>
                    <Keys shortcut={shortcut} />
                  </td>
                  <td>{shortcut.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
      <p className="help-note">On a Mac, Alt is the Option key.</p>
    </ModalDialog>
  );
}
