import { describe, expect, it } from 'vitest';
import { HostCommand } from '../../../preload/shared/contract';
import {
  ariaKeyShortcuts,
  chordKeys,
  HOST_COMMAND_SHORTCUTS,
  isTypingTarget,
  matchShortcut,
  SHORTCUTS,
  type KeyPress,
} from '../../../renderer/src/keyboard';

const press = (patch: Partial<KeyPress>): KeyPress => ({
  key: '',
  code: '',
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...patch,
});

describe('matchShortcut', () => {
  it('finds each app shortcut by its chords', () => {
    expect(matchShortcut(press({ altKey: true, key: 'j', code: 'KeyJ' }), false)).toBe(
      'jumpToWaiting',
    );
    expect(matchShortcut(press({ altKey: true, key: 'PageDown', code: 'PageDown' }), false)).toBe(
      'nextSession',
    );
    expect(matchShortcut(press({ key: 'F2', code: 'F2' }), false)).toBe('renameSession');
    expect(matchShortcut(press({ key: 'F1', code: 'F1' }), true)).toBe('help');
  });

  it('matches letters by their place: Option+J on a Mac types "∆"', () => {
    expect(matchShortcut(press({ altKey: true, key: '∆', code: 'KeyJ' }), true)).toBe(
      'jumpToWaiting',
    );
  });

  it('works in a text field for Alt chords and function keys', () => {
    expect(matchShortcut(press({ altKey: true, key: 'n', code: 'KeyN' }), true)).toBe('newSession');
    expect(matchShortcut(press({ key: 'F2', code: 'F2' }), true)).toBe('renameSession');
  });

  it('leaves `?` to a text field, and takes it elsewhere', () => {
    const question = press({ key: '?', code: 'Slash', shiftKey: true });
    expect(matchShortcut(question, true)).toBeUndefined();
    expect(matchShortcut(question, false)).toBe('help');
  });

  it('never takes a chord with Ctrl or Cmd (AltGr is Ctrl+Alt on Windows, and types)', () => {
    for (const modifier of [{ ctrlKey: true }, { metaKey: true }]) {
      expect(
        matchShortcut(press({ altKey: true, key: 'n', code: 'KeyN', ...modifier }), false),
      ).toBeUndefined();
    }
  });

  it('needs the modifiers exactly: a plain letter or Shift added is not a shortcut', () => {
    expect(matchShortcut(press({ key: 'j', code: 'KeyJ' }), false)).toBeUndefined();
    expect(
      matchShortcut(press({ altKey: true, shiftKey: true, key: 'J', code: 'KeyJ' }), false),
    ).toBeUndefined();
    expect(matchShortcut(press({ key: 'PageDown', code: 'PageDown' }), false)).toBeUndefined();
    expect(matchShortcut(press({ shiftKey: true, key: 'F2', code: 'F2' }), false)).toBeUndefined();
  });

  it('leaves Escape to the controls that handle it', () => {
    expect(matchShortcut(press({ key: 'Escape', code: 'Escape' }), false)).toBeUndefined();
  });
});

describe('the keyboard map', () => {
  const appChords = SHORTCUTS.filter((shortcut) => shortcut.id !== undefined).flatMap((shortcut) =>
    shortcut.chords.map((chord) => ({ id: shortcut.id, chord })),
  );

  it('gives each app shortcut its own keys', () => {
    const seen = new Map<string, string | undefined>();
    for (const { id, chord } of appChords) {
      const keys = chordKeys(chord).join('+');
      expect(seen.get(keys), `${keys} is taken by ${seen.get(keys)}`).toBeUndefined();
      seen.set(keys, id);
    }
  });

  it('takes no key a browser keeps for itself or opens a menu with', () => {
    // Chrome and Firefox menus (Alt+F, E, V, S, B, T, H), the address bar (Alt+D), the tabs
    // (Alt+1 to 9), history (Alt+Left, Alt+Right, Alt+Home), a select's list (Alt+Up/Down), and
    // the default menu of a desktop window (File, Edit, View, Window, Help).
    const kept = new Set([
      ...'FEVSBTHDW'.split('').map((letter) => `Key${letter}`),
      ...'123456789'.split('').map((digit) => `Digit${digit}`),
      'ArrowLeft',
      'ArrowRight',
      'ArrowUp',
      'ArrowDown',
      'Home',
    ]);
    for (const { id, chord } of appChords) {
      if (chord.alt) {
        expect(kept.has(chord.code ?? chord.key ?? ''), `${id}`).toBe(false);
      }
    }
  });

  it('has a shortcut for every session action a desktop user expects', () => {
    const ids = new Set(appChords.map(({ id }) => id));
    for (const id of [
      'newSession',
      'closeSession',
      'nextSession',
      'previousSession',
      'focusComposer',
      'jumpToWaiting',
      'renameSession',
      'agentSettings',
      'agentLog',
      'help',
    ] as const) {
      expect(ids.has(id), id).toBe(true);
    }
    expect(SHORTCUTS.some((shortcut) => shortcut.action === 'Cancel the running turn')).toBe(true);
  });

  it('names keys for people and for aria-keyshortcuts', () => {
    expect(chordKeys({ alt: true, code: 'KeyJ' })).toEqual(['Alt', 'J']);
    expect(chordKeys({ alt: true, key: 'PageDown' })).toEqual(['Alt', 'Page Down']);
    expect(ariaKeyShortcuts('help')).toBe('? F1');
    expect(ariaKeyShortcuts('closeSession')).toBe('Alt+X');
  });
});

describe('HOST_COMMAND_SHORTCUTS', () => {
  it('gives every host command the shortcut whose action it runs, one with keys', () => {
    const commands = HostCommand.options.map((option) => option.shape.command.value);
    expect(Object.keys(HOST_COMMAND_SHORTCUTS).sort()).toEqual([...commands].sort());
    expect(HOST_COMMAND_SHORTCUTS).toEqual({
      newSession: 'newSession',
      closeSession: 'closeSession',
      agentSettings: 'agentSettings',
      agentLog: 'agentLog',
      showWaiting: 'jumpToWaiting',
    });
    for (const id of Object.values(HOST_COMMAND_SHORTCUTS)) {
      const shortcut = SHORTCUTS.find((candidate) => candidate.id === id);
      expect(shortcut?.chords.length, id).toBeGreaterThan(0);
    }
  });

  it('Alt+L shows the agent log, wherever the focus is', () => {
    const altL = press({ altKey: true, key: 'l', code: 'KeyL' });
    expect(matchShortcut(altL, false)).toBe('agentLog');
    expect(matchShortcut(altL, true)).toBe('agentLog');
    // Option+L on a Mac types "¬".
    expect(matchShortcut({ ...altL, key: '¬' }, true)).toBe('agentLog');
    expect(ariaKeyShortcuts('agentLog')).toBe('Alt+L');
  });
});

describe('isTypingTarget', () => {
  it('is a text field, a text area, a select or an editable element', () => {
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'email' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
  });

  it('is not a button, a checkbox, the page or nothing', () => {
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BODY', isContentEditable: false })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
