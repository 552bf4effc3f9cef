import { domainToUnicode } from 'node:url';
import { parse as parseDomain } from 'tldts';
import { describe, expect, it } from 'vitest';
import { labelProblem, scriptsOf } from '../../../../main/core/elicitation/idn-display.js';
import { MAX_URL_CHARS } from '../../../../main/core/elicitation/limits.js';
import {
  EVERYDAY_LABELS,
  findBorrowedName,
  findLookalike,
  MIN_LABEL_LOOKALIKE_CHARS,
} from '../../../../main/core/elicitation/lookalike.js';
import {
  CONFUSABLES_17_PATCH,
  hostSkeleton,
  hostSkeletonWithoutMarks,
  skeleton,
} from '../../../../main/core/elicitation/skeleton.js';
import {
  analyseUrl,
  LONG_HOST_CHARS,
  LONG_HOST_LABELS,
  MISMATCH_NAMED_DOMAINS,
  statedHost,
  type AnalyseUrlOptions,
  type UrlRefusalCode,
} from '../../../../main/core/elicitation/url-analysis.js';
import { WELL_KNOWN_DOMAINS } from '../../../../main/core/elicitation/well-known-domains.js';
import {
  URL_VIEW_MESSAGE_CEILING,
  URL_VIEW_TEXT_CEILING,
  URL_WARNING_CODES,
  UrlAnalysis,
  type UrlWarningCode,
} from '../../../../preload/shared/url-analysis-view.js';
import { URL_CORPUS, type OpenedUrlCase, type UrlCase } from '../../../fixtures/url-corpus.js';
import { opened } from '../../../helpers/url-analysis.js';

function refusal(text: string): { code: UrlRefusalCode; reason: string } {
  const verdict = analyseUrl(text);
  if (verdict.ok) {
    throw new Error(`opened: ${verdict.analysis.href}`);
  }
  return verdict;
}

const codes = (text: string, options: AnalyseUrlOptions = {}) =>
  opened(text, options).warnings.map(({ code }) => code);
const message = (text: string, code: UrlWarningCode, options: AnalyseUrlOptions = {}) =>
  opened(text, options).warnings.find((warning) => warning.code === code)?.message;
const highlighted = (analysis: UrlAnalysis) =>
  analysis.href.slice(analysis.highlight.start, analysis.highlight.end);

const named = (entry: UrlCase) => {
  const shown = JSON.stringify(entry.url);
  return {
    name: `${entry.about}: ${shown.length > 90 ? `${shown.slice(0, 89)}…"` : shown}`,
    entry,
  };
};

describe('the URL corpus', () => {
  const refusedCases = URL_CORPUS.filter((entry) => 'refused' in entry);
  const openedCases = URL_CORPUS.filter((entry): entry is OpenedUrlCase => !('refused' in entry));

  it('holds at least 200 URLs, each once, opened with and without warnings and refused', () => {
    expect(URL_CORPUS.length).toBeGreaterThanOrEqual(200);
    expect(
      new Set(
        URL_CORPUS.map(
          (entry) => `${entry.url} ${'expectedDomains' in entry ? entry.expectedDomains : ''}`,
        ),
      ).size,
    ).toBe(URL_CORPUS.length);
    expect(openedCases.filter((entry) => entry.warnings.length === 0).length).toBeGreaterThan(50);
    expect(openedCases.filter((entry) => entry.warnings.length > 0).length).toBeGreaterThan(100);
    expect(refusedCases.length).toBeGreaterThan(50);
  });

  it('names every warning and every refusal at least once', () => {
    const warned = new Set(openedCases.flatMap((entry) => entry.warnings));
    expect([...warned].sort()).toEqual([...URL_WARNING_CODES].sort());
    const refusals = new Set(refusedCases.map((entry) => entry.refused));
    expect([...refusals].sort()).toEqual(
      ['control-character', 'host', 'insecure-http', 'scheme', 'too-long', 'unparsable'].sort(),
    );
  });

  it.each(URL_CORPUS.map(named))('$name', ({ entry }) => {
    if ('refused' in entry) {
      const { code, reason } = refusal(entry.url);
      expect(code).toBe(entry.refused);
      expect(reason.length).toBeGreaterThan(0);
      expect(reason.length).toBeLessThan(200);
      return;
    }
    const analysis = opened(entry.url, { expectedDomains: entry.expectedDomains });
    expect({
      host: analysis.host,
      hostUnicode: analysis.hostUnicode,
      registrableDomain: analysis.registrableDomain,
      warnings: [...analysis.warnings.map(({ code }) => code)].sort(),
      normalised: analysis.normalised,
    }).toEqual({
      host: entry.host,
      hostUnicode: entry.hostUnicode,
      registrableDomain: entry.registrableDomain,
      warnings: [...entry.warnings].sort(),
      normalised: entry.normalised,
    });
    // What is shown and opened is the WHATWG serialisation, and the highlight marks the
    // registrable domain in it (the whole host when there is none), without a trailing dot.
    const order = analysis.warnings.map(({ code }) => URL_WARNING_CODES.indexOf(code));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(analysis.href).toBe(new URL(entry.url).href);
    expect(analysis.original).toBe(entry.url);
    expect(highlighted(analysis)).toBe(entry.registrableDomain ?? entry.host.replace(/\.$/, ''));
    expect(analysis.registrableDomainUnicode).toBe(
      analysis.hostUnicode === null || entry.registrableDomain === null
        ? null
        : domainToUnicode(entry.registrableDomain),
    );
  });
});

describe('analyseUrl: refusals', () => {
  it('refuses text past MAX_URL_CHARS (8192) and accepts text at it', () => {
    expect(MAX_URL_CHARS).toBe(8_192);
    const base = 'https://example.com/';
    expect(refusal(`${base}${'a'.repeat(MAX_URL_CHARS - base.length + 1)}`).code).toBe('too-long');
    expect(opened(`${base}${'a'.repeat(MAX_URL_CHARS - base.length)}`).href).toHaveLength(
      MAX_URL_CHARS,
    );
  });

  it('refuses text past the limit even when it serialises shorter', () => {
    // `./` segments are dropped from the path: the href is 20 characters, the text 8,220.
    const text = `https://example.com/${'./'.repeat(4_100)}`;
    expect(new URL(text).href).toBe('https://example.com/');
    expect(refusal(text)).toEqual({
      ok: false,
      code: 'too-long',
      reason: `The URL is longer than ${MAX_URL_CHARS} characters.`,
    });
  });

  it('refuses a URL that percent-encoding takes past the limit, and says so', () => {
    const { code, reason } = refusal(`https://example.com/${'é'.repeat(1_400)}`);
    expect(code).toBe('too-long');
    expect(reason).toContain('once encoded');
  });

  it('names the forbidden character and where it is', () => {
    expect(refusal('https://github.com/\u202eexe.pdf').reason).toContain('U+202E');
    expect(refusal('https://github.com/\u202eexe.pdf').reason).toContain('position 19');
    expect(refusal('https://github.com/\u0085').reason).toContain('U+0085');
  });

  it('refuses what is not a string', () => {
    expect(analyseUrl(undefined as unknown as string)).toEqual({
      ok: false,
      code: 'unparsable',
      reason: 'The URL is not a string.',
    });
    expect(analyseUrl({ href: 'https://x.com/' } as unknown as string)).toMatchObject({
      ok: false,
      code: 'unparsable',
    });
  });

  it('names the refused scheme, cut short', () => {
    expect(refusal('javascript:alert(1)').reason).toContain('"javascript"');
    const long = `${'x'.repeat(200)}:rest`;
    expect(refusal(long).code).toBe('scheme');
    expect(refusal(long).reason).toContain(`"${'x'.repeat(31)}…"`);
  });

  it('lets plain http through only to loopback', () => {
    for (const text of [
      'http://localhost/',
      'http://127.0.0.1/',
      'http://127.9.9.9/',
      'http://[::1]/',
    ]) {
      expect(opened(text).scheme).toBe('http');
    }
    for (const text of ['http://128.0.0.1/', 'http://localhost.com/', 'http://[::2]/']) {
      expect(refusal(text).code).toBe('insecure-http');
    }
  });
});

describe('analyseUrl: the view', () => {
  it('gives the parts of the URL apart', () => {
    const analysis = opened('https://user:pw@login.example.co.uk:8443/a/b?c=d#e');
    expect(analysis).toMatchObject({
      scheme: 'https',
      host: 'login.example.co.uk',
      registrableDomain: 'example.co.uk',
      port: 8443,
      path: '/a/b?c=d#e',
    });
    expect(highlighted(analysis)).toBe('example.co.uk');
    expect(analysis.highlight.start).toBe('https://user:pw@login.'.length);
  });

  it('has no port for the default one', () => {
    expect(opened('https://example.com:443/').port).toBeNull();
    expect(opened('http://localhost:80/').port).toBeNull();
    expect(opened('http://localhost:8080/').port).toBe(8080);
  });

  it('highlights past a user name without a password, and the whole host with no domain', () => {
    expect(highlighted(opened('https://a@b.example.com/'))).toBe('example.com');
    expect(highlighted(opened('https://:pw@b.example.com/'))).toBe('example.com');
    expect(highlighted(opened('https://[::1]:8443/'))).toBe('[::1]');
    expect(highlighted(opened('http://localhost./'))).toBe('localhost');
  });

  it('is not flagged as normalised when the text is already serialised', () => {
    const analysis = opened('https://github.com/login');
    expect(analysis.normalised).toBe(false);
    expect(analysis.original).toBe(analysis.href);
  });

  it('lists warnings most serious first', () => {
    expect(
      codes('http://accounts.google.com@0x7f.1:8080/', { expectedDomains: ['x.example'] }),
    ).toEqual(['userinfo', 'domain-mismatch', 'ip-literal', 'http', 'port']);
    expect(codes('https://a.b.c.d.gооgle.com:444/')).toEqual([
      'lookalike',
      'mixed-script',
      'punycode',
      'port',
      'long-host',
    ]);
    // Labels are checked left to right; the warnings still come in order.
    expect(codes('https://gооgle.аррӏе.com/')).toEqual([
      'lookalike',
      'borrowed-name',
      'whole-script-confusable',
      'mixed-script',
      'punycode',
    ]);
    expect(URL_WARNING_CODES.slice(0, 2)).toEqual(['lookalike', 'borrowed-name']);
  });
});

describe('analyseUrl: warnings', () => {
  it('punycode: says what the name is registered as, or that it is not shown', () => {
    expect(message('https://münchen.de/', 'punycode')).toBe(
      'The domain uses international characters: münchen.de is registered as xn--mnchen-3ya.de.',
    );
    expect(message('https://faß.de/', 'punycode')).toContain('could be mistaken');
    expect(message('https://faß.de/', 'punycode')).toContain('xn--fa-hia.de');
  });

  it('mixed-script: names the scripts, in words', () => {
    expect(message('https://gооgle.com/', 'mixed-script')).toContain(
      'mixes Cyrillic and Latin letters',
    );
    expect(message('https://аαa.com/', 'mixed-script')).toContain('Cyrillic, Greek and Latin');
    expect(message('https://ᑲox.com/', 'mixed-script')).toContain('Canadian Aboriginal and Latin');
    // A mark of several scripts (Arabic and Syriac) mixes, but only Latin is a script of its own.
    expect(message('https://a\u064b.com/', 'mixed-script')).toBe(
      'Part of the domain mixes Latin letters, a common way to imitate another name.',
    );
  });

  it('whole-script-confusable: says what the letters read as, when they read as ASCII', () => {
    expect(message('https://аррӏе.com/', 'whole-script-confusable')).toBe(
      'Part of the domain is written in Cyrillic letters that look like Latin ones ("apple").',
    );
    expect(message('https://пеп.com/', 'whole-script-confusable')).toBe(
      'Part of the domain is written in Cyrillic letters that look like Latin ones.',
    );
    // Read as ASCII only when every letter is: `е` reads as `e`, `п` as nothing Latin.
    for (const host of ['еп.com', 'пе.com']) {
      expect(message(`https://${host}/`, 'whole-script-confusable')).toBe(
        'Part of the domain is written in Cyrillic letters that look like Latin ones.',
      );
    }
  });

  it('lookalike: names the well-known domain', () => {
    expect(message('https://раураӏ.com/', 'lookalike')).toBe(
      'xn--80aa0cbo65f.com is made to look like paypal.com but is another site.',
    );
    // The first well-known domain with a label wins: amazon.com, not amazon.com.br.
    expect(message('https://arnazon.net/', 'lookalike')).toContain('like amazon.com but');
  });

  it('ip-literal: says when the agent wrote the address in another form', () => {
    expect(message('https://127.0.0.1/', 'ip-literal')).toBe(
      'The URL points to this computer by its IP address (127.0.0.1), not a domain name.',
    );
    expect(message('https://8.8.8.8/', 'ip-literal')).toBe(
      'The URL points to an IP address (8.8.8.8), not a domain name.',
    );
    expect(message('https://2130706433/', 'ip-literal')).toContain('written in another form');
    expect(message('https://[0::1]/', 'ip-literal')).toContain('written in another form');
    expect(message('https://127.0.0.1:8443/?x=127.0.0.1', 'ip-literal')).not.toContain(
      'another form',
    );
    expect(message('https://0x7f.1/?x=127.0.0.1', 'ip-literal')).toContain('another form');
    expect(message('https://0x7f.1/127.0.0.1.html', 'ip-literal')).toContain('another form');
    // Hex digits in capitals are the same address as written, not another form.
    expect(message('https://[2001:DB8::1]/', 'ip-literal')).toBe(
      'The URL points to an IP address ([2001:db8::1]), not a domain name.',
    );
  });

  it('userinfo: quotes the user name, says whether there is a password, names the site', () => {
    expect(message('https://accounts.google.com@evil.example/', 'userinfo')).toBe(
      'The URL puts "accounts.google.com" before "@", which is not where it goes: the site is evil.example.',
    );
    expect(message('https://u:p@evil.example/', 'userinfo')).toContain('"u" and a password');
    const long = message(`https://${'u'.repeat(5_000)}@evil.example/`, 'userinfo')!;
    expect(long.length).toBeLessThan(URL_VIEW_MESSAGE_CEILING);
    expect(long).toContain(`"${'u'.repeat(63)}…"`);
    // Quoted text is cut only past its limit: 64 characters are shown whole.
    expect(message(`https://${'u'.repeat(64)}@evil.example/`, 'userinfo')).toContain(
      `"${'u'.repeat(64)}" before`,
    );
  });

  it('port: names the port and the scheme', () => {
    expect(message('https://example.com:8443/', 'port')).toBe(
      'The URL uses port 8443, not the usual port for https.',
    );
  });

  it('http: says the page is on this computer, over plain http, and nothing about encryption', () => {
    expect(message('http://localhost/', 'http')).toBe(
      'The page is on this computer and uses plain http, as local tools do.',
    );
  });

  it(`long-host: past ${LONG_HOST_CHARS} characters or ${LONG_HOST_LABELS} labels`, () => {
    expect(LONG_HOST_CHARS).toBe(100);
    expect(LONG_HOST_LABELS).toBe(5);
    const label = (n: number) => 'a'.repeat(n);
    const host = (length: number) => `${label(50)}.${label(length - 50 - 13)}.example.com`;
    expect(host(100)).toHaveLength(100);
    expect(codes(`https://${host(100)}/`)).toEqual([]);
    expect(codes(`https://${host(101)}/`)).toEqual(['long-host']);
    expect(codes('https://a.b.c.example.com/')).toEqual([]);
    expect(codes('https://a.b.c.d.example.com/')).toEqual(['long-host']);
    expect(codes('https://a.b.c.example.com./')).toEqual([]);
    expect(message('https://a.b.c.d.evil.example/', 'long-host')).toBe(
      'The host is unusually long or deeply nested (6 parts, 20 characters); the site is evil.example.',
    );
  });

  it('domain-mismatch: only when domains are listed, and names the site and them', () => {
    expect(codes('https://evil.example/')).toEqual([]);
    expect(codes('https://evil.example/', { expectedDomains: [] })).toEqual([]);
    expect(
      message('https://evil.example/', 'domain-mismatch', {
        expectedDomains: ['agent.example.com'],
      }),
    ).toBe('The URL leads to evil.example, not to example.com, the domain set for this agent.');
    expect(
      message('https://evil.example/', 'domain-mismatch', { expectedDomains: ['not a domain'] }),
    ).toContain('not to not a domain, the domain');
    expect(codes('https://a.example.com/', { expectedDomains: ['example.com.'] })).toEqual([]);
    // A listed domain under a private suffix is a site of its own, as the URL's domain is.
    expect(codes('https://me.github.io/x', { expectedDomains: ['me.github.io'] })).toEqual([]);
    expect(codes('https://you.github.io/', { expectedDomains: ['me.github.io'] })).toEqual([
      'domain-mismatch',
    ]);
    // A host with no registrable domain is compared whole.
    expect(codes('http://localhost/', { expectedDomains: ['localhost'] })).toEqual(['http']);
    expect(codes('http://localhost/', { expectedDomains: ['localhost.'] })).toEqual(['http']);
    expect(codes('https://127.0.0.1/', { expectedDomains: ['127.0.0.2'] })).toEqual([
      'domain-mismatch',
      'ip-literal',
    ]);
  });

  it('domain-mismatch: any listed domain will do; the sentence names each registrable once', () => {
    const listed = ['openai.com', 'https://auth.openai.com/', 'chatgpt.com'];
    expect(codes('https://chatgpt.com/', { expectedDomains: listed })).toEqual([]);
    expect(codes('https://auth.openai.com/x', { expectedDomains: listed })).toEqual([]);
    expect(message('https://evil.example/', 'domain-mismatch', { expectedDomains: listed })).toBe(
      'The URL leads to evil.example, not to openai.com or chatgpt.com, the domains set for this agent.',
    );
    expect(
      message('https://evil.example/', 'domain-mismatch', {
        expectedDomains: ['a.example', 'b.example', 'c.example'],
      }),
    ).toContain('not to a.example, b.example or c.example, the domains');
  });

  it(`domain-mismatch: names at most ${MISMATCH_NAMED_DOMAINS} domains and counts the rest`, () => {
    expect(MISMATCH_NAMED_DOMAINS).toBe(4);
    const many = Array.from({ length: 32 }, (_, index) => `${'d'.repeat(990)}${index}.example`);
    const sentence = message('https://evil.example/', 'domain-mismatch', {
      expectedDomains: many,
    })!;
    expect(sentence).toContain(' or 28 others, the domains set for this agent.');
    expect(sentence.length).toBeLessThan(URL_VIEW_MESSAGE_CEILING);
    expect(
      message('https://evil.example/', 'domain-mismatch', {
        expectedDomains: ['a.example', 'b.example', 'c.example', 'd.example', 'e.example'],
      }),
    ).toBe(
      'The URL leads to evil.example, not to a.example, b.example, c.example, d.example or 1 other, the domains set for this agent.',
    );
  });

  it('borrowed-name: names the name, the site and the name’s own domain', () => {
    expect(message('https://paypal.com.evil.example/', 'borrowed-name')).toBe(
      'The address uses the name “paypal” but the site is evil.example, not paypal.com.',
    );
    expect(message('https://secure-paypa1.example/', 'borrowed-name')).toBe(
      'The address uses “paypa1”, which looks like the name “paypal”, but the site is secure-paypa1.example, not paypal.com.',
    );
    expect(message('https://göögle.evil.example/', 'borrowed-name')).toBe(
      'The address uses letters made to look like the name “google”, but the site is evil.example, not google.com.',
    );
    expect(message('https://login.gov.evil.example/', 'borrowed-name')).toBe(
      'The address uses the name “login” but the site is evil.example, not login.gov.',
    );
  });
});

describe('the Unicode display policy (idn-display)', () => {
  it('reads scripts from Script_Extensions; Common and Inherited count for none', () => {
    expect(scriptsOf('a')).toEqual(['Latin']);
    expect(scriptsOf('é')).toEqual(['Latin']);
    expect(scriptsOf('а')).toEqual(['Cyrillic']);
    expect(scriptsOf('-')).toEqual([]);
    expect(scriptsOf('7')).toEqual([]);
    expect(scriptsOf('\u20d0')).toEqual([]);
    expect(scriptsOf('\u0301')).toContain('Latin');
    expect(scriptsOf('ー')).toEqual(['Hiragana', 'Katakana']);
    expect(scriptsOf('ᬅ')).toEqual(['Unknown']);
  });

  it('reads a look-alike by its letters alone, each Latin when all its skeleton is', () => {
    expect(labelProblem('аре-ро', 'com')).toEqual({
      kind: 'whole-script-confusable',
      script: 'Cyrillic',
      looksLike: 'ape-po',
    });
    // A letter outside the hand-picked lists looks Latin when its whole skeleton is ASCII.
    expect(labelProblem('ӕ', 'com')).toEqual({
      kind: 'whole-script-confusable',
      script: 'Cyrillic',
      looksLike: 'ae',
    });
    expect(labelProblem('ґа', 'com')).toBeNull();
    expect(labelProblem('ൟ', 'com')).toBeNull();
  });

  it('counts a character of several scripts in a combination when one of them is in it', () => {
    // `、` is Han, kana, Hangul, Bopomofo, Mongolian and Yi: Japanese, but no identifier letter.
    expect(labelProblem('ひら漢字、', 'jp')).toEqual({ kind: 'unsafe-character' });
  });

  it('shows single-script labels and the three CJK combinations', () => {
    for (const label of [
      'münchen',
      'россия',
      '日本',
      'ひらがな漢字',
      'ソニーabc',
      'ㄅㄆabc',
      '한국abc',
    ]) {
      expect(labelProblem(label, 'com')).toBeNull();
    }
  });

  it('names a mix of scripts beyond the combinations', () => {
    expect(labelProblem('gооgle', 'com')).toEqual({
      kind: 'mixed-script',
      scripts: ['Cyrillic', 'Latin'],
    });
    expect(labelProblem('ㄅ한', 'com')).toMatchObject({ kind: 'mixed-script' });
    expect(labelProblem('ソ한', 'com')).toMatchObject({ kind: 'mixed-script' });
    expect(labelProblem('é日本', 'jp')).toMatchObject({ kind: 'mixed-script' });
  });

  it('names only single-script characters in a mix, unless there are none', () => {
    // U+0307 extends to a dozen scripts; the warning names the letters' scripts.
    expect(labelProblem('xа\u0307y', 'com')).toEqual({
      kind: 'mixed-script',
      scripts: ['Cyrillic', 'Latin'],
    });
    const onlyShared = labelProblem('ー\u0951', 'com');
    expect(onlyShared).toMatchObject({ kind: 'mixed-script' });
    expect((onlyShared as { scripts: string[] }).scripts).toContain('Hiragana');
    expect((onlyShared as { scripts: string[] }).scripts).toContain('Devanagari');
  });

  it('finds whole-script look-alikes by skeleton and by Chromium’s letter lists', () => {
    expect(labelProblem('аррӏе', 'com')).toEqual({
      kind: 'whole-script-confusable',
      script: 'Cyrillic',
      looksLike: 'apple',
    });
    // κ and τ have no ASCII prototype; Chromium's Greek list has them.
    expect(labelProblem('οκτα', 'com')).toMatchObject({ kind: 'whole-script-confusable' });
    // Cherokee Ꮎ's prototype carries a stroke, which is dropped; Cyrillic ё's own marks are not.
    expect(labelProblem('ᎾᎾ', 'com')).toMatchObject({ kind: 'whole-script-confusable' });
    expect(labelProblem('ёе', 'com')).toBeNull();
    expect(labelProblem('ɡɑ', 'com')).toBeNull();
  });

  it('refuses deviation, invisible, non-identifier and removed characters', () => {
    for (const label of [
      'faß',
      'σς',
      'a\u200cb',
      'a\u200db',
      'a\u3164b',
      'a⁄b',
      'a💩',
      'ḁbc',
      'aǎ',
    ]) {
      expect(labelProblem(label, 'com')).toEqual({ kind: 'unsafe-character' });
    }
  });

  it('refuses a second dot on i, j, l and marks on a dotless i', () => {
    for (const label of ['i\u0307x', 'j\u0307x', 'l\u0307x', '\u0131\u0307x', '\u0131\u0301x']) {
      expect(labelProblem(label, 'com')).toEqual({ kind: 'unsafe-character' });
    }
    expect(labelProblem('e\u0307x', 'com')).toBeNull();
  });

  it('refuses CJK characters that pass for punctuation or Latin next to other scripts', () => {
    for (const label of ['aノb', 'aンb', 'ーab', 'aーb', 'a一', '一a', 'ab丨']) {
      expect(labelProblem(label, 'jp')).toEqual({ kind: 'unsafe-character' });
    }
    for (const label of ['ソニー', 'ノート', '中一', '一中', 'ㄅ一']) {
      expect(labelProblem(label, 'jp')).toBeNull();
    }
  });

  it('allows thorn and eth only under .is, schwa only under .az', () => {
    expect(labelProblem('þing', 'is')).toBeNull();
    expect(labelProblem('þing', 'com')).toEqual({ kind: 'unsafe-character' });
    expect(labelProblem('ðing', 'com')).toEqual({ kind: 'unsafe-character' });
    expect(labelProblem('əli', 'az')).toBeNull();
    expect(labelProblem('əli', 'is')).toEqual({ kind: 'unsafe-character' });
    // The country is the host's last label, however many come before it.
    expect(opened('https://www.þing.is/').hostUnicode).toBe('www.þing.is');
  });

  it('never shows a script Unicode does not recommend for identifiers', () => {
    expect(labelProblem('ᏣᎳᎩ', 'com')).toEqual({ kind: 'unsafe-character' });
    expect(labelProblem('ⲙⲛ', 'com')).toEqual({ kind: 'unsafe-character' });
    expect(labelProblem('ᬅᬆ', 'com')).toEqual({ kind: 'unsafe-character' });
  });
});

describe('skeletons (UTS #39 over confusables.txt 10.0.0, patched to 17.0.0 for Latin)', () => {
  it('has the ASCII entries of confusables.txt: I, 1 and | to l, 0 to O, m to rn', () => {
    expect(skeleton('I')).toBe('l');
    expect(skeleton('1')).toBe('l');
    expect(skeleton('|')).toBe('l');
    expect(skeleton('l')).toBe('l');
    expect(skeleton('0')).toBe('O');
    expect(skeleton('m')).toBe('rn');
    expect(skeleton('rn')).toBe('rn');
  });

  it('applies NFD before the mapping and after it', () => {
    expect(skeleton('ӧ')).toBe('o\u0308');
    expect(skeleton('㈎')).toBe('(가)'.normalize('NFD'));
    expect(skeleton('㈎')).not.toBe('(가)');
  });

  it('carries the 17.0.0 Latin look-alikes the 10.0.0 table lacks', () => {
    expect(skeleton('ӏ')).toBe('l');
    expect(skeleton('ш')).toBe('w');
    expect(skeleton('ւ')).toBe('i');
    expect(skeleton('þ')).toBe('p');
    for (const [codePoint, prototype] of CONFUSABLES_17_PATCH) {
      expect(skeleton(String.fromCodePoint(codePoint))).toBe(prototype);
    }
  });

  it('patches 38 code points, each once and each to one ASCII letter, digit or -', () => {
    expect(CONFUSABLES_17_PATCH).toHaveLength(38);
    expect(new Set(CONFUSABLES_17_PATCH.map(([codePoint]) => codePoint)).size).toBe(38);
    for (const [, prototype] of CONFUSABLES_17_PATCH) {
      expect(prototype).toMatch(/^[A-Za-z0-9-]$/);
    }
  });

  it('folds case for hosts, and can drop marks', () => {
    expect(hostSkeleton('g00gle')).toBe('google');
    expect(hostSkeleton('ᏀᎾᎾᏀᏞᎬ')).toBe('go\u0335o\u0335gle');
    expect(hostSkeletonWithoutMarks('ᏀᎾᎾᏀᏞᎬ')).toBe('google');
    expect(hostSkeletonWithoutMarks('göögle')).toBe('google');
  });
});

describe('the well-known domains and the look-alike check', () => {
  it('lists a few hundred registrable domains, none looking like another', () => {
    expect(WELL_KNOWN_DOMAINS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(WELL_KNOWN_DOMAINS).size).toBe(WELL_KNOWN_DOMAINS.length);
    expect(new Set(WELL_KNOWN_DOMAINS.map(hostSkeleton)).size).toBe(WELL_KNOWN_DOMAINS.length);
    for (const domain of WELL_KNOWN_DOMAINS) {
      const parsed = parseDomain(domain, { allowPrivateDomains: true, extractHostname: false });
      expect(parsed.domain, domain).toBe(domain);
    }
  });

  it('never flags a well-known domain itself', () => {
    for (const domain of WELL_KNOWN_DOMAINS) {
      expect(codes(`https://${domain}/`), domain).not.toContain('lookalike');
      // Nor a brand's name on one: outlook.office.com is Microsoft's own.
      expect(codes(`https://paypal-google.${domain}/`), domain).not.toContain('borrowed-name');
    }
  });

  it(`finds every well-known domain of ${MIN_LABEL_LOOKALIKE_CHARS} or more label characters borrowed whole`, () => {
    for (const domain of WELL_KNOWN_DOMAINS) {
      const long = hostSkeleton(domain.slice(0, domain.indexOf('.'))).length;
      const found = findBorrowedName(`${domain}.evil.example`, 'evil.example', 'evil');
      if (long >= MIN_LABEL_LOOKALIKE_CHARS) {
        // The first well-known domain of a label stands for it: amazon.com for amazon.de.
        expect(found?.domain.split('.')[0], domain).toBe(domain.split('.')[0]);
      } else {
        expect(found, domain).toBeNull();
      }
    }
  });

  it('includes the sign-in and payment domains the consent card must know', () => {
    for (const domain of ['google.com', 'github.com', 'microsoft.com', 'live.com', 'apple.com']) {
      expect(WELL_KNOWN_DOMAINS).toContain(domain);
    }
    for (const domain of ['icloud.com', 'paypal.com', 'stripe.com', 'amazon.com', 'okta.com']) {
      expect(WELL_KNOWN_DOMAINS).toContain(domain);
    }
    for (const domain of ['auth0.com', 'slack.com', 'atlassian.com', 'gitlab.com', 'x.com']) {
      expect(WELL_KNOWN_DOMAINS).toContain(domain);
    }
  });

  it(`compares labels under other suffixes from ${MIN_LABEL_LOOKALIKE_CHARS} characters`, () => {
    expect(MIN_LABEL_LOOKALIKE_CHARS).toBe(4);
    expect(findLookalike('0kta.net', '0kta')).toBe('okta.com');
    expect(findLookalike('b0x.net', 'b0x')).toBeNull();
    expect(findLookalike('b0x.com', 'b0x')).toBe('box.com');
    expect(findLookalike('okta.net', 'okta')).toBeNull();
    expect(findLookalike('okta.com', 'okta')).toBeNull();
  });
});

describe('findBorrowedName', () => {
  const borrowed = (host: string) => {
    const { domain, domainWithoutSuffix } = parseDomain(host, {
      allowPrivateDomains: true,
      extractHostname: false,
    });
    return findBorrowedName(host, domain!, domainWithoutSuffix!);
  };

  it('finds a brand among the labels before the registrable domain, split on dots and hyphens', () => {
    expect(borrowed('paypal.com.evil.example')).toEqual({
      domain: 'paypal.com',
      written: 'paypal',
    });
    expect(borrowed('x.accounts-google.evil.example')).toEqual({
      domain: 'google.com',
      written: 'google',
    });
    // Left to right: the first brand is named.
    expect(borrowed('github-paypal.evil.example')?.domain).toBe('github.com');
  });

  it('finds a brand in the registrable domain’s label only as one of several hyphenated parts', () => {
    expect(borrowed('paypal-secure.example')).toEqual({ domain: 'paypal.com', written: 'paypal' });
    expect(borrowed('secure-paypa1.example')).toEqual({ domain: 'paypal.com', written: 'paypa1' });
    expect(borrowed('paypal.co.uk')).toBeNull();
    expect(borrowed('www.paypal.co.uk')).toBeNull();
  });

  it('finds a hyphenated brand as a run of parts', () => {
    expect(borrowed('deutsche-bank-login.example')).toEqual({
      domain: 'deutsche-bank.de',
      written: 'deutsche-bank',
    });
    expect(borrowed('credit-agricole.fr.evil.example')?.domain).toBe('credit-agricole.fr');
    expect(borrowed('credit-agricole.example')).toBeNull();
  });

  it(`counts a token of at least ${MIN_LABEL_LOOKALIKE_CHARS} skeleton characters only`, () => {
    expect(borrowed('x.evil.example')).toBeNull();
    expect(borrowed('qq-mail.example')).toBeNull();
    expect(borrowed('ibm.evil.example')?.domain).toBe('ibm.com');
    expect(borrowed('bmo.evil.example')?.domain).toBe('bmo.com');
    expect(borrowed('sofi.evil.example')?.domain).toBe('sofi.com');
  });

  it('compares skeletons: look-alike tokens count, with or without marks, and say how they are written', () => {
    expect(borrowed('rnicrosoft.evil.example')).toEqual({
      domain: 'microsoft.com',
      written: 'rnicrosoft',
    });
    expect(borrowed('xn--80aa0cbo65f.evil.example')).toEqual({
      domain: 'paypal.com',
      written: null,
    });
    expect(borrowed('xn--ggle-5qaa.evil.example')).toEqual({ domain: 'google.com', written: null });
    // A look-alike of the hyphen splits too: `paypalⲻsecure`.
    expect(borrowed(new URL('https://paypalⲻsecure.example/').hostname)?.domain).toBe('paypal.com');
  });

  it('counts an everyday word only where the host spells its whole domain', () => {
    expect(borrowed('login.example.com')).toBeNull();
    expect(borrowed('login-secure.example')).toBeNull();
    expect(borrowed('login.gov.evil.example')).toEqual({ domain: 'login.gov', written: 'login' });
    expect(borrowed('mail.ru.evil.example')?.domain).toBe('mail.ru');
    expect(borrowed('mail.com.evil.example')).toBeNull();
    expect(borrowed('login-gov.evil.example')).toBeNull();
    expect(borrowed('checkout.com.evil.example')?.domain).toBe('checkout.com');
  });

  it('keeps every everyday word a label of a well-known domain', () => {
    const labels = new Set(
      WELL_KNOWN_DOMAINS.map((domain) => domain.slice(0, domain.indexOf('.'))),
    );
    for (const word of EVERYDAY_LABELS) {
      expect(labels.has(word), word).toBe(true);
    }
  });

  it('finds nothing when the registrable domain is well known or is named as the brand is', () => {
    expect(borrowed('outlook.office.com')).toBeNull();
    expect(borrowed('microsoft-my.sharepoint.com')).toBeNull();
    expect(borrowed('login.microsoftonline.com')).toBeNull();
    expect(borrowed('paypal.paypal.co.uk')).toBeNull();
    expect(borrowed('paypal.paypa1.com')).toBeNull();
    expect(borrowed('google.paypa1.com')?.domain).toBe('google.com');
  });

  it('finds nothing in a host that does not end with the domain it is given', () => {
    expect(findBorrowedName('paypal.com.evil.example', 'other.example', 'other')).toBeNull();
  });
});

describe('statedHost', () => {
  it('takes a host or an http(s) URL, in ASCII without a trailing dot', () => {
    expect(statedHost('openai.com')).toBe('openai.com');
    expect(statedHost('MÜNCHEN.de.')).toBe('xn--mnchen-3ya.de');
    expect(statedHost('https://chatgpt.com/auth?x=1')).toBe('chatgpt.com');
    expect(statedHost('http://localhost:8080/')).toBe('localhost');
    expect(statedHost('127.0.0.1')).toBe('127.0.0.1');
  });

  it('refuses what is neither', () => {
    for (const text of [
      '',
      5,
      null,
      'not a domain',
      'openai.com/path',
      'user@openai.com',
      'openai.com:443',
      'ftp://openai.com/',
      'https://',
      'a..b',
      'https://a..b/',
    ]) {
      expect(statedHost(text as string), String(text)).toBeNull();
    }
  });
});

describe('the view schema', () => {
  const valid = opened('https://github.com/login');

  it('fits every URL the limits allow', () => {
    expect(MAX_URL_CHARS).toBeLessThanOrEqual(URL_VIEW_TEXT_CEILING);
  });

  it('refuses a highlight outside the URL, or empty', () => {
    expect(UrlAnalysis.safeParse({ ...valid, highlight: { start: 0, end: 999 } }).success).toBe(
      false,
    );
    expect(UrlAnalysis.safeParse({ ...valid, highlight: { start: 3, end: 3 } }).success).toBe(
      false,
    );
  });

  it('refuses a repeated warning and unbounded text', () => {
    const warning = { code: 'port' as const, level: 'note' as const, message: 'x' };
    const noted = { ...valid, level: 'note' };
    expect(UrlAnalysis.safeParse({ ...noted, warnings: [warning, warning] }).success).toBe(false);
    expect(UrlAnalysis.safeParse({ ...noted, warnings: [warning] }).success).toBe(true);
    const long = 'x'.repeat(URL_VIEW_TEXT_CEILING + 1);
    expect(UrlAnalysis.safeParse({ ...valid, path: long }).success).toBe(false);
    expect(
      UrlAnalysis.safeParse({
        ...noted,
        warnings: [
          { code: 'port', level: 'note', message: 'x'.repeat(URL_VIEW_MESSAGE_CEILING + 1) },
        ],
      }).success,
    ).toBe(false);
  });
});
