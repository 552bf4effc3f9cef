import { describe, expect, it } from 'vitest';
import {
  pastedData,
  terminalKeyData,
  type TerminalKey,
} from '../../../renderer/src/state/terminal-keys.js';

const press = (key: string, mods: Partial<TerminalKey> = {}, appCursorKeys = false) =>
  terminalKeyData(
    { key, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, ...mods },
    appCursorKeys,
  );

describe('terminalKeyData', () => {
  it('types printable characters as they are, astral ones too', () => {
    expect(['a', 'A', ' ', '~', 'é', '😀'].map((key) => press(key))).toEqual([
      'a',
      'A',
      ' ',
      '~',
      'é',
      '😀',
    ]);
  });

  it('sends Enter as a carriage return, Backspace as DEL, Esc as ESC and the editing keys as sequences', () => {
    expect(
      ['Enter', 'Backspace', 'Escape', 'Home', 'End', 'Delete', 'PageUp', 'PageDown'].map((key) =>
        press(key),
      ),
    ).toEqual(['\r', '\x7f', '\x1b', '\x1b[H', '\x1b[F', '\x1b[3~', '\x1b[5~', '\x1b[6~']);
  });

  it('sends the arrows as CSI sequences, or SS3 ones in application cursor mode', () => {
    const arrows = ['ArrowUp', 'ArrowDown', 'ArrowRight', 'ArrowLeft'];
    expect(arrows.map((key) => press(key))).toEqual(['\x1b[A', '\x1b[B', '\x1b[C', '\x1b[D']);
    expect(arrows.map((key) => press(key, {}, true))).toEqual([
      '\x1bOA',
      '\x1bOB',
      '\x1bOC',
      '\x1bOD',
    ]);
  });

  it('sends Ctrl with a letter as its control code, Ctrl+I as a Tab, Alt as an ESC prefix', () => {
    expect(press('c', { ctrlKey: true })).toBe('\x03');
    expect(press('D', { ctrlKey: true, shiftKey: true })).toBe('\x04');
    expect(press('i', { ctrlKey: true })).toBe('\t');
    expect(press('[', { ctrlKey: true })).toBe('\x1b');
    expect(press('b', { altKey: true })).toBe('\x1bb');
    expect(press('Backspace', { altKey: true })).toBe('\x1b\x7f');
  });

  it('leaves Tab, Cmd chords, the clipboard chords and keys with nothing to type to the page', () => {
    expect(press('Tab')).toBeUndefined();
    expect(press('Tab', { shiftKey: true })).toBeUndefined();
    expect(press('c', { metaKey: true })).toBeUndefined();
    expect(press('v', { ctrlKey: true })).toBeUndefined();
    expect(press('C', { ctrlKey: true, shiftKey: true })).toBeUndefined();
    expect(press('Shift', { shiftKey: true })).toBeUndefined();
    expect(press('F5')).toBeUndefined();
    expect(press('Dead')).toBeUndefined();
  });
});

describe('pastedData', () => {
  it('sends line breaks as carriage returns, in parts within the bound, never splitting a character', () => {
    expect(pastedData('one\ntwo\r\n', 100)).toEqual(['one\rtwo\r']);
    expect(pastedData('abcdef', 4)).toEqual(['abcd', 'ef']);
    expect(pastedData('ab😀', 3)).toEqual(['ab', '😀']);
    expect(pastedData('', 4)).toEqual([]);
  });
});
