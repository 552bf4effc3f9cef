/**
 * Whether one label of an internationalised host name is safe to show in Unicode.
 *
 * Chromium's IDN display policy is the reference (components/url_formatter/spoof_checks/
 * idn_spoof_checker.cc): a label is shown in Unicode only when it is written in one script or
 * one of the combinations that mean one language (UTS #39 "highly restrictive"), contains no
 * deviation or invisible characters, no characters outside identifier letters, digits, marks
 * and `-`, no script that Unicode does not recommend for identifiers, no characters tied to
 * another country's domains, and is not a whole-script look-alike of a Latin label (Cyrillic
 * `аррӏе`). Anything else is shown as punycode. Pure: no I/O.
 */
import { hostSkeletonWithoutMarks } from './skeleton.js';

/** Scripts Unicode recommends for identifiers (UAX #31, table 5), bar Common and Inherited. */
const RECOMMENDED_SCRIPTS = [
  ...['Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Thaana', 'Devanagari'],
  ...['Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam'],
  ...['Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Georgian', 'Hangul', 'Ethiopic', 'Khmer'],
  ...['Hiragana', 'Katakana', 'Bopomofo', 'Han'],
] as const;

// Scripts named so that a label in them can be reported (and checked as a whole-script
// look-alike) though they are never shown; a letter in none of the listed scripts counts as
// the script `Unknown`, which is never shown either.
const OTHER_SCRIPTS = [
  ...['Cherokee', 'Coptic', 'Canadian_Aboriginal', 'Lisu', 'Runic', 'Ogham', 'Tifinagh', 'Nko'],
  ...['Syriac', 'Mongolian', 'Vai', 'Deseret', 'Gothic', 'Old_Italic', 'Glagolitic', 'Osage'],
  ...['Adlam', 'Bamum', 'Yi', 'Tai_Le', 'Ol_Chiki', 'Warang_Citi', 'Old_Permic', 'Carian'],
];

const SCRIPT_TESTS = [...RECOMMENDED_SCRIPTS, ...OTHER_SCRIPTS].map(
  (script) => [script, new RegExp(`\\p{Script_Extensions=${script}}`, 'u')] as const,
);
const COMMON_OR_INHERITED = /^[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]$/u;
const RECOMMENDED = new Set<string>(RECOMMENDED_SCRIPTS);

// The combinations UTS #39 "highly restrictive" allows besides one script: each is one
// writing system (Japanese, Chinese, Korean) with Latin.
const ALLOWED_COMBINATIONS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

// Deviation characters (IDNA 2003 and 2008 disagree on them) and default-ignorable ones,
// which render as nothing; Chromium never shows a label holding one.
const DEVIATION_OR_INVISIBLE = /[\u00df\u03c2\u200c\u200d\p{Default_Ignorable_Code_Point}]/u;

// Identifier characters only (Chromium allows the UAX #31 identifier set): letters, marks,
// decimal digits and `-`. Symbols such as `⁄` (fraction slash, looks like `/`) are out.
const IDENTIFIER_CHARACTER = /^[\p{L}\p{M}\p{Nd}-]$/u;

// Characters Chromium removes from that set: a solidus overlay, hyphen and quote look-alikes,
// and rarely used Latin, Greek and Cyrillic blocks full of look-alikes.
const REMOVED_CHARACTERS =
  /[\u0338\u058a\u2010\u2019\u2027\u30a0\u02bb\u02bc\u02ec\u0138\u01cd-\u01dc\u1c80-\u1c8f\u1e00-\u1e9b\u1f00-\u1fff\ua640-\ua69f\ua720-\ua7ff]/u;

// A dot above on a letter that has one already (`i̇`, from `İ`), or any mark on dotless `ı`:
// Chromium's patterns for an `i` that is not one.
const DOT_ON_DOTTED = /[ijl\u0131]\u0307|\u0131[\u0300-\u0339]/u;

// Chromium's patterns for Japanese and Chinese characters that pass for punctuation or Latin
// next to other scripts: `ノ ン ソ ゾ 丶 乀 乁 丿` (slashes) between non-Japanese characters, the
// prolonged sound mark `ー` (a dash) first or after a non-kana, and `一 丨 十 工 〇 ㄧ …`
// (dashes, `l`, `t`, `I`, `o`) next to non-CJK characters. (Chromium's rule for the middle dot
// `・` is moot: punctuation is never shown.)
const KANA = String.raw`\p{Script_Extensions=Katakana}\p{Script_Extensions=Hiragana}`;
const HAN = String.raw`\p{Script_Extensions=Han}`;
const BOPOMOFO = String.raw`\p{Script_Extensions=Bopomofo}`;
const SLASHES = String.raw`\u30ce\u30f3\u30bd\u30be\u4e36\u4e40\u4e41\u4e3f`;
const LATIN_LOOKING_CJK = String.raw`\u4e00\u3127\u4e28\u4e5b\u4e03\u4e05\u5341\u3007\u3112\u311a\u311f\u3128\u3129\u3108\u31ba\u31b3\u5de5\u31b2\u8ba0\u4e01`;
const CJK_PUNCTUATION_LOOKALIKE = new RegExp(
  [
    `[^${KANA}${HAN}][${SLASHES}][^${KANA}${HAN}]`,
    String.raw`^\u30fc`,
    String.raw`[^${KANA}]\u30fc`,
    `[^${KANA}${HAN}${BOPOMOFO}][${LATIN_LOOKING_CJK}]`,
    `[${LATIN_LOOKING_CJK}][^${KANA}${HAN}${BOPOMOFO}]`,
  ].join('|'),
  'u',
);

// Letters used only in one country's domains: Icelandic thorn and eth (they pass for `p`, `b`
// and `o`) outside `.is`, and schwa outside `.az`.
const TLD_SPECIFIC: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u00fe\u00f0]/u, 'is'],
  [/\u0259/u, 'az'],
];

// Chromium's hand-picked letters of each script that look like Latin ones; a label made only
// of these (plus digits and `-`) is a whole-script look-alike even where confusables.txt
// gives no ASCII prototype. Letters whose skeleton is ASCII count as well (see below).
const LATIN_LOOKALIKE_LETTERS: Readonly<Record<string, string>> = {
  Armenian: 'ագզէլհյոսւօՙ',
  Cyrillic: 'аысԁеԍһіюјӏорԗԛѕԝхуъьҽпгѵѡ',
  Ethiopic: 'ሀሠሰስበነተከዐዕዘጠፐꬅ',
  Georgian: 'იოყძხჽჿ',
  Greek: 'αικνρυωηοτ',
  Hebrew: 'דוחיןסװײ׳ﬦ',
  Bengali: '০৭',
  Devanagari: 'ऽ०ॱ',
  Gujarati: 'ડટ૦૧',
  Gurmukhi: '੦੧',
  Kannada: 'ಽ೦೧',
  Malayalam: 'ടഠധനറ൦',
  Oriya: 'ଠ୦୮',
  Tamil: 'டப௦',
  Telugu: '౦౧',
  Myanmar: 'ခဂငထပဝ၀၂ၔၜ\u1090\u1091\u1095\u1096\u1097',
  Thai: 'ทนบพรหเแ๐ดลปฟม',
};

/** Why a label is not shown in Unicode, when it is not. */
export type LabelProblem =
  | { kind: 'mixed-script'; scripts: string[] }
  | { kind: 'whole-script-confusable'; script: string; looksLike: string }
  | { kind: 'unsafe-character' };

/** The scripts of one character (Script_Extensions), or none for Common and Inherited. */
export function scriptsOf(char: string): string[] {
  if (/^[a-z]$/i.test(char)) {
    return ['Latin'];
  }
  if (COMMON_OR_INHERITED.test(char)) {
    return [];
  }
  const scripts = SCRIPT_TESTS.filter(([, test]) => test.test(char)).map(([script]) => script);
  return scripts.length > 0 ? scripts : ['Unknown'];
}

/** Whether a character looks like Latin letters or digits on its own. */
function looksLatin(char: string, script: string): boolean {
  if (LATIN_LOOKALIKE_LETTERS[script]?.includes(char)) {
    return true;
  }
  // A character that decomposes to a base and marks (Cyrillic `ё`) shows its marks; one whose
  // prototype carries a mark (Cherokee `Ꮎ` → `o̵`) does not, so only the latter is folded.
  return (
    !/\p{M}/u.test(char.normalize('NFD')) && /^[a-z0-9]+$/.test(hostSkeletonWithoutMarks(char))
  );
}

/**
 * What keeps a Unicode label from being shown as Unicode, or null when it is safe to show.
 *
 * `tld` is the host's last label in ASCII (`is`, `de`, `xn--p1ai`), for characters that only
 * one country's domains may use. A whole-script look-alike or a mix of scripts is named, so
 * the user is warned of it; any other reason is an `unsafe-character`.
 */
export function labelProblem(label: string, tld: string): LabelProblem | null {
  const chars = [...label];
  const perChar = chars.map(scriptsOf);
  const withScript = perChar.filter((scripts) => scripts.length > 0);
  const shared = sharedScripts(withScript);

  if (shared.size > 0) {
    // One writing system. Its letters may share several scripts (Myanmar digits are Myanmar and
    // Tai Le): the label is a look-alike when it reads as Latin in any one of them (`၀၀` is
    // `oo`). A label that is Latin in one of them is Latin.
    const letters = chars.filter((_, i) => perChar[i]!.length > 0);
    const script = shared.has('Latin')
      ? undefined
      : [...shared].find((script) => letters.every((char) => looksLatin(char, script)));
    if (script) {
      return {
        kind: 'whole-script-confusable',
        script,
        looksLike: hostSkeletonWithoutMarks(label),
      };
    }
  } else if (
    !ALLOWED_COMBINATIONS.some((allowed) =>
      withScript.every((scripts) => scripts.some((script) => allowed.has(script))),
    ) ||
    // Chromium: in a CJK combination, Latin must be plain ASCII (no `é日本`).
    chars.some((char, i) => perChar[i]!.includes('Latin') && char > '\x7f')
  ) {
    return { kind: 'mixed-script', scripts: mainScripts(withScript) };
  }

  const unsafe =
    DEVIATION_OR_INVISIBLE.test(label) ||
    chars.some((char) => !IDENTIFIER_CHARACTER.test(char)) ||
    REMOVED_CHARACTERS.test(label) ||
    DOT_ON_DOTTED.test(label) ||
    CJK_PUNCTUATION_LOOKALIKE.test(label) ||
    TLD_SPECIFIC.some(([letters, only]) => letters.test(label) && tld !== only) ||
    withScript.some((scripts) => !scripts.some((script) => RECOMMENDED.has(script)));
  return unsafe ? { kind: 'unsafe-character' } : null;
}

// The scripts every character shares (UTS #39's resolved script set, without its CJK
// augmentation: the allowed combinations already cover each CJK writing system). Empty when
// the label mixes scripts, an allowed combination included.
function sharedScripts(withScript: string[][]): Set<string> {
  const [first = [], ...rest] = withScript;
  return new Set(first.filter((script) => rest.every((scripts) => scripts.includes(script))));
}

// The scripts to name in a warning: those of characters that belong to one script only
// (a combining mark may extend to a dozen).
function mainScripts(withScript: string[][]): string[] {
  const single = withScript.filter((scripts) => scripts.length === 1).flat();
  return [...new Set(single.length > 0 ? single : withScript.flat())].sort();
}
