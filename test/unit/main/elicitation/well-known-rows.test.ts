/**
 * The look-alike check knows every group of the well-known domains' table: for one domain of
 * each of its 71 rows (the table is written a row at a time, by kind of site), a look-alike of
 * it is warned and named. The other tests check what can be checked of any entry (registrable,
 * ASCII, none like another, never flagged itself); this one holds the rows themselves, so a row
 * dropped from the table, and the sites it protects, fails a test.
 */
import { describe, expect, it } from 'vitest';
import { analyseUrl } from '../../../../main/core/elicitation/url-analysis.js';
import { WELL_KNOWN_DOMAINS } from '../../../../main/core/elicitation/well-known-domains.js';

/**
 * One domain of each row of the table, in its order, with a look-alike of it: a digit for a
 * letter (`0` for `o`, `1` for `l`), `rn` for `m`, or a Cyrillic letter that reads as the Latin
 * one (`\u0435` for `e`, `\u0430` for `a`).
 */
const ONE_PER_ROW: readonly (readonly [domain: string, lookalike: string])[] = [
  ['google.com', 'g0ogle.com'],
  ['microsoftonline.com', 'micr0softonline.com'],
  ['azure.com', 'azur\u0435.com'],
  ['apple.com', 'app1e.com'],
  ['amazon.fr', 'amaz0n.fr'],
  ['amazon.it', 'amaz0n.it'],
  ['messenger.com', 'rnessenger.com'],
  ['pinterest.com', 'pint\u0435rest.com'],
  ['aol.com', 'a0l.com'],
  ['mail.ru', 'mai1.ru'],
  ['line.me', '1ine.me'],
  ['onelogin.com', '0nelogin.com'],
  ['login.gov', 'l0gin.gov'],
  ['keepersecurity.com', 'k\u0435epersecurity.com'],
  ['slack.com', 's1ack.com'],
  ['notion.so', 'n0tion.so'],
  ['monday.com', 'm0nday.com'],
  ['servicenow.com', 'servicen0w.com'],
  ['docusign.net', 'd0cusign.net'],
  ['mailchimp.com', 'mai1chimp.com'],
  ['xero.com', 'xer0.com'],
  ['gitlab.com', 'git1ab.com'],
  ['npmjs.com', 'nprnjs.com'],
  ['jetbrains.com', 'j\u0435tbrains.com'],
  ['akamai.com', 'akarnai.com'],
  ['fly.io', 'f1y.io'],
  ['alibabacloud.com', 'alibabacl0ud.com'],
  ['hetzner.com', 'h\u0435tzner.com'],
  ['circleci.com', 'circ1eci.com'],
  ['postman.com', 'p0stman.com'],
  ['confluent.io', 'c0nfluent.io'],
  ['neon.tech', 'ne0n.tech'],
  ['squarespace.com', 'squar\u0435space.com'],
  ['codesandbox.io', 'c0desandbox.io'],
  ['cursor.com', 'curs0r.com'],
  ['huggingface.co', 'huggingfac\u0435.co'],
  ['paypal.com', 'paypa1.com'],
  ['revolut.com', 'rev0lut.com'],
  ['braintreepayments.com', 'braintreepayrnents.com'],
  ['authorize.net', 'auth0rize.net'],
  ['gocardless.com', 'g0cardless.com'],
  ['mercadopago.com', 'mercad0pago.com'],
  ['alipay.com', 'a1ipay.com'],
  ['americanexpress.com', 'arnericanexpress.com'],
  ['gemini.com', 'gernini.com'],
  ['opensea.io', '0pensea.io'],
  ['interactivebrokers.com', 'interactivebr0kers.com'],
  ['bill.com', 'bi1l.com'],
  ['chase.com', 'chas\u0435.com'],
  ['usbank.com', 'usb\u0430nk.com'],
  ['sofi.com', 's0fi.com'],
  ['navyfederal.org', 'navyfedera1.org'],
  ['barclays.com', 'barc1ays.com'],
  ['halifax.co.uk', 'ha1ifax.co.uk'],
  ['societegenerale.com', 's0cietegenerale.com'],
  ['commerzbank.de', 'c0mmerzbank.de'],
  ['abnamro.nl', 'abnamr0.nl'],
  ['bbva.com', 'bbv\u0430.com'],
  ['handelsbanken.se', 'hande1sbanken.se'],
  ['scotiabank.com', 'sc0tiabank.com'],
  ['anz.com', '\u0430nz.com'],
  ['axisbank.com', '\u0430xisbank.com'],
  ['ocbc.com', '0cbc.com'],
  ['nubank.com.br', 'nub\u0430nk.com.br'],
  ['ebay.com', '\u0435bay.com'],
  ['ikea.com', 'ik\u0435a.com'],
  ['shein.com', 'sh\u0435in.com'],
  ['doordash.com', 'd0ordash.com'],
  ['disneyplus.com', 'disneyp1us.com'],
  ['steampowered.com', 'steamp0wered.com'],
  ['nintendo.com', 'nintend0.com'],
];

describe('the well-known domains, row by row', () => {
  it('names one domain of each row, in the order of the table', () => {
    const places = ONE_PER_ROW.map(([domain]) => WELL_KNOWN_DOMAINS.indexOf(domain));
    expect(places.every((place) => place >= 0)).toBe(true);
    expect(places).toEqual([...places].sort((a, b) => a - b));
  });

  it.each(ONE_PER_ROW)('warns that %s has a look-alike in %s', (domain, lookalike) => {
    const verdict = analyseUrl(`https://${lookalike}/`);
    if (!verdict.ok) {
      throw new Error(`refused (${verdict.code}): ${verdict.reason}`);
    }
    const warning = verdict.analysis.warnings.find(({ code }) => code === 'lookalike');
    expect(warning?.message).toContain(`made to look like ${domain} but`);
  });
});
