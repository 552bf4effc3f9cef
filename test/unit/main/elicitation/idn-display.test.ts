/**
 * The Unicode display policy (main/core/elicitation/idn-display.ts) where url-analysis.test.ts,
 * whose "the Unicode display policy (idn-display)" block tests the rest, does not reach it:
 * labels whose characters share more than one script, and each script's hand-picked letters.
 */
import { describe, expect, it } from 'vitest';
import { labelProblem } from '../../../../main/core/elicitation/idn-display.js';

describe('the Unicode display policy: labels of characters that share scripts', () => {
  it('shows a label whose every character is of the same two scripts, neither in a combination', () => {
    // Arabic-Indic digits are Arabic and Thaana, Myanmar digits Myanmar and Tai Le: one script
    // is enough for each label to be one writing system, not a mix.
    expect(labelProblem('١٢٣', 'com')).toBeNull();
    expect(labelProblem('၁၂၃', 'com')).toBeNull();
  });

  it('warns of a label that reads as Latin in one of the scripts its letters share', () => {
    // `၀` is Myanmar and Tai Le, and in Myanmar's list of letters that look Latin: `၀၀` is `oo`.
    expect(labelProblem('၀၀', 'com')).toEqual({
      kind: 'whole-script-confusable',
      script: 'Myanmar',
      looksLike: 'oo',
    });
  });

  it('reads a Tai Le word with its Myanmar digits as Tai Le, a script never shown, not a mix', () => {
    // The digits are Myanmar and Tai Le; the one script every character shares is Tai Le.
    expect(labelProblem('ᥐᥑ၁', 'com')).toEqual({ kind: 'unsafe-character' });
  });

  it('shows Korean written with Hanja', () => {
    // Hangul with Han is the Korean combination: the Han letter makes no mix.
    expect(labelProblem('한國', 'kr')).toBeNull();
  });
});

describe('the Unicode display policy: Chromium’s hand-picked look-alike letters', () => {
  // Each label holds a letter whose skeleton is not ASCII (confusables.txt gives it no Latin
  // prototype), so only the script's list makes it a whole-script look-alike. Bengali's and
  // Gurmukhi's lists have none: each of their letters has an ASCII skeleton (`০` is `o`).
  it.each([
    ['Armenian', 'էլ'],
    ['Cyrillic', 'пю'],
    ['Ethiopic', 'ሰበ'],
    ['Georgian', 'იო'],
    ['Greek', 'κω'],
    ['Hebrew', 'חוד'],
    ['Devanagari', 'ऽ०'],
    ['Gujarati', 'ડટ'],
    ['Kannada', 'ಽ೦'],
    ['Malayalam', 'നറ'],
    ['Oriya', '୮ଠ'],
    ['Tamil', 'டப'],
    ['Telugu', '౧౦'],
    ['Myanmar', 'ခဂ'],
    ['Thai', 'ทน'],
  ])('%s: %s', (script, label) => {
    expect(labelProblem(label, 'com')).toMatchObject({ kind: 'whole-script-confusable', script });
  });

  it('shows a label of letters outside the lists that look Latin to no one', () => {
    for (const label of ['ก', 'ёж', 'ժ', 'ቀ']) {
      expect(labelProblem(label, 'com')).toBeNull();
    }
  });
});
