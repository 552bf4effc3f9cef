/**
 * The URL view's schema on its own (preload/shared/url-analysis-view.ts): what the renderer may trust
 * of an analysis without checking it again. test/unit/main/elicitation/url-analysis.test.ts
 * checks that every analysis main makes fits it.
 */
import { describe, expect, it } from 'vitest';
import {
  URL_VIEW_MESSAGE_CEILING,
  URL_VIEW_TEXT_CEILING,
  URL_WARNING_CODES,
  UrlAnalysis,
} from '../../../preload/shared/url-analysis-view.js';

const href = 'https://accounts.example.com/login';

/** An analysis as main would send it: the registrable domain highlighted. */
const valid: UrlAnalysis = {
  href,
  original: href,
  normalised: false,
  scheme: 'https',
  host: 'accounts.example.com',
  hostUnicode: 'accounts.example.com',
  registrableDomain: 'example.com',
  registrableDomainUnicode: 'example.com',
  port: null,
  path: '/login',
  highlight: { start: 17, end: 28 },
  warnings: [],
  level: null,
  headline: null,
};

/** One finding of a kind at a level. */
const finding = (code: string, level: string) => ({ code, level, message: `About ${code}.` });

/** The first problem zod finds, or null when the view is accepted. */
const problem = (view: unknown) => UrlAnalysis.safeParse(view).error?.issues[0]?.message ?? null;

describe('UrlAnalysis', () => {
  it('accepts an analysis as main sends it', () => {
    expect(UrlAnalysis.parse(valid)).toEqual(valid);
    expect(problem({ ...valid, scheme: 'http', port: 8080 })).toBeNull();
  });

  it('takes a highlight from the first character to the last, and none past either end', () => {
    expect(problem({ ...valid, highlight: { start: 0, end: href.length } })).toBeNull();
    expect(problem({ ...valid, highlight: { start: 0, end: href.length + 1 } })).toBe(
      'highlight outside the URL',
    );
    expect(problem({ ...valid, highlight: { start: 4, end: 4 } })).toBe(
      'highlight outside the URL',
    );
    expect(problem({ ...valid, highlight: { start: 5, end: 4 } })).toBe(
      'highlight outside the URL',
    );
  });

  it('takes one warning of each kind, and says so when one repeats', () => {
    const warnings = URL_WARNING_CODES.map((code) => finding(code, 'note'));
    expect(problem({ ...valid, warnings, level: 'note' })).toBeNull();
    expect(
      problem({ ...valid, level: 'note', warnings: [warnings[0], warnings[1], warnings[0]] }),
    ).toBe('duplicate warning');
  });

  it.each([
    'lookalike',
    'borrowed-name',
    'whole-script-confusable',
    'mixed-script',
    'punycode',
    'userinfo',
    'ip-literal',
    'domain-mismatch',
    'http',
    'port',
    'long-host',
  ])('knows the warning %s', (code) => {
    expect(
      problem({ ...valid, level: 'caution', warnings: [{ code, level: 'caution', message: 'x' }] }),
    ).toBeNull();
  });

  it.each<[string, Partial<Record<keyof UrlAnalysis, unknown>>]>([
    ['an unknown warning', { warnings: [{ code: 'phishing', message: 'x' }] }],
    [
      'an empty warning',
      { level: 'note', warnings: [{ code: 'port', level: 'note', message: '' }] },
    ],
    [
      'a long warning',
      {
        level: 'note',
        warnings: [
          { code: 'port', level: 'note', message: 'x'.repeat(URL_VIEW_MESSAGE_CEILING + 1) },
        ],
      },
    ],
    ['a finding without a level', { level: 'note', warnings: [{ code: 'port', message: 'x' }] }],
    ['an unknown level', { level: 'info', warnings: [finding('port', 'info')] }],
    [
      'a long headline',
      {
        level: 'danger',
        warnings: [finding('lookalike', 'danger')],
        headline: 'x'.repeat(URL_VIEW_MESSAGE_CEILING + 1),
      },
    ],
    ['an empty href', { href: '', highlight: { start: 0, end: 0 } }],
    ['a long host', { host: 'x'.repeat(URL_VIEW_TEXT_CEILING + 1) }],
    ['another scheme', { scheme: 'javascript' }],
    ['a port past 65535', { port: 65_536 }],
    ['a negative offset', { highlight: { start: -1, end: 3 } }],
  ])('refuses %s', (_name, change) => {
    expect(problem({ ...valid, ...change })).not.toBeNull();
  });
});

describe('UrlAnalysis: levels', () => {
  const danger = finding('lookalike', 'danger');
  const caution = finding('punycode', 'caution');
  const note = finding('port', 'note');
  const headline = 'This is not apple.com.';

  it('takes findings most serious first, the view’s level the first one’s', () => {
    expect(
      problem({ ...valid, warnings: [danger, caution, note], level: 'danger', headline }),
    ).toBeNull();
    expect(problem({ ...valid, warnings: [caution, note], level: 'caution' })).toBeNull();
    expect(problem({ ...valid, warnings: [note], level: 'note' })).toBeNull();
  });

  it('refuses findings out of order, and a level that is not the most serious finding’s', () => {
    expect(problem({ ...valid, warnings: [note, caution], level: 'note' })).toBe(
      'findings out of order',
    );
    expect(
      problem({ ...valid, warnings: [caution, danger], level: 'caution', headline: null }),
    ).toBe('findings out of order');
    expect(problem({ ...valid, warnings: [caution], level: 'note' })).toBe('findings out of order');
    expect(problem({ ...valid, warnings: [], level: 'note' })).toBe('findings out of order');
    expect(problem({ ...valid, warnings: [note], level: null })).toBe('findings out of order');
  });

  it('takes a headline with a danger, and only with one', () => {
    const message = 'a headline goes with a danger, and only with one';
    expect(problem({ ...valid, warnings: [danger], level: 'danger', headline: null })).toBe(
      message,
    );
    expect(problem({ ...valid, warnings: [caution], level: 'caution', headline })).toBe(message);
    expect(problem({ ...valid, headline })).toBe(message);
    expect(problem({ ...valid, warnings: [danger], level: 'danger', headline: '' })).not.toBeNull();
  });
});
