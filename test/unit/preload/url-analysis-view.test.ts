/**
 * The URL view's schema on its own (preload/url-analysis-view.ts): what the renderer may trust
 * of an analysis without checking it again. test/unit/main/elicitation/url-analysis.test.ts
 * checks that every analysis main makes fits it.
 */
import { describe, expect, it } from 'vitest';
import {
  URL_VIEW_MESSAGE_CEILING,
  URL_VIEW_TEXT_CEILING,
  URL_WARNING_CODES,
  UrlAnalysis,
} from '../../../preload/url-analysis-view.js';

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
};

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
    const warnings = URL_WARNING_CODES.map((code) => ({ code, message: `About ${code}.` }));
    expect(problem({ ...valid, warnings })).toBeNull();
    expect(problem({ ...valid, warnings: [warnings[0], warnings[1], warnings[0]] })).toBe(
      'duplicate warning',
    );
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
    expect(problem({ ...valid, warnings: [{ code, message: 'x' }] })).toBeNull();
  });

  it.each<[string, Partial<Record<keyof UrlAnalysis, unknown>>]>([
    ['an unknown warning', { warnings: [{ code: 'phishing', message: 'x' }] }],
    ['an empty warning', { warnings: [{ code: 'port', message: '' }] }],
    [
      'a long warning',
      { warnings: [{ code: 'port', message: 'x'.repeat(URL_VIEW_MESSAGE_CEILING + 1) }] },
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
