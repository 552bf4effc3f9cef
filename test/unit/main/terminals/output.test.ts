import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  keepTail,
  MAX_OUTPUT_BYTES,
  TerminalOutput,
  unfinishedTail,
} from '../../../../main/core/terminals/output.js';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const decode = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/** Text mixing 1-, 2-, 3- and 4-byte characters. */
const mixedText = fc
  .array(fc.constantFrom('a', 'é', '€', '😀', '\n', 'ß', '中'), { maxLength: 60 })
  .map((chars) => chars.join(''));

describe('keepTail', () => {
  it('keeps the end of the text, whole characters only, as close to the limit as a character allows', () => {
    fc.assert(
      fc.property(mixedText, fc.nat({ max: 250 }), (text, limit) => {
        const bytes = utf8(text);
        const kept = keepTail(bytes, limit);
        expect(kept.length).toBeLessThanOrEqual(Math.max(limit, 0));
        // Valid text, and the end of the original: no character was cut in half.
        const keptText = decode(kept);
        expect(Buffer.from(keptText, 'utf8')).toEqual(Buffer.from(kept));
        expect(text.endsWith(keptText)).toBe(true);
        // At most one character's worth short of the limit (a character is at most 4 bytes).
        expect(kept.length).toBeGreaterThan(Math.min(limit, bytes.length) - 4);
        if (bytes.length <= limit) {
          expect(keptText).toBe(text);
        }
      }),
    );
  });

  it('cuts before a character that does not fit whole', () => {
    // "a😀b": 1 + 4 + 1 bytes; the last 4 bytes hold part of the emoji, so only "b" fits.
    expect(decode(keepTail(utf8('a😀b'), 4))).toBe('b');
    expect(decode(keepTail(utf8('a😀b'), 5))).toBe('😀b');
    expect(decode(keepTail(utf8('€€'), 4))).toBe('€');
  });

  it('takes a limit that is not a whole number down to one, and one below zero as zero', () => {
    expect(decode(keepTail(utf8('abcdef'), 4.5))).toBe('cdef');
    expect(keepTail(utf8('abc'), -1)).toHaveLength(0);
  });

  it('keeps bytes that fit whole as they are, even when they start mid-character', () => {
    expect(keepTail(new Uint8Array([0x80, 0x61]), 2)).toEqual(new Uint8Array([0x80, 0x61]));
  });

  it('cuts bytes that are not UTF-8 where they fall, never dropping them all', () => {
    const binary = new Uint8Array(100).fill(0x80);
    expect(keepTail(binary, 10).length).toBe(7);
  });
});

describe('unfinishedTail', () => {
  it('counts the bytes of a character begun and not finished', () => {
    const euro = utf8('€');
    expect(unfinishedTail(utf8('a'))).toBe(0);
    expect(unfinishedTail(euro)).toBe(0);
    expect(unfinishedTail(euro.subarray(0, 1))).toBe(1);
    expect(unfinishedTail(euro.subarray(0, 2))).toBe(2);
    expect(unfinishedTail(utf8('😀').subarray(0, 3))).toBe(3);
    expect(unfinishedTail(new Uint8Array(0))).toBe(0);
    // The smallest lead byte of each length: U+0800 starts 0xe0, U+10000 0xf0, and 0xc0 is the
    // pattern 110xxxxx (never valid UTF-8, but a lead byte all the same).
    expect(unfinishedTail(utf8('a\u0800').subarray(0, 3))).toBe(2);
    expect(unfinishedTail(utf8('a\u{10000}').subarray(0, 4))).toBe(3);
    expect(unfinishedTail(new Uint8Array([0x61, 0xc0]))).toBe(1);
    // Only the last three bytes can be part of a character not finished.
    expect(unfinishedTail(new Uint8Array([0xf0, 0x80, 0x80, 0x80]))).toBe(0);
  });
});

describe('TerminalOutput', () => {
  it('keeps the last bytes within the limit and says it cut, whatever the chunks', () => {
    fc.assert(
      fc.property(
        mixedText,
        fc.array(fc.nat({ max: 20 }), { maxLength: 10 }),
        fc.nat({ max: 100 }),
        (text, cuts, limit) => {
          const bytes = utf8(text);
          const output = new TerminalOutput(limit);
          // The same bytes in arbitrary chunks, split anywhere, mid-character too.
          let at = 0;
          for (const size of [...cuts, bytes.length]) {
            output.append(bytes.subarray(at, Math.min(at + size, bytes.length)));
            at = Math.min(at + size, bytes.length);
          }
          const kept = output.text(true);
          expect(text.endsWith(kept)).toBe(true);
          expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(limit);
          expect(output.truncated).toBe(bytes.length > limit);
        },
      ),
      // Enough runs to find a character split across chunks and the cut (see the next test).
      { numRuns: 3000 },
    );
  });

  it('drops the rest of a character whose start was cut off in an earlier chunk', () => {
    // Found by the property above: 3 bytes of the emoji, cut away, then its last byte.
    const emoji = utf8('😀');
    const output = new TerminalOutput(1);
    output.append(emoji.subarray(0, 3));
    output.append(emoji.subarray(3));
    expect(output.text(true)).toBe('');
    output.append(utf8('z'));
    expect(output.text(true)).toBe('z');
    expect(output.truncated).toBe(true);
  });

  it('holds back a half-written character while the command runs', () => {
    const output = new TerminalOutput();
    const euro = utf8('x€');
    output.append(euro.subarray(0, 2));
    expect(output.text(false)).toBe('x');
    output.append(euro.subarray(2));
    expect(output.text(false)).toBe('x€');
    expect(output.truncated).toBe(false);
  });

  it('never keeps more than its own cap, whatever the agent asks', () => {
    for (const limit of [MAX_OUTPUT_BYTES * 10, undefined, null]) {
      const output = new TerminalOutput(limit);
      output.append(new Uint8Array(MAX_OUTPUT_BYTES + 10).fill(0x61));
      expect(output.text(true).length).toBe(MAX_OUTPUT_BYTES);
      expect(output.truncated).toBe(true);
    }
  });

  it('keeps bytes that are not UTF-8 as they came while nothing was cut', () => {
    const output = new TerminalOutput(10);
    output.append(new Uint8Array([0x80, 0x61]));
    expect(output.text(true)).toBe('\ufffda');
    output.append(utf8('bcdefghij'));
    expect(output.text(true)).toBe('abcdefghij');
    expect(output.truncated).toBe(true);
  });
});
