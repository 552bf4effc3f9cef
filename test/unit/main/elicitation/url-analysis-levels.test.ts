/**
 * How serious each finding about a URL is, and what the consent leads with: danger (the site
 * may not be who it seems), caution, note. Ranked in the core; the renderer only shows it.
 */
import { describe, expect, it } from 'vitest';
import {
  FINDING_LEVELS,
  findingLevel,
  type AnalyseUrlOptions,
} from '../../../../main/core/elicitation/url-analysis.js';
import {
  URL_FINDING_LEVELS,
  URL_WARNING_CODES,
  type UrlFindingLevel,
  type UrlWarningCode,
} from '../../../../preload/shared/url-analysis-view.js';
import { URL_CORPUS, type OpenedUrlCase } from '../../../fixtures/url-corpus.js';
import { opened } from '../../../helpers/url-analysis.js';

const levels = (text: string, options: AnalyseUrlOptions = {}) =>
  opened(text, options).warnings.map(({ code, level }) => `${code}:${level}`);

/** The demo agent's `/url`: a page this computer serves, on a port of its own, over http. */
const DEMO_URL = 'http://127.0.0.1:46339/consent/3a056934-4716-4650-acd5-e0ee78c780c5';

const DANGERS: UrlWarningCode[] = [
  'lookalike',
  'borrowed-name',
  'whole-script-confusable',
  'mixed-script',
  'userinfo',
  'domain-mismatch',
];

describe('findingLevel', () => {
  it('ranks who-the-site-is findings as dangers, and only those', () => {
    for (const code of URL_WARNING_CODES) {
      expect(findingLevel(code, 'example.com') === 'danger', code).toBe(DANGERS.includes(code));
    }
  });

  it('ranks international characters, an IP address and plain http off this computer as cautions', () => {
    expect(findingLevel('punycode', 'xn--mnchen-3ya.de')).toBe('caution');
    expect(findingLevel('ip-literal', '8.8.8.8')).toBe('caution');
    expect(findingLevel('ip-literal', '[2001:db8::1]')).toBe('caution');
    expect(findingLevel('http', 'example.com')).toBe('caution');
  });

  it('ranks a port and a long host as notes', () => {
    expect(findingLevel('port', 'example.com')).toBe('note');
    expect(findingLevel('long-host', 'example.com')).toBe('note');
  });

  it('makes an IP address and plain http on this computer notes', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '[::1]', 'localhost', 'localhost.']) {
      expect(findingLevel('ip-literal', host), host).toBe('note');
      expect(findingLevel('http', host), host).toBe('note');
    }
    // Only those two: a look-alike is a danger wherever it points.
    expect(findingLevel('userinfo', '127.0.0.1')).toBe('danger');
    expect(findingLevel('punycode', 'localhost')).toBe('caution');
  });

  it('lists the kinds dangers first, then cautions, then notes, so findings come in that order', () => {
    const ranks = URL_WARNING_CODES.map((code) => URL_FINDING_LEVELS.indexOf(FINDING_LEVELS[code]));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(URL_FINDING_LEVELS).toEqual(['danger', 'caution', 'note']);
  });
});

describe('analyseUrl: levels', () => {
  it('gives the demo’s page on this computer notes only, no warning and no sentence', () => {
    const analysis = opened(DEMO_URL);
    expect(levels(DEMO_URL)).toEqual(['ip-literal:note', 'http:note', 'port:note']);
    expect(analysis.level).toBe('note');
    expect(analysis.headline).toBeNull();
    expect(levels('http://localhost:8765/callback?code=x')).toEqual(['http:note', 'port:note']);
  });

  it('gives a look-alike a danger and the sentence that names what it imitates', () => {
    const analysis = opened('https://\u0430\u0440\u0440\u04cf\u0435.com/signin');
    expect(analysis.level).toBe('danger');
    expect(analysis.headline).toBe('This is not apple.com.');
    expect(levels('https://\u0430\u0440\u0440\u04cf\u0435.com/signin')).toEqual([
      'lookalike:danger',
      'whole-script-confusable:danger',
      'punycode:caution',
    ]);
    expect(opened('https://arnazon.net/').headline).toBe('This is not amazon.com.');
  });

  it('gives a borrowed name the sentence that names the name’s own domain', () => {
    const analysis = opened('https://paypal.com.account-check.example/signin');
    expect(analysis.level).toBe('danger');
    expect(analysis.headline).toBe('This is not paypal.com.');
  });

  it('says the address is not the one it looks like for user info and letters of another script', () => {
    for (const url of [
      'https://accounts.google.com@evil.example/',
      'https://\u043f\u0435\u043f.com/',
      'http://user@localhost/',
    ]) {
      expect(opened(url).headline, url).toBe('This address is not the one it looks like.');
      expect(opened(url).level, url).toBe('danger');
    }
  });

  it('says a domain other than the agent’s is not one of them, unless more is wrong', () => {
    const options = { expectedDomains: ['openai.com'] };
    expect(opened('https://auth.example.com/consent', options).headline).toBe(
      'This address is not on a domain set for this agent.',
    );
    expect(opened('https://u@auth.example.com/', options).headline).toBe(
      'This address is not the one it looks like.',
    );
    expect(opened('https://auth.openai.com/', options).headline).toBeNull();
  });

  it('gives cautions and notes no sentence', () => {
    expect(opened('https://münchen.de/')).toMatchObject({ level: 'caution', headline: null });
    expect(levels('https://8.8.8.8:8443/')).toEqual(['ip-literal:caution', 'port:note']);
    expect(opened('https://example.com:8443/')).toMatchObject({ level: 'note', headline: null });
    expect(opened('https://github.com/login')).toMatchObject({
      warnings: [],
      level: null,
      headline: null,
    });
  });

  it('ranks every URL of the corpus: most serious first, a sentence exactly with a danger', () => {
    const cases = URL_CORPUS.filter((entry): entry is OpenedUrlCase => !('refused' in entry));
    const seen = new Set<UrlFindingLevel | null>();
    for (const entry of cases) {
      const analysis = opened(entry.url, { expectedDomains: entry.expectedDomains });
      const danger = entry.warnings.some((code) => DANGERS.includes(code));
      expect(analysis.level === 'danger', entry.url).toBe(danger);
      expect(analysis.headline !== null, entry.url).toBe(danger);
      expect(analysis.headline ?? '', entry.url).toMatch(/^(This is not .+\.|)$|^This address /);
      const ranks = analysis.warnings.map(({ level }) => URL_FINDING_LEVELS.indexOf(level));
      expect(ranks, entry.url).toEqual([...ranks].sort((a, b) => a - b));
      // Nothing vouches for a site: https says nothing about who runs it.
      for (const { message } of analysis.warnings) {
        expect(message, entry.url).not.toMatch(/encrypt/i);
      }
      seen.add(analysis.level);
    }
    expect([...seen].sort()).toEqual(['caution', 'danger', 'note', null].sort());
  });
});
